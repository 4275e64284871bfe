#!/bin/bash
# Runs fuzz targets one after another, at the lowest priority, each for SECONDS, with a
# scratch copy of its corpus (the committed corpus stays small) and its log, artifacts
# (crash-*, timeout-*, slow-unit-*) and final statistics under OUT.
#   fuzz/campaign.sh OUT SECONDS TARGET...
# e.g. fuzz/campaign.sh /tmp/fuzz 300 crossat_json challenges trux dat
# Needs a nightly toolchain and cargo-fuzz (see README.md). Run from anywhere.
set -u
out=$1 secs=$2
shift 2
cd "$(dirname "$0")" || exit 1
# cargo fuzz build takes one target per call.
for t in "$@"; do
  nice -n 19 cargo +nightly fuzz build "$t" >>"$out.build.log" 2>&1 || { echo "build failed: $out.build.log"; exit 1; }
done
bin=target/x86_64-unknown-linux-gnu/release
for t in "$@"; do
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
  cp -n corpus/"$t"/* "$out/corpus/$t/"
  echo "$t: start $(date -u +%T), ${secs} s"
  # -fork=1 with -ignore_*: a finding is saved and the run goes on.
  nice -n 19 "$bin/$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -fork=1 -ignore_timeouts=1 -ignore_crashes=1 -ignore_ooms=1 \
    -artifact_prefix="$out/artifacts/$t/" "$out/corpus/$t" >"$out/$t.log" 2>&1
  echo "$t: end $(date -u +%T); last status: $(grep -E '^#[0-9]+' "$out/$t.log" | tail -1)"
  ls "$out/artifacts/$t"
done
