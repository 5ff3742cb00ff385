# isosynth run, anomalies --db and predict --validate, on real databases:
# SQLite in a temporary file (plain cli_test), PostgreSQL and MariaDB
# through the test servers (db_cli_test, tests/db/CMakeLists.txt).
set(PG ${ISOSYNTH_PG_URL})
set(MY ${ISOSYNTH_MYSQL_URL})
set(DBDIR ${ISOSYNTH_DB_DIR})

# --- run on SQLite: serializable, so write skew and lost update are prevented
cli_test(run-sqlite-write-skew 1 "" "serializable: prevented by abort" ${BIN} run ${EX}/write-skew.json --db sqlite:)
cli_test(run-sqlite-lost-update-json 1 "" "\"verdict\": \"prevented by abort\"" ${BIN} run ${EX}/lost-update.json
         --db sqlite: --json)
# A serializable history is reproduced: the database returns its reads.
cli_test(run-sqlite-serializable 0 "" "serializable: reproduced" ${BIN} run ${EX}/serializable.json --db sqlite:)
# Histories no interleaving realizes are not run.
cli_test(run-g1c-no-schedule 1 "" "no schedule realizes this history" ${BIN} run ${IN}/g1c-one-key.json --db sqlite:)
cli_test(run-missed-write-no-schedule 1 "" "serializable: no schedule" ${BIN} run ${EX}/missed-session-write.json
         --db sqlite:)
cli_test(run-stale-read-no-schedule 1 "" "serializable: no schedule" ${BIN} run ${EX}/stale-read.json --db sqlite:)
# The user's schedule, and the refusals of a wrong one.
cli_test(run-given-schedule 1 "" "schedule 1 .*: T1.r\\(x,0\\) T2.r\\(x,0\\) T1.w\\(x,1\\) T1.commit T2.w\\(x,2\\)"
         ${BIN} run ${EX}/lost-update.json --db sqlite: --schedule "T1 T2 T1 T1 T2 T2")
cli_test(run-schedule-unknown 2 "--schedule: no transaction T9 in the history" "" ${BIN} run ${EX}/lost-update.json
         --db sqlite: --schedule "T1 T9")
cli_test(run-schedule-short 2 "--schedule: T2 has 3 statements" "" ${BIN} run ${EX}/lost-update.json --db sqlite:
         --schedule "T1 T1 T1 T2")
# Bad input is one line, exit 2.
cli_test(run-bad-scheme 2 "unknown database URL" "" ${BIN} run ${EX}/write-skew.json --db oracle://x/y)
cli_test(run-sqlite-no-level 2 "does not offer read committed" "" ${BIN} run ${EX}/write-skew.json --db sqlite:
         --db-level read-committed)
cli_test(run-bad-level 2 "is not an isolation level" "" ${BIN} run ${EX}/write-skew.json --db sqlite: --db-level snapshot)
cli_test(run-string-values 2 "string-values.json: T1's w\\(x,\"one\"\\): values must be integers" "" ${BIN} run
         ${IN}/string-values.json --db sqlite:)
cli_test(run-sqlite-missing-dir 2 "sqlite:/nonexistent/dir/db: connect" "" ${BIN} run ${EX}/write-skew.json
         --db sqlite:/nonexistent/dir/db)
# Hermitage's table on SQLite: every cell prevented or not realizable, and
# serializable placed with the serializable levels.
cli_test(anomalies-db-sqlite 0 "" "serializable: .*biswas.SER" ${BIN} anomalies --db sqlite: -l biswas.SI -l biswas.SER
         -l adya.PL-3)
cli_test(anomalies-db-sqlite-row 0 "" "^serializable( +[ABD]){7}   n   n   n   n( +[ABD]){5}$" ${BIN} anomalies
         --db sqlite: -l biswas.SER)

# --- PostgreSQL: a synthesized SI-not-SER history is exhibited at repeatable
# read and prevented by abort at serializable.
set(SYNTH_THEN_RUN "${BIN} synth --allow SI --deny SER --scope 4,3,3 --json > ${CMAKE_CURRENT_BINARY_DIR}/si-not-ser.json && ${BIN} run ${CMAKE_CURRENT_BINARY_DIR}/si-not-ser.json")
db_cli_test(run-pg-synth-rr 0 "" "repeatable read: exhibited" sh -c "${SYNTH_THEN_RUN} --db '${PG}' --db-level repeatable-read")
db_cli_test(run-pg-synth-ser 1 "" "commit: aborted, 40001: could not serialize" sh -c
            "${SYNTH_THEN_RUN} --db '${PG}' --db-level serializable")
set_tests_properties(cli.run-pg-synth-rr cli.run-pg-synth-ser PROPERTIES RESOURCE_LOCK "db-postgres;synth-file")
# Hermitage's order: the second write waits for the first writer's commit,
# then fails (first updater wins).
db_cli_test(run-pg-lost-update-rr-blocked 1 "" "T2.w\\(x,2\\) blocked for [0-9.]+ s, until after T1.commit" ${BIN} run
            ${EX}/lost-update.json --db ${PG} --db-level repeatable-read --schedule "T1 T2 T1 T2 T1 T2")
db_cli_test(run-pg-lost-update-rr 1 "" "repeatable read: prevented by abort" ${BIN} run ${EX}/lost-update.json
            --db ${PG} --db-level repeatable-read)
db_cli_test(run-pg-lost-update-rr-40001 1 "" "aborted, 40001: could not serialize access due to concurrent update"
            ${BIN} run ${EX}/lost-update.json --db ${PG} --db-level repeatable-read)
db_cli_test(run-pg-lost-update-rc 0 "" "read committed: exhibited" ${BIN} run ${EX}/lost-update.json --db ${PG}
            --db-level read-committed)
# A statement that waits longer than the statement timeout: the database
# ends it (57014), and the transaction counts as aborted by the database.
db_cli_test(run-pg-statement-timeout 1 "" "T2.w\\(x,2\\): statement timeout, 57014" ${BIN} run ${EX}/lost-update.json
            --db ${PG} --db-level read-committed --schedule "T1 T1 T2 T2 T1 T2" --statement-timeout 0.5
            --blocked-after 3)
db_cli_test(run-pg-unreachable 2 "postgresql:///isosynth\\?host=/nonexistent.*connect" "" ${BIN} run
            ${EX}/write-skew.json --db "postgresql:///isosynth?host=/nonexistent&user=postgres")
db_cli_test(run-pg-table-clash 2 "kv.*other columns" "" sh -c
            "psql -q -h ${DBDIR} -U postgres -d isosynth -c 'drop database if exists clash' -c 'create database clash' 2>/dev/null && psql -q -h ${DBDIR} -U postgres -d clash -c 'create schema isosynth' -c 'create table isosynth.kv (a int)' 2>/dev/null && ${BIN} run ${EX}/write-skew.json --db 'postgresql:///clash?host=${DBDIR}&user=postgres'")
db_cli_test(anomalies-db-pg 0 "" "repeatable read: .*biswas.SI" ${BIN} anomalies --db ${PG} -l adya.PL-2 -l biswas.SI
            -l biswas.SER)

# --- MariaDB: lost update at repeatable read, a deadlock at serializable.
db_cli_test(run-my-lost-update-rr 0 "" "repeatable read: exhibited" ${BIN} run ${EX}/lost-update.json --db ${MY}
            --db-level repeatable-read)
db_cli_test(run-my-lost-update-ser 1 "" "serializable: prevented by abort" ${BIN} run ${EX}/lost-update.json
            --db ${MY} --db-level serializable)
db_cli_test(run-my-lost-update-deadlock 1 "" "T2.w\\(x,2\\): aborted, 1213: Deadlock found" ${BIN} run
            ${EX}/lost-update.json --db ${MY} --db-level serializable --schedule "T1 T2 T1 T2 T1 T2")
db_cli_test(run-my-wrong-password 2 "mysql://isosynth@localhost/isosynth.*connect" "" ${BIN} run ${EX}/write-skew.json
            --db "mysql://isosynth:wrong@localhost/isosynth?socket=${DBDIR}/mysql.sock")
db_cli_test(run-my-ru-aborted-read 0 "" "read uncommitted: exhibited" ${BIN} run ${IN}/aborted-read.json
            --db ${MY} --db-level read-uncommitted)

# Each exhibited cell's recorded run, checked again from its JSON.
set(EXHIBITED ${CMAKE_CURRENT_SOURCE_DIR}/cli/db_exhibited.sh)
cli_test(anomalies-db-exhibited-sqlite 1 "" "no cell exhibited anything" ${EXHIBITED} ${BIN} sqlite:)
db_cli_test(anomalies-db-exhibited-pg 0 "" "exhibited cells, each violating serializability" ${EXHIBITED} ${BIN} ${PG})
db_cli_test(anomalies-db-exhibited-mariadb 0 "" "exhibited cells, each violating serializability" ${EXHIBITED} ${BIN}
            ${MY})
# predict --validate on a trace recorded from MariaDB at read committed
# (tests/cli/inputs/mariadb-rc-trace.json, its "recorded" field says how):
# the prediction is run on the database by a schedule that should produce
# it, and the database does.
db_cli_test(predict-validate-mariadb-rc 0 "" "validated on MariaDB [0-9.]+, read committed: the database produced the prediction; the recorded run is unserializable"
            ${BIN} predict ${IN}/mariadb-rc-trace.json --under RC --validate --db ${MY} --db-level read-committed)
db_cli_test(predict-validate-json 0 "" "\"produced\": true" ${BIN} predict ${IN}/mariadb-rc-trace.json --under RC
            --validate --db ${MY} --db-level read-committed --json)
# At serializable the same prediction is prevented.
db_cli_test(predict-validate-mariadb-ser 0 "" "serializable: (diverged|no recorded run is unserializable)" ${BIN} predict
            ${IN}/mariadb-rc-trace.json --under RC --validate --db ${MY} --db-level serializable)
# hierarchy --db: where PostgreSQL's levels sit among Adya's.
db_cli_test(hierarchy-db-pg 0 "" "repeatable read: adya.PL-SI" ${BIN} hierarchy adya.PL-2 adya.PL-SI adya.PL-3
            --scope 4,2,3 --db ${PG})
# The page: the table, where each level sits, and a picture per run.
set(DBPAGE ${CMAKE_CURRENT_BINARY_DIR}/db-page)
cli_test(anomalies-db-sqlite-html 0 "" "^[1-9][0-9]*$" sh -c
         "${BIN} anomalies --db sqlite: -l SER --html ${DBPAGE} > /dev/null && grep -q 'Behaves as' ${DBPAGE}/index.html && grep -c '<svg' ${DBPAGE}/index.html")
# The recorded run's picture.
cli_test(run-sqlite-svg 0 "" "^1$" sh -c
         "${BIN} run ${EX}/write-skew.json --db sqlite: --svg ${CMAKE_CURRENT_BINARY_DIR}/run.svg > /dev/null || grep -c '<svg' ${CMAKE_CURRENT_BINARY_DIR}/run.svg")
# A server lost mid-run: one line, exit 2, no result.
# (The lost update by a schedule whose second write waits on the first
# writer's lock, still waiting when the sessions are killed.)
db_cli_test(run-pg-killed-mid-run 0 "" "^ok: isosynth: error: postgresql" bash
            ${CMAKE_SOURCE_DIR}/tests/db/killed_mid_run.sh ${PG} - -- ${BIN} run ${EX}/lost-update.json --db ${PG}
            --db-level read-committed --schedule "T1 T2 T1 T2 T1 T2" --blocked-after 20 --statement-timeout 30)
