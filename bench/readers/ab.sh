#!/usr/bin/env bash
# Reading against checking, before and after, alternately: for each input,
# REPEAT rounds of (OLD, NEW), each run `check --stats` on one level; prints a
# CSV row per run: binary,input,MB,level,wall_s,user_s,peak_kb,parse_s,
# prepare_s,check_s,verdict.
#   bench/readers/ab.sh OLD NEW REPEAT LEVEL "EXTRA ARGS" INPUT...
set -euo pipefail
old=$1 new=$2 repeat=$3 level=$4 extra=$5
shift 5
echo "binary,input,MB,level,wall_s,user_s,peak_kb,parse_s,prepare_s,check_s,verdict"
for input in "$@"; do
  mb=$(awk -v b="$(stat -c %s "$input")" 'BEGIN{printf "%.1f", b/1e6}')
  for ((i = 0; i < repeat; ++i)); do
    for which in old new; do
      bin=$old; [[ $which == new ]] && bin=$new
      err=$(mktemp)
      # shellcheck disable=SC2086
      out=$(/usr/bin/time -f "TIME %e %U %M" "$bin" check "$input" -l "$level" --stats \
              --max-memory 2.5G $extra 2>"$err" || true)
      read -r wall user peak < <(grep '^TIME' "$err" | cut -d' ' -f2-)
      stats=$(grep -E "^$level: (parse|time)" "$err" | head -1)
      parse=$(sed -nE 's/.*parse ([0-9.]+) s.*/\1/p' <<<"$stats")
      # A level that does not apply prints no phases: the reading's own line.
      [[ -n $parse ]] || parse=$(sed -nE 's/^read .* in ([0-9.]+) s$/\1/p' "$err" | tail -1)
      prep=$(sed -nE 's/.*(prepare|construct) ([0-9.]+) s.*/\2/p' <<<"$stats")
      chk=$(sed -nE 's/.*(check the timestamps|solve) ([0-9.]+) s.*/\2/p' <<<"$stats")
      verdict=$(grep -E "^$level: " <<<"$out" | tail -1 | cut -d' ' -f2-)
      echo "$which,$(basename "$input"),$mb,$level,$wall,$user,$peak,${parse:-},${prep:-},${chk:-},${verdict:-}"
      rm -f "$err"
    done
  done
done
