# --jobs: the same output, byte for byte, whatever the number of threads
# (check's levels, hierarchy's and compare's searches, anomalies' rows, the
# catalogue's anomalies naming a history run at once), and --jobs's check.
set(EXPECT ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.sh)
set(JOBS_SAME ${CMAKE_CURRENT_SOURCE_DIR}/cli/jobs_same.sh)
set(EX ${CMAKE_SOURCE_DIR}/examples/histories)
set(IN ${CMAKE_CURRENT_SOURCE_DIR}/cli/inputs)
set(BIN $<TARGET_FILE:isosynth>)

function(jobs_same name exit)
  add_test(NAME cli.jobs-same.${name} COMMAND ${JOBS_SAME} 2 ${exit} -- ${ARGN})
endfunction()

# Every shipped level at once: allowed, violated and not-applicable entries.
jobs_same(check-all-long-fork 1 ${BIN} check ${EX}/long-fork.json -l all)
jobs_same(check-all-long-fork-json 1 ${BIN} check ${EX}/long-fork.json -l all --json)
jobs_same(check-all-write-skew-witness 1 ${BIN} check ${EX}/write-skew.json -l all --witness --all)
jobs_same(check-all-serializable 0 ${BIN} check ${EX}/serializable.json -l all --json)
jobs_same(check-default-three 1 ${BIN} check ${IN}/three-anomalies.json)
jobs_same(check-serial-300 0 ${BIN} check ${IN}/serial-300.json -l all)
jobs_same(hierarchy 0 ${BIN} hierarchy RC RA CC SI SER --scope 3,2,2)
jobs_same(hierarchy-json 0 ${BIN} hierarchy RA cerone.RA plume.TapRA CC SER --scope 3,2,2 --json)
jobs_same(compare 0 ${BIN} compare SI SER --scope 4,2,2)
jobs_same(compare-json 0 ${BIN} compare RA plume.TapRA --scope 3,2,2 --json)
jobs_same(anomalies 0 ${BIN} anomalies -l SER -l SI -l RA --scope 4,2,3)
jobs_same(anomalies-json 0 ${BIN} anomalies -l PC -l CC --scope 4,2,3 --json)
# The found history's name: the catalogue decided on two threads.
jobs_same(synth 0 ${BIN} synth --allow CC --deny PC --scope 6,3,3)
jobs_same(synth-json-count 0 ${BIN} synth --allow SI --deny SER --scope 4,3,3 --count 3 --json)

add_test(NAME cli.jobs-zero COMMAND ${EXPECT} 2 "--jobs: 0 is not a number of jobs" "" -- ${BIN} check
         ${EX}/write-skew.json --jobs 0)
add_test(NAME cli.jobs-word COMMAND ${EXPECT} 2 "--jobs: two is not a number of jobs" "" -- ${BIN} hierarchy
         RA SER --jobs two)
add_test(NAME cli.jobs-many COMMAND ${EXPECT} 1 "" "biswas.SER: violated" -- ${BIN} check ${EX}/write-skew.json
         -l SER -l SI -j 64)
