#!/usr/bin/env python3
"""Cross-checks crossat's differential test cases against Python's `re` (the reference).

    CROSSAT_DIFF_CASES=5000 CROSSAT_DIFF_DUMP=/tmp/cases.jsonl \
        cargo test --release --test integration backrefs_and
    python3 scripts/python_crosscheck.py /tmp/cases.jsonl

Each line holds a clue, an alphabet, a length and the set of words crossat enumerated
(which the test already found equal to fancy-regex's); this script recomputes the set
with re.fullmatch and prints every disagreement.
"""
import itertools, json, re, sys

bad = total = 0
for line in open(sys.argv[1]):
    case = json.loads(line)
    try:
        rx = re.compile(case["re"])
    except re.error as e:
        print("python rejects", case["re"], e)
        bad += 1
        continue
    want = {"".join(w) for w in itertools.product(case["alphabet"], repeat=case["n"]) if rx.fullmatch("".join(w))}
    total += 1
    if want != set(case["matches"]):
        bad += 1
        print("DIFF", json.dumps(case["re"]), case["alphabet"], case["n"], "python-only:", sorted(want - set(case["matches"]))[:5], "crossat-only:", sorted(set(case["matches"]) - want)[:5])
print(f"{total} cases, {bad} disagreements")
sys.exit(1 if bad else 0)
