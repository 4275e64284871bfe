"""The API as the issue names it, on puzzles with known answers."""

from __future__ import annotations

import json
import re
import pickle
import time
from pathlib import Path

import pytest

import crossat
from conftest import BEATLES, MIT, PUZZLES, SLOW


def beatles() -> crossat.Puzzle:
    return crossat.Puzzle.from_clues(left=BEATLES["left"], top=BEATLES["top"])


def test_mit_first_row_is_the_expected_output() -> None:
    expected = (PUZZLES / "antoine-trux" / "MIT.output_expected.txt").read_text()
    solution = crossat.Puzzle.from_file(MIT).solve()
    assert solution is not None
    drawn = ["".join(re.findall(r"\| (\S) (?=\|)", line)) for line in expected.splitlines() if "|" in line]
    assert solution.rows == drawn


def test_from_clues_solves_counts_and_proves_unique() -> None:
    p = beatles()
    s = p.solve()
    assert s is not None and s.rows == ["HE", "LP"]
    assert p.is_unique()
    assert p.count() == 1
    assert p.check(["HE", "LP"]) == []
    assert p.check(["HE", "LL"]) == ["column 2 (top)"]
    assert p.to_dimacs().startswith("c crossat")
    assert s.to_dict() == {"type": "solution", "grid": ["HE", "LP"]}


def test_properties() -> None:
    p = beatles()
    assert p.shape == crossat.Shape("rect", 2, 2, 4)
    assert [(c.label, c.regex) for c in p.clues] == [
        ("row 1 (left)", "HE|LL|O+"),
        ("row 2 (left)", "[PLEASE]+"),
        ("column 1 (top)", "[^SPEAK]+"),
        ("column 2 (top)", "EP|IP|EF"),
    ]
    assert p.dialect == "python"
    assert set("HELP") <= set(p.alphabet)
    js = crossat.Puzzle.from_clues(left=["A|B"], top=["A|B"], dialect="ecmascript", alphabet="AB")
    assert (js.dialect, js.alphabet) == ("ecmascript", "AB")


def test_count_is_exact_beyond_64_bits() -> None:
    # 9 × 9 free cells over 4 letters: 4**81 solutions, far past 2**64.
    p = crossat.Puzzle.from_clues(left=["[ABCD]*"] * 9, top=["[ABCD]*"] * 9)
    assert p.count() == 4**81


def test_solutions_stream_and_limit() -> None:
    p = crossat.Puzzle.from_clues(left=["[AB]*", "[AB]*"], top=["[AB]*", "A."])
    found = p.solutions()
    rows = [s.rows for s in found]
    assert len(rows) == 8 and len({tuple(r) for r in rows}) == 8
    assert found.summary is not None and found.summary["complete"] is True
    limited = p.solutions(limit=3)
    assert len(list(limited)) == 3
    assert limited.summary is not None and limited.summary["complete"] is False
    with pytest.raises(ValueError):
        p.solutions(limit=0)


def test_first_solution_arrives_before_the_search_ends() -> None:
    # 4**16 grids: the stream yields the first long before the search could end.
    p = crossat.Puzzle.from_clues(left=["[ABCD]*"] * 4, top=["[ABCD]*"] * 4)
    start = time.monotonic()
    with p.solutions() as stream:
        first = next(stream)
        took = time.monotonic() - start
    assert len(first.rows) == 4
    assert took < 30  # the whole search (4.3e9 grids) would take days


def test_a_slow_reader_of_a_huge_listing_holds_little_memory() -> None:
    # 4**16 grids, one read, then the reader sleeps: the search may run only a few
    # hundred records ahead (it once queued every grid it found: 0.9 GB in 3 s here),
    # and the puzzle's other methods answer meanwhile (it once held the puzzle).
    import resource

    p = crossat.Puzzle.from_clues(left=["[ABCD]*"] * 4, top=["[ABCD]*"] * 4)
    with p.solutions() as stream:
        next(stream)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        time.sleep(3)
        assert p.count(timeout=60) == 4**16
        grew_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        more = [next(stream).rows for _ in range(1000)]
    assert grew_kib < 64 * 1024, f"{grew_kib} KiB more while the reader slept"
    assert len({tuple(r) for r in more}) == 1000


def test_explain() -> None:
    ex = crossat.Puzzle.from_file(MIT).explain()
    assert ex.answer == "unique" and ex.unique_by_deduction
    assert ex.difficulty in ("easy", "medium", "hard", "expert") or ex.difficulty is not None
    assert len(ex.steps) == ex.to_dict()["steps"]
    step = ex.steps[0]
    assert step.kind == "line" and step.line
    assert len(step.cells) == len(step.removed) == len(step.remaining) > 0
    assert all(isinstance(r, int) and isinstance(c, int) for r, c in step.cells)
    assert ex.grid == crossat.Puzzle.from_file(MIT).solve().rows  # type: ignore[union-attr]


def test_hint() -> None:
    p = crossat.Puzzle.from_file(MIT)
    solution = p.solve()
    assert solution is not None
    empty = ["".join("." if ch != " " else " " for ch in row) for row in solution.rows]
    h = p.hint(empty)
    assert h is not None
    r, c = h.cell
    assert solution.rows[r][c] == h.char
    assert h.reason in ("single-line", "lines", "search")
    assert h.to_dict()["type"] == "hint"
    assert p.hint(solution.rows) is None


def test_lint() -> None:
    p = crossat.Puzzle.from_clues(left=["\\d"], top=["\\d"], alphabet="0123456789")
    assert p.lint() == []
    differs = crossat.Puzzle.from_clues(left=["[^a]"], top=["."], alphabet="a\u0660")
    found = differs.lint()
    assert isinstance(found, list)
    for lc in found:
        assert lc.to_dict()["type"] == "lint"


def test_generate_is_repeatable_and_unique() -> None:
    p = crossat.generate(size="4x4", seed=7)
    q = crossat.generate(size=(4, 4), seed=7)
    assert p.seed == q.seed == 7
    assert [c.regex for c in p.clues] == [c.regex for c in q.clues]
    assert p.is_unique()
    assert p.generated is not None
    s = p.solve()
    assert s is not None and s.rows == p.generated["solution"]
    h = crossat.generate(hex=2, seed=3)
    assert h.shape.kind == "hex" and h.is_unique()
    with pytest.raises(crossat.UsageError):
        crossat.generate(size="0x3")
    with pytest.raises(crossat.UsageError):
        crossat.generate(size=4, difficulty="impossible")


def test_pickle_round_trip_keeps_source_and_options(tmp_path: Path) -> None:
    for p in [
        crossat.Puzzle.from_file(MIT),
        crossat.Puzzle.from_clues(left=["A|B"], top=["A|B"], dialect="ecmascript", alphabet="AB"),
        crossat.Puzzle.from_file(PUZZLES / "regexcrossword-com" / "challenges.json", id="beginner/1") if False else beatles(),
        crossat.generate(size=3, seed=11),
    ]:
        q = pickle.loads(pickle.dumps(p))
        assert (q.dialect, q.alphabet, q.shape, q.clues, q.seed) == (p.dialect, p.alphabet, p.shape, p.clues, p.seed)
        assert q.solve() == p.solve()


def test_repr_and_html() -> None:
    p = crossat.Puzzle.from_file(MIT)
    assert repr(p).startswith("<crossat.Puzzle") and "clues" in repr(p)
    html = p._repr_html_()
    assert html.count("<span") == p.shape.cells and "<table" not in html
    s = p.solve()
    assert s is not None and "<table" in s._repr_html_() and repr(s).startswith("Solution(rows=")
    hexagon = crossat.generate(hex=3, seed=1)
    assert "border-radius:50%" in hexagon._repr_html_()


def test_records_to_dict_is_json() -> None:
    p = beatles()
    found, summary = p.search()
    assert summary.to_dict()["type"] == "summary"
    assert json.loads(json.dumps(summary.to_dict())) == summary.to_dict()
    assert [s.to_dict()["grid"] for s in found] == [["HE", "LP"]]


def test_threads_share_nothing() -> None:
    from concurrent.futures import ThreadPoolExecutor

    seeds = list(range(12))
    sequential = [crossat.generate(size=4, seed=s).solve() for s in seeds]
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda s: crossat.generate(size=4, seed=s).solve(), seeds))
    assert threaded == sequential
    # One puzzle from many threads: calls wait for each other, answers stay right.
    p = crossat.Puzzle.from_file(MIT)
    with ThreadPoolExecutor(4) as pool:
        counts = list(pool.map(lambda _: p.count(), range(8)))
    assert counts == [1] * 8


def test_gil_is_released_while_counting_and_timeout_stops_it() -> None:
    import threading

    p = crossat.Puzzle.from_file(SLOW)
    ticks = 0
    done = threading.Event()
    caught: list[BaseException] = []

    def count() -> None:
        try:
            p.count(timeout=1.0)
        except crossat.Timeout as e:
            caught.append(e)
        done.set()

    t = threading.Thread(target=count)
    start = time.monotonic()
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0)
    t.join()
    assert len(caught) == 1 and isinstance(caught[0], TimeoutError) and isinstance(caught[0], crossat.Error)
    assert time.monotonic() - start < 20
    # The main thread ran Python code all along (with the GIL held by the count it
    # could not have run at all).
    assert ticks > 1000


def test_timeouts_on_every_long_call() -> None:
    p = crossat.Puzzle.from_file(SLOW)
    with pytest.raises(crossat.Timeout):
        p.count(timeout=0.0)
    with pytest.raises(crossat.Timeout):
        p.explain(timeout=0.0)
    with pytest.raises(crossat.Timeout):
        p.is_unique(timeout=0.0)
    with pytest.raises(crossat.Timeout):
        crossat.generate(size=12, seed=1, timeout=0.0)
    with pytest.raises(ValueError):
        p.count(timeout=-1)
    # After a timeout the puzzle still answers.
    assert beatles().count(timeout=60) == 1


def test_squares_match_the_cli(tmp_path: Path) -> None:
    import subprocess

    from conftest import CLI

    seed, found = crossat.squares(4, 4, seed=1, count=2)
    assert seed == 1 and len(found) == 2
    cli = subprocess.run([str(CLI), "squares", "-W", "4", "-H", "4", "--seed", "1", "--count", "2", "--json"], capture_output=True, text=True, check=True)
    records = [json.loads(line) for line in cli.stdout.splitlines()]
    assert [s.to_dict() for s in found] == [r for r in records if r["type"] == "solution"]
    for s in found:
        assert len(s.rows) == 4 and len(s.words) == 8
    words = tmp_path / "words.txt"
    words.write_text("abab\ncdcd\nacac\nbdbd\n")
    with pytest.raises(crossat.Error):
        crossat.squares(1, 4)
    _, none = crossat.squares(2, 2, dictionary=words, seed=1)
    assert isinstance(none, list)
