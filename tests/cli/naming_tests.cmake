# One naming of histories (cli/classify.hpp) and the text for people: the
# same history has the same name in check, synth, hierarchy and anomalies;
# "separated" names nothing; the catalogue table's columns are named, with a
# key; hierarchy prints the Hasse diagram's layers, incomparable levels side
# by side; the notation is explained once.
set(NAMING ${CMAKE_CURRENT_SOURCE_DIR}/cli/naming.sh)
add_test(NAME cli.naming-agree COMMAND ${NAMING} ${BIN} ${CMAKE_CURRENT_BINARY_DIR}/naming-agree agree)
add_test(NAME cli.naming-no-separated COMMAND ${NAMING} ${BIN} ${CMAKE_CURRENT_BINARY_DIR}/naming-separated separated)
set_tests_properties(cli.naming-agree cli.naming-no-separated PROPERTIES SKIP_RETURN_CODE 77)

# The Hasse edges of these levels all have a catalogue name.
set(HY_LEVELS SER SI cerone.PSI CC RA biswas.PC adya.PL-2.99)
cli_test(naming-hasse-session-order 0 "" "^  biswas.SER => adya.PL-2.99: session-order violation \\(G1c-process\\): T1: r\\(x,1\\); T2: w\\(x,1\\)$"
         ${BIN} hierarchy ${HY_LEVELS} --scope 4,2,2)
cli_test(naming-hasse-long-fork 0 "" "^  biswas.SI = biswas.PC => cerone.PSI = biswas.CC: long fork \\(G-nonadjacent\\): "
         ${BIN} hierarchy ${HY_LEVELS} --scope 4,2,2)
cli_test(naming-hasse-monotonic-reads 0 "" "^  cerone.PSI = biswas.CC => biswas.RA: monotonic reads violation \\(G-single-process\\): T1: w\\(x,1\\) \\| T2: r\\(x,1\\); T3: r\\(x,0\\)$"
         ${BIN} hierarchy ${HY_LEVELS} --scope 4,2,2)
cli_test(naming-hasse-all-named 0 "" "!=> [^:]*$|no catalogue anomaly" ${BIN} hierarchy ${HY_LEVELS} --scope 4,2,2)
# The layers: PL-2.99 and SI are incomparable, on one line after SER.
cli_test(naming-layers 0 "" "^  adya.PL-2.99    biswas.SI = biswas.PC$" ${BIN} hierarchy ${HY_LEVELS} --scope 4,2,2)
cli_test(naming-layers-heading 0 "" "^layers of the Hasse diagram, strongest first" ${BIN} hierarchy SER SI --scope 3,2,2)
cli_test(naming-layers-chain 0 "" "^  biswas.SER$" ${BIN} hierarchy SER SI --scope 3,2,2)
cli_test(naming-no-classes-column 0 "" "!^classes, strongest first" ${BIN} hierarchy SER SI --scope 3,2,2)
# The checker's cycle name stays next to the level's verdict.
cli_test(naming-compare-cycle 0 "" "^biswas.SI: violated: G1c-process$" ${BIN} compare SI adya.PL-SI --scope 3,2,2)
cli_test(naming-compare-exhibits 0 "" "^exhibits: session-order violation \\(G1c-process\\)$" ${BIN} compare SI adya.PL-SI --scope 3,2,2)
# check names a violated history, in text and JSON.
cli_test(naming-check 1 "" "^exhibits: write skew \\(A5B, G2-item\\)$" ${BIN} check ${EX}/write-skew.json)
cli_test(naming-check-json 1 "" "\"anomaly\": \"anomalies.WriteSkew\"" ${BIN} check ${EX}/write-skew.json --json)
cli_test(naming-check-allowed 0 "" "!^exhibits:" ${BIN} check ${EX}/write-skew.json -l SI)
# The catalogue table: named columns and the key under it.
cli_test(naming-table-header 0 "" "^ +LU +WS +RS +NRR +CIF +LF +CV +MSW +MRV +SOV +SR +ROA +DW +AR +IR +Ph$" ${BIN} anomalies -l SI -l SER)
cli_test(naming-table-key 0 "" "^  LF +long fork \\(G-nonadjacent\\)$" ${BIN} anomalies -l SI -l SER)
cli_test(naming-table-key-heading 0 "" "^key:$" ${BIN} anomalies -l SI -l SER)
cli_test(naming-table-no-numbers 0 "" "!^ +1 +2 +3" ${BIN} anomalies -l SI -l SER)
cli_test(naming-table-example 0 "" "^   exhibits: monotonic reads violation \\(G-single-process\\)$" ${BIN} anomalies -l SI -l SER)
# The notation, once.
cli_test(naming-legend-anomalies 0 "" "^notation: `\\|` separates sessions" ${BIN} anomalies -l SI -l SER)
cli_test(naming-legend-synth 0 "" "^notation: `\\|` separates sessions" ${BIN} synth --allow SI --deny SER --scope 4,3,3)
cli_test(naming-legend-compare 0 "" "^notation: `\\|` separates sessions" ${BIN} compare SI adya.PL-SI --scope 3,2,2)
cli_test(naming-legend-hierarchy 0 "" "^notation: `\\|` separates sessions" ${BIN} hierarchy SER SI --scope 3,2,2)
