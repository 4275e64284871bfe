"""Every kind of bad input raises one of crossat's exceptions, naming the file, the
clue and the problem as the command line does (the files tests/bad_input.rs uses);
none is a panic."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import crossat
from conftest import CLI, PUZZLES


def cli_error(path: Path, *extra: str) -> str:
    r = subprocess.run([str(CLI), "solve", *extra, str(path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r
    return r.stderr.strip().removeprefix("error: ")


def write(tmp: Path, name: str, data: "str | bytes") -> Path:
    p = tmp / name
    if isinstance(data, str):
        p.write_text(data)
    else:
        p.write_bytes(data)
    return p


def test_clue_error_names_the_clue_regex_and_position(tmp_path: Path) -> None:
    f = write(tmp_path, "bad.json", '{"left": ["A(B"], "top": ["A", "B", "C"]}')
    with pytest.raises(crossat.ClueError) as e:
        crossat.Puzzle.from_file(f)
    err = e.value
    assert (err.clue, err.regex, err.position) == ("row 1 (left)", "A(B", 1)
    assert "missing )" in err.message
    assert str(err) == cli_error(f)
    assert isinstance(err, crossat.Error)


@pytest.mark.parametrize(
    "name,data",
    [
        ("a.json", "{}"),
        ("b.json", '{"left": [], "top": []}'),
        ("c.json", '{"rows": 0, "top": ["A"]}'),
        ("empty.json", ""),
        ("blank.txt", "  \n\n"),
        ("notes.txt", "Dear diary,\ntoday I solved a crossword.\n"),
        ("broken.json", '{"left": ["A", '),
        ("broken2.json", "[1, 2"),
        ("wrong.json", '{"left": ["A"], "top": ["A"], "colour": "red"}'),
        ("latin1.json", b'{"left": ["caf\xe9"], "top": ["c", "a", "f", "e"]}'),
        ("sizes.json", '{"rows": 2, "left": ["A"], "top": ["A"]}'),
        ("alpha.json", '{"left": [".", "."], "top": [".."], "alphabet": "AB", "given": ["C", "."]}'),
    ],
)
def test_bad_files_raise_the_cli_message(tmp_path: Path, name: str, data: "str | bytes") -> None:
    f = write(tmp_path, name, data)
    expected = cli_error(f)
    with pytest.raises(crossat.Error) as e:
        crossat.Puzzle.from_file(f)
    assert str(e.value) == expected or expected.startswith(f"{e.value}; ")
    assert type(e.value) in (crossat.InputError, crossat.ClueError, crossat.UsageError, crossat.Error)


def test_missing_file_and_collection_without_id(tmp_path: Path) -> None:
    with pytest.raises(crossat.InputError) as e:
        crossat.Puzzle.from_file(tmp_path / "nope.json")
    assert "nope.json" in str(e.value)
    challenges = PUZZLES / "regexcrossword-com" / "challenges.json"
    with pytest.raises(crossat.UsageError) as u:
        crossat.Puzzle.from_file(challenges)
    assert "id" in str(u.value)
    with pytest.raises(crossat.Error):
        crossat.Puzzle.from_file(challenges, id="no/such")


def test_bad_options() -> None:
    with pytest.raises(crossat.UsageError):
        crossat.Puzzle.from_text('{"left": ["A"], "top": ["A"]}', format="nonsense")
    with pytest.raises(crossat.UsageError):
        crossat.Puzzle.from_text('{"left": ["A"], "top": ["A"]}', dialect="perl")
    with pytest.raises(crossat.UsageError):
        crossat.Puzzle.from_text('{"left": ["A"], "top": ["A"]}', alphabet="")
    p = crossat.Puzzle.from_clues(left=["A|B", "A|B"], top=["A|B", "A|B"])
    with pytest.raises(crossat.InputError):
        p.check(["AB"])
    with pytest.raises(crossat.InputError):
        p.hint(["ABC", "AB"])
    with pytest.raises(TypeError):
        crossat.Puzzle()


def test_inexact_dimacs_is_a_clue_error() -> None:
    # A back-reference is solved exactly but has no exact CNF over the cells.
    p = crossat.Puzzle.from_clues(left=["(A|B)\\1" * 1, "(A|B)\\1"], top=["A|B", "A|B"])
    try:
        text = p.to_dimacs()
        assert text.startswith("c crossat")
    except crossat.ClueError as e:
        assert e.clue and e.regex


def test_exceptions_pickle() -> None:
    import pickle

    e = crossat.ClueError("f: row 1 clue 'A(': bad", "row 1 (left)", "A(", 1, "bad")
    f = pickle.loads(pickle.dumps(e))
    assert (str(f), f.clue, f.regex, f.position, f.message) == (str(e), e.clue, e.regex, e.position, e.message)
    t = pickle.loads(pickle.dumps(crossat.Timeout("late")))
    assert isinstance(t, TimeoutError)
