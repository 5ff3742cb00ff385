#!/usr/bin/env bash
# Benchmark of the SER/SI checker (`isosynth check -l SER|SI`) on the shared
# recorded histories and on generated ones (bench/checker/generate.py), one
# process per (input, level), timed with /usr/bin/time -v (or by polling
# /proc/PID/status when it is missing), with a time limit per run.
#
#   bench/checker/run.sh [--timeout S] [--repeat N] [--repeat-all] [--no-big]
#                        [--huge] [--timestamps-1m] [--only REGEX] [--out FILE]
#
#   --timeout S   time limit per run in seconds (default 600); a run that hits
#                 it is recorded as a timeout row
#   --repeat N    a run that takes under 1 s is repeated until N runs (default
#                 5) and the run with the median wall time is recorded
#   --repeat-all  repeat every run N times, not only those under 1 s (on a
#                 shared machine the median smooths out the others' load)
#   --no-big      skip the 100,000-transaction histories
#   --huge        also check SER on a 1,000,000-transaction history (generating
#                 it takes minutes, checking it needs over 16 GB); implies
#                 --timestamps-1m
#   --timestamps-1m  also check cerone.TimestampSI on 1,000,000 transactions in
#                 Chronos's JSON (generating it takes about a minute and 2 GB;
#                 checking it about 20 s and 2 GB)
#   --only REGEX  run only the inputs whose name matches REGEX (grep -E)
#   --out FILE    CSV to write (default bench/results/checker-DATE.csv)
#
# Writes the CSV with machine, commit and date, then the comparison with
# VeriStrong (bench/checker/compare-veristrong.py) beside it as
# checker-DATE-vs-veristrong.md.  Generated histories go to bench/work/checker/
# (ignored by git) and are reused when present (generation is deterministic).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
source bench/lib.sh
limit=600
repeat=5
repeat_below=1  # seconds: runs shorter than this are repeated (--repeat-all: every run)
big=1
huge=0
ts1m=0
only=
date=$(date -u +%Y-%m-%d)
out=
while [[ $# -gt 0 ]]; do
  case $1 in
    --timeout) limit=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --repeat-all) repeat_below=inf; shift ;;
    --no-big) big=0; shift ;;
    --huge) huge=1; ts1m=1; shift ;;
    --timestamps-1m) ts1m=1; shift ;;
    --only) only=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
out=${out:-bench/results/checker-$date.csv}
shared=${SHARED_HISTORIES:-$root/../shared/data/histories}
work=bench/work/checker
mkdir -p "$work" "$work/runs" "$(dirname "$out")"

# --- build (Release; reuse build/ when it exists) ---------------------------
if [[ -d build ]]; then
  type=$(grep -m1 '^CMAKE_BUILD_TYPE:' build/CMakeCache.txt 2>/dev/null | cut -d= -f2 || true)
  [[ $type == Release ]] || echo "warning: build/ is configured as '${type:-unset}', not Release" >&2
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build -j2 --target isosynth >/dev/null
bin=$root/build/isosynth

# --- inputs ------------------------------------------------------------------
# name|path-or-generator-args|levels|transactions hint|extra check arguments
inputs=()
add_shared() {  # path relative to $shared
  local p=$1 name=${1%/history.bincode}
  if [[ -e $shared/$p ]]; then inputs+=("$name|$shared/$p|SER SI RA CC|")
  else echo "warning: $shared/$p not found, skipped" >&2; fi
}
for w in BL RH WH; do add_shared "dbcop/postgres-dup-values/$w-1k/hist-00000/history.bincode"; done
add_shared dbcop/dgraph-si-violation/history.bincode
while IFS= read -r f; do add_shared "${f#"$shared"/}"; done \
  < <(find "$shared/dbcop/table2-sample" -name history.bincode 2>/dev/null | sort)
add_shared cobra/cock-G2
add_shared cobra/cock-blog
for w in tpcc rubis twitter; do add_shared "cobra-bench/$w-10k"; done
add_shared viper-json/postgres-1000
for f in "$shared"/polysi-text/*.txt; do add_shared "${f#"$shared"/}"; done
add_shared elle/huge-scc.edn

# Generated: gen:NAME|generator arguments|levels|transactions[|extra check arguments]
gen() { inputs+=("gen:$1|$2|$3|$4|${5:-}"); }
# BL-like: the shape of VeriStrong's PostgreSQL BL histories (20 sessions,
# 500 keys, mild zipfian skew, half reads) with 8-10 operations per
# transaction and 5% duplicate written values (defaults of generate.py).
gen bl-1k-ser    "--txns 1000 --seed 1"                     "SER SI" 1000
gen bl-1k-si     "--txns 1000 --isolation si --seed 1"      "SER SI" 1000
gen bl-10k-ser   "--txns 10000 --seed 1"                    "SER SI RA CC" 10000
gen bl-10k-si    "--txns 10000 --isolation si --seed 1"     "SER SI" 10000
gen bl-10k-5000keys-ser "--txns 10000 --keys 5000 --seed 1" "SER SI" 10000
if [[ $big == 1 ]]; then
  # 100,000 transactions, 50 sessions, 10,000 keys (BL-like otherwise).
  gen big-100k-ser "--txns 100000 --sessions 50 --keys 10000 --seed 1" "SER SI RA CC" 100000
fi
# Application workloads after the benchmarks Cobra ran (generate.py
# --workload): hot rows with read-modify-write chains (TPC-C's warehouses and
# districts), inserts, long sessions; serial, and with anomalies injected
# (lost updates under a snapshot-isolated database, stale read-modify-writes
# under a serial one), which every level checked must report.
for w in tpcc rubis twitter; do
  gen "$w-10k-ser"  "--workload $w --txns 10000 --sessions 8 --keys 10000 --seed 1" "SER SI" 10000
  gen "$w-10k-si"   "--workload $w --txns 10000 --sessions 8 --keys 10000 --isolation si --seed 1" "SER SI" 10000
  gen "$w-10k-lost" "--workload $w --txns 10000 --sessions 8 --keys 10000 --anomaly-rate 0.001 --seed 1" "SER SI" 10000
  if [[ $big == 1 ]]; then
    gen "$w-100k-ser" "--workload $w --txns 100000 --sessions 50 --keys 100000 --seed 1" "SER SI" 100000
    gen "$w-100k-lost" "--workload $w --txns 100000 --sessions 50 --keys 100000 --anomaly-rate 0.0001 --seed 1" "SER SI" 100000
  fi
done
# Strict serializability: native JSON with each transaction's begin and commit
# on the simulation's clock (serial: intervals never overlap; si: they do).
gen strict-10k-ser  "--txns 10000 --format native --seed 1" "SER StrictSER" 10000
gen strict-10k-si   "--txns 10000 --isolation si --format native --seed 1" "SER StrictSER" 10000
if [[ $big == 1 ]]; then
  gen strict-100k-ser "--txns 100000 --sessions 50 --keys 10000 --format native --seed 1" "SER StrictSER" 100000
fi
# Strong SI (viper.StrongSI: SI whose snapshots respect real time) on the same
# kind of histories: serial ones, and from a snapshot-isolated database
# (intervals overlap; Strong SI holds, SER does not).
gen strongsi-10k-ser "--txns 10000 --format native --seed 1" "SI viper.StrongSI" 10000
gen strongsi-10k-si  "--txns 10000 --isolation si --format native --seed 1" "SI viper.StrongSI" 10000
if [[ $big == 1 ]]; then
  gen strongsi-100k-ser "--txns 100000 --sessions 50 --keys 10000 --format native --seed 1" "SI viper.StrongSI" 100000
  gen strongsi-100k-si  "--txns 100000 --sessions 50 --keys 10000 --isolation si --format native --seed 1" "SI viper.StrongSI" 100000
fi
# The database's own timestamps: Chronos's JSON with each transaction's start
# and commit timestamps from a snapshot-isolated database, checked trusting
# them (cerone.TimestampSI, one pass) and, at 100k, without (SI). The
# generator's initial value is 0; Chronos's is null, so --initial-value 0.
if [[ $big == 1 ]]; then
  gen chronos-100k-si "--txns 100000 --sessions 50 --keys 10000 --isolation si --format chronos --seed 1" \
    "cerone.TimestampSI SI" 100000 "--initial-value 0"
fi
if [[ $ts1m == 1 ]]; then
  gen chronos-1m-si "--txns 1000000 --sessions 50 --keys 10000 --isolation si --format chronos --seed 1" \
    "cerone.TimestampSI" 1000000 "--initial-value 0"
fi
if [[ $huge == 1 ]]; then
  # 1,000,000 transactions, 100 sessions, 100,000 keys (BL-like otherwise).
  gen huge-1m-ser "--txns 1000000 --sessions 100 --keys 100000 --seed 1" "SER" 1000000
fi
# Sweeps around a 2,000-transaction BL-like base point (20 sessions, reads 0.5,
# duplicates 0.05, serial execution); each sweep repeats the base point.
for s in 5 10 20 50 100; do gen "sweep-sessions-$s" "--txns 2000 --sessions $s --seed 2" "SER SI" 2000; done
for r in 0.2 0.5 0.8 0.95; do gen "sweep-read-$r" "--txns 2000 --read-ratio $r --seed 2" "SER SI" 2000; done
for d in 0 0.05 0.2 0.5; do gen "sweep-dup-$d" "--txns 2000 --dup-ratio $d --seed 2" "SER SI" 2000; done
for c in 2 4 8 16; do gen "sweep-si-concurrency-$c" "--txns 2000 --isolation si --concurrency $c --seed 2" "SER SI" 2000; done
gen sweep-uniform-keys "--txns 2000 --dist uniform --seed 2" "SER SI" 2000

# --- one timed run -------------------------------------------------------------
run_one() {  # name path level hint [extra check arguments]
  local name=$1 path=$2 level=$3 hint=$4 extra=${5:-} tag code
  tag=$work/runs/$(echo "$name-$level" | tr '/:' '__')
  # shellcheck disable=SC2086
  timed "$tag" "$limit" "$bin" check "$path" $extra -l "$level" --stats --json
  code=$timed_code
  python3 bench/checker/row.py "$name" "${path#"$root"/}" "$level" "$code" "$limit" \
    "$tag.out" "$tag.err" "$tag.time" "$hint"
}

# --- header and runs -------------------------------------------------------------
{
  bench_header "$out"
  echo "# time limit per run: ${limit} s; one process per (input, level): isosynth check INPUT -l LEVEL --stats --json, $(timed_how)"
  if [[ $repeat_below == inf ]]; then echo "# every run: median wall of $repeat runs (the row of that run)"
  else echo "# runs under 1 s: median wall of $repeat runs (the row of that run)"; fi
  echo "# transactions exclude the initial transaction; phase seconds from --stats; wall_s (elapsed), cpu_s (user+sys) and peak_rss_mb for the whole process"
  python3 bench/checker/row.py --header
} >"$out"

for entry in "${inputs[@]}"; do
  IFS='|' read -r name spec levels hint extra <<<"$entry"
  if [[ -n $only ]] && ! grep -Eq -- "$only" <<<"$name"; then continue; fi
  path=$spec
  if [[ $name == gen:* ]]; then
    ext=txt
    [[ $spec == *"--format native"* || $spec == *"--format chronos"* ]] && ext=json
    path=$root/$work/${name#gen:}.$ext
    if [[ ! -s $path ]]; then
      # shellcheck disable=SC2086
      python3 bench/checker/generate.py $spec -o "$path.tmp" 2>"$path.log" && mv "$path.tmp" "$path"
    fi
  fi
  [[ -n $extra ]] && echo "# $name: checked with $extra" >>"$out"
  for level in $levels; do
    row=$(run_one "$name" "$path" "$level" "$hint" "$extra")
    wall=$(cut -d, -f8 <<<"$row")
    if [[ $repeat -gt 1 ]] && awk -v w="$wall" -v b="$repeat_below" 'BEGIN{exit !(w != "" && (b == "inf" || w < b + 0))}'; then
      rows=$row
      for ((i = 1; i < repeat; i++)); do rows+=$'\n'$(run_one "$name" "$path" "$level" "$hint" "$extra"); done
      row=$(sort -t, -k8,8g <<<"$rows" | sed -n "$(((repeat + 1) / 2))p")
    fi
    echo "$row" >>"$out"
    echo "$row" | cut -d, -f1,4-9 >&2
  done
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out"

python3 bench/checker/compare-veristrong.py "$out" >"${out%.csv}-vs-veristrong.md"
echo "wrote $out and ${out%.csv}-vs-veristrong.md" >&2
