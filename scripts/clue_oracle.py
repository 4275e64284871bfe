#!/usr/bin/env python3
"""The oracle of crossat's differential tests: what CPython 3.11 says a clue accepts.

Reads JSON lines `{"p": PATTERN, "alphabet": CHARS, "n": LENGTH}` on stdin and writes,
per line, `{"ok": true, "matches": [...]}` — every string of exactly LENGTH characters
over CHARS for which `re.fullmatch(PATTERN, s)` matches, in itertools order — or
`{"ok": false, "error": "..."}` when Python refuses the pattern. When matching itself
raises (CPython 3.11 has a bug where a lookbehind that moves a group's start past its
end raises SystemError "The span of capturing group is wrong"), the answer is
`{"ok": true, "crash": "..."}`: Python gives no verdict on that line, so there is
nothing to compare. Any other exception while matching is not an answer: the script
fails, and so does the test that called it.
"""
import itertools
import json
import re
import sys

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
    matches = []
    try:
        for w in itertools.product(case["alphabet"], repeat=case["n"]):
            s = "".join(w)
            if fm(s):
                matches.append(s)
    except SystemError as e:
        # Only the documented CPython bug is "no verdict"; any other exception is a
        # failure of the oracle itself and stops it (the calling test then fails).
        if "The span of capturing group is wrong" not in str(e):
            raise
        out.write(json.dumps({"ok": True, "crash": f"{type(e).__name__}: {e}"}) + "\n")
        continue
    out.write(json.dumps({"ok": True, "matches": matches}) + "\n")
out.flush()
