#!/usr/bin/env bash
# Records until the anomaly shows: what concurrent sessions interleave into
# depends on the scheduler, so one seed may miss an anomaly another finds.
#   record_until.sh TRIES SEED PATTERN... -- ISOSYNTH record ARGS...
# Runs `ISOSYNTH record ARGS... --seed S` for S = SEED, SEED+1, ... at most
# TRIES times, until its standard output matches every PATTERN (grep -E)
# and it exits 0 or 1 (a verdict); exit 0 then, saying which seed found it.
# A run that fails (exit 2 or 3) ends the test at once with its stderr;
# TRIES runs without a match end it with the last output, exit 1.
set -u
tries=$1 seed=$2
shift 2
patterns=()
while [[ $# -gt 0 && $1 != -- ]]; do patterns+=("$1"); shift; done
shift  # --
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
for ((i = 0; i < tries; i++)); do
  s=$((seed + i))
  "$@" --seed "$s" >"$out" 2>"$err"
  code=$?
  if [[ $code -ne 0 && $code -ne 1 ]]; then
    echo "seed $s: exit $code"; cat "$err"; exit 1
  fi
  ok=1
  for p in "${patterns[@]}"; do grep -Eq -- "$p" "$out" || { ok=0; break; }; done
  if [[ $ok -eq 1 ]]; then
    echo "found with seed $s (try $((i + 1)) of $tries)"
    cat "$out"
    exit 0
  fi
done
echo "not found in $tries tries (seeds $seed..$((seed + tries - 1))); the last run printed:"
cat "$out" "$err"
exit 1
