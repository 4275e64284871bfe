#!/bin/sh
# Every seed in 1..20 at the sizes crossat generate accepts, on every side count and
# with back-references and lookarounds: each run must succeed (exit 0). Usage:
#   scripts/generate_sweep.sh [path/to/crossat]
set -u
bin=${1:-target/release/crossat}
fail=0
for shape in "--size 1x1" "--size 1x6" "--size 2x2" "--size 6x6" "--size 12x9" "--size 20x20" \
             "--hex 2" "--hex 3" "--hex 5" "--hex 8"; do
  for extra in "" "--sides 2" "--backrefs" "--lookarounds --sides 2"; do
    for seed in $(seq 1 20); do
      # shellcheck disable=SC2086
      if ! "$bin" generate $shape $extra --seed "$seed" --json --quiet > /dev/null 2> /tmp/crossat-sweep.err; then
        echo "FAILED: generate $shape $extra --seed $seed: $(cat /tmp/crossat-sweep.err)"
        fail=1
      fi
    done
  done
  echo "done: $shape"
done
exit $fail
