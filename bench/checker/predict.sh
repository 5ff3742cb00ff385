#!/usr/bin/env bash
# Benchmark of prediction (`isosynth predict TRACE --under L --json`) on
# serializable runs from bench/checker/generate.py (--isolation ser, unique
# values): IsoPredict's sizes (3 sessions x 4 and x 8 transactions, with as
# many key accesses per transaction as its OLTP-Bench programs have), then
# growing to 10 sessions x 100, x 250 and x 1,000 transactions, under CC and RC,
# strict and relaxed boundaries. One process per (trace, level, mode),
# timed by bench/lib.sh, with a time limit.
#
#   bench/checker/predict.sh [--old BIN] [--only REGEX] [--timeout S] [--no-big] [--out FILE]
#
# --old BIN runs every (trace, level, mode) with BIN first and then with this
# build, one process at a time, so before and after share the machine's
# state; the first column says which build a row is. --only REGEX keeps the
# traces whose name matches (e.g. '10x1000').
#
# Writes a CSV (default bench/results/predict-DATE.csv) headed by the
# machine, the commit and the date: per run the outcome, the changed reads
# of the prediction, the search's counts (candidates, cycles, lemmas, stale
# reads ruled out), where the time went (solver, checks of candidates,
# lemmas), the wall time and the peak memory. Traces go to
# bench/work/predict/ (ignored by git) and are reused (generation is
# deterministic).
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
only="."
args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --only) only=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
bench_options predict "${args[@]}"

# name|workload|sessions|transactions per session|operations|keys|modes
runs=(
  "iso-bl-3x4|bl|3|4|60|200|strict relaxed"
  "iso-bl-3x8|bl|3|8|60|200|strict relaxed"
  "iso-tpcc-3x4|tpcc|3|4|4|10|strict relaxed"
  "iso-tpcc-3x8|tpcc|3|8|4|10|strict relaxed"
  "iso-wide-3x8|bl|3|8|300|1000|strict relaxed"
  "bl-10x100|bl|10|100|4|10|strict relaxed"
  "tpcc-10x100|tpcc|10|100|4|10|strict relaxed"
  "twitter-10x100|twitter|10|100|4|10|strict relaxed"
  "bl-10x250|bl|10|250|4|10|strict relaxed"
  "tpcc-10x250|tpcc|10|250|4|10|strict relaxed"
  "twitter-10x250|twitter|10|250|4|10|strict relaxed"
)
if [[ $big == 1 ]]; then
  runs+=("bl-10x1000|bl|10|1000|4|10|strict relaxed")
  runs+=("tpcc-10x1000|tpcc|10|1000|4|10|strict relaxed")
  runs+=("twitter-10x1000|twitter|10|1000|4|10|strict relaxed")
fi

{
  bench_header "$out"
  echo "# isosynth predict F --under LEVEL --mode MODE --json, $(timed_how), limit ${limit} s"
  [[ -n $old_bin ]] && echo "# old: $old_bin ($(sha256sum "$old_bin" | cut -c1-12)); new: this commit's build"
  echo "build,name,txns,ops,level,mode,outcome,changed,fewest,first_s,candidates,cycles,lemmas,ruled_out,sat_vars,sat_clauses,solve_s,check_s,lemma_s,predict_s,wall_s,peak_mb"
} >"$out"
for r in "${runs[@]}"; do
  IFS='|' read -r name workload sessions per ops keys modes <<<"$r"
  [[ $name =~ $only ]] || continue
  f=$work/$name.json
  [[ -s $f ]] || python3 bench/checker/generate.py --workload "$workload" --format native --sessions "$sessions" \
      --txns $((sessions * per)) --ops "$ops" --keys "$keys" --dup-ratio 0 --seed 1 -o "$f" 2>/dev/null
  nops=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(t['ops']) for s in d['sessions'] for t in s))" "$f")
  for level in CC RC; do
    for mode in $modes; do
      for build in "${builds[@]}"; do
        IFS='|' read -r which exe <<<"$build"
        tag=$work/runs/$which-$name-$level-$mode
        timed "$tag" "$limit" "$exe" predict "$f" --under "biswas.$level" --mode "$mode" --json
        row=$(python3 - "$tag.out" "$timed_code" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print(("timeout" if sys.argv[2] == "124" else "error") + "," * 13)
    sys.exit(0)
s = d.get("search", {})
changed = len(d["runs"][0]["changed"]) if d.get("runs") else ""
keys = ["candidates", "cycles", "lemmas", "ruled_out", "sat_vars", "sat_clauses"]
times = ["solve_seconds", "check_seconds", "lemma_seconds", "seconds"]
first = "%.3f" % s["first_seconds"] if d.get("runs") else ""
print(",".join([d["outcome"], str(changed), str(d.get("fewest", "")).lower(), first] +
                 [str(s.get(k, "")) for k in keys] +
                 ["%.3f" % s[k] if k in s else "" for k in times]))
PY
)
        wall=$(awk '/^wall/{printf "%.3f", $2}' "$tag.time")
        kb=$(awk '/Maximum resident set size|^maxrss_kb/{print $NF}' "$tag.time" | tail -1)
        echo "$which,$name,$((sessions * per)),$nops,$level,$mode,$row,$wall,$((kb / 1024))" >>"$out"
        echo "$which $name $level $mode: ${row%%,*} in ${wall} s" >&2
      done
    done
  done
done
echo "wrote $out" >&2
