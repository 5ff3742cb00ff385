#!/usr/bin/env bash
# A server lost mid-run ends `isosynth run` with one line naming the
# database and the step, exit 2, and nothing printed as a result.
#   db_run_killed.sh ISOSYNTH URL HISTORY
# Runs the lost update by a schedule whose second write waits on the first
# writer's lock, with --blocked-after long enough that the run is still
# waiting when, a second in, every other backend of the database is
# terminated (pg_terminate_backend, as an administrator killing the
# sessions would).
set -u
bin=$1 url=$2 history=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" run "$history" --db "$url" --db-level read-committed --schedule "T1 T2 T1 T2 T1 T2" \
  --blocked-after 20 --statement-timeout 30 >"$work/out" 2>"$work/err" &
pid=$!
sleep 1
psql "$url" -qAt -c "select count(pg_terminate_backend(pid)) from pg_stat_activity
                     where datname = current_database() and pid <> pg_backend_pid()" >"$work/killed"
wait "$pid"
code=$?
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$work/out"; echo "--- stderr"; cat "$work/err"; exit 1; }
[ "$(cat "$work/killed")" -ge 1 ] || fail "no session was running to be killed"
[ "$code" -eq 2 ] || fail "exit code $code, expected 2"
[ "$(wc -l <"$work/err")" -eq 1 ] || fail "expected a one-line error"
grep -Eq "^isosynth: error: postgresql://[^ ]*: [a-z]" "$work/err" || fail "the error does not name the database and the step"
[ ! -s "$work/out" ] || fail "something was printed as a result"
echo "ok: $(cat "$work/err")"
