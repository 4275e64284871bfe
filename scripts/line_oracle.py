#!/usr/bin/env python3
"""The oracle of `explain`'s tests: which letters a clue's matching words use.

Reads JSON lines `{"p": PATTERN, "cands": [CHARS, ...]}` on stdin (one string of
candidate characters per cell of the line) and writes, per line,
`{"ok": true, "used": [CHARS, ...], "words": N}`: for each cell, the characters that
occur there in some string of the product of the candidates that
`re.fullmatch(PATTERN, s)` matches, and how many such strings there are; or
`{"ok": false, "error": "..."}` when Python refuses the pattern, or
`{"ok": false, "crash": "..."}` when its matcher raises the documented SystemError of
CPython 3.11 ("The span of capturing group is wrong"); any other exception while
matching fails the script.
"""
import itertools
import json
import re
import sys
import warnings

warnings.simplefilter("ignore")  # FutureWarning on "[[" and "--" in random classes

assert sys.version_info[:2] == (3, 11), "the oracle is CPython 3.11"

cache = {}
out = sys.stdout
for line in sys.stdin:
    case = json.loads(line)
    p = case["p"]
    if p not in cache:
        try:
            cache[p] = re.compile(p)
        except Exception as e:  # re.error, OverflowError, RecursionError, ...
            cache[p] = f"{type(e).__name__}: {e}"
    rx = cache[p]
    if isinstance(rx, str):
        out.write(json.dumps({"ok": False, "error": rx}) + "\n")
        continue
    fm = rx.fullmatch
    cands = case["cands"]
    used = [set() for _ in cands]
    words = 0
    try:
        for w in itertools.product(*cands):
            s = "".join(w)
            if fm(s):
                words += 1
                for k, ch in enumerate(w):
                    used[k].add(ch)
    except SystemError as e:
        # Only the documented CPython 3.11 bug (a lookbehind moving a group's start past
        # its end) is "no verdict"; any other exception stops the oracle.
        if "The span of capturing group is wrong" not in str(e):
            raise
        out.write(json.dumps({"ok": False, "crash": f"{type(e).__name__}: {e}"}) + "\n")
        continue
    out.write(json.dumps({"ok": True, "used": ["".join(sorted(u)) for u in used], "words": words}) + "\n")
out.flush()
