# A check of several levels: a level that cannot be decided on the history
# (not-applicable, with its reason) hides no other level's verdict, in text
# and JSON; the exit code follows the levels decided. `-l all` and the
# default set. And the budgets of the command line: --timeout, --max-memory,
# show --timeout on a named pipe, anomalies' time limit, --stats after a
# timeout.
set(WS ${EX}/write-skew.json)
set(REPRO ${CMAKE_SOURCE_DIR}/../shared/repro)

# cerone.TimestampSI needs the database's timestamps, which write-skew.json
# lacks: not-applicable, with its reason, and SER is still violated (exit 1).
cli_test(multilevel-timestamp-ser-text-na 1 "" "^cerone.TimestampSI: not-applicable$"
         ${BIN} check ${WS} -l cerone.TimestampSI -l SER)
cli_test(multilevel-timestamp-ser-text-reason 1 "" "^  level cerone.TimestampSI reads the database's start and commit timestamps, and 2 transactions have none"
         ${BIN} check ${WS} -l cerone.TimestampSI -l SER)
cli_test(multilevel-timestamp-ser-text-verdict 1 "" "^biswas.SER: violated: write skew$"
         ${BIN} check ${WS} -l cerone.TimestampSI -l SER)
cli_test(multilevel-timestamp-ser-json-na 1 "" "\"verdict\": \"not-applicable\""
         ${BIN} check ${WS} -l cerone.TimestampSI -l SER --json)
cli_test(multilevel-timestamp-ser-json-verdict 1 "" "\"verdict\": \"violated\""
         ${BIN} check ${WS} -l cerone.TimestampSI -l SER --json)
cli_test(multilevel-timestamp-ser-json-reason 1 "" "\"reason\": \"level cerone.TimestampSI reads the database's start and commit timestamps"
         ${BIN} check ${WS} -l cerone.TimestampSI -l SER --json)
# The not-applicable entry names no checker: none ran.
cli_test(multilevel-json-no-checker 0 "" "^ok$" sh -c
  "\"$1\" check \"$2\" -l cerone.TimestampSI -l SI --json | tr -d ' \\n' | grep -q '\"level\":\"cerone.TimestampSI\",\"reason\":\"[^\"]*\",\"verdict\":\"not-applicable\"}' && echo ok"
  _ ${BIN} ${WS})
# Allowed beside not-applicable: exit 0, whatever the order.
cli_test(multilevel-timestamp-si-allowed 0 "" "^biswas.SI: allowed$"
         ${BIN} check ${WS} -l SI -l cerone.TimestampSI)
# A level of the generic oracle above 48 transactions (adya.PL-1 and
# biswas.PC on 300) beside SER, which scales: SER's verdict and the reason.
cli_test(multilevel-pl1-ser-text 0 "" "^biswas.SER: allowed$"
         ${BIN} check ${IN}/serial-300.json -l adya.PL-1 -l SER)
cli_test(multilevel-pl1-ser-text-na 0 "" "^adya.PL-1: not-applicable$"
         ${BIN} check ${IN}/serial-300.json -l adya.PL-1 -l SER)
cli_test(multilevel-pl1-ser-reason 0 "" "generic oracle handles at most 48 transactions \\(this history has 300\\)"
         ${BIN} check ${IN}/serial-300.json -l adya.PL-1 -l SER)
cli_test(multilevel-pl1-ser-json 0 "" "\"verdict\": \"allowed\""
         ${BIN} check ${IN}/serial-300.json -l adya.PL-1 -l PC -l SER --json)
cli_test(multilevel-pl1-ser-json-na 0 "" "\"verdict\": \"not-applicable\""
         ${BIN} check ${IN}/serial-300.json -l adya.PL-1 -l PC -l SER --json)
# No level decided: exit 2 and one line; for one level, its refusal as
# before, for several, every reason, grouped.
cli_test(multilevel-none-decided-one 2 "write-skew.json: level cerone.TimestampSI reads the database's start and commit timestamps" ""
         ${BIN} check ${WS} -l cerone.TimestampSI)
cli_test(multilevel-none-decided-two 2 "write-skew.json: no level can be decided on this history: cerone.TimestampSI, cerone.TimestampSER: reads the database's start"
         "" ${BIN} check ${WS} -l cerone.TimestampSI -l cerone.TimestampSER)
cli_test(multilevel-none-decided-generic 2 "serial-300.json: no level can be decided on this history: adya.PL-1, biswas.PC: has no graph characterization"
         "" ${BIN} check ${IN}/serial-300.json -l adya.PL-1 -l PC)
# A violation beside a level that cannot decide: exit 1, not 2.
cli_test(multilevel-violated-beside-na 1 "" "^biswas.SER: violated: G1a"
         ${BIN} check ${IN}/dirty-list-read.json -l adya.PL-1 -l SER)
if(EXISTS ${REPRO}/elle-la-G1b-pl1-refusal.edn)
  # Whatever PL-1 says of a list read of an intermediate append, PL-2's
  # verdict is shown.
  cli_test(multilevel-repro-pl1-pl2 1 "" "^adya.PL-2: violated: G1b"
           ${BIN} check ${REPRO}/elle-la-G1b-pl1-refusal.edn -l adya.PL-1 -l adya.PL-2)
endif()

# -l all: every level; those that do not apply in one line of text, and as
# entries in JSON.
cli_test(multilevel-all-text 1 "" "^not-applicable: cerone.TimestampSI, cerone.TimestampSER: reads the database's start and commit timestamps"
         ${BIN} check ${WS} -l all)
cli_test(multilevel-all-text-decided 1 "" "^cerone.PSI: allowed$" ${BIN} check ${WS} -l all)
cli_test(multilevel-all-text-no-entry 1 "" "!^cerone.TimestampSI: " ${BIN} check ${WS} -l all)
cli_test(multilevel-all-json 1 "" "\"level\": \"cerone.TimestampSER\"" ${BIN} check ${WS} -l all --json)
cli_test(multilevel-all-json-set 1 "" "\"levels\": \"all\"" ${BIN} check ${WS} -l all --json)
# On 300 transactions the generic oracle's levels do not apply: quick.
cli_test(multilevel-all-large 0 "" "^not-applicable: adya.PL-1, adya.PL-2, adya.PL-CS, adya.PL-2.99, biswas.PC, "
         ${BIN} check ${IN}/serial-300.json -l all --timeout 50)
# The default set: RC, RA, CC, SI, SER; StrictSER with real time.
cli_test(multilevel-default 1 "" "^biswas.RC: allowed$" ${BIN} check ${WS})
cli_test(multilevel-default-ser 1 "" "^biswas.SER: violated: write skew$" ${BIN} check ${WS})
cli_test(multilevel-default-no-strict 1 "" "!StrictSER" ${BIN} check ${WS})
cli_test(multilevel-default-strict 1 "" "^biswas.StrictSER: violated: G-single-realtime$" ${BIN} check ${EX}/stale-read.json)
cli_test(multilevel-default-json 1 "" "\"levels\": \"default\"" ${BIN} check ${WS} --json)

# --timeout: any positive, finite number runs normally; nan, inf, 0 and
# negatives are usage errors.
cli_test(timeout-huge 1 "" "^biswas.SER: violated: write skew$" ${BIN} check ${WS} -l SER --timeout 1e10)
cli_test(timeout-huger 1 "" "^biswas.SER: violated: write skew$" ${BIN} check ${WS} -l SER --timeout 1e300)
foreach(bad nan inf 0 -5 soon)
  cli_test(timeout-refused-${bad} 2 "^isosynth: error: --timeout: ${bad} is not a positive, finite number of seconds$" ""
           ${BIN} check ${WS} -l SER --timeout ${bad})
endforeach()
cli_test(timeout-refused-synth 2 "--timeout: nan is not" "" ${BIN} synth --allow SI --deny SER --timeout nan)
cli_test(fewest-for-refused 2 "--fewest-for: nan is not a finite, non-negative number of seconds" ""
         ${BIN} predict ${WS} --fewest-for nan)

# --max-memory: a positive size, or none (or 0, as it always meant) for no limit.
foreach(bad -5 0G 0.1 garbage 1e3 nan)
  cli_test(max-memory-refused-${bad} 2 "^isosynth: error: --max-memory: ${bad} is not a memory size" ""
           ${BIN} --max-memory ${bad} check ${WS} -l SER)
endforeach()
foreach(good 8G 1.5G 512MiB none 0)
  cli_test(max-memory-${good} 1 "" "biswas.SER: violated" ${BIN} --max-memory ${good} check ${WS} -l SER)
endforeach()
cli_test(max-memory-tiny 2 "out of memory: this run needs more than 100 bytes" ""
         ${BIN} --max-memory 100 check ${WS} -l SER)

# anomalies: a time limit that leaves examples unsynthesized is exit 3 (the
# whole catalogue at this scope takes about 2.5 s).
cli_test(anomalies-timeout 3 "" "\\(time limit\\)" ${BIN} anomalies --scope 10,5,5 --timeout 0.3)
cli_test(anomalies-timeout-json 3 "" "\"why\": \"time limit\"" ${BIN} anomalies --scope 10,5,5 --timeout 0.3 --json)

# show --timeout bounds the wait for a named pipe's writer.
add_test(NAME cli.show-fifo-timeout
         COMMAND sh -c "rm -f show.fifo && mkfifo show.fifo && exec \"$0\" 3 'time limit reached' '' -- \"$1\" show show.fifo --timeout 1"
                 ${EXPECT} ${BIN})
cli_test(show-timeout-refused 2 "--timeout: nan is not" "" ${BIN} show ${WS} --timeout nan)

# --stats after a timeout: the phases that completed, with their times.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_FOUND AND EXISTS ${REPRO}/gen.py)
  add_test(NAME cli.multilevel-gen-100k COMMAND ${Python3_EXECUTABLE} ${REPRO}/gen.py 100000 10000 100 text stats-100k.txt)
  set_tests_properties(cli.multilevel-gen-100k PROPERTIES FIXTURES_SETUP stats-100k)
  add_test(NAME cli.stats-after-timeout
           COMMAND ${EXPECT} 3 "biswas.SI: time limit reached after [0-9.]+ s; completed: parse [0-9.]+ s, construct [0-9.]*[1-9][0-9.]* s"
                   "biswas.SI: unknown" -- ${BIN} check stats-100k.txt -l SI --timeout 2 --stats)
  add_test(NAME cli.stats-after-timeout-measured
           COMMAND ${EXPECT} 3 "measured: 100001 transactions, [1-9][0-9]* [a-z]"
                   "" -- ${BIN} check stats-100k.txt -l SI --timeout 2 --stats)
  add_test(NAME cli.stats-after-timeout-json
           COMMAND ${EXPECT} 3 "" "\"construct\": [0-9]*[.][0-9]*[1-9]" -- ${BIN} check stats-100k.txt -l SI --timeout 2 --stats --json)
  set_tests_properties(cli.stats-after-timeout cli.stats-after-timeout-measured cli.stats-after-timeout-json
                       PROPERTIES FIXTURES_REQUIRED stats-100k)
endif()
