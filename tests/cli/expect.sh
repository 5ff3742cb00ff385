#!/usr/bin/env bash
# Runs a command and checks its exit code and output.
#   expect.sh EXIT STDERR_REGEX STDOUT_REGEX -- command args...
# STDERR_REGEX must match the whole stderr as one line when EXIT is 2 (a
# one-line error); an empty regex is not checked. A STDOUT_REGEX that starts
# with '!' must match no line of stdout.
# When the command is isosynth with the argument --json and EXIT is not 2,
# stdout must also validate against the JSON Schema of its subcommand
# (docs/schema/isosynth-output.schema.json, or $ISOSYNTH_JSON_SCHEMA), by
# validate_json.py beside this script; python3 or its jsonschema module
# missing fails the test.
set -u
want_exit=$1 err_re=$2 out_re=$3
shift 3
[ "$1" = "--" ] && shift
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
timeout 60 "$@" >"$out" 2>"$err"
code=$?
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; exit 1; }
[ "$code" -eq "$want_exit" ] || fail "exit code $code, expected $want_exit"
if [ "$want_exit" -eq 2 ]; then
  [ "$(wc -l <"$err")" -eq 1 ] || fail "expected a one-line error"
fi
if [ -n "$err_re" ]; then grep -Eq -- "$err_re" "$err" || fail "stderr does not match /$err_re/"; fi
if [ "${out_re#!}" != "$out_re" ]; then
  ! grep -Eq -- "${out_re#!}" "$out" || fail "stdout matches /${out_re#!}/"
elif [ -n "$out_re" ]; then
  grep -Eq -- "$out_re" "$out" || fail "stdout does not match /$out_re/"
fi
if [ "$want_exit" -ne 2 ] && [ "$(basename "$1")" = isosynth ]; then
  json=0 command=""
  for arg in "$@"; do
    [ "$arg" = --json ] && json=1
    case "$arg" in
      check|synth|compare|hierarchy|anomalies|predict|levels|show|run|record) [ -z "$command" ] && command=$arg ;;
    esac
  done
  if [ "$json" -eq 1 ]; then
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    schema=${ISOSYNTH_JSON_SCHEMA:-$here/../../docs/schema/isosynth-output.schema.json}
    # Debian's interpreter, which sees Debian's python3-jsonschema (scripts/setup),
    # whatever python3 comes first on PATH.
    py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
    why=$("$py" "$here/validate_json.py" "$schema" "${command:-none}" "$out" 2>&1) ||
      fail "stdout does not validate against $schema:
$why"
  fi
fi
echo "ok"
