"""crossat: solve regex crosswords and other word-grid puzzles by compiling them to SAT.

>>> import crossat
>>> p = crossat.Puzzle.from_clues(left=["HE|LL|O+", "[PLEASE]+"], top=["[^SPEAK]+", "EP|IP|EF"])
>>> p.solve().rows
['HE', 'LP']
>>> p.is_unique()
True

Every long call runs without the GIL, stops on Ctrl-C, and takes ``timeout=`` seconds
(raising :class:`Timeout`). Records' ``to_dict()`` give the fields ``crossat … --json``
prints. See docs/python.md.
"""

from __future__ import annotations

import html
import json
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _crossat
from ._errors import ClueError, Error, InputError, Timeout, UsageError
from ._records import Clue, Explanation, Hint, LintClue, Record, Shape, Solution, Square, Step, Summary

__version__: str = _crossat.__version__

__all__ = [
    "Clue",
    "ClueError",
    "Error",
    "Explanation",
    "Hint",
    "InputError",
    "LintClue",
    "Puzzle",
    "Record",
    "Shape",
    "Solution",
    "Solutions",
    "Square",
    "Step",
    "Summary",
    "Timeout",
    "UsageError",
    "generate",
    "squares",
]

_Pool = Optional[Tuple[str, bytes]]


class Solutions(Iterator[Solution]):
    """The solutions of a search as the solver finds them (``Puzzle.solutions``).

    Iterating yields each :class:`Solution` as soon as it is found; once the search
    ends, :attr:`summary` holds the summary record (``complete`` tells whether the
    search was exhausted). Closing it, or dropping it, stops the search.
    """

    def __init__(self, stream: _crossat.Stream) -> None:
        self._stream = stream
        self.summary: Optional[Summary] = None

    def __iter__(self) -> "Solutions":
        return self

    def __next__(self) -> Solution:
        record = next(self._stream)
        if record.get("type") == "solution":
            return Solution._of(record)
        self.summary = Summary(record)
        raise StopIteration

    def close(self) -> None:
        """Stops the search."""
        self._stream.close()

    def __enter__(self) -> "Solutions":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _restore(
    name: str, data: bytes, format: Optional[str], id: Optional[str], alphabet: Optional[str], dialect: Optional[str], pool: _Pool, seed: Optional[int]
) -> "Puzzle":
    p = Puzzle._open(name, data, format=format, id=id, alphabet=alphabet, dialect=dialect, pool=pool)
    p.seed = seed
    return p


class Puzzle:
    """A puzzle read, compiled and encoded: ready to solve, count, explain or export.

    Thread-safe: calls on one puzzle from several threads run one at a time; calls on
    different puzzles run in parallel. Pickles as its source text and options.
    """

    __slots__ = ("_core", "_info", "seed", "generated")
    _core: _crossat.Core
    _info: Optional[Dict[str, Any]]
    #: The seed of a generated puzzle (``crossat.generate``), else ``None``.
    seed: Optional[int]
    #: The generator's record of a generated puzzle (``generate --json``), else ``None``.
    generated: Optional[Dict[str, Any]]

    def __init__(self) -> None:
        raise TypeError("use Puzzle.from_file, Puzzle.from_text or Puzzle.from_clues")

    @classmethod
    def _open(
        cls,
        name: str,
        data: bytes,
        *,
        format: Optional[str] = None,
        id: Union[str, int, None] = None,
        alphabet: Optional[str] = None,
        dialect: Optional[str] = None,
        pool: _Pool = None,
    ) -> "Puzzle":
        p = object.__new__(cls)
        p._core = _crossat.Core.open(name, data, format, None if id is None else str(id), alphabet, dialect, pool)
        p._info = None
        p.seed = None
        p.generated = None
        return p

    @classmethod
    def from_file(
        cls,
        path: Union[str, "os.PathLike[str]"],
        *,
        format: Optional[str] = None,
        dialect: Optional[str] = None,
        alphabet: Optional[str] = None,
        id: Union[str, int, None] = None,
    ) -> "Puzzle":
        """Reads a puzzle file in any format crossat reads (detected unless ``format``
        is given); ``id`` picks a puzzle of a collection; a regex-pool CSV takes the
        pool file beside it."""
        name, data, pool = _crossat.Core.read_file(os.fspath(path))
        return cls._open(name, data, format=format, id=id, alphabet=alphabet, dialect=dialect, pool=pool)

    @classmethod
    def from_text(
        cls,
        text: Union[str, bytes],
        *,
        format: Optional[str] = None,
        dialect: Optional[str] = None,
        alphabet: Optional[str] = None,
        id: Union[str, int, None] = None,
        name: str = "<text>",
    ) -> "Puzzle":
        """Reads a puzzle from its text (or bytes); ``name`` names it in errors."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        return cls._open(name, data, format=format, id=id, alphabet=alphabet, dialect=dialect)

    @classmethod
    def from_clues(
        cls,
        *,
        left: Optional[Sequence[Optional[str]]] = None,
        right: Optional[Sequence[Optional[str]]] = None,
        top: Optional[Sequence[Optional[str]]] = None,
        bottom: Optional[Sequence[Optional[str]]] = None,
        alphabet: Optional[str] = None,
        dialect: str = "python",
    ) -> "Puzzle":
        """A rectangle from its clues: ``left``/``right`` per row, ``top``/``bottom``
        per column (``None`` for a line without a clue)."""
        sides = {k: list(v) for k, v in (("left", left), ("right", right), ("top", top), ("bottom", bottom)) if v is not None}
        return cls._open("<clues>", json.dumps(sides).encode(), format="crossat", alphabet=alphabet, dialect=dialect)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_restore, (*self._core.state(), self.seed))

    def _details(self) -> Dict[str, Any]:
        info = self._info
        if info is None:
            info = self._info = self._core.info()
        return info

    @property
    def name(self) -> Optional[str]:
        """The puzzle's title, when its format has one."""
        name: Optional[str] = self._details()["name"]
        return name

    @property
    def shape(self) -> Shape:
        """The layout: a rectangle's rows and columns, a hexagon's sides, or free cells."""
        s = self._details()["shape"]
        rows = self._details()["display_rows"]
        cells = sum(len(r) for r in rows)
        if s["kind"] == "hex":
            return Shape("hex", len(rows), max(len(r) for r in rows), cells, (s["top"], s["nw"], s["ne"]))
        if s["kind"] == "rect":
            return Shape("rect", s["rows"], s["cols"], cells)
        return Shape("free", len(rows), max((len(r) for r in rows), default=0), cells)

    @property
    def clues(self) -> List[Clue]:
        """Every clue, in puzzle order."""
        return [Clue(c["label"], c["regex"], list(c["cells"])) for c in self._details()["clues"]]

    @property
    def dialect(self) -> str:
        """The clues' dialect: ``python`` (Python 3.11's ``re``) or ``ecmascript``."""
        d: str = self._details()["dialect"]
        return d

    @property
    def alphabet(self) -> str:
        """The characters a cell may hold."""
        a: str = self._details()["alphabet"]
        return a

    def solve(self, *, timeout: Optional[float] = None) -> Optional[Solution]:
        """A solution, or ``None`` when the puzzle has none."""
        for s in self.solutions(limit=1, timeout=timeout):
            return s
        return None

    def solutions(self, *, limit: Optional[int] = None, timeout: Optional[float] = None) -> Solutions:
        """The solutions, streamed as the solver finds them (all of them unless
        ``limit``); each is verified by crossat's independent matcher."""
        return Solutions(self._core.solutions(limit, timeout))

    def search(self, *, limit: Optional[int] = 2, timeout: Optional[float] = None) -> Tuple[List[Solution], Summary]:
        """``crossat solve --json --limit N``: the solutions and the summary record."""
        found = self.solutions(limit=limit, timeout=timeout)
        solutions = list(found)
        assert found.summary is not None
        return solutions, found.summary

    def count(self, *, timeout: Optional[float] = None) -> int:
        """The exact number of solutions (any size), counted without listing them."""
        return int(self.count_summary(timeout=timeout)["count"])

    def count_summary(self, *, timeout: Optional[float] = None) -> Summary:
        """``crossat solve --count --json``: the summary record."""
        return Summary(self._core.count(timeout))

    def is_unique(self, *, timeout: Optional[float] = None) -> bool:
        """Whether the puzzle has exactly one solution (the search proves no other)."""
        found, summary = self.search(limit=2, timeout=timeout)
        return len(found) == 1 and bool(summary["complete"])

    def explain(self, *, timeout: Optional[float] = None) -> Explanation:
        """How far deduction alone gets: the steps, the answer, the difficulty."""
        return Explanation._of(self._core.explain(timeout))

    def check(self, rows: Sequence[str]) -> List[str]:
        """The labels of the clues a filled grid (its display rows) fails."""
        return self._core.check(list(rows))

    def hint(self, rows: Sequence[str], *, timeout: Optional[float] = None) -> Optional[Hint]:
        """The next cell a player can deduce in a partial grid (``.`` for an empty
        cell), or ``None`` when none is forced: the grid is full, an entry is wrong
        or it cannot be completed (``check`` names the clues)."""
        raw = self._core.hint(list(rows), timeout)
        return None if raw is None else Hint._of(raw)

    def to_dimacs(self) -> str:
        """The formula in DIMACS CNF, with comments mapping variables to cells."""
        return self._core.to_dimacs()

    def lint(self, *, timeout: Optional[float] = None) -> List[LintClue]:
        """The clues whose meaning differs between Python's ``re`` and ECMAScript."""
        return [LintClue._of(r) for r in self._core.lint(timeout)]

    def __repr__(self) -> str:
        s = self.shape
        size = f"{s.rows}x{s.cols}" if s.kind == "rect" else (f"hex {s.sides}" if s.kind == "hex" else f"{s.cells} cells")
        name = f" {self.name!r}" if self.name else ""
        return f"<crossat.Puzzle{name} {size}, {len(self.clues)} clues, {self.dialect}>"

    def _repr_html_(self) -> str:
        """The grid as the page draws it: a hexagon's rows offset by half a cell, givens
        filled in, and the clues listed."""
        d = self._details()
        givens = d["givens"]
        hexagon = d["shape"]["kind"] == "hex"
        width = max((len(r) for r in d["display_rows"]), default=0)
        rows = []
        for r in d["display_rows"]:
            pad = (width - len(r)) * 0.9 if hexagon else 0
            cells = "".join(
                '<span style="display:inline-block;width:1.6em;height:1.6em;line-height:1.6em;margin:0.1em;'
                'border:1px solid #888;border-radius:{};text-align:center;font-family:monospace">{}</span>'.format(
                    "50%" if hexagon else "2px", html.escape(givens[c] or "")
                )
                for c in r
            )
            rows.append(f'<div style="margin-left:{pad}em;white-space:nowrap">{cells}</div>')
        clues = "".join(f"<li><b>{html.escape(c.label)}</b> <code>{html.escape(c.regex)}</code></li>" for c in self.clues)
        return f"<div>{''.join(rows)}<ul style='columns:2;font-size:0.9em'>{clues}</ul></div>"


def generate(
    *,
    size: Union[str, int, Tuple[int, int], None] = None,
    hex: Union[int, Tuple[int, int, int], None] = None,
    seed: Optional[int] = None,
    difficulty: Optional[str] = None,
    sides: int = 1,
    text: Optional[str] = None,
    backrefs: bool = False,
    lookarounds: bool = False,
    timeout: Optional[float] = None,
) -> Puzzle:
    """A new puzzle with exactly one solution (``crossat generate``): a rectangle of
    ``size`` (``"8x8"``, ``(8, 8)`` or ``8``) or a hexagon of side ``hex`` (or
    ``(top, nw, ne)``); ``seed`` makes it repeatable and is kept as ``.seed``; the
    generator's record (solution, rating) is ``.generated``."""
    rows = cols = 0
    sides3: Optional[Tuple[int, int, int]] = None
    if hex is not None:
        sides3 = (hex, hex, hex) if isinstance(hex, int) else tuple(hex)  # type: ignore[assignment]
        if isinstance(hex, int) and not 2 <= hex <= 8:
            raise UsageError(f"hex must be a side from 2 to 8, got {hex}")
    elif isinstance(size, int):
        rows = cols = size
    elif isinstance(size, str):
        parts = size.lower().split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise UsageError(f"size must be ROWSxCOLS, got {size!r}")
        rows, cols = int(parts[0]), int(parts[1])
    elif size is not None:
        rows, cols = size
    else:
        raise UsageError("give size= or hex=")
    record = _crossat.generate(rows, cols, sides3, sides, text, backrefs, lookarounds, difficulty, seed, timeout)
    p = Puzzle._open(f"generated-{record['seed']}.json", json.dumps(record["crossat"]).encode(), format="crossat")
    p.seed = int(record["seed"])
    p.generated = record
    return p


def squares(
    width: int = 5,
    height: Optional[int] = None,
    *,
    dictionary: Union[str, "os.PathLike[str]", None] = None,
    seed: Optional[int] = None,
    count: int = 1,
    timeout: Optional[float] = None,
) -> Tuple[int, List[Square]]:
    """Word squares (``crossat squares``): up to ``count`` grids of ``width`` ×
    ``height`` two-letter or blank cells whose every row and column is a word of
    ``dictionary`` (a word list file; the built-in Wordnik list by default). Returns the
    seed (repeatable: the same seed gives the same squares) and the squares. The
    search polls no timer: past ``timeout`` (or on Ctrl-C) the call returns at once and
    the search stops at its next square."""
    path = None if dictionary is None else os.fspath(dictionary)
    used, found = _crossat.squares(width, width if height is None else height, path, seed, count, timeout)
    return used, [Square._of(r) for r in found]
