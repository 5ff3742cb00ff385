# `isosynth record` against real databases: it finds on its own the anomalies
# each product level allows (lost updates at MariaDB repeatable read, write
# skew at PostgreSQL repeatable read) and none where the level forbids them
# (PostgreSQL serializable, SQLite). What concurrent sessions produce depends
# on the scheduler, so the finding tests repeat the recording with seeds S,
# S+1, ... up to 10 times (record_until.sh); each run takes well under 10 s.
set(RECORD_UNTIL ${CMAKE_CURRENT_LIST_DIR}/record_until.sh)
set(RECORD_DIR ${CMAKE_CURRENT_BINARY_DIR}/record)
file(MAKE_DIRECTORY ${RECORD_DIR})
set(BIN $<TARGET_FILE:isosynth>)

# SQLite needs no server (cli_test, tests/cli/cli_tests.cmake).
# SQLite serializes every transaction: nothing to find, whatever the seed.
cli_test(record.sqlite-serializable 0 "" "biswas.SER: allowed" ${BIN} record --db sqlite:${RECORD_DIR}/sqlite.db
            --db-level serializable --sessions 4 --txns 1000 --keys 4 --seed 1 -o ${RECORD_DIR}/sqlite.json
            --check SER)
cli_test(record.sqlite-list-append 0 "" "biswas.SER: allowed" ${BIN} record --db sqlite:${RECORD_DIR}/sqlite-la.db
            --db-level serializable --workload list-append --sessions 4 --txns 1000 --keys 4 --skew 1 --seed 1
            -o ${RECORD_DIR}/sqlite-la.json --check SER)
cli_test(record.sqlite-predicate 0 "" "biswas.SER: allowed" ${BIN} record --db sqlite:${RECORD_DIR}/sqlite-pr.db
            --db-level serializable --workload predicate --sessions 4 --txns 500 --keys 8 --seed 1
            -o ${RECORD_DIR}/sqlite-pr.json --check SER)
# The summary and the history written: every transaction, with its times.
cli_test(record.sqlite-json 0 "" "\"committed\": [0-9]+" ${BIN} record --db sqlite:${RECORD_DIR}/sqlite-json.db
            --db-level serializable --txns 100 --seed 2 -o ${RECORD_DIR}/sqlite-json.json --json)
# --timeout bounds the whole run: exit 3, no history.
cli_test(record.timeout 3 "time limit reached" "" ${BIN} record --db sqlite:${RECORD_DIR}/timeout.db
         --db-level serializable --txns 300000 --timeout 1 -o ${RECORD_DIR}/never.json)
# Bad input is one line, exit 2: a level the database does not offer, a
# database that cannot be reached, an option out of range.
cli_test(record.sqlite-level-not-offered 2 "does not offer repeatable read" "" ${BIN} record
            --db sqlite:${RECORD_DIR}/sqlite-level.db --db-level repeatable-read -o ${RECORD_DIR}/never.json)
cli_test(record.unreachable 2 "postgresql:///isosynth\\?host=${RECORD_DIR}/no-server.*connect" "" ${BIN} record
            --db "postgresql:///isosynth?host=${RECORD_DIR}/no-server" --db-level serializable
            -o ${RECORD_DIR}/never.json)
cli_test(record.unwritable-output 2 "no-such-dir/h.json: cannot write the history: no such directory" "" ${BIN}
         record --db sqlite:${RECORD_DIR}/x.db --db-level serializable -o ${RECORD_DIR}/no-such-dir/h.json)
cli_test(record.unknown-level 2 "--db-level" "" ${BIN} record --db sqlite:${RECORD_DIR}/x.db --db-level snapshot)
cli_test(record.no-sessions 2 "--sessions" "" ${BIN} record --db sqlite:${RECORD_DIR}/x.db --db-level serializable
            --sessions 0)
cli_test(record.unknown-check-level 2 "NOSUCH" "" ${BIN} record --db sqlite:${RECORD_DIR}/x.db
            --db-level serializable --check NOSUCH)

# With the servers of the databases fixture (tests/db/CMakeLists.txt:
# db_cli_test, ISOSYNTH_PG_URL, ISOSYNTH_MYSQL_URL).
if(COMMAND db_cli_test)
  # PostgreSQL's repeatable read is snapshot isolation: write skew shows
  # (SI allows the history, SER does not).
  db_cli_test(record.pg-repeatable-read-write-skew 0 "" "biswas.SER: violated" bash ${RECORD_UNTIL} 10 1
              "biswas.SI: allowed" "biswas.SER: violated" -- ${BIN} record --db "${ISOSYNTH_PG_URL}"
              --db-level repeatable-read --sessions 8 --txns 1000 --keys 4 -o ${RECORD_DIR}/pg-rr.json
              --check SI SER)
  # PostgreSQL's serializable: nothing, in a run with as many conflicts.
  db_cli_test(record.pg-serializable 0 "" "biswas.SER: allowed" ${BIN} record --db "${ISOSYNTH_PG_URL}"
              --db-level serializable --sessions 8 --txns 1000 --keys 6 --seed 1 -o ${RECORD_DIR}/pg-ser.json
              --check SER)
  # MariaDB's repeatable read loses updates: SI (which forbids them) is violated.
  db_cli_test(record.mariadb-repeatable-read-lost-update 0 "" "lost update" bash ${RECORD_UNTIL} 10 1
              "biswas.SI: violated: lost update" -- ${BIN} record --db "${ISOSYNTH_MYSQL_URL}"
              --db-level repeatable-read --sessions 8 --txns 2000 --keys 4 -o ${RECORD_DIR}/my-rr.json
              --check SI)
  db_cli_test(record.pg-level-not-offered 2 "does not offer read uncommitted" "" ${BIN} record
              --db "${ISOSYNTH_PG_URL}" --db-level read-uncommitted -o ${RECORD_DIR}/never.json)
  # A server lost mid-run: one line, exit 2, no history (the check is the
  # script's own: progress lines precede the error).
  db_cli_test(record.pg-killed-mid-run 0 "" "^ok: isosynth: error: postgresql" bash
              ${CMAKE_CURRENT_LIST_DIR}/killed_mid_run.sh "${ISOSYNTH_PG_URL}" ${CMAKE_CURRENT_BINARY_DIR}/killed.json --
              ${BIN} record --db "${ISOSYNTH_PG_URL}" --db-level read-committed --sessions 4 --txns 200000 --keys 100
              --seed 1 -o ${CMAKE_CURRENT_BINARY_DIR}/killed.json)
endif()
