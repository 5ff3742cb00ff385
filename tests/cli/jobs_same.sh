#!/usr/bin/env bash
# Runs an isosynth command with --jobs 1 and with --jobs N, and checks that
# both give the same exit code and the same standard output, byte for byte,
# but for the times a command reports (hierarchy's "..., 1.2 s" summary and
# its JSON "seconds"), which differ from run to run whatever the jobs.
#   jobs_same.sh N EXIT -- isosynth-command args...
set -u
jobs=$1 want_exit=$2
shift 2
[ "$1" = "--" ] && shift
one=$(mktemp) many=$(mktemp)
trap 'rm -f "$one" "$many"' EXIT
mask() { sed -E -e 's/, [0-9]+\.[0-9] s$/, (time) s/' -e 's/"seconds": [0-9.e+-]+/"seconds": (time)/'; }
timeout 300 "$@" --jobs 1 2>/dev/null | mask >"$one"
code1=${PIPESTATUS[0]}
timeout 300 "$@" --jobs "$jobs" 2>/dev/null | mask >"$many"
code2=${PIPESTATUS[0]}
[ "$code1" -eq "$want_exit" ] || { echo "FAIL: --jobs 1 exited $code1, expected $want_exit"; cat "$one"; exit 1; }
[ "$code2" -eq "$want_exit" ] || { echo "FAIL: --jobs $jobs exited $code2, expected $want_exit"; cat "$many"; exit 1; }
[ -s "$one" ] || { echo "FAIL: no output"; exit 1; }
diff "$one" "$many" >/dev/null || { echo "FAIL: --jobs 1 and --jobs $jobs differ"; diff "$one" "$many" | head -40; exit 1; }
echo "same output ($(wc -l <"$one") lines) with --jobs 1 and --jobs $jobs"
