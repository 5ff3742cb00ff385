#!/usr/bin/env bash
# Runs a command and checks its exit code and output.
#   expect.sh EXIT STDERR_REGEX STDOUT_REGEX -- command args...
# STDERR_REGEX must match the whole stderr as one line when EXIT is 2 (a
# one-line error); an empty regex is not checked. A STDOUT_REGEX that starts
# with '!' must match no line of stdout.
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
echo "ok"
