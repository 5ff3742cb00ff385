#!/usr/bin/env bash
# Recording throughput per database: `isosynth record` of the rw-register
# workload at a few sizes (sessions x transactions, keys), on SQLite (a
# temporary file), PostgreSQL and MariaDB, each at read committed and
# serializable where the database offers them (SQLite: serializable only).
# Writes bench/results/databases-record-DATE.md with machine, commit and date.
#   bench/databases/record.sh [--out FILE]
# PostgreSQL and MariaDB are those of ISOSYNTH_PG_URL and ISOSYNTH_MYSQL_URL;
# without them, scripts/databases starts both for the benchmark (and stops
# them after). A run that fails says so in its row, with its error.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
out=bench/results/databases-record-$(date -u +%Y-%m-%d).md
bench_database_setup "$@"

# sessions txns keys
sizes=("1 2000 100" "4 5000 100" "8 10000 100" "4 5000 10")

row() {  # row DBNAME URL LEVEL
  local name=$1 url=$2 level=$3 s n k
  for size in "${sizes[@]}"; do
    read -r s n k <<<"$size"
    if "$bin" record --db "$url" --db-level "$level" --sessions "$s" --txns "$n" --keys "$k" --seed 1 \
        -o "$work/h.json" --json >"$work/out.json" 2>"$work/err"; then
      python3 - "$work/out.json" "$name" "$level" "$s" "$n" "$k" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
name, level, s, n, k = sys.argv[2:]
aborts = ", ".join(f"{a}: {c}" for a, c in sorted(r["aborts"].items())) or "-"
print(f"| {r['database']} | {level} | {s} | {n} | {k} | {r['committed']} | {r['aborted']} ({aborts}) | {r['seconds']:.2f} | {r['throughput']:.0f} |")
PY
    else
      echo "| $name | $level | $s | $n | $k | failed: $(head -c 200 "$work/err" | tr '\n|' '  ') | | | |"
    fi
  done
}

{
  echo "# Recording throughput per database"
  echo
  bench_header "$out" | sed 's/^# /- /'
  echo "- workload: rw-register, 1-4 operations per transaction, seed 1, no skew; throughput = transactions / wall time from the first BEGIN to the last transaction's end (connections and the table's reset excluded)"
  echo "- target (issue 28): at least 1,000 transactions per second against a local PostgreSQL"
  echo
  echo "| database | level | sessions | transactions | keys | committed | aborted (by SQLSTATE) | seconds | txn/s |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
  row SQLite "sqlite:$work/bench.db" serializable
  for level in read-committed serializable; do
    row PostgreSQL "$ISOSYNTH_PG_URL" "$level"
  done
  for level in read-committed serializable; do
    row MariaDB "$ISOSYNTH_MYSQL_URL" "$level"
  done
} >"$out"
cat "$out"
