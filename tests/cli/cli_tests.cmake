# End-to-end tests of the isosynth executable: verdicts and exit codes, and
# bad input giving a one-line error naming the file and position, exit 2.
set(EXPECT ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.sh)
set(EX ${CMAKE_SOURCE_DIR}/examples/histories)
set(IN ${CMAKE_CURRENT_SOURCE_DIR}/cli/inputs)
set(BIN $<TARGET_FILE:isosynth>)

function(cli_test name exit err out)
  add_test(NAME cli.${name} COMMAND ${EXPECT} ${exit} "${err}" "${out}" -- ${ARGN})
endfunction()

# Verdicts and exit codes.
cli_test(write-skew-ser 1 "" "biswas.SER: denied" ${BIN} check ${EX}/write-skew.json --level SER)
cli_test(write-skew-si 0 "" "co: T0 < T[12] < T[12]" ${BIN} check ${EX}/write-skew.json --level SI)
cli_test(fekete-json 1 "" "\"verdict\": \"denied\"" ${BIN} check ${EX}/fekete-read-only.json
         -l SI -l UpdateSer -l SER --json)
cli_test(user-spec 0 "" "my.UpdateSer: allowed" ${BIN} check ${EX}/fekete-read-only.json
         --spec ${CMAKE_SOURCE_DIR}/examples/specs/update-ser.lua -l my.UpdateSer)
cli_test(levels 0 "" "cerone.NLU" ${BIN} levels)
cli_test(show 0 "" "T1: r\\(x,0\\) w\\(x,1\\)" ${BIN} show ${EX}/lost-update.json)
cli_test(thin-air-denied 1 "" "no committed transaction wrote" ${BIN} check ${IN}/thin-air.json -l cerone.RA)
cli_test(int-denied 1 "" "INT" ${BIN} check ${IN}/int-violation.json -l RA)

# Bad input: one line, file and position, exit 2.
cli_test(malformed-json 2 "malformed.json:2:[0-9]+: " "" ${BIN} check ${IN}/malformed.json -l SER)
cli_test(unknown-op 2 "unknown-op.json:2:[0-9]+: .*unknown operation kind" "" ${BIN} check ${IN}/unknown-op.json -l SER)
cli_test(duplicate-id 2 "duplicate-id.json:1:[0-9]+: .*T1" "" ${BIN} check ${IN}/duplicate-id.json -l SER)
cli_test(missing-file 2 "nope.json" "" ${BIN} check ${IN}/nope.json -l SER)
cli_test(unknown-level 2 "unknown level 'NOPE'" "" ${BIN} check ${EX}/write-skew.json -l NOPE)
cli_test(spec-syntax-error 2 "syntax-error.lua:3: " "" ${BIN} levels --spec ${IN}/syntax-error.lua)
cli_test(spec-unknown-relation 2 "unknown-relation.lua:3: .*unknown relation 'nope'" ""
         ${BIN} levels --spec ${IN}/unknown-relation.lua)
cli_test(spec-sort-mismatch 2 "sort-mismatch.lua:4: .*sort mismatch" "" ${BIN} levels --spec ${IN}/sort-mismatch.lua)
cli_test(spec-not-a-formula 2 "not-a-formula.lua:2: .*must return a formula" ""
         ${BIN} levels --spec ${IN}/not-a-formula.lua)
cli_test(spec-loop 2 "loop.lua:[34]: instruction budget exceeded" "" ${BIN} levels --spec ${IN}/loop.lua)
cli_test(spec-memory 2 "memory.lua" "" ${BIN} levels --spec ${IN}/memory.lua)
cli_test(spec-missing 2 "nope.lua: cannot open" "" ${BIN} levels --spec ${IN}/nope.lua)
cli_test(usage-error 2 "" "" ${BIN} check)
