# End-to-end tests of reading histories from streams: standard input ("-")
# and named pipes, format detected from the bytes read; inputs that are not
# what isosynth checks refused with one line, exit 2. Uses cli_test() and the
# variables of cli_tests.cmake.
set(DATA ${CMAKE_SOURCE_DIR}/../shared/data/histories)

# Elle histories of other Jepsen workloads, from standard input.
cli_test(stdin-elle-bank 2
         "^isosynth: error: <stdin>:1:1: no :txn operations: this is a Jepsen bank workload's history \\(:f :transfer, :read\\)"
         "" sh -c "printf '%s\\n' '{:type :invoke, :f :transfer, :value {:from 1}, :process 0}' '{:type :invoke, :f :read, :process 1}' | \"$0\" check - -l SER"
         ${BIN})
cli_test(stdin-elle-nan-value 2 "<stdin>:1:36: a value holding ##NaN is not supported" ""
         sh -c "printf '%s\\n' '{:type :ok, :f :txn, :value [[:w 1 ##NaN]]}' | \"$0\" check - -l SER"
         ${BIN})
# A folder format cannot come from standard input.
cli_test(stdin-folder-format 2 "<stdin>: the cobra format is a folder of T<n>.log files" ""
         sh -c "\"$0\" check - --format cobra -l SER < /dev/null" ${BIN})

if(EXISTS ${DATA})
  # The PostgreSQL bug through a pipe into standard input: detected as text,
  # its first transaction taken as T0, SER violated.
  cli_test(stdin-postgres-bug 1 "" "^- \\(text\\): .*initial state: explicit \\(the file.s initial transaction is T0\\)"
           sh -c "cat \"$1\" | \"$0\" check - -l SER"
           ${BIN} ${DATA}/polysi-text/isovista-postgres-ser-bug.txt)
  # A named pipe, written by a child process while isosynth reads it
  # ($<SEMICOLON>: a plain ';' would split the CMake argument).
  cli_test(fifo-dgraph-text 1 "" "biswas.SER: violated"
           sh -c "d=$(mktemp -d) && mkfifo \"$d/h\" && (cat \"$1\" > \"$d/h\" &) && \"$0\" check \"$d/h\" -l SER$<SEMICOLON> rc=$?$<SEMICOLON> rm -rf \"$d\"$<SEMICOLON> exit $rc"
           ${BIN} ${DATA}/polysi-text/isovista-dgraph-si-bug.txt)
  # AWDIT's hb-cycle read without an initial state, as AWDIT means it.
  cli_test(awdit-hb-cycle-cc 1 "initial state: none \\(--init auto\\)" "biswas.CC: violated"
           ${BIN} check ${DATA}/awdit-test/none/hb-cycle.txt -l CC)
endif()
