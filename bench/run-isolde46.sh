#!/usr/bin/env bash
# Runs the 46 Isolde problems at 3..10 transactions (5 objects, 5 values, no
# blind writes as in Isolde's space) and records the results with machine,
# commit and date in bench/results/, then compares with Isolde's recorded run.
#   bench/run-isolde46.sh [TIMEOUT_SECONDS]    (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
timeout=${1:-60}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 --target isolde46 >/dev/null
out=bench/results/isolde46-$(date -u +%Y-%m-%d).csv
{
  bench_header "$out"
  echo "# timeout per run: ${timeout} s; scope T,5,5 for T = 3..10; no blind writes"
  ./build/bench/isolde46 --from 3 --to 10 --timeout "$timeout"
} >"$out"
python3 bench/compare-isolde.py "$out" ../shared/anchors/isolde-recorded-d8dfd9f.csv | tee "${out%.csv}-vs-isolde.md"
