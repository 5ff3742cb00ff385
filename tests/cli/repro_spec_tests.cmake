# The spec sandbox against the reproducers in ../shared/repro: hostile or
# runaway specs end in a one-line error naming the spec file (exit 2), or in
# the run's time limit (exit 3), never in a crash or a hang. Uses cli_test
# from cli_tests.cmake.
set(REPRO ${CMAKE_SOURCE_DIR}/../shared/repro)
set(WS ${CMAKE_SOURCE_DIR}/examples/histories/write-skew.json)
if(EXISTS ${REPRO})
  # Finalizers of the API called by hand (use after free before).
  cli_test(repro.uaf3 2 "^isosynth: error: .*/uaf3\\.lua:5: attempt to index a boolean value" ""
           ${BIN} check ${WS} --spec ${REPRO}/uaf3.lua -l t.L)
  cli_test(repro.uaf4 2 "^isosynth: error: .*/uaf4\\.lua:5: attempt to index a boolean value" ""
           ${BIN} synth --spec ${REPRO}/uaf4.lua --allow t.L --deny SER --scope 2,2,2)
  # pcall cannot swallow the instruction budget.
  cli_test(repro.pcall-loop 2 "^isosynth: error: .*/pcall-loop\\.lua:1: instruction budget exceeded" ""
           ${BIN} levels --spec ${REPRO}/pcall-loop.lua)
  cli_test(repro.pattern 2 "^isosynth: error: .*/pattern\\.lua:3: string\\.find is not available in specs" ""
           ${BIN} levels --spec ${REPRO}/pattern.lua)
  cli_test(repro.gcloop 2 "^isosynth: error: .*/gcloop\\.lua:1: setmetatable: __gc is not available in specs" ""
           ${BIN} levels --spec ${REPRO}/gcloop.lua)
  cli_test(repro.deep-union 2 "^isosynth: error: .*/deep-union\\.lua:4: formula nested more than 1000 levels deep" ""
           ${BIN} levels --spec ${REPRO}/deep-union.lua)
  cli_test(repro.deep-and 2 "^isosynth: error: .*/deep-and\\.lua:4: formulas hold more than 64 MiB" ""
           ${BIN} levels --spec ${REPRO}/deep-and.lua)
  # print goes to stderr: stdout is what it is without the spec.
  cli_test(repro.print 0 "print\\.lua:1: print: \\{\"bogus\": true\\}" ""
           bash -c "diff <(\"$0\" levels --json) <(\"$0\" levels --spec \"$1\" --json)"
           ${BIN} ${REPRO}/print.lua)
  # Its CNF encoding was exponential; now decided well within the limit.
  cli_test(repro.bigformula2 1 "" "t.L: violated" ${BIN} check ${WS} --spec ${REPRO}/bigformula2.lua
           -l t.L --timeout 5)
endif()
# A translation that outlasts --timeout leaves the level unknown: exit 3.
cli_test(spec-translation-timeout 3 "" "^t.L: unknown$"
         ${BIN} check ${WS} --spec ${IN}/slow-translation.lua -l t.L --timeout 2)
