#!/bin/sh
# Memory and rate of `solve --all` on a puzzle with 2^22 solutions (one line of 22
# cells over two letters): the solutions found and the peak RSS after 5, 10 and 20
# seconds. With streaming (cubes, docs/performance.md), the RSS stays flat and the
# rate steady. Usage: scripts/all-streaming.sh [path/to/crossat]
set -eu
crossat=${1:-target/release/crossat}
puzzle=$(mktemp)
trap 'rm -f "$puzzle"' EXIT
python3 -c 'import json; print(json.dumps({"left": ["[AB]{22}"], "top": ["[AB]"] * 22}))' > "$puzzle"
for t in 5 10 20; do
    /usr/bin/time -f "after $t s: peak RSS %M KB" "$crossat" solve "$puzzle" --all --json --timeout "$t" 2>&1 >/tmp/all-streaming.$$ | grep -v 'exited' || true
    tail -1 /tmp/all-streaming.$$ | sed 's/,"unique".*//'
done
rm -f /tmp/all-streaming.$$
