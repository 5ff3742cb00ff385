#!/usr/bin/env bash
# A server lost mid-run ends a command with one line naming the database and
# the step, exit 2, nothing printed as a result, and no file written.
#   killed_mid_run.sh URL NO_FILE -- COMMAND...
# Runs COMMAND against the PostgreSQL at URL and, 1.5 s in, terminates every
# other backend of its database (pg_terminate_backend, as an administrator
# killing the sessions would). NO_FILE must not exist afterwards (the
# history a recording would have written; "-" for none).
set -u
url=$1 no_file=$2
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$@" >"$work/out" 2>"$work/err" &
pid=$!
sleep 1.5
psql "$url" -qAt -c "select count(pg_terminate_backend(pid)) from pg_stat_activity
                     where datname = current_database() and pid <> pg_backend_pid()" >"$work/killed"
wait "$pid"
code=$?
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$work/out"; echo "--- stderr"; cat "$work/err"; exit 1; }
[ "$(cat "$work/killed")" -ge 1 ] || fail "no session was running to be killed"
[ "$code" -eq 2 ] || fail "exit code $code, expected 2"
# Progress lines may come first; the error is the last line, and the only
# one that is not progress.
grep -v '^recording \[' "$work/err" >"$work/errors"
[ "$(wc -l <"$work/errors")" -eq 1 ] || fail "expected a one-line error"
grep -Eq "^isosynth: error: postgresql://[^ ]*: [a-z]" "$work/errors" || fail "the error does not name the database and the step"
[ "$no_file" = - ] || [ ! -e "$no_file" ] || fail "$no_file was written"
[ ! -s "$work/out" ] || fail "something was printed as a result"
echo "ok: $(cat "$work/errors")"
