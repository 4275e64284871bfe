#!/usr/bin/env python3
"""CPython 3.11's verdicts on given strings: reads JSON lines `{"p": PATTERN, "s": [STRING, ...]}`
and writes per line `{"ok": true, "r": [BOOL, ...]}` — whether `re.fullmatch(PATTERN, s)`
matches each string — or `{"ok": false, "error": "..."}` when Python refuses the pattern.
An exception while matching fails the script (and the test that asked).
"""
import json
import re
import sys

assert sys.version_info[:2] == (3, 11), "the oracle is CPython 3.11"

for line in sys.stdin:
    case = json.loads(line)
    try:
        rx = re.compile(case["p"])
    except Exception as e:  # re.error, OverflowError, RecursionError, ...
        print(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"}), flush=False)
        continue
    print(json.dumps({"ok": True, "r": [rx.fullmatch(s) is not None for s in case["s"]]}), flush=False)
sys.stdout.flush()
