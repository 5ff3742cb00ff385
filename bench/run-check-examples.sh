#!/usr/bin/env bash
# Times `check` of every example history against every level and records the
# result with machine, commit and date in bench/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 --target check_examples isosynth >/dev/null
out=bench/results/check-examples-$(date -u +%Y-%m-%d).csv
{
  bench_header "$out"
  echo "# target: under 20 ms per check for histories of <= 8 transactions"
  ./build/bench/check_examples examples/histories bench/histories 2> >(sed 's/^/# /' >&2)
} >"$out" 2>"$out.summary"
cat "$out.summary" >>"$out" && rm "$out.summary"
# Whole command, process start to exit, as a user sees it.
start=$(date +%s%N)
n=0
for f in examples/histories/*.json bench/histories/*.json; do
  ./build/isosynth check "$f" -l SER -l SI -l cerone.SI >/dev/null || true
  n=$((n + 3))
done
end=$(date +%s%N)
echo "# end to end: $(( (end - start) / 1000000 )) ms for $n checks in $(ls examples/histories/*.json bench/histories/*.json | wc -l) processes (spec library load included)" >>"$out"
tail -n 3 "$out"
