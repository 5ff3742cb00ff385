#!/usr/bin/env bash
# bench/isolde-anchor.sh OLD NEW [--reps N] [--only REGEX] [--timeout S]
#
# Every problem of Isolde's run on this machine kind
# (../shared/anchors/isolde-here-2026-11-27.csv: Isolde built from source,
# Glucose, scope T,5,5, no blind writes) as one whole `isosynth synth`
# process (start to exit), two builds alternately (OLD then NEW, N times,
# at least 3), beside Isolde's solving time (TIMEOUT_60s counted as 60 s);
# the target is Isolde / NEW >= 20. Writes the machine header (bench/lib.sh)
# and the table to bench/results/isolde-anchor-DATE.md, the raw rows beside
# it (.rows.csv; committed renamed to isolde-anchor-DATE.csv). Run from anywhere; OLD and NEW are isosynth executables.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
[[ $# -ge 2 ]] || { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
shift 2
out=bench/results/isolde-anchor-$(date -u +%Y-%m-%d).md
{
  echo "# Isolde's anchor problems, whole isosynth process, before and after"
  echo
  bench_header "$out" | sed 's/^# /- /'
  echo "- before: $old; after: $new"
  echo "- each row: \`isosynth synth --allow A --deny D --scope T,5,5 --no-blind-writes --no-minimize --stats\`,"
  echo "  wall time from process start to exit (median), CPU time (user + system) in parentheses"
} >"$out"
python3 bench/isolde-anchor.py "$old" "$new" ../shared/anchors/isolde-here-2026-11-27.csv "$out" "$@"
