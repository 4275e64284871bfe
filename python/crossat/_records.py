"""Typed records: each holds the fields crossat's ``--json`` prints for it, and
``to_dict()`` gives them back exactly."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple


def _grid_html(rows: Sequence[Sequence[str]], caption: str = "") -> str:
    cells = "".join(
        "<tr>"
        + "".join(
            f'<td style="border:1px solid #888;width:1.6em;height:1.6em;text-align:center;'
            f'font-family:monospace;font-size:1.1em">{html.escape(ch)}</td>'
            for ch in row
        )
        + "</tr>"
        for row in rows
    )
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table style="border-collapse:collapse">{cap}{cells}</table>'


@dataclass(frozen=True)
class Record:
    """A record as the command line prints it with ``--json``."""

    raw: Dict[str, Any] = field(repr=False, compare=True)

    def to_dict(self) -> Dict[str, Any]:
        """The record's fields exactly as ``crossat … --json`` prints them."""
        copied: Dict[str, Any] = _copy(self.raw)
        return copied


def _copy(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


@dataclass(frozen=True)
class Solution(Record):
    """A solution: the display rows, top to bottom (a hexagon's rows of cells)."""

    rows: List[str] = field(default_factory=list)

    @classmethod
    def _of(cls, raw: Dict[str, Any]) -> "Solution":
        return cls(raw, list(raw["grid"]))

    def __repr__(self) -> str:
        return f"Solution(rows={self.rows!r})"

    def __str__(self) -> str:
        return "\n".join(self.rows)

    def _repr_html_(self) -> str:
        return _grid_html(self.rows)


@dataclass(frozen=True)
class Summary(Record):
    """The summary that ends a search: ``solutions``, ``complete``, ``unique``, …"""

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]

    def __repr__(self) -> str:
        keys = ("solutions", "complete", "unique", "count")
        shown = ", ".join(f"{k}={self.raw[k]!r}" for k in keys if k in self.raw)
        return f"Summary({shown})"


@dataclass(frozen=True)
class Step(Record):
    """One step of an explanation (``explain --json``'s ``step`` record): the line
    (clue label) it reads, the cells (row, column) it changes, per cell the letters
    removed and those remaining, and why in words."""

    kind: str = ""
    line: Optional[str] = None
    cells: List[Tuple[int, int]] = field(default_factory=list)
    removed: List[str] = field(default_factory=list)
    remaining: List[str] = field(default_factory=list)
    reason: str = ""

    @classmethod
    def _of(cls, raw: Dict[str, Any]) -> "Step":
        return cls(
            raw,
            kind=str(raw["kind"]),
            line=raw.get("line"),
            cells=[(int(r), int(c)) for r, c in raw["cells"]],
            removed=list(raw["removed"]),
            remaining=list(raw["remaining"]),
            reason=str(raw["reason"]),
        )

    def __repr__(self) -> str:
        return f"Step(kind={self.kind!r}, line={self.line!r}, cells={self.cells!r}, reason={self.reason!r})"


@dataclass(frozen=True)
class Explanation(Record):
    """How far deduction alone gets (``explain --json``). ``answer`` is ``unique``,
    ``none``, ``several`` or ``unknown``; ``grid`` the rows deduced when unique;
    ``to_dict()`` gives the summary record."""

    steps: List[Step] = field(default_factory=list)
    answer: str = "unknown"
    unique_by_deduction: bool = False
    difficulty: Optional[str] = None
    grid: Optional[List[str]] = None

    @classmethod
    def _of(cls, records: List[Dict[str, Any]]) -> "Explanation":
        summary = records[-1]
        return cls(
            summary,
            steps=[Step._of(r) for r in records[:-1]],
            answer=str(summary["answer"]),
            unique_by_deduction=bool(summary["unique_by_deduction"]),
            difficulty=summary.get("difficulty"),
            grid=summary.get("grid"),
        )

    def __repr__(self) -> str:
        return (
            f"Explanation(steps=<{len(self.steps)}>, answer={self.answer!r}, "
            f"unique_by_deduction={self.unique_by_deduction!r}, difficulty={self.difficulty!r})"
        )


@dataclass(frozen=True)
class Hint(Record):
    """A forced cell (``hint --json``'s ``hint`` record): the cell (row, column), its
    letter, what shows it (``single-line``, ``lines`` or ``search``) and the clue."""

    cell: Tuple[int, int] = (0, 0)
    char: str = ""
    reason: str = ""
    clue: Optional[str] = None

    @classmethod
    def _of(cls, raw: Dict[str, Any]) -> "Hint":
        r, c = raw["cell"]
        return cls(raw, cell=(int(r), int(c)), char=str(raw["char"]), reason=str(raw["reason"]), clue=raw.get("clue"))

    def __repr__(self) -> str:
        return f"Hint(cell={self.cell!r}, char={self.char!r}, reason={self.reason!r}, clue={self.clue!r})"


@dataclass(frozen=True)
class LintClue(Record):
    """A clue whose meaning differs between Python's ``re`` and ECMAScript (``lint --json``)."""

    clue: str = ""
    regex: str = ""
    length: int = 0
    verdict: str = ""

    @classmethod
    def _of(cls, raw: Dict[str, Any]) -> "LintClue":
        return cls(raw, clue=str(raw["clue"]), regex=str(raw["regex"]), length=int(raw["length"]), verdict=str(raw["verdict"]))

    def __repr__(self) -> str:
        return f"LintClue(clue={self.clue!r}, regex={self.regex!r}, verdict={self.verdict!r})"


@dataclass(frozen=True)
class Shape:
    """A puzzle's layout: ``kind`` is ``rect``, ``hex`` or ``free``."""

    kind: str
    rows: int
    cols: int
    cells: int
    sides: Optional[Tuple[int, int, int]] = None


@dataclass(frozen=True)
class Clue:
    """A clue: its label (``row 1 (left)``), its regex and the cells it reads."""

    label: str
    regex: str
    cells: List[int] = field(default_factory=list)


@dataclass(frozen=True)
class Square(Record):
    """A word square (``squares --json``'s ``solution`` record): ``rows`` of two-letter
    cells (two spaces for a blank), ``words`` the rows' words then the columns'."""

    rows: List[str] = field(default_factory=list)
    words: List[str] = field(default_factory=list)

    @classmethod
    def _of(cls, raw: Dict[str, Any]) -> "Square":
        return cls(raw, rows=list(raw["grid"]), words=list(raw["words"]))

    def __repr__(self) -> str:
        return f"Square(words={self.words!r})"

    def _repr_html_(self) -> str:
        return _grid_html([[row[i : i + 2] for i in range(0, len(row), 2)] for row in self.rows])
