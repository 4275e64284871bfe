#!/usr/bin/env python3
"""Writes regexle-style hexagons: regexle.com's JSON (`{"side", "diameter", "day", "x",
"y", "z"}`), cells A–Z, clues built only from what regexle's clues use and greenery reads
(letters, `.`, classes `[…]`/`[^…]`, groups, `|`, `?`, `*`, `+`; no back-references, no
anchors). Each puzzle starts from a random grid; every line gets a loose clue its word
matches, and while crossat finds a second solution, the lines where two solutions differ
get tighter clues — so every puzzle written has exactly one solution (crossat's proof;
scripts/compare_regexle.py checks the answer against the peer's). `"solution"` holds the
grid it started from, row y as the cells with that y, x ascending.

    scripts/regexle_gen.py --side 5 --seed 1 [--crossat target/release/crossat] > p.json

Axes as regexle's generator and nelhage's solver have them: a cell is (x, y) with
|x − y| < side; `y[k]` reads the cells with y = k, x ascending; `x[k]` the cells with
x = k, y descending; `z[k]` the cells with y − x = side − 1 − k, x ascending.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

ALPHABET = string.ascii_uppercase
ROOT = Path(__file__).resolve().parents[1]
Cell = Tuple[int, int]


def lines(side: int) -> Dict[str, List[List[Cell]]]:
    d = 2 * side - 1
    ok = lambda x, y: 0 <= x < d and 0 <= y < d and abs(x - y) < side  # noqa: E731
    return {
        "x": [[(k, y) for y in reversed(range(d)) if ok(k, y)] for k in range(d)],
        "y": [[(x, k) for x in range(d) if ok(x, k)] for k in range(d)],
        "z": [[(x, x + side - 1 - k) for x in range(d) if ok(x, x + side - 1 - k)] for k in range(d)],
    }


def letters(rng: random.Random, k: int, exclude: str = "") -> str:
    pool = [c for c in ALPHABET if c not in exclude]
    return "".join(sorted(rng.sample(pool, min(k, len(pool)))))


def piece(rng: random.Random, w: str, level: int) -> str:
    """A pattern matching exactly the word `w` (≥ 1 letter); higher levels pin more."""
    n = len(w)
    pick = rng.random()
    if level >= 3 or (level == 2 and pick < 0.5):
        # Mostly literal, a few letters loosened to a small class.
        out = []
        for c in w:
            if rng.random() < 0.3:
                out.append("[" + "".join(sorted(set(c + letters(rng, 1)))) + "]")
            else:
                out.append(c)
        return "".join(out)
    if pick < 0.25:
        return "[" + "".join(sorted(set(w) | set(letters(rng, rng.randint(0, 2 - min(level, 1)))))) + "]" + ("*" if rng.random() < 0.5 else "+")
    if pick < 0.45:
        return "[^" + letters(rng, rng.randint(2, 5 + 2 * level), exclude=w) + "]" + ("*" if rng.random() < 0.5 else "+")
    if pick < 0.65 and n >= 2:
        chunks, i = [], 0
        while i < n:
            step = rng.randint(1, 2)
            chunks.append(w[i : i + step])
            i += step
        alts = sorted(set(chunks) | {letters(rng, rng.randint(1, 2))})
        rng.shuffle(alts)
        return "(" + "|".join(alts) + ")" + ("*" if rng.random() < 0.5 else "+")
    if pick < 0.8:
        i = rng.randrange(n)
        return ".*" + w[i] + ".*" if n > 1 else w
    return "." * n if level == 0 and n <= 2 else w[0] + ("." * (n - 1) if n > 1 else "")


def clue(rng: random.Random, w: str, level: int) -> str:
    """A clue that `w` matches, of tightness `level` (0 loose … 3 nearly literal)."""
    for _ in range(100):
        cut = sorted(rng.sample(range(1, len(w)), min(len(w) - 1, rng.randint(0, 2)))) if len(w) > 1 else []
        parts = [w[a:b] for a, b in zip([0, *cut], [*cut, len(w)])]
        c = "".join(piece(rng, p, level) for p in parts)
        if rng.random() < 0.2 and level < 2:
            c += "(" + letters(rng, 1) + ")?"
        if re.fullmatch(c, w):
            return c
    return w


def solutions(crossat: str, puzzle: dict) -> List[List[str]]:
    out = subprocess.run([crossat, "solve", "--json", "-"], input=json.dumps(puzzle), capture_output=True, text=True, check=False)
    if out.returncode not in (0, 1):
        sys.exit(f"crossat failed ({out.returncode}): {out.stderr.strip()}")
    return [r["grid"] for r in map(json.loads, out.stdout.splitlines()) if r["type"] == "solution"]


def cell_of(side: int, grid: List[str]) -> Dict[Cell, str]:
    """crossat's rows (row y, x ascending from max(0, y − side + 1)) as regexle cells."""
    return {(max(0, y - side + 1) + i, y): c for y, row in enumerate(grid) for i, c in enumerate(row)}


def generate(side: int, seed: int, crossat: str, day: int) -> dict:
    rng = random.Random(seed * 1000 + side)
    ls = lines(side)
    grid = {cell: rng.choice(ALPHABET) for axis in ls.values() for line in axis for cell in line}
    word = {(a, k): "".join(grid[c] for c in line) for a, axis in ls.items() for k, line in enumerate(axis)}
    level = {key: 0 for key in word}
    clues = {key: clue(rng, w, 0) for key, w in word.items()}
    for _ in range(200):
        puzzle = {"side": side, "diameter": 2 * side - 1, "day": day, **{a: [clues[a, k] for k in range(2 * side - 1)] for a in "xyz"}}
        found = solutions(crossat, puzzle)
        if len(found) == 1:
            d = 2 * side - 1
            rows = ["".join(grid[x, y] for x in range(d) if abs(x - y) < side) for y in range(d)]
            return {**puzzle, "solution": rows}
        cells = [cell_of(side, g) for g in found]
        differ = {c for c in cells[0] if cells[0][c] != cells[1][c]}
        loose = [key for key, line in ((key, ls[key[0]][key[1]]) for key in word) if differ & set(line)]
        for key in rng.sample(loose, max(1, len(loose) // 3)):
            level[key] = min(3, level[key] + 1)
            clues[key] = clue(rng, word[key], level[key])
    sys.exit(f"side {side} seed {seed}: no unique puzzle after 200 rounds")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--side", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--day", type=int, help="the puzzle's day number (default: the seed)")
    ap.add_argument("--crossat", default=str(ROOT / "target" / "release" / "crossat"))
    a = ap.parse_args()
    if not 2 <= a.side <= 9:
        sys.exit("--side must be 2 … 9")
    print(json.dumps(generate(a.side, a.seed, a.crossat, a.seed if a.day is None else a.day)))


if __name__ == "__main__":
    main()
