#!/usr/bin/env bash
# Benchmark of SER with predicates (`isosynth check -l SER --stats`) on
# generated histories (bench/checker/generate.py --format native): the
# size (1k, 10k, 100k) at one setting, then at 10k the range-read ratio, the
# range width and the predicate-write ratio one at a time; strict
# serializability (which uses the client times, as Vbox does) beside SER.
# One process per (input, level), timed by bench/lib.sh, with a time limit.
#
#   bench/checker/predicates.sh [--timeout S] [--no-big] [--out FILE] [--old BIN] [--reps N]
#
# --old BIN: a build of another commit, run before this one on every input
# and level (alternately, N times each, default 1), so that the two are
# measured side by side in one run; the CSV's `build` column says which.
# Every process runs with --max-memory 2.5G (the machine is shared): a run
# over it ends with an error, reported as verdict `memory`.
#
# Writes a CSV (default bench/results/predicates-DATE.csv) headed by the
# machine, the commit and the date: per run the verdict, the phases --stats
# reports (parse, construct, prune, encode, solve), the wall time, the peak
# memory after each phase and in all, and the graph's sizes. Inputs go to bench/work/predicates/ (ignored
# by git) and are reused (generation is deterministic).
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
reps=1 args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
bench_options predicates "${args[@]}"

# name|transactions|sessions|keys|range-read ratio|width|predicate-write ratio|levels
runs=(
  "size-1k|1000|20|500|0.2|20|0|SER"
  "size-10k|10000|20|500|0.2|20|0|SER StrictSER"
  "ratio-0.05|10000|20|500|0.05|20|0|SER"
  "ratio-0.5|10000|20|500|0.5|20|0|SER"
  "width-5|10000|20|500|0.2|5|0|SER"
  "width-100|10000|20|500|0.2|100|0|SER"
  "pw-1k-0.1|1000|20|500|0.2|20|0.1|SER"
  "pw-10k-0.02|10000|20|500|0.2|20|0.02|SER StrictSER"
  "pw-10k-0.1|10000|20|500|0.2|20|0.1|SER StrictSER"
  "blindw-10k-0.5|10000|20|500|0.5|20|0.5|SER StrictSER"
)
if [[ $big == 1 ]]; then
  runs+=("items-100k|100000|50|10000|0|20|0|StrictSER")
  runs+=("size-100k|100000|50|10000|0.2|20|0|SER StrictSER")
  runs+=("pw-100k-0.02|100000|50|10000|0.2|20|0.02|SER StrictSER")
  runs+=("pw-100k-0.1|100000|50|10000|0.2|20|0.1|SER StrictSER")
  runs+=("blindw-100k-0.5|100000|50|10000|0.5|20|0.5|SER StrictSER")
fi
# ONLY (environment): run the rows whose name matches this regex.
if [[ -n ${ONLY:-} ]]; then
  kept=()
  for r in "${runs[@]}"; do [[ ${r%%|*} =~ $ONLY ]] && kept+=("$r"); done
  runs=("${kept[@]}")
fi

# run_one NAME LEVEL BUILD EXE: one run of EXE on the input of NAME (the
# row's variables set), appended to the CSV.
run_one() {
  local name=$1 level=$2 build=$3 exe=$4 tag stats sizes memory verdict wall kb
  tag=$work/runs/$name-$level-$build
  timed "$tag" "$limit" "$exe" check "$f" -l "$level" --stats --max-memory 2.5G
  stats=$(grep -E '^[a-z]+\.[A-Za-z]+: parse' "$tag.err" || true)
  sizes=$(grep -E 'transactions, .* known edges' "$tag.err" || true)
  memory=$(grep -E 'peak memory after' "$tag.err" || true)
  num() { grep -oE "$1" <<<"$2" | grep -oE '[0-9.]+' | head -1 || true; }
  verdict=$(grep -oE '^[a-z]+\.[A-Za-z]+: (allowed|violated)' "$tag.out" | head -1 | cut -d' ' -f2 || true)
  [[ $timed_code == 124 ]] && verdict=timeout
  grep -q "out of memory" "$tag.err" && [[ -z $verdict ]] && verdict=memory
  wall=$(awk '/^wall/{print $2}' "$tag.time")
  kb=$(awk '/Maximum resident set size|^maxrss_kb/{print $NF}' "$tag.time" | tail -1)
  echo "$name,$txns,$ratio,$width,$pw,$level,$build,${verdict:-error},$(num 'parse [0-9.]+' "$stats"),$(num 'construct [0-9.]+' "$stats"),$(num 'prune [0-9.]+' "$stats"),$(num 'encode [0-9.]+' "$stats"),$(num 'solve [0-9.]+' "$stats"),$wall,$(num 'construct [0-9]+ MB' "$memory"),$(num 'prune [0-9]+ MB' "$memory"),$(num 'encode [0-9]+ MB' "$memory"),$((kb / 1024)),$(num '[0-9]+ known edges' "$sizes"),$(num '[0-9]+ ww pairs' "$sizes"),$(num '\([0-9]+ open\), [0-9]+ read' "$sizes"),$(num '[0-9]+ read choices' "$sizes"),$(num 'choices \([0-9]+ open' "$sizes"),$(num '[0-9]+ rounds' "$stats")" >>"$out"
  echo "$name $level $build: ${verdict:-error} in ${wall} s" >&2
}

{
  bench_header "$out"
  echo "# SER with predicates: isosynth check F -l LEVEL --stats, $(timed_how), limit ${limit} s"
  echo "name,txns,range_reads,width,pred_writes,level,build,verdict,parse_s,construct_s,prune_s,encode_s,solve_s,wall_s,mb_after_construct,mb_after_prune,mb_after_encode,peak_mb,known_edges,ww_pairs,ww_open,read_choices,read_open,rounds"
} >"$out"
for r in "${runs[@]}"; do
  IFS='|' read -r name txns sessions keys ratio width pw levels <<<"$r"
  levels=${LEVELS:-$levels}  # LEVELS (environment): these levels instead of the row's
  f=$work/$name.json
  [[ -s $f ]] || python3 bench/checker/generate.py --format native --txns "$txns" --sessions "$sessions" \
      --keys "$keys" --range-reads "$ratio" --range-width "$width" --pred-writes "$pw" --seed 1 -o "$f" 2>/dev/null
  for level in $levels; do
    for ((rep = 0; rep < reps; ++rep)); do
      for b in "${builds[@]}"; do run_one "$name" "$level" "${b%%|*}" "${b#*|}"; done
    done
  done
done
echo "wrote $out" >&2
