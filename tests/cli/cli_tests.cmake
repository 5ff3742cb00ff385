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
cli_test(write-skew-ser 1 "" "biswas.SER: violated" ${BIN} check ${EX}/write-skew.json --level SER)
cli_test(write-skew-si 0 "" "co: T0 < T[12] < T[12]" ${BIN} check ${EX}/write-skew.json --level SI --witness)
# Both acyclicity encodings.
cli_test(write-skew-si-eager 0 "eager acyclicity" "biswas.SI: allowed" ${BIN} check
         ${EX}/write-skew.json --level SI --acyclicity eager --stats)
cli_test(write-skew-si-lazy 0 "lazy acyclicity" "biswas.SI: allowed" ${BIN} check ${EX}/write-skew.json
         --level SI --acyclicity lazy --stats)
# Eager acyclicity is cubic: refused on a large graph, with the way out.
cli_test(eager-too-large 2 "serial-300.json: eager acyclicity.*use lazy" "" ${BIN} check
         ${IN}/serial-300.json -l SER --acyclicity eager)
cli_test(serial-300-auto 0 "" "biswas.SER: allowed" ${BIN} check ${IN}/serial-300.json -l SER)
cli_test(bad-acyclicity 2 "--acyclicity" "" ${BIN} check ${EX}/write-skew.json -l SER --acyclicity often)
cli_test(write-skew-generic 0 "" "co: T0 < T[12] < T[12]" ${BIN} check ${EX}/write-skew.json --level PC)
cli_test(fekete-json 1 "" "\"verdict\": \"violated\"" ${BIN} check ${EX}/fekete-read-only.json
         -l SI -l UpdateSer -l SER --json)
cli_test(user-spec 0 "" "my.UpdateSer: allowed" ${BIN} check ${EX}/fekete-read-only.json
         --spec ${CMAKE_SOURCE_DIR}/examples/specs/update-ser.lua -l my.UpdateSer)
cli_test(levels 0 "" "cerone.NLU" ${BIN} levels)
cli_test(show 0 "" "T1: r\\(x,0\\) w\\(x,1\\)" ${BIN} show ${EX}/lost-update.json)
cli_test(thin-air-violated 1 "" "no committed transaction wrote" ${BIN} check ${IN}/thin-air.json -l cerone.RA)
cli_test(int-violated 1 "" "INT" ${BIN} check ${IN}/int-violation.json -l RA)
# Operation-level histories. A re-read of another committed value is a read
# event like any other, decided by the level: Read Committed and Adya's PL-1
# and PL-2 allow it, RA and PL-2.99 name it.
cli_test(non-repeatable-read-ra 1 "" "biswas.RA: violated: non-repeatable read" ${BIN} check
         ${IN}/non-repeatable-read.json -l RA)
cli_test(non-repeatable-read-ser 1 "" "T2 -rw\\(x\\)-> T1 -wr\\(x\\)-> T2 \\(T2 reads x twice" ${BIN}
         check ${IN}/non-repeatable-read.json -l SER)
cli_test(non-repeatable-read-pl-2.99 1 "" "adya.PL-2.99: violated" ${BIN} check
         ${IN}/non-repeatable-read.json -l adya.PL-2.99)
foreach(level biswas.RC adya.PL-1 adya.PL-2 adya.PL-CS)
  cli_test(non-repeatable-read-${level} 0 "" "${level}: allowed" ${BIN} check
           ${IN}/non-repeatable-read.json -l ${level})
endforeach()
# Read Committed after Biswas & Enea: T2 reads y from T1, then an older x
# than T1's. Adya's PL-2 allows it (no G1c).
cli_test(read-committed-violated 1 "" "biswas.RC: violated: non-monotonic read" ${BIN} check
         ${IN}/read-committed-violation.json -l RC)
cli_test(read-committed-pl-2 0 "" "adya.PL-2: allowed" ${BIN} check
         ${IN}/read-committed-violation.json -l adya.PL-2)
# Aborted and intermediate reads: PL-1 permits them and sets them aside,
# saying so; every other level names them. In a list read too, PL-1 decides.
cli_test(dirty-read-pl-1 0 "" "note: T2: r\\(x,1\\) reads the write of aborted T1 \\(G1a\\): adya.PL-1 permits it"
         ${BIN} check ${IN}/dirty-read.json -l adya.PL-1)
cli_test(dirty-read-pl-2 1 "" "adya.PL-2: violated: G1a" ${BIN} check ${IN}/dirty-read.json -l adya.PL-2)
cli_test(dirty-read-rc 1 "" "biswas.RC: violated: G1a" ${BIN} check ${IN}/dirty-read.json -l RC)
cli_test(dirty-list-read-pl-1 1 "" "adya.PL-1: allowed" ${BIN} check ${IN}/dirty-list-read.json -l SER -l adya.PL-1)
# The reads no execution justifies carry Plume's name too (its patterns
# TAP-a to TAP-f), on the graph checkers' path and the generic oracle's, in
# text and in JSON.
cli_test(plume-thin-air 1 "" "biswas.RC: violated: thin-air read \\(Plume TAP-a\\)" ${BIN} check
         ${IN}/thin-air.json -l RC)
cli_test(plume-aborted-read 1 "" "adya.PL-2: violated: G1a \\(Plume TAP-b: aborted read\\)" ${BIN}
         check ${IN}/dirty-read.json -l adya.PL-2)
cli_test(plume-aborted-read-json 1 "" "\"code\": \"TAP-b\"" ${BIN} check ${IN}/dirty-read.json
         -l SER --json)
cli_test(plume-future-read 1 "" "biswas.SER: violated: future read \\(Plume TAP-c\\)" ${BIN} check
         ${IN}/future-read.json -l SER)
cli_test(plume-not-my-own-write 1 "" "biswas.RA: violated: INT \\(Plume TAP-d: not-my-own-write\\)"
         ${BIN} check ${IN}/not-my-own-write.json -l RA)
cli_test(plume-not-my-own-write-json 1 "" "\"name\": \"not-my-own-write\"" ${BIN} check
         ${IN}/not-my-own-write.json -l PC --json)
cli_test(plume-not-my-last-write 1 "" "INT \\(Plume TAP-e: not-my-last-write\\)" ${BIN} check
         ${IN}/not-my-last-write.json -l plume.NoFracturedRead)
cli_test(plume-not-my-last-write-message 1 "" "T1: r\\(x,1\\) returns its own overwritten write w\\(x,1\\), not its last write w\\(x,2\\)"
         ${BIN} check ${IN}/not-my-last-write.json -l CC)
cli_test(plume-intermediate-read 1 "" "biswas.SI: violated: G1b \\(Plume TAP-f: intermediate read\\)"
         ${BIN} check ${IN}/intermediate-read.json -l SI)
# Plume's read-order patterns (TAP-j, TAP-h/i, TAP-k/l) and dbcop's
# repeatable read, by the generic oracle.
cli_test(plume-non-repeatable-read 1 "" "plume.NoNonRepeatableRead: violated" ${BIN} check
         ${IN}/non-repeatable-read.json -l plume.NoNonRepeatableRead)
cli_test(dbcop-rr-violated 1 "" "dbcop.RR: violated" ${BIN} check ${IN}/non-repeatable-read.json
         -l dbcop.RR)
cli_test(dbcop-rr-fractured 0 "" "dbcop.RR: allowed" ${BIN} check ${EX}/fractured-read.json -l dbcop.RR)
cli_test(plume-non-monotonic-read 1 "" "plume.NoNonMonotonicRead: violated" ${BIN} check
         ${EX}/fractured-read.json -l plume.NoNonMonotonicRead)
cli_test(plume-fractured-read-order 0 "" "plume.NoFracturedRead: allowed" ${BIN} check
         ${EX}/fractured-read.json -l plume.NoFracturedRead)
cli_test(plume-fractured-read-session 1 "" "plume.NoFracturedRead: violated" ${BIN} check
         ${EX}/missed-session-write.json -l plume.NoFracturedRead)

# RA and CC by saturation: the anomaly named, its reader and key described.
cli_test(fractured-read-ra 1 "" "biswas.RA: violated: fractured read" ${BIN} check
         ${EX}/fractured-read.json --level RA)
cli_test(fractured-read-ra-cycle 1 "" "T2 reads y from T0.*T1 -ww\\(y\\)-> T0 -init-> T1" ${BIN}
         check ${EX}/fractured-read.json --level biswas.RA)
cli_test(causality-cc 1 "" "biswas.CC: violated: causality violation" ${BIN} check
         ${EX}/causality-violation.json -l RA -l CC)
cli_test(causality-ra-json 0 "" "\"checker\": \"saturation\"" ${BIN} check
         ${EX}/causality-violation.json -l RA --json)

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

# Synthesis and comparison.
cli_test(synth-found 0 "" "biswas.SER: violated" ${BIN} synth --allow SI --deny SER --scope 4,3,3)
cli_test(synth-none 1 "" "none: no history" ${BIN} synth --allow SER --deny SI --scope 3,2,2)
cli_test(synth-json 0 "" "\"witnesses\"" ${BIN} synth --allow SI --allow UpdateSer --deny SER --scope 3,2,2 --json)
cli_test(synth-minimize 0 "" "T1: .*w\\(x,1\\)" ${BIN} synth --allow plume.TapRA --deny RA --minimize)
# Minimal by default: at 6,3,3 the answer is the two-transaction write skew
# with the rw-rw cycle (docs/synthesis.md shows the whole output, checked as
# a doc example); --no-minimize returns the first history found.
cli_test(synth-minimal-by-default 0 "" "!^session 3:" ${BIN} synth --allow SI --deny SER --scope 6,3,3)
cli_test(synth-minimal-named 0 "" "^  cycle: T1 -rw\\(y\\)-> T2 -rw\\(x\\)-> T1$" ${BIN} synth --allow SI --deny SER --scope 6,3,3)
cli_test(synth-no-minimize 0 "" "session 3:" ${BIN} synth --allow SI --deny SER --scope 6,3,3 --no-minimize)
# Pictures: the DOT draws read-from from T0 and the denied level's cycle in
# red; --svg renders it with Graphviz, and says so in one line without it.
cli_test(synth-dot 0 "" "^dot ok$" sh -c
  "\"$1\" synth --allow SI --deny SER --scope 4,3,3 --dot \"$2\" >/dev/null && grep -q 'T0.* -> .*T1.*wr(y)' \"$2\" && grep -q 'label=\"rw(y)\", color=\"#d62728\"' \"$2\" && grep -q 'cluster_s2' \"$2\" && echo dot ok"
  _ ${BIN} ${CMAKE_CURRENT_BINARY_DIR}/synth-ws.dot)
cli_test(synth-dot-note 0 "" "^note ok$" sh -c
  "\"$1\" synth --allow biswas.CC --deny cerone.UA --scope 4,2,3 --dot \"$2\" >/dev/null && grep -q 'shape=note.*cerone.UA rejects it' \"$2\" && echo note ok"
  _ ${BIN} ${CMAKE_CURRENT_BINARY_DIR}/synth-ua.dot)
# --json says why each deny level rejects the solution, as check --json does,
# and what the catalogue calls it.
cli_test(synth-json-exhibits 0 "" "^ *\"name\": \"write skew\"$" ${BIN} synth --allow SI --deny SER --scope 4,3,3 --json)
cli_test(synth-json-denied-cycle 0 "" "\"name\": \"write skew\"" ${BIN} synth --allow SI --deny SER --scope 4,3,3 --json)
cli_test(synth-json-denied-instances 0 "" "\"of\": \"cerone.UA axiom\"" ${BIN} synth --allow biswas.CC --deny cerone.UA --scope 4,2,3 --json)
cli_test(synth-svg 0 "" "^svg ok$" sh -c
  "\"$1\" synth --allow SI --deny SER --scope 4,3,3 --svg \"$2\" >/dev/null && grep -q '<svg' \"$2\" && grep -q 'rw(x)' \"$2\" && echo svg ok"
  _ ${BIN} ${CMAKE_CURRENT_BINARY_DIR}/synth-ws.svg)
cli_test(synth-svg-no-graphviz 2 "synth-none.svg: --svg needs Graphviz's dot program" "" env PATH=/nonexistent
  ${BIN} synth --allow SI --deny SER --scope 4,3,3 --svg ${CMAKE_CURRENT_BINARY_DIR}/synth-none.svg)
# A generic-oracle violation: the failing instances, in text, JSON and the
# picture (the history with the instances in a red note, the cycle red).
cli_test(check-failing-instances 1 "" "it has the cycle T1 -wr\\(x\\)-> T3 -rw\\(y\\)-> T2 -wr\\(y\\)-> T4 -rw\\(x\\)-> T1" ${BIN} check ${EX}/long-fork.json -l adya.PL-2.99)
cli_test(check-failing-instances-json 1 "" "\"given_the_above\": \"not co\\(T1, T2\\)\"" ${BIN} check ${EX}/long-fork.json -l biswas.PC --json)
cli_test(check-failing-instances-dot 1 "" "^dot ok$" sh -c
  "\"$1\" check \"$2\" -l biswas.PC --dot \"$3\" >/dev/null || (grep -q 'shape=note.*biswas.PC axiom at x := y' \"$3\" && echo dot ok && exit 1)"
  _ ${BIN} ${EX}/long-fork.json ${CMAKE_CURRENT_BINARY_DIR}/check-lf.dot)
# A generic-oracle level whose failing instance is the acyclicity of
# dependencies: the cycle typed with Adya's edge kinds and named, each edge
# told with its operations and lines, first; and drawn as a graph level's.
cli_test(check-generic-named-cycle 1 "" "^adya.PL-2.99: violated: write skew$" ${BIN} check ${EX}/write-skew.json -l adya.PL-2.99)
cli_test(check-generic-cycle-edge 1 "" "^    T1 -rw\\(y\\)-> T2: T1's r\\(y,0\\) \\(line 6\\) reads a version that T2's w\\(y,1\\) \\(line 7\\) overwrites" ${BIN} check ${EX}/write-skew.json -l adya.PL-2.99)
cli_test(check-generic-cycle-g2-item 1 "" "Adya's G2-item: a cycle with an item anti-dependency" ${BIN} check ${EX}/write-skew.json -l adya.PL-2.99)
cli_test(check-generic-cycle-dot 1 "" "^dot ok$" sh -c
  "\"$1\" check \"$2\" -l adya.PL-2.99 --dot \"$3\" >/dev/null || (grep -q 'label=\"adya.PL-2.99: G2-item' \"$3\" && grep -q 'label=\"rw(y)\"' \"$3\" && echo dot ok && exit 1)"
  _ ${BIN} ${EX}/long-fork.json ${CMAKE_CURRENT_BINARY_DIR}/check-lf-cycle.dot)
cli_test(check-no-picture-note 0 "note: no picture written: no level rejects the history" "" ${BIN} check ${EX}/long-fork.json -l plume.TapCC --dot ${CMAKE_CURRENT_BINARY_DIR}/check-none.dot)
cli_test(check-svg 1 "" "^svg ok$" sh -c
  "\"$1\" check \"$2\" -l SER --svg \"$3\" >/dev/null || (grep -q '<svg' \"$3\" && echo svg ok && exit 1)"
  _ ${BIN} ${EX}/write-skew.json ${CMAKE_CURRENT_BINARY_DIR}/check-ws.svg)
# Hierarchies: the chain with its names, JSON, the picture, bad input.
cli_test(hierarchy-chain 0 "" "^  biswas.SER => biswas.SI = cerone.SI: write skew" ${BIN} hierarchy biswas.RA biswas.CC
  biswas.PC biswas.SI biswas.SER cerone.SI --scope 4,2,3)
cli_test(hierarchy-json 0 "" "\"relation\": \"does_not_imply\"" ${BIN} hierarchy RA plume.TapRA --scope 3,2,2 --json)
cli_test(hierarchy-svg 0 "" "^svg ok$" sh -c
  "\"$1\" hierarchy SER SI --scope 3,2,2 --svg \"$2\" >/dev/null && grep -q '<svg' \"$2\" && grep -q 'write skew' \"$2\" && echo svg ok"
  _ ${BIN} ${CMAKE_CURRENT_BINARY_DIR}/hierarchy.svg)
cli_test(hierarchy-html 0 "" "^html ok$" sh -c
  "rm -rf \"$2\" && \"$1\" hierarchy SER SI --scope 3,2,2 --html \"$2\" >/dev/null && grep -q '<table' \"$2/index.html\" && grep -q '<svg' \"$2/index.html\" && ! grep -q '<script' \"$2/index.html\" && echo html ok"
  _ ${BIN} ${CMAKE_CURRENT_BINARY_DIR}/hierarchy-page)
# The pages in a real browser (skipped without Chromium).
add_test(NAME cli.hierarchy-html-browser
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/browser_test.sh ${BIN} ${CMAKE_CURRENT_BINARY_DIR}/browser)
set_tests_properties(cli.hierarchy-html-browser PROPERTIES SKIP_RETURN_CODE 77)
# The catalogue: the table, JSON, naming in synth.
cli_test(anomalies-table 0 "" "^biswas.SI +-   A   -   -   -   -   -   -   -   -   A   A   -   -   -   -$" ${BIN} anomalies -l SI -l SER)
# The stale read (column SR) has timestamps: SER allows it, StrictSER not.
cli_test(anomalies-stale-read 0 "" "^biswas.StrictSER +-   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -$" ${BIN} anomalies -l SER -l StrictSER)
# Aborted and intermediate reads: PL-1 permits them, every other level
# forbids them; G0 (column DW) PL-1 forbids too.
cli_test(anomalies-dirty-reads 0 "" "^adya.PL-1 +A   A   A   A   A   A   A   A   A   A   A   A   -   A   A   A$" ${BIN} anomalies -l adya.PL-1 -l adya.PL-2)
# The phantom (column Ph): PL-2.99 allows it, PL-3 forbids it (and the
# session anomalies MSW, MRV, SOV and the stale read it allows: Adya's
# levels know no sessions and no real time).
cli_test(anomalies-phantom 0 "" "^adya.PL-3 +-   -   -   -   -   -   -   A   A   A   A   -   -   -   -   -$" ${BIN} anomalies -l adya.PL-2.99 -l adya.PL-3)
# G0 needs list-append reads: the space has them for it by itself.
cli_test(synth-exhibit-g0 0 "" "^session 2:  T2: r\\(x,\\[1\\]\\) w\\(x,2\\) w\\(y,2\\)$" ${BIN} synth --exhibit G0 --scope 3,2,3)
cli_test(synth-lists-dirty-reads 2 "list-append keys \\(--lists\\) are searched in the transaction form" "" ${BIN} synth --allow adya.PL-1 --deny adya.PL-2 --lists --dirty-reads)
cli_test(synth-dirty-reads 0 "" "^adya.PL-2: violated: G1a" ${BIN} synth --allow adya.PL-1 --deny adya.PL-2 --scope 2,1,2 --dirty-reads)
cli_test(synth-dirty-reads-none 1 "" "none: no history" ${BIN} synth --allow adya.PL-1 --deny adya.PL-2 --scope 2,1,2)
cli_test(synth-dirty-reads-duplicates 2 "not available with repeated values" "" ${BIN} synth --allow adya.PL-1 --deny adya.PL-2 --dirty-reads --duplicates)
cli_test(anomalies-json 0 "" "\"anomaly\": \"anomalies.LongFork\"" ${BIN} anomalies -l CC -l PC --json)
cli_test(anomalies-html 0 "" "^html ok$" sh -c
  "rm -rf \"$2\" && \"$1\" anomalies -l SI -l SER --html \"$2\" >/dev/null && grep -q 'write skew' \"$2/index.html\" && grep -q '<svg' \"$2/index.html\" && echo html ok"
  _ ${BIN} ${CMAKE_CURRENT_BINARY_DIR}/anomalies-page)
cli_test(anomalies-unknown-level 2 "unknown level 'NOPE'" "" ${BIN} anomalies -l NOPE)
cli_test(synth-names-anomaly 0 "" "^exhibits: lost update \\(P4\\)$" ${BIN} synth --allow CC --deny SI --scope 3,1,3)
# --exhibit: a history that also exhibits the named anomaly, said in the heading.
cli_test(synth-exhibit 0 "" "that exhibits long fork" ${BIN} synth --allow CC --deny PC --exhibit LongFork)
cli_test(synth-exhibit-reason 0 "" "^biswas.PC: violated" ${BIN} synth --allow CC --deny PC --exhibit LongFork)
cli_test(synth-exhibit-unknown 2 "unknown anomaly 'Nope'" "" ${BIN} synth --allow SI --deny SER --exhibit Nope)
cli_test(hierarchy-one-level 2 "at least two distinct levels" "" ${BIN} hierarchy SER SER)
cli_test(hierarchy-unknown-level 2 "unknown level 'NOPE'" "" ${BIN} hierarchy SER NOPE)
cli_test(compare-stronger 0 "" "\"verdict\": \"stronger\"" ${BIN} compare RA plume.TapRA --scope 3,2,2 --json)
cli_test(compare-equivalent 0 "" "^equivalent" ${BIN} compare SI cerone.SI --scope 3,2,2)
# --prove: beyond the scope, with both provers (docs/proofs.md).
cli_test(compare-prove-ser 0 "proving biswas.SER => cerone.SER"
         "wr := each read's ar-latest vis-visible writer"
         ${BIN} compare biswas.SER cerone.SER --scope 3,2,2 --prove)
cli_test(compare-prove-json 0 "" "\"witness_map\": \"ar := co, vis := co\"" ${BIN} compare biswas.SER cerone.SER
         --scope 3,2,2 --prove --json)
# Only the implication the scope does not refute is attempted: SER => RA.
cli_test(compare-prove-one-way 0 "" "proved for all histories: biswas.SER => biswas.RA" ${BIN} compare SER RA
         --scope 3,2,2 --prove)
cli_test(compare-prove-bad-timeout 2 "--prove-timeout" "" ${BIN} compare SER RA --prove --prove-timeout -1)
cli_test(compare-proof-needs-prove 2 "--proof.*--prove" "" ${BIN} compare SER RA --proof out)
# Beyond the scope: PC => SI is refuted by a lost update (3 values), which
# the provers' model gives and check confirms.
cli_test(compare-prove-refuted 0 "" "^  T1: r\\(x,0\\) w\\(x,1\\) \\| T2: r\\(x,0\\) w\\(x,2\\)$" ${BIN} compare
         biswas.PC biswas.SI --scope 3,2,2 --prove)
cli_test(compare-prove-refuted-json 0 "" "\"counterexample\": {" ${BIN} compare biswas.PC biswas.SI --scope 3,2,2
         --prove --json)
# --timeout bounds the proofs too: the first runs out, the second is not tried.
cli_test(compare-prove-timeout 3 "" "--timeout ran out before this implication" ${BIN} compare
         biswas.CC cerone.CC --scope 2,1,2 --prove --timeout 2)
# hierarchy --prove: the cover SER => SI proved; PC = SI within 3,2,2 is a
# class a history beyond the scope refutes (a lost update needs 3 values).
cli_test(hierarchy-prove 0 "" "^  biswas.SER => biswas.SI: proved" ${BIN} hierarchy SER SI --scope 3,2,2 --prove)
cli_test(hierarchy-prove-refuted 0 "" "^  class biswas.SI = biswas.PC: refuted beyond the scope" ${BIN} hierarchy SER SI
         PC --scope 3,2,2 --prove)
cli_test(hierarchy-prove-json 0 "" "\"proved\": true" ${BIN} hierarchy SER SI --scope 3,2,2 --prove --json)
# synth --prove: where none is found, the implication.
cli_test(synth-prove 1 "" "proved for all histories: biswas.SER => biswas.SI" ${BIN} synth --allow SER --deny SI
         --scope 3,2,2 --prove)
cli_test(synth-prove-json 1 "" "\"witness_map\": \"co := co\"" ${BIN} synth --allow SER --deny SI --scope 3,2,2
         --prove --json)
cli_test(synth-prove-one-claim 2 "one --allow, one --deny" "" ${BIN} synth --allow SER --allow SI --deny SI --prove)
cli_test(synth-bad-scope-short 2 "malformed scope '4,3'" "" ${BIN} synth --allow SI --deny SER --scope 4,3)
cli_test(synth-bad-scope-zero 2 "scope '0,1,1'.*at least 1" "" ${BIN} synth --allow SI --deny SER --scope 0,1,1)
cli_test(synth-bad-scope-letters 2 "malformed scope 'a,b,c'" "" ${BIN} synth --allow SI --deny SER --scope a,b,c)
cli_test(synth-bad-scope-long 2 "malformed scope '1,2,3,4,5'.*three or four" "" ${BIN} synth --allow SI --deny SER --scope 1,2,3,4,5)
cli_test(synth-bad-scope-ops-zero 2 "operations per transaction must be at least 1" "" ${BIN} synth --allow SI --deny SER --scope 2,2,2,0)
# Over operations: a non-repeatable read, two reads of x in program order.
cli_test(synth-operations 0 "" "T2: r\\(x,0\\) r\\(x,1\\)" ${BIN} synth --allow biswas.RC --deny biswas.RA --scope 2,1,2,2 --no-sessions)
cli_test(synth-operations-stats 0 "numbered along so and wr" "" ${BIN} synth --allow biswas.RC --deny biswas.RA --scope 2,1,2,2 --stats)
# Adya's version order per key is a witness synthesis can search.
cli_test(synth-adya 0 "" "ww\\(x\\): T0 < " ${BIN} synth --allow adya.PL-2 --deny adya.PL-2.99 --minimize)
# PL-2.99 and PL-3 differ by phantoms: the space has predicate reads for
# PL-2.99, which tells them from item reads; in the operation form it has
# none, and says so.
cli_test(synth-phantom 0 "" "^exhibits: read skew \\(A5A, G-single\\), phantom \\(P3\\)$" ${BIN} synth --allow adya.PL-2.99 --deny adya.PL-3 --scope 3,2,2)
cli_test(synth-phantom-none 1 "" "note: adya.PL-2.99 tells item from predicate reads, and this space has no predicate reads" ${BIN} synth --allow adya.PL-2.99 --deny adya.PL-3 --scope 3,2,2,2)
cli_test(synth-adya-none 1 "" "none: no history" ${BIN} synth --allow adya.PL-3 --deny adya.PL-2.99 --scope 3,2,2)
cli_test(synth-unknown-level 2 "unknown level 'NOPE'" "" ${BIN} synth --allow SI --deny NOPE)
cli_test(synth-spec-error 2 "syntax-error.lua:3: " "" ${BIN} synth --spec ${IN}/syntax-error.lua --allow SI --deny bad.X)
cli_test(synth-nothing 2 "nothing to synthesize" "" ${BIN} synth --scope 2,2,2)
# Repeated written values: with two values, two writers of x need one value
# twice (a lost update); the unique-value space has none at this scope.
cli_test(synth-duplicates 0 "" "T2: r\\(x,0\\) w\\(x,1\\)" ${BIN} synth --allow biswas.CC --deny biswas.SI --scope 2,1,2 --duplicates)
cli_test(synth-duplicates-unique 1 "" "none: no history" ${BIN} synth --allow biswas.CC --deny biswas.SI --scope 2,1,2)
cli_test(compare-duplicates 0 "" "weaker: biswas.CC allows strictly more" ${BIN} compare biswas.CC biswas.SI --scope 2,1,2 --duplicates)
cli_test(compare-user-spec 0 "" "my.UpdateSer" ${BIN} compare RA my.UpdateSer --scope 3,2,2
         --spec ${CMAKE_SOURCE_DIR}/examples/specs/update-ser.lua)

# Recorded histories: the graph checker, format detection, explicit initial state.
set(DATA ${CMAKE_SOURCE_DIR}/../shared/data/histories)
if(EXISTS ${DATA})
  # Chronos's samples, with the timestamps trusted and not; its kv sample
  # reads 0 from unwritten keys, so it needs Chronos's --initial_value 0.
  cli_test(chronos-kv-timestamp-si 0 "" "^cerone.TimestampSI: allowed$" ${BIN} check
           ${DATA}/chronos/format-kv.json --initial-value 0 -l cerone.TimestampSI)
  cli_test(chronos-kv-null-initial 1 "" "thin-air read" ${BIN} check
           ${DATA}/chronos/format-kv.json -l cerone.TimestampSI)
  cli_test(chronos-list-timestamp-ser 1 "" "^cerone.TimestampSER: violated: TRANSVIS$" ${BIN} check
           ${DATA}/chronos/format-list.json -l cerone.TimestampSER)
  cli_test(dgraph-ser 1 "" "biswas.SER: violated: " ${BIN} check ${DATA}/dbcop/dgraph-si-violation -l SER)
  cli_test(postgres-bug-ser 1 "" "initial state: explicit \\(the file.s initial transaction is T0\\)" ${BIN} check
           ${DATA}/polysi-text/isovista-postgres-ser-bug.txt -l SER)
  cli_test(postgres-bug-si 0 "" "biswas.SI: allowed" ${BIN} check
           ${DATA}/polysi-text/isovista-postgres-ser-bug.txt -l SI)
  # Read as an ordinary writer of duplicate zeros, the bug disappears.
  cli_test(postgres-bug-implicit 0 "" "biswas.SER: allowed" ${BIN} check
           ${DATA}/polysi-text/isovista-postgres-ser-bug.txt -l SER --init implicit)
  cli_test(galera-json 1 "" "\"name\": \"lost update\"" ${BIN} check
           ${DATA}/polysi-text/galera-si-violation.txt -l SI --json)
  cli_test(generic-too-large 2 "no graph characterization.*at most" "" ${BIN} check
           ${DATA}/dbcop/dgraph-si-violation -l cerone.PSI)
  cli_test(bad-format 2 "--format: nope not in" "" ${BIN} check
           ${DATA}/dbcop/dgraph-si-violation -l SER --format nope)
  cli_test(wrong-format 2 "galera-si-violation.txt:1:[0-9]+: " "" ${BIN} check
           ${DATA}/polysi-text/galera-si-violation.txt -l SER --format awdit)
endif()
# Real time: a stale read is serializable but not strictly, until the clock
# skew covers the gap between T1's commit (110) and T2's begin (120).
cli_test(check-strict-ser-stale-read 1 "" "^biswas.StrictSER: violated: G-single-realtime$" ${BIN} check ${EX}/stale-read.json -l StrictSER)
cli_test(check-strict-ser-skew 0 "" "^biswas.StrictSER: allowed$" ${BIN} check ${EX}/stale-read.json -l StrictSER --clock-skew 10)
cli_test(check-strong-si-stale-read 1 "" "T1 -rt-> T2: T1 committed at 110 before T2 began at 120" ${BIN} check ${EX}/stale-read.json -l viper.StrongSI)
cli_test(check-strong-session-si-stale-read 0 "" "^viper.StrongSessionSI: allowed$" ${BIN} check ${EX}/stale-read.json -l viper.StrongSessionSI)
cli_test(check-timestamp-levels-refuse-untimed 2 "reads the database's start and commit timestamps, and 2 transactions have none" "" ${BIN} check ${EX}/stale-read.json -l cerone.TimestampSI)
cli_test(initial-value-other-format 2 "--initial-value applies to Chronos JSON only" "" ${BIN} check ${EX}/stale-read.json --initial-value 0 -l SER)
cli_test(check-clock-skew-negative 2 "clock-skew" "" ${BIN} check ${EX}/stale-read.json -l StrictSER --clock-skew -1)
cli_test(synth-stale-read 0 "" "T2 -rt-> T1: T2 committed at 10 before T1 began at 30" ${BIN} synth --allow SER --deny StrictSER --scope 3,2,2)
cli_test(synth-database-timestamps-refused 2 "reads the database's own timestamps" "" ${BIN} synth --allow SI --deny cerone.TimestampSI)

# predict: a run the weak level allows and SER forbids, from an observed one
# (docs/predict.md); none under the strict boundary when the changed read's
# later write is dropped; a bad mode is a usage error.
cli_test(predict-found 0 "" "^changed: T2.0's r\\(a,1\\) \\(line 6\\) read T1.0's write; it now reads T0's: r\\(a,0\\)$" ${BIN} predict ${CMAKE_SOURCE_DIR}/examples/traces/two-writers.txt --under CC)
cli_test(predict-si 0 "" "biswas.SI: allowed" ${BIN} predict ${CMAKE_SOURCE_DIR}/examples/traces/two-writers.txt --under SI)
cli_test(predict-none 1 "" "^none: no run that biswas.RC allows" ${BIN} predict ${CMAKE_SOURCE_DIR}/examples/traces/read-then-write.txt --under RC)
cli_test(predict-relaxed-json 0 "" "\"outcome\": \"found\"" ${BIN} predict ${CMAKE_SOURCE_DIR}/examples/traces/read-then-write.txt --under RC --mode relaxed --json)
cli_test(predict-observed-not-allowed 0 "" "^observed: not allowed by biswas.CC" ${BIN} predict ${IN}/isopredict-cyclic.txt --under CC)
cli_test(predict-repeated-values 2 "both leave a = 1: prediction needs the versions of a key to have distinct values" "" ${BIN} predict ${IN}/repeated-values.json)
cli_test(predict-dot 0 "" "^dot ok$" sh -c
  "\"$1\" predict \"$2\" --under CC --json --dot \"$3\" >/dev/null && grep -q 'label=\"write skew in a run biswas.CC allows. T2.0.s read 2 now reads a from T0\"' \"$3\" && grep -q 'T2.0\" -> \"T1.0\" .label=\"rw(a)\"' \"$3\" && echo dot ok"
  _ ${BIN} ${CMAKE_SOURCE_DIR}/examples/traces/two-writers.txt ${CMAKE_CURRENT_BINARY_DIR}/predict-ws.dot)
cli_test(predict-bad-mode 2 "--mode: .*not in" "" ${BIN} predict ${CMAKE_SOURCE_DIR}/examples/traces/two-writers.txt --mode sloppy)

# --json against its schema (docs/schema/isosynth-output.schema.json): expect.sh
# validates every isosynth --json output it runs (exit other than 2). The
# schema is a draft 2020-12 schema; it accepts a real check output and
# rejects each deliberate fault in a copy of it, so the validation cannot be
# vacuous; and every subcommand that offers --json is validated by some test.
set(SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/isosynth-output.schema.json)
set(VALIDATE ${CMAKE_CURRENT_SOURCE_DIR}/cli/validate_json.py)
# Debian's interpreter, which sees Debian's python3-jsonschema (scripts/setup).
set(SCHEMA_PY python3)
if(EXISTS /usr/bin/python3)
  set(SCHEMA_PY /usr/bin/python3)
endif()
cli_test(json-schema-itself 0 "" "" ${SCHEMA_PY} ${VALIDATE} ${SCHEMA} --self)
cli_test(json-schema-accepts 0 "" "" ${SCHEMA_PY} ${VALIDATE} ${SCHEMA} check ${IN}/json-check-valid.json)
cli_test(json-schema-rejects-verdict 1 "results\\[0\\]\\.verdict: 'maybe' is not one of" "" ${SCHEMA_PY} ${VALIDATE}
         ${SCHEMA} check ${IN}/json-invalid-verdict.json)
cli_test(json-schema-rejects-edge 1 "cycle\\[0\\]: 'operations' is a required property" "" ${SCHEMA_PY} ${VALIDATE}
         ${SCHEMA} check ${IN}/json-invalid-edge.json)
cli_test(json-schema-rejects-line 1 "operations\\[0\\]\\.line: 0 is less than the minimum of 1" "" ${SCHEMA_PY} ${VALIDATE}
         ${SCHEMA} check ${IN}/json-invalid-line.json)
cli_test(json-schema-rejects-kind 1 "\\.kind: 'rread' is not one of" "" ${SCHEMA_PY} ${VALIDATE}
         ${SCHEMA} check ${IN}/json-invalid-kind.json)
cli_test(json-schema-rejects-field 1 "results\\[1\\]: Additional properties are not allowed \\('verdicts' was unexpected\\)" ""
         ${SCHEMA_PY} ${VALIDATE} ${SCHEMA} check ${IN}/json-invalid-field.json)
# expect.sh itself fails a --json output the schema rejects: given, through
# ISOSYNTH_JSON_SCHEMA, a schema whose levels output must be an object.
add_test(NAME cli.json-expect-fails-invalid
         COMMAND sh -c "\"$0\" 0 '' '' -- \"$1\" levels --json | grep -q 'does not validate' && echo ok" ${EXPECT} ${BIN})
set_tests_properties(cli.json-expect-fails-invalid PROPERTIES ENVIRONMENT ISOSYNTH_JSON_SCHEMA=${IN}/json-schema-levels-object.json
                     PASS_REGULAR_EXPRESSION "^ok")
cli_test(json-coverage 0 "" "^levels: " python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/json_coverage.py ${BIN}
         ${CMAKE_SOURCE_DIR}/tests)
# Structured operations carry their source position: line and column.
cli_test(json-operation-position 1 "" "^ *\"column\": 44,$" ${BIN} check ${EX}/write-skew.json -l adya.PL-3 --json)
cli_test(levels-json 0 "" "\"name\": \"adya.PL-1\"" ${BIN} levels --json)
# check --all: every anomaly class with its count and instances; one picture
# per instance into a folder; the classes in JSON.
cli_test(check-all-three 1 "" "^  all anomalies: 3 classes \\(G1a 1, G-single 1, G2-item 2\\)$"
         ${BIN} check ${IN}/three-anomalies.json -l SER --all)
cli_test(check-all-instances 1 "" "^all ok$" sh -c
  "\"$1\" check \"$2\" -l SER --all > \"$3\" || (test $? = 1 && grep -q '^  G1a: 1 read$' \"$3\" && grep -q '^  G-single: 1 component of the certain graph$' \"$3\" && grep -q '^    #1 G-single$' \"$3\" && grep -q '^      cycle: K1 -rw(p)-> K2 -wr(q)-> K1$' \"$3\" && grep -q '^    #1 lost update$' \"$3\" && grep -q '^    #2 write skew$' \"$3\" && grep -q 'S1 -rw(z)-> S2' \"$3\" && echo all ok && exit 1)"
  _ ${BIN} ${IN}/three-anomalies.json ${CMAKE_CURRENT_BINARY_DIR}/check-all.txt)
cli_test(check-all-limit 1 "" "^    the first 1 shown \\(--limit\\)$" ${BIN} check ${IN}/three-anomalies.json -l SER --all --limit 1)
cli_test(check-all-dot-dir 1 "" "^dot ok$" sh -c
  "rm -rf \"$3\" && \"$1\" check \"$2\" -l SER -l SI --all --dot \"$3\" >/dev/null || (test $? = 1 && test $(ls \"$3\" | wc -l) = 6 && grep -q 'label=\"biswas.SER: G2-item #2 (write skew)\\\\l' \"$3/biswas.SER-G2-item-2.dot\" && grep -q 'rw(z)' \"$3/biswas.SER-G2-item-2.dot\" && test -f \"$3/biswas.SER-G1a-1.dot\" && test -f \"$3/biswas.SI-G-single-1.dot\" && echo dot ok && exit 1)"
  _ ${BIN} ${IN}/three-anomalies.json ${CMAKE_CURRENT_BINARY_DIR}/check-all-dots)
cli_test(check-all-json 1 "" "^json ok$" sh -c
  "\"$1\" check \"$2\" -l SER --all --json > \"$3\" || (test $? = 1 && python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))[\"results\"][0][\"all\"]
c = a[\"classes\"]
assert a[\"limit\"] == 10, a
assert [(x[\"name\"], x[\"source\"], x[\"count\"], len(x[\"instances\"])) for x in c] == [(\"G1a\", \"reads\", 1, 1), (\"G-single\", \"certain-graph\", 1, 1), (\"G2-item\", \"certain-graph\", 2, 2)], c
assert c[2][\"instances\"][1][\"name\"] == \"write skew\"
assert [e[\"type\"] for e in c[1][\"instances\"][0][\"cycle\"]] == [\"rw\", \"wr\"]
print(\"json ok\")
' \"$3\" && exit 1)"
  _ ${BIN} ${IN}/three-anomalies.json ${CMAKE_CURRENT_BINARY_DIR}/check-all.json)
cli_test(check-all-limit-needs-all 2 "--limit requires --all" "" ${BIN} check ${IN}/three-anomalies.json --limit 2)
cli_test(check-all-dot-file 2 "three-anomalies.json: with --all, --dot and --svg name a folder for the pictures, and this is a file" ""
         ${BIN} check ${IN}/three-anomalies.json -l SER --all --dot ${IN}/three-anomalies.json)
