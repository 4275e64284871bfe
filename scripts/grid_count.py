#!/usr/bin/env python3
"""A brute-force count of a small puzzle's grids by CPython 3.11's `re.fullmatch`, the
meaning the clues have, independent of crossat's compilation to CNF.

Reads JSON lines `{"alphabet": CHARS, "cells": N, "clues": [[PATTERN, [CELL, ...]], ...]}`
and writes per line `{"count": K}`: how many of the len(CHARS)**N letterings of the
cells make every clue full-match the string of its cells, in order. Fails on a pattern
Python refuses (the caller asks only about clues it reads).
"""
import itertools
import json
import re
import sys

assert sys.version_info[:2] == (3, 11), "the oracle is CPython 3.11"

for line in sys.stdin:
    case = json.loads(line)
    clues = [(re.compile(p).fullmatch, cells) for p, cells in case["clues"]]
    n = sum(
        all(fm("".join(grid[c] for c in cells)) for fm, cells in clues)
        for grid in itertools.product(case["alphabet"], repeat=case["cells"])
    )
    print(json.dumps({"count": n}), flush=True)
