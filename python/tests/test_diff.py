"""The Python API against the command line's ``--json`` on every bundled puzzle: the
same solutions and summary (so the same uniqueness), the same exact count where the
command line finishes within COUNT_TIMEOUT_S, the same explanation where it finishes
within EXPLAIN_TIMEOUT_S, and the same error message for every file it refuses."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

import crossat
from conftest import CLI, PUZZLES, ROOT

COUNT_TIMEOUT_S = 10
EXPLAIN_TIMEOUT_S = 10
# The binoternary hexagons' exact counts take minutes: they get less time.
SLOW_TO_COUNT = "binoternary"
SLOW_COUNT_TIMEOUT_S = 3


def run(*args: str) -> Tuple[Optional[List[Dict[str, Any]]], Optional[str]]:
    """The command's records, or its error message."""
    r = subprocess.run([str(CLI), *args], capture_output=True, text=True, cwd=ROOT, timeout=600)
    if r.returncode in (2, 3):
        return None, r.stderr.strip().removeprefix("error: ")
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()], None


def same_error(cli: str, ours: BaseException, what: str) -> None:
    assert isinstance(ours, crossat.Error), f"{what}: {ours!r} is not a crossat.Error"
    text = str(ours)
    assert cli == text or cli.startswith(f"{text}; "), f"{what}: errors differ\n  cli:    {cli}\n  python: {text}"


def cases() -> List[Tuple[str, Optional[str]]]:
    out: List[Tuple[str, Optional[str]]] = []
    for f in sorted(p for p in PUZZLES.rglob("*") if p.is_file()):
        rel = str(f.relative_to(ROOT))
        listed, error = run("list", "--json", rel)
        if listed is None:
            out.append((rel, None))
            continue
        out.extend((rel, r.get("id")) for r in listed if r.get("type") == "puzzle")
    return out


# What was compared, checked by the last test: a comparison skipped everywhere would
# pass silently otherwise.
TALLY = {"puzzles": 0, "slow": 0, "counted": 0, "explained": 0}


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sides read the same relative path, so that errors name the file alike."""
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("rel,id", cases())
def test_python_agrees_with_the_cli(rel: str, id: Optional[str]) -> None:
    what = f"{rel} --id {id}" if id else rel
    sel = ["--id", id] if id else []
    solved, error = run("solve", "--json", *sel, rel)
    try:
        p = crossat.Puzzle.from_file(rel, id=id)
    except crossat.Error as refused:
        assert error is not None, f"{what}: Python refuses ({refused}), the command line does not"
        same_error(error, refused, what)
        return
    if solved is None:
        assert error is not None
        # The command line reads and prepares before it solves: its error is ours.
        with pytest.raises(crossat.Error) as failed:
            p.search()
        same_error(error, failed.value, what)
        return
    TALLY["puzzles"] += 1
    TALLY["slow"] += SLOW_TO_COUNT in rel
    found, summary = p.search(limit=2)
    assert [s.to_dict() for s in found] + [summary.to_dict()] == solved, f"{what}: solve differs"
    assert p.is_unique() == (solved[-1]["unique"] is True), f"{what}: is_unique"
    if solved[-1]["solutions"] > 0:
        first = p.solve()
        assert first is not None and first.rows == solved[0]["grid"]
        if "entries" not in solved[0]:
            assert p.check(first.rows) == [], f"{what}: check on its own solution"
    if "regexcrossword-com" in rel:
        js = crossat.Puzzle.from_file(rel, id=id, dialect="ecmascript")
        cli_js, _ = run("solve", "--json", "--dialect", "ecmascript", *sel, rel)
        found_js, summary_js = js.search(limit=2)
        assert [s.to_dict() for s in found_js] + [summary_js.to_dict()] == cli_js, f"{what}: ecmascript differs"

    timeout = SLOW_COUNT_TIMEOUT_S if SLOW_TO_COUNT in rel else COUNT_TIMEOUT_S
    counted, error = run("solve", "--count", "--json", "--timeout", str(timeout), *sel, rel)
    if counted is None:
        with pytest.raises(crossat.Error) as uncounted:
            p.count(timeout=60)
        same_error(str(error), uncounted.value, f"{what}: count")
    elif counted[-1]["complete"]:
        assert p.count_summary(timeout=120).to_dict() == counted[-1], f"{what}: count differs"
        assert p.count() == int(counted[-1]["count"])
        TALLY["counted"] += 1

    explained, error = run("explain", "--json", "--timeout", str(EXPLAIN_TIMEOUT_S), *sel, rel)
    if explained is None:
        with pytest.raises(crossat.Error) as unexplained:
            p.explain(timeout=60)
        same_error(str(error), unexplained.value, f"{what}: explain")
    elif explained[-1].get("reason") is None:
        ex = p.explain(timeout=120)
        assert [s.to_dict() for s in ex.steps] + [ex.to_dict()] == explained, f"{what}: explain differs"
        assert ex.unique_by_deduction == explained[-1]["unique_by_deduction"]
        TALLY["explained"] += 1


def test_most_puzzles_were_counted_and_explained() -> None:
    """Runs after the cases above (pytest keeps file order): all but 1 % of the puzzles
    outside binoternary counted, and as many explained, on both sides."""
    print(TALLY)
    assert TALLY["puzzles"] >= 150
    enough = (TALLY["puzzles"] - TALLY["slow"]) * 0.99
    assert TALLY["counted"] >= enough and TALLY["explained"] >= enough
