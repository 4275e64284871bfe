#!/bin/sh
# Every seed in 1..20 at the sizes crossat generate accepts, on every side count, with
# back-references and lookarounds, and for every difficulty it offers (none, easy,
# medium where the grid has two rows and two columns, hard where its lines are long
# enough and without back-references or lookarounds): each run must succeed (exit 0)
# and rate as asked. 24x24, the largest size, is the slowest: back-references take
# 7-22 s a run and hard with one clue per line up to a minute (docs/performance.md,
# "Hard puzzles"). Usage:
#   scripts/generate_sweep.sh [path/to/crossat] [seeds]
set -u
bin=${1:-target/release/crossat}
seeds=${2:-20}
fail=0
for shape in "--size 1x1" "--size 1x6" "--size 2x2" "--size 6x6" "--size 12x9" "--size 20x20" "--size 24x24" \
             "--hex 2" "--hex 3" "--hex 5" "--hex 8"; do
  for extra in "" "--sides 2" "--backrefs" "--lookarounds --sides 2"; do
    for diff in "" easy medium hard; do
      case "$shape:$diff" in
        "--size 1x1:medium"|"--size 1x6:medium") continue ;;
        "--size 1x1:hard"|"--size 1x6:hard"|"--size 2x2:hard"|"--hex 2:hard") continue ;;
      esac
      case "$extra:$diff" in
        *--backrefs*:hard|*--lookarounds*:hard) continue ;;
      esac
      for seed in $(seq 1 "$seeds"); do
        # shellcheck disable=SC2086
        if ! "$bin" generate $shape $extra ${diff:+--difficulty $diff} --seed "$seed" --json --quiet \
             > /tmp/crossat-sweep.out 2> /tmp/crossat-sweep.err; then
          echo "FAILED: generate $shape $extra ${diff:+--difficulty $diff} --seed $seed: $(cat /tmp/crossat-sweep.err)"
          fail=1
        elif [ -n "$diff" ] && ! grep -q "\"difficulty\":\"$diff\"" /tmp/crossat-sweep.out; then
          echo "WRONG CLASS: generate $shape $extra --difficulty $diff --seed $seed"
          fail=1
        fi
      done
    done
  done
  echo "done: $shape"
done
exit $fail
