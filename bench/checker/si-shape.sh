#!/usr/bin/env bash
# bench/checker/si-shape.sh OLD NEW [--shape si|wide] [--sizes "10000 30000"]
#                           [--levels "SI SER"] [--reps N] [--timeout S]
#                           [--max-memory M] [--out FILE]
#
# The checker on generated histories of one shape, at each size:
#   si    (the default) the shape a snapshot-isolated database produces:
#         generate.py --isolation si --keys 5000 --ops 8 --concurrency 10
#         (20 sessions, the generator's default);
#   wide  a serializable run over many keys and sessions:
#         generate.py --sessions 100 --keys 100000 (at 1,000,000
#         transactions: 308 million write-write pairs).
# Every (size, level)
# runs OLD then NEW, alternately, N times (1 by default), each
# `isosynth check H -l LEVEL --stats` under /usr/bin/time and a time limit,
# and prints one markdown row per run: wall and user+system seconds, peak
# MB, the phases of --stats, and the verdict (or why there is none). OLD and
# NEW are isosynth executables built in folders of their own. Histories are
# made once under bench/work/si-shape/. Run it from the repository's root.
set -euo pipefail
cd "$(dirname "$0")/../.."

[[ $# -ge 2 ]] || { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
shift 2
sizes="10000 30000 100000" levels="SI SER" reps=1 limit=240 memory=2.5G out=/dev/stdout shape=si
while [[ $# -gt 0 ]]; do
  case $1 in
    --shape) shape=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --levels) levels=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --max-memory) memory=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

case $shape in
  si) shape_args=(--isolation si --keys 5000 --ops 8 --concurrency 10) ;;
  wide) shape_args=(--sessions 100 --keys 100000) ;;
  *) echo "unknown shape: $shape" >&2; exit 2 ;;
esac
work=bench/work/si-shape
mkdir -p "$work"
run() {  # run BIN HISTORY LEVEL: one markdown row
  local bin=$1 h=$2 level=$3 err=$work/run.err
  local verdict
  verdict=$(/usr/bin/time -f 'TIME %e %U %S %M' "$bin" check "$h" -l "$level" --stats \
    --timeout "$limit" --max-memory "$memory" 2>"$err" | grep -E ': (allowed|violated|unknown)' | head -1 | sed 's/^[^:]*: //') || true
  [[ -n $verdict ]] || verdict=$(grep -E 'error|unknown' "$err" | head -1 | cut -c1-80)
  local t phases
  t=$(grep "^TIME" "$err" | tail -1) || true
  phases=$(grep -E '^[^ ]+: parse' "$err" | sed 's/^[^:]*: //' | cut -c1-160) || true
  awk -v t="$t" -v p="$phases" -v v="$verdict" -v who="$4" -v h="$(basename "$h")" -v l="$level" 'BEGIN {
    split(t, f, " "); printf "| %s | %s | %s | %.1f | %.1f | %.0f | %s | %s |\n", h, l, who, f[2], f[3] + f[4], f[5] / 1024, p, v }'
}
{
  echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| history | level | build | wall s | cpu s | peak MB | phases (--stats) | verdict |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  for n in $sizes; do
    h=$work/$shape-$n.txt
    [[ -s $h ]] || python3 bench/checker/generate.py "${shape_args[@]}" --txns "$n" --seed 1 -o "$h" 2>/dev/null
    for level in $levels; do
      for ((i = 0; i < reps; i++)); do
        run "$old" "$h" "$level" old
        run "$new" "$h" "$level" new
      done
    done
  done
  echo
  echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
} >>"$out"
