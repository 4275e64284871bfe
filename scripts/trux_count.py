#!/usr/bin/env python3
"""Every solution of a rectangular antoine-trux puzzle, by CPython: the independent
source of the solution counts the tests assert (puzzles/antoine-trux/*.solutions.md).

Usage: trux_count.py PUZZLE.input.txt ALPHABET

Reads the peer's text format (a rectangle; quoted clues, each row's then each
column's, every clue read left to right or top to bottom) and lists every grid over
ALPHABET whose rows and columns all `re.fullmatch` their clues (Python 3.11's `re`,
crossat's default dialect). The grid is filled row by row from each row's candidates;
the `regex` module's partial matching prunes prefixes no string extends, and every
grid listed is checked with `re` again, so a wrong prune could only lose a grid (and
the count would then differ from the peer's), never add one. No crossat code is used.

Prints `COUNT SHA256`, the SHA-256 of the sorted grids (each grid's rows joined by
'/', the grids by newlines).
"""
import hashlib
import re
import sys

try:
    import regex
except ImportError:
    sys.exit("trux_count.py needs the regex module: python3 -m pip install regex==2026.5.9")


def read(path):
    """(rows, cols, each row's clues, each column's clues)."""
    size = {}
    clues = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if s.startswith("'") and s.endswith("'") and len(s) >= 2:
                clues.append(s[1:-1])
            elif "=" in s and not s.startswith("#"):
                key, value = (x.strip() for x in s.split("=", 1))
                size[key] = value
    if size.get("shape") != "rectangular":
        sys.exit(f"{path}: only rectangles are counted")
    rows, cols = int(size["num_rows"]), int(size["num_cols"])
    per_row, per_col = int(size["num_regexes_per_row"]), int(size["num_regexes_per_col"])
    if len(clues) != rows * per_row + cols * per_col:
        sys.exit(f"{path}: {len(clues)} clues, expected {rows * per_row + cols * per_col}")
    row_clues = [clues[i * per_row:(i + 1) * per_row] for i in range(rows)]
    base = rows * per_row
    col_clues = [clues[base + j * per_col:base + (j + 1) * per_col] for j in range(cols)]
    return rows, cols, row_clues, col_clues


def main(path, alphabet):
    rows, cols, row_clues, col_clues = read(path)
    full_rows = [[re.compile(c) for c in cs] for cs in row_clues]
    full_cols = [[re.compile(c) for c in cs] for cs in col_clues]
    part_rows = [[regex.compile(c) for c in cs] for cs in row_clues]
    part_cols = [[regex.compile(c) for c in cs] for cs in col_clues]

    def extendable(patterns, s):
        return all(p.fullmatch(s, partial=True) for p in patterns)

    # Each row's candidates: the strings of `cols` letters its clues all accept.
    candidates = []
    for i in range(rows):
        found, stack = [], [""]
        while stack:
            s = stack.pop()
            if len(s) == cols:
                if all(p.fullmatch(s) for p in full_rows[i]):
                    found.append(s)
                continue
            stack.extend(s + ch for ch in alphabet if extendable(part_rows[i], s + ch))
        candidates.append(sorted(found))

    grids = []
    # The letters each row's candidates hold in each column.
    held = [[sorted({r[j] for r in rs}) for j in range(cols)] for rs in candidates]

    def fill(chosen):
        i = len(chosen)
        if i == rows:
            columns = ["".join(r[j] for r in chosen) for j in range(cols)]
            if all(p.fullmatch(columns[j]) for j in range(cols) for p in full_cols[j]):
                grids.append("/".join(chosen))
            return
        # The letters each column's prefix can take next, then the candidates that
        # take only those.
        prefixes = ["".join(r[j] for r in chosen) for j in range(cols)]
        fits = [{ch for ch in held[i][j] if extendable(part_cols[j], prefixes[j] + ch)} for j in range(cols)]
        for r in candidates[i]:
            if all(r[j] in fits[j] for j in range(cols)):
                fill(chosen + [r])

    fill([])
    grids.sort()
    print(len(grids), hashlib.sha256("\n".join(grids).encode()).hexdigest())


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
