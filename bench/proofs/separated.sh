#!/usr/bin/env bash
# Never a proof of a falsehood, over every ordered pair of shipped levels:
# the test case of tests/unit/test_prove.cpp that the suite skips for its
# length (hours). Each pair synthesis separates within 4,2,3 is sent to the
# provers at 0.5 s per goal and must come out not proved (or refuted by a
# history). SHARDS processes share the pairs (pair i goes to process
# i mod SHARDS); the report has one line per pair, in the pairs' order,
# then each process's summary.
#
#   bench/proofs/separated.sh [UNIT_TESTS [SHARDS]] > report
#   (defaults: build/tests/unit_tests, one process per core)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${1:-build/tests/unit_tests}")
shards=${2:-$(nproc)}
source bench/lib.sh
bench_header bench/proofs/separated.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tests read their data relative to the build tree's tests folder.
cd build/tests
for ((i = 0; i < shards; i++)); do
  ISOSYNTH_PAIRS_SHARD="$i/$shards" stdbuf -oL "$bin" -tc='prove: no ordered pair*' --no-skip -s \
    >"$work/$i.log" 2>&1 &
done
wait
files=()
for ((i = 0; i < shards; i++)); do
  sed -n 's/^.*MESSAGE: //p' "$work/$i.log" >"$work/$i.pairs"
  files+=("$work/$i.pairs")
done
# Round robin over the processes' lines is the pairs' order again.
paste -d '\n' "${files[@]}" | sed '/^$/d'
for ((i = 0; i < shards; i++)); do
  echo "process $i of $shards:"
  grep -E 'test cases:|assertions:|ERROR|FAILED' "$work/$i.log" || true
done
