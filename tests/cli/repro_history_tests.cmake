# The history reproducers of ../shared/repro (README there): each as its last
# column says. Also the run's budgets: --timeout on a large history, and
# --max-memory.
set(REPRO ${CMAKE_SOURCE_DIR}/../shared/repro)
if(EXISTS ${REPRO})
  # A transaction id that spells a verdict line: escaped, so no line is forged.
  cli_test(repro-n-inject 1 "" "!^biswas.SER: allowed" ${BIN} check ${REPRO}/n-inject.json -l SER)
  cli_test(repro-n-inject-escaped 1 "" "T1\\\\nbiswas.SER: allowed" ${BIN} check ${REPRO}/n-inject.json -l SER)
  # ... nor a DOT statement outside a quoted string.
  add_test(NAME cli.repro-n-inject-dot
           COMMAND sh -c "${BIN} check ${REPRO}/n-inject.json -l SER --dot n-inject.dot >/dev/null; \
                          test -s n-inject.dot && ! grep -Eq '^[[:space:]]*evil' n-inject.dot")
  # Elle's list-append rules: named violations, not passes.
  cli_test(repro-e-g1a-prefix 1 "" "biswas.SER: violated: G1a" ${BIN} check ${REPRO}/e-g1a-prefix.edn -l SER)
  cli_test(repro-e-phantom-elem 1 "" "biswas.SER: violated: thin-air read" ${BIN} check
           ${REPRO}/e-phantom-elem.edn -l SER)
  cli_test(repro-e-readdup 1 "" "biswas.SER: violated: duplicate elements" ${BIN} check
           ${REPRO}/e-readdup.edn -l SER)
  cli_test(repro-e-incompat 1 "" "biswas.RA: violated: incompatible order" ${BIN} check
           ${REPRO}/e-incompat.edn -l RA)
  foreach(level CC adya.PL-1 adya.PL-SI cerone.SER)
    cli_test(repro-e-incompat-${level} 1 "" "violated: incompatible order" ${BIN} check
             ${REPRO}/e-incompat.edn -l ${level})
  endforeach()
  # --timeout bounds the whole run on 100,000 transactions (the time it takes
  # is measured in bench/results, not here). The repro's SER check now ends
  # in under 2 s; SI on the same history takes several times longer, so it
  # is the run the time limit cuts.
  find_program(PYTHON3 python3)
  if(PYTHON3)
    # The 100,000-transaction history, made once for the tests that use it.
    add_test(NAME cli.gen-100k COMMAND ${PYTHON3} ${REPRO}/gen.py 100000 10000 100 text gen-100k.txt)
    set_tests_properties(cli.gen-100k PROPERTIES FIXTURES_SETUP gen-100k)
    add_test(NAME cli.repro-gen-timeout
             COMMAND ${EXPECT} 3 "" "biswas.SI: unknown" -- ${BIN} check gen-100k.txt -l SI --timeout 2)
    set_tests_properties(cli.repro-gen-timeout PROPERTIES FIXTURES_REQUIRED gen-100k)
    # Notes of the reader may come first; the error is the last line. Under
    # AddressSanitizer the address space cannot be capped (cli/memory_limit.hpp).
    if(NOT CMAKE_CXX_FLAGS MATCHES "sanitize=address")
      add_test(NAME cli.max-memory
               COMMAND sh -c "${BIN} check gen-100k.txt -l SER --max-memory 200M 2>mem.err >/dev/null; \
                              test $? -eq 2 && tail -n 1 mem.err | grep -q 'out of memory: .*--max-memory'")
      set_tests_properties(cli.max-memory PROPERTIES FIXTURES_REQUIRED gen-100k)
    endif()
  endif()
endif()
