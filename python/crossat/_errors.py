"""The exceptions crossat raises. The extension module raises these very classes."""

from __future__ import annotations

from typing import Optional


class Error(Exception):
    """Base class of every error crossat raises."""


class InputError(Error):
    """The puzzle (or another input) cannot be read or understood."""


class UsageError(Error, ValueError):
    """A request that cannot be met as made: an unknown option value, a missing id."""


class ClueError(Error):
    """One clue cannot be used: bad syntax, an unsupported construct, too large."""

    def __init__(
        self,
        text: str,
        clue: str = "",
        regex: str = "",
        position: Optional[int] = None,
        message: str = "",
    ) -> None:
        super().__init__(text)
        #: Which clue, e.g. ``row 1 (left)``.
        self.clue = clue
        #: The clue's text.
        self.regex = regex
        #: For a syntax error, the character offset Python's ``re`` reports.
        self.position = position
        #: The problem alone, without file and clue.
        self.message = message

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.clue, self.regex, self.position, self.message))


class Timeout(Error, TimeoutError):
    """The call's ``timeout`` passed before it finished."""
