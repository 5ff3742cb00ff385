#!/usr/bin/env bash
# The time to compute each database's table: `isosynth anomalies --db` (the
# catalogue's 14 anomalies at every level the database offers, each run by
# its schedules and decided), and `hierarchy --db` for Adya's PL-2, PL-SI
# and PL-3, on SQLite (a temporary file), PostgreSQL and MariaDB.
# Writes bench/results/databases-tables-DATE.md with machine, commit and
# date, and each table as it came out.
#   bench/databases/tables.sh [--out FILE]
# PostgreSQL and MariaDB are those of ISOSYNTH_PG_URL and ISOSYNTH_MYSQL_URL;
# without them, scripts/databases starts both for the benchmark.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
out=bench/results/databases-tables-$(date -u +%Y-%m-%d).md
bench_database_setup "$@"

levels=(-l adya.PL-1 -l adya.PL-2 -l adya.PL-2.99 -l adya.PL-SI -l adya.PL-3 -l biswas.RC -l biswas.SI -l biswas.SER)
tables=""
row() {  # row NAME URL COMMAND...
  local name=$1 url=$2 what=$3
  shift 3
  timed "$work/t" 600 "$bin" "$@" --db "$url"
  local wall rss
  wall=$(awk '/^wall/ {print $2}' "$work/t.time")
  rss=$(awk -F: '/Maximum resident/ {gsub(/ /, "", $2); print $2} /^maxrss_kb/ {print $2}' "$work/t.time" | head -1)
  echo "| $name | $what | $(printf '%.1f' "$wall") | $((rss / 1024)) | exit $timed_code |"
  tables+=$'\n'"### $name: $what"$'\n\n```\n'"$(tail -n 20 "$work/t.out")"$'\n```\n'
}

{
  echo "# The time to compute each database's table"
  echo
  bench_header "$out" | sed 's/^# /- /'
  echo "- anomalies: the catalogue (14 anomalies, examples synthesized at scope 4,2,3) at every level offered, at most 4 schedules per cell, a statement blocked after 0.25 s"
  echo "- hierarchy: adya.PL-2, adya.PL-SI, adya.PL-3 (scope 4,2,3), each separating history at every level offered"
  echo
  echo "| database | table | seconds | peak MB | |"
  echo "| --- | --- | ---: | ---: | --- |"
  row SQLite "sqlite:" anomalies anomalies "${levels[@]}"
  row PostgreSQL "$ISOSYNTH_PG_URL" anomalies anomalies "${levels[@]}"
  row MariaDB "$ISOSYNTH_MYSQL_URL" anomalies anomalies "${levels[@]}"
  row PostgreSQL "$ISOSYNTH_PG_URL" hierarchy hierarchy adya.PL-2 adya.PL-SI adya.PL-3 --scope 4,2,3
  row MariaDB "$ISOSYNTH_MYSQL_URL" hierarchy hierarchy adya.PL-2 adya.PL-SI adya.PL-3 --scope 4,2,3
  echo
  echo "## The tables"
  echo "$tables"
} >"$out"
cat "$out"
