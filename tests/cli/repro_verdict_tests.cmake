# The verdict reproducers of ../shared/repro (README there, "Found at commit
# d7f3b0d"): each as its last column says.
set(REPRO ${CMAKE_SOURCE_DIR}/../shared/repro)
if(EXISTS ${REPRO}/pl299-visible-pr.json)
  # A key a predicate read returns is read as an item too: T2's overwrite of
  # a, which T1's predicate read returned, is an item anti-dependency
  # although the new version still matches v>0, so the cycle is G2-item and
  # PL-2.99 forbids it, as PL-3 does.
  cli_test(repro-pl299-visible-pr 1 "" "^adya.PL-2.99: violated" ${BIN} check
           ${REPRO}/pl299-visible-pr.json -l adya.PL-2.99 -l adya.PL-3)
  cli_test(repro-pl299-visible-pr-pl3 1 "" "^adya.PL-3: violated" ${BIN} check
           ${REPRO}/pl299-visible-pr.json -l adya.PL-2.99 -l adya.PL-3)
  # The explanation names the edge from the returned key as an item
  # anti-dependency, and the one from the key left out as a predicate one.
  cli_test(repro-pl299-visible-pr-item-edge 1 ""
           "T1 -rw\\(a\\)-> T2: T1's pr\\(v>0: \\{a=1\\}\\) \\(line 2\\) returns a = 1, an item read of a version that T2's w\\(a,2\\) \\(line 3\\) overwrites \\(an item anti-dependency\\)"
           ${BIN} check ${REPRO}/pl299-visible-pr.json -l adya.PL-3)
  cli_test(repro-pl299-visible-pr-predicate-edge 1 "" "leaves out b: .*\\(a predicate anti-dependency\\)"
           ${BIN} check ${REPRO}/pl299-visible-pr.json -l adya.PL-3)
endif()
if(EXISTS ${REPRO}/pl299-item-read.json)
  # The same history with a plain read of a: violated, as it was.
  cli_test(repro-pl299-item-read 1 "" "^adya.PL-2.99: violated" ${BIN} check
           ${REPRO}/pl299-item-read.json -l adya.PL-2.99)
endif()
if(EXISTS ${REPRO}/internal-error-adya-pl3.json)
  # An aborted transaction's predicate read over an initial state that
  # writes nothing: allowed, the witness re-checked without an internal
  # error.
  foreach(level adya.PL-3 adya.SER adya.PL-SI)
    cli_test(repro-internal-error-${level} 0 "" "^${level}: allowed" ${BIN} check
             ${REPRO}/internal-error-adya-pl3.json -l ${level})
    cli_test(repro-internal-error-${level}-witness 0 "" "ww\\(x\\): T0 < T1" ${BIN} check
             ${REPRO}/internal-error-adya-pl3.json -l ${level} --witness)
  endforeach()
endif()
