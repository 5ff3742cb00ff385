# The spec sandbox's second round of reproducers (../shared/repro, "Found at
# commit d7f3b0d"): library calls that looped in C unseen, one file changing
# the levels of the next, names and prints that forged output, a quantifier
# variable leaked out of its body, and witness relations too large to build.
# Uses cli_test from cli_tests.cmake.
set(REPRO ${CMAKE_SOURCE_DIR}/../shared/repro)
set(WS ${CMAKE_SOURCE_DIR}/examples/histories/write-skew.json)
if(EXISTS ${REPRO})
  # string.rep of "" loops without allocating: its count is charged first.
  cli_test(repro.rep0-levels 2 "^isosynth: error: .*/rep0\\.lua:1: instruction budget exceeded" ""
           ${BIN} levels --spec ${REPRO}/rep0.lua)
  cli_test(repro.rep0-check 2 "^isosynth: error: .*/rep0\\.lua:1: instruction budget exceeded" ""
           ${BIN} check ${WS} --spec ${REPRO}/rep0.lua -l SER --timeout 3)
  # table.sort of 1 MB strings: every comparison charged.
  cli_test(repro.sortlong 2 "^isosynth: error: .*/sortlong\\.lua:4: instruction budget exceeded" ""
           ${BIN} levels --spec ${REPRO}/sortlong.lua)
  # A file's globals are its own; levels cannot be replaced: as without tamper.lua.
  cli_test(repro.tamper 1 "" "^my.UpdateSer: violated$"
           ${BIN} check ${WS} --spec ${REPRO}/tamper.lua --spec ${CMAKE_SOURCE_DIR}/examples/specs/update-ser.lua
           -l my.UpdateSer)
  # One print, one escaped stderr line.
  cli_test(repro.printnl 0
           "^[^ ]*/printnl\\.lua:1: print: line1\\\\nisosynth: forged line\\\\n\\\\u001b\\[31mred$" "^1$"
           bash -c "\"$0\" levels --spec \"$1\" 2>&1 >/dev/null | tee /dev/stderr | wc -l"
           ${BIN} ${REPRO}/printnl.lua)
  cli_test(repro.leakvar 2
           "^isosynth: error: .*/leakvar\\.lua:4: level 't\\.L': axiom uses the quantified variable 't' \\(bound at .*/leakvar\\.lua:3\\) outside the body of its quantifier"
           "" ${BIN} check ${WS} --spec ${REPRO}/leakvar.lua -l t.L)
  # Names with control characters are refused where they are declared.
  cli_test(repro.nl-level 2
           "^isosynth: error: .*/nl-level\\.lua:2: level name \"L\\\\nbiswas\\.SER: allowed\" holds U\\+000A, a control or format character"
           "!allowed" ${BIN} check ${WS} --spec ${REPRO}/nl-level.lua -l "x.L\nbiswas.SER: allowed")
  cli_test(repro.nl-names-levels 2
           "^isosynth: error: .*/nl-names\\.lua:2: level name \"L\\\\nbiswas\\.SER: allowed\\\\u001b\\[2J\" holds U\\+000A"
           "" ${BIN} levels --spec ${REPRO}/nl-names.lua)
  cli_test(repro.nl-names-anomalies 2 "^isosynth: error: .*/nl-names\\.lua:2: level name" ""
           ${BIN} anomalies --spec ${REPRO}/nl-names.lua -l SER --scope 3,2,2)
  # Witness relations too large to build: refused at once, naming the size.
  cli_test(repro.arity5 2
           "^isosynth: error: .*h40\\.json: t\\.L: the witness relation r \\(Txn->Txn->Txn->Txn->Txn\\) of framework z has 115856201 possible tuples on this history, more than the 4194304 the generic oracle builds$"
           "" ${BIN} --max-memory 8G check ${REPRO}/h40.json --spec ${REPRO}/arity5.lua -l t.L --timeout 2)
  cli_test(repro.arity8 2 "^isosynth: error: .*h40\\.json: t\\.L: the witness relation r8 .* has 7984925229121 possible tuples" ""
           ${BIN} --max-memory 8G check ${REPRO}/h40.json --spec ${REPRO}/arity8.lua -l t.L --timeout 2)
  # Under the limit (2.8 million tuples), built while the deadline is polled:
  # deciding it takes about 2 s here, so a deadline of a quarter of that
  # ends it, with a margin for faster machines.
  cli_test(repro.arity4-timeout 3 "" "^t\\.L: unknown"
           ${BIN} check ${REPRO}/h40.json --spec ${IN}/witness-arity4.lua -l t.L --timeout 0.5)
endif()
# Lua's `and` on formulas, and a formula as a Lua condition: errors at the line.
cli_test(spec-lint-and 2
         "^isosynth: error: .*/lint-and\\.lua:6: a formula built here is not part of the axiom's result: did you mean `&`"
         "" ${BIN} levels --spec ${IN}/lint-and.lua)
cli_test(spec-lint-if 2 "^isosynth: error: .*/lint-if\\.lua:7: a formula built here is not part of the axiom's result"
         "" ${BIN} levels --spec ${IN}/lint-if.lua)
# An unknown framework lists the known ones.
cli_test(spec-unknown-framework 2
         "^isosynth: error: .*/unknown-framework\\.lua:2: level 'X': unknown framework 'biswaz' \\(known: adya, biswas, cerone, viper\\)$"
         "" ${BIN} levels --spec ${IN}/unknown-framework.lua)
