#!/usr/bin/env bash
# How well the budgets hold: the wall time and peak memory of runs that must
# stop at --timeout (exit 3), at --max-memory (exit 2), or at the spec
# sandbox's limits (exit 2), each against the bound it must respect.
#
#   bench/budgets/run.sh [--repeat N] [--out FILE]
#
#   --repeat N   runs per case (default 3); the CSV keeps every run
#   --out FILE   CSV to write (default bench/results/budgets-DATE.csv)
#
# Cases:
#  - check of a 100,000-transaction history (../shared/repro/gen.py) with
#    --timeout 2 at SER, SI, RA and CC (bound: 4 s), and the same history in
#    Elle's EDN (reading is part of the budget);
#  - synth at scope 30,30,30 with --timeout 5 (bound: 8 s);
#  - check with --max-memory 200M of the 100,000-transaction history (exit 2);
#  - every spec reproducer of ../shared/repro/*.lua (bound: 15 s, the sandbox's
#    10 s wall clock per file plus start-up).
# Each row: case, expected exit codes (alternatives separated by |), exit
# code, wall seconds, peak RSS in MB, bound in seconds, and whether both the
# exit code and the bound held.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
source bench/lib.sh
repeat=3
date=$(date -u +%Y-%m-%d)
out=
while [[ $# -gt 0 ]]; do
  case $1 in
    --repeat) repeat=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
out=${out:-bench/results/budgets-$date.csv}
repro=${SHARED_REPRO:-$root/../shared/repro}
work=bench/work/budgets
mkdir -p "$work" "$(dirname "$out")"

[[ -d build ]] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 --target isosynth >/dev/null
bin=$root/build/isosynth

[[ -f $work/gen-100k.txt ]] || python3 "$repro/gen.py" 100000 10000 100 text "$work/gen-100k.txt"
[[ -f $work/gen-100k.edn ]] || python3 "$repro/gen.py" 100000 10000 100 edn "$work/gen-100k.edn"

{
  bench_header "$out"
  echo "case,expect_exit,exit,wall_s,peak_rss_mb,bound_s,held"
} >"$out"

# run NAME EXPECT BOUND CMD...: times CMD under /usr/bin/time, appends rows.
run() {
  local name=$1 expect=$2 bound=$3
  shift 3
  for ((i = 0; i < repeat; i++)); do
    local log=$work/time.log rc=0
    /usr/bin/time -f '%e %M' -o "$log" "$@" >/dev/null 2>"$work/stderr.log" || rc=$?
    read -r wall kb < <(tail -1 "$log")
    local held=yes
    [[ $rc =~ ^($expect)$ ]] || held=no
    awk -v w="$wall" -v b="$bound" 'BEGIN { exit !(w <= b) }' || held=no
    awk -v n="$name" -v e="$expect" -v r="$rc" -v w="$wall" -v k="$kb" -v b="$bound" -v h="$held" \
      'BEGIN { printf "\"%s\",\"%s\",%s,%s,%.1f,%s,%s\n", n, e, r, w, k / 1024, b, h }' >>"$out"
    echo "$name: exit $rc, ${wall} s ($held)" >&2
  done
}

for level in SER SI; do
  run "check gen-100k text --timeout 2 -l $level" 3 4 "$bin" check "$work/gen-100k.txt" -l "$level" --timeout 2
done
# Saturation decides RA and CC on this history in about a second: a verdict
# (0 or 1) within the bound holds as well as a timeout.
for level in RA CC; do
  run "check gen-100k text --timeout 2 -l $level" "0|1|3" 4 "$bin" check "$work/gen-100k.txt" -l "$level" --timeout 2
done
run "check gen-100k edn --timeout 2 -l SER" 3 4 "$bin" check "$work/gen-100k.edn" -l SER --timeout 2
run "synth --allow SI --deny SER --scope 30,30,30 --timeout 5" 3 8 \
  "$bin" synth --allow SI --deny SER --scope 30,30,30 --timeout 5
run "synth --allow RA --deny cerone.PSI --scope 30,30,30 --timeout 5 --minimize" 3 8 \
  "$bin" synth --allow RA --deny cerone.PSI --scope 30,30,30 --timeout 5 --minimize
run "check gen-100k text --max-memory 200M -l SER" 2 60 \
  "$bin" --max-memory 200M check "$work/gen-100k.txt" -l SER
for spec in "$repro"/*.lua; do
  name=$(basename "$spec")
  case $name in
    bigformula2.lua) run "spec $name (check --timeout 5)" 1 8 \
      "$bin" check examples/histories/write-skew.json --spec "$spec" -l t.L --timeout 5 ;;
    uaf4.lua) run "spec $name (synth)" 2 15 \
      "$bin" synth --spec "$spec" --allow t.L --deny SER --scope 2,2,2 ;;
    uaf3.lua) run "spec $name (check)" 2 15 \
      "$bin" check examples/histories/write-skew.json --spec "$spec" -l t.L ;;
    print.lua) run "spec $name (levels --json)" 0 15 "$bin" levels --spec "$spec" --json ;;
    *) run "spec $name (levels)" 2 15 "$bin" levels --spec "$spec" ;;
  esac
done
echo "wrote $out" >&2
