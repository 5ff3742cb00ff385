#!/usr/bin/env bash
# bench/ab.sh OLD NEW [--reps N] [--timeout S] [--only REGEX] [--out FILE]
#
# Two builds of isosynth side by side on one machine, alternating, so that
# the machine's drift falls on both alike: for a change that should not
# alter what runs (a refactoring), this is the check that it costs no time
# and no memory. OLD and NEW are isosynth executables (build each commit in
# a folder of its own). Every row runs OLD then NEW, N times (3 by default),
# and keeps each one's median wall seconds and largest peak RSS; the exit
# codes and verdict lines (stdout) of the two must be the same, or the row
# says DIFFER, and a row whose command fails (exit 2 or more) says ERROR.
# --only REGEX runs the rows whose label matches.
#
# The rows cover every path: the hyper-polygraph (SER, SI, strict SER with
# client intervals) on recorded and generated histories, saturation (RC, RA,
# CC), predicates, trusted timestamps, the generic oracle (small histories
# at every shipped level), the readers (Cobra, Viper, Elle, dbcop), and
# synthesis, comparison, the hierarchy and prediction.
#
# Writes bench/results/ab-DATE.md: the header of bench/lib.sh naming both
# executables, then a table input, command, OLD and NEW seconds and MB, and
# the ratios. Run it from the repository's root.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

[[ $# -ge 2 ]] || { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
shift 2
reps=3 limit=300 only= out=bench/results/ab-$(date -u +%Y-%m-%d).md
while [[ $# -gt 0 ]]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

shared=../shared/data/histories
work=bench/work/ab
mkdir -p "$work/runs"

# gen NAME GENERATOR ARGS...: a generated input, made once.
gen() {
  local name=$1 script=$2
  shift 2
  [[ -s $work/$name ]] || python3 "$script" "$@" -o "$work/$name.tmp" 2>/dev/null
  [[ -s $work/$name ]] || mv "$work/$name.tmp" "$work/$name"
  echo "$work/$name"
}
ser10k=$(gen ser-10k.txt bench/checker/generate.py --txns 10000 --sessions 20 --keys 1000 --seed 1)
ser100k=$(gen ser-100k.txt bench/checker/generate.py --txns 100000 --sessions 100 --keys 10000 --seed 1)
si10k=$(gen si-10k.txt bench/checker/generate.py --txns 10000 --sessions 20 --keys 1000 --isolation si --seed 1)
tpcc=$(gen tpcc-10k.txt bench/checker/generate.py --txns 10000 --sessions 20 --workload tpcc --seed 1)
rt10k=$(gen rt-10k.json bench/checker/generate.py --txns 10000 --sessions 20 --keys 1000 --format native --seed 1)
pred10k=$(gen pred-10k.json bench/checker/generate.py --txns 10000 --sessions 20 --keys 1000 --format native --range-reads 0.1 --pred-writes 0.02 --seed 1)
chronos=$(gen chronos-100k.json bench/checker/generate.py --txns 100000 --sessions 100 --keys 10000 --format chronos --seed 1)
weak=$(gen weak-1m.txt bench/weak/generate.py --events 1000000 --format text --seed 1)

# The rows: "label|arguments" (arguments word-split; no spaces in paths).
rows=(
  "ser-10k SER|check $ser10k -l SER"
  "ser-100k SER|check $ser100k -l SER"
  "si-10k SI|check $si10k -l SI"
  "si-10k SER|check $si10k -l SER"
  "tpcc-10k SER, SI|check $tpcc -l SER -l SI"
  "rt-10k StrictSER, StrongSI|check $rt10k -l biswas.StrictSER -l viper.StrongSI"
  "pred-10k SER, SI|check $pred10k -l SER -l SI"
  "chronos-100k TimestampSI|check $chronos -l cerone.TimestampSI"
  "weak-1m RC, RA, CC|check $weak -l RC -l RA -l CC"
  "cobra rubis-10k SER, SI|check $shared/cobra-bench/rubis-10k -l SER -l SI"
  "viper postgres-1000 SI|check $shared/viper-json/postgres-1000 -l SI"
  "elle huge-scc SI|check $shared/elle/huge-scc.edn -l SI"
  "dbcop BL-1k SER|check $shared/dbcop/postgres-dup-values/BL-1k/hist-00000 -l SER"
  "examples, all levels|check examples/histories/write-skew.json -l all"
  "synth SI/SER 6,3,3|synth --allow SI --deny SER --scope 6,3,3"
  "synth CC/PC 5,3,3|synth --allow CC --deny PC --scope 5,3,3"
  "compare RA RC 4,3,3|compare RA RC --scope 4,3,3"
  "hierarchy 5 levels 4,3,3|hierarchy RC RA CC SI SER --scope 4,3,3"
  "anomalies|anomalies"
  "predict tpcc-1k CC|predict bench/work/ab/predict-1k.txt --under CC"
)
gen predict-1k.txt bench/checker/generate.py --txns 1000 --sessions 10 --workload tpcc --dup-ratio 0 --seed 2 >/dev/null

# run BIN TAG ARGS...: one timed run; prints "wall maxrss_mb".
run() {
  local bin=$1 tag=$2
  shift 2
  timed "$tag" "$limit" "$bin" "$@"
  awk '/Maximum resident/ {m = $NF / 1024} /^maxrss_kb/ {m = $2 / 1024} /^wall/ {w = $2} END {printf "%.3f %.0f\n", w, m}' "$tag.time"
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

{
  bench_header "$out"
  echo "# old: $old"
  echo "# new: $new"
  echo "# runs: $reps of each, alternating, $(timed_how); median wall seconds, largest peak RSS"
  echo
  echo "| row | old s | new s | new/old | old MB | new MB | new/old | verdicts |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
} >"$out"
for row in "${rows[@]}"; do
  label=${row%%|*} args=${row#*|}
  [[ -z $only || $label =~ $only ]] || continue
  read -r -a argv <<<"$args"
  : >"$work/runs/old.w" && : >"$work/runs/new.w" && om=0 && nm=0
  for ((i = 0; i < reps; i++)); do
    run "$old" "$work/runs/old" "${argv[@]}" >"$work/runs/old.m"
    read -r w m <"$work/runs/old.m"
    echo "$w" >>"$work/runs/old.w"; ((m > om)) && om=$m; oc=$timed_code
    run "$new" "$work/runs/new" "${argv[@]}" >"$work/runs/new.m"
    read -r w m <"$work/runs/new.m"
    echo "$w" >>"$work/runs/new.w"; ((m > nm)) && nm=$m; nc=$timed_code
  done
  ow=$(median <"$work/runs/old.w") nw=$(median <"$work/runs/new.w")
  same=same
  cmp -s <(grep -E 'allowed|violated|unknown|not-applicable|none|found|equivalent|stronger|weaker|incomparable' "$work/runs/old.out") \
    <(grep -E 'allowed|violated|unknown|not-applicable|none|found|equivalent|stronger|weaker|incomparable' "$work/runs/new.out") || same="DIFFER"
  [[ $oc == "$nc" ]] || same="DIFFER (exit $oc, $nc)"
  ((oc < 2 && nc < 2)) || same="ERROR (exit $oc, $nc)"
  printf '| %s | %.2f | %.2f | %.2f | %d | %d | %.2f | %s |\n' "$label" "$ow" "$nw" \
    "$(awk -v a="$ow" -v b="$nw" 'BEGIN{print (a > 0 ? b / a : 1)}')" "$om" "$nm" \
    "$(awk -v a="$om" -v b="$nm" 'BEGIN{print (a > 0 ? b / a : 1)}')" "$same" >>"$out"
  echo "$label: old $ow s $om MB, new $nw s $nm MB, $same" >&2
done
echo "wrote $out" >&2
