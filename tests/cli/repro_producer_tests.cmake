# Each producer's semantics, to the letter (../shared/repro, "Found at commit
# d7f3b0d"): Elle's closed predicates and real time, Vbox's clock skew,
# Adya's PL-1 on list-append reads, Elle's keys and values, dbcop's u64.
set(REPRO ${CMAKE_SOURCE_DIR}/../shared/repro)
if(EXISTS ${REPRO})
  # Elle's closed-predicate workload without :init: nil is unborn and
  # matches no predicate, so an empty predicate read before the insert is
  # serializable.
  cli_test(repro-elle-cp-nil-ser 0 "" "biswas.SER: allowed" ${BIN} check
           ${REPRO}/elle-cp-nil-matches-true.edn -l SER)
  cli_test(repro-elle-cp-nil-pl3 0 "" "adya.PL-3: allowed" ${BIN} check
           ${REPRO}/elle-cp-nil-matches-true.edn -l adya.PL-3)
  cli_test(repro-elle-cp-nil-init 0 "initial state: none.*unborn until inserted" "pr\\(true: \\{\\}\\)" ${BIN} show
           ${REPRO}/elle-cp-nil-matches-true.edn)
  # Elle's real time is the order of events, with or without :time.
  cli_test(repro-elle-strictser-no-time 1 "" "biswas.StrictSER: violated" ${BIN} check
           ${REPRO}/elle-strictser-no-time.edn -l biswas.StrictSER)
  cli_test(repro-elle-strictser-no-time-ser 0 "" "biswas.SER: allowed" ${BIN} check
           ${REPRO}/elle-strictser-no-time.edn -l SER)
  # Vbox's Δ widens both ends: commit 110 + 3 < begin 115 - 3 does not hold,
  # so T1 and T2 are concurrent and T2's read of the initial x is allowed.
  cli_test(repro-rt-skew-convention 0 "" "biswas.StrictSER: allowed" ${BIN} check
           ${REPRO}/rt-skew-convention.json -l biswas.StrictSER --clock-skew 3)
  # With Δ = 2 (110 + 2 < 115 - 2) T1 precedes T2, which misses its write.
  cli_test(repro-rt-skew-2 1 "" "T1 committed at 110 before T2 began at 115, more than twice the clock skew 2 apart"
           ${BIN} check ${REPRO}/rt-skew-convention.json -l biswas.StrictSER --clock-skew 2)
  cli_test(repro-rt-skew-help 0 "" "commit\\(T1\\) \\+ Δ < begin\\(T2\\) - Δ" ${BIN} check --help)
  # Adya's PL-1 permits G1a and G1b, also in a list read; PL-2 does not.
  cli_test(repro-elle-la-g1b-pl1 0 "" "adya.PL-1: allowed" ${BIN} check
           ${REPRO}/elle-la-G1b-pl1-refusal.edn -l adya.PL-1)
  cli_test(repro-elle-la-g1b-pl2 1 "" "adya.PL-2: violated: G1b" ${BIN} check
           ${REPRO}/elle-la-G1b-pl1-refusal.edn -l adya.PL-2)
  # Both in one run: neither hides the other.
  cli_test(repro-elle-la-g1b-pl1-and-pl2 1 "" "adya.PL-1: allowed" ${BIN} check
           ${REPRO}/elle-la-G1b-pl1-refusal.edn -l adya.PL-1 -l adya.PL-2)
  cli_test(repro-elle-la-g1b-pl2-and-pl1 1 "" "adya.PL-2: violated: G1b" ${BIN} check
           ${REPRO}/elle-la-G1b-pl1-refusal.edn -l adya.PL-1 -l adya.PL-2)
endif()

# PL-1 on list reads, decided: an aborted append inside a read is left out of
# the order it shows, and G0 is still a violation.
cli_test(pl1-list-aborted-allowed 0 "" "adya.PL-1: allowed" ${BIN} check
         ${IN}/dirty-list-read.json -l adya.PL-1)
cli_test(pl1-list-g0 1 "" "adya.PL-1: violated: G0" sh -c
         "printf '%s\\n' '{:process 0, :type :ok, :f :txn, :value [[:append :x 1] [:append :x 3]]}' '{:process 1, :type :ok, :f :txn, :value [[:append :x 2]]}' '{:process 2, :type :ok, :f :txn, :value [[:r :x [1 2 3]]]}' | \"$0\" check - -l adya.PL-1"
         ${BIN})
# A write cycle across two keys that only the orders the dirty lists show
# close: T1 before T2 on x (the list holds T1's 1, an aborted 9, then T2's
# 2), T2 before T1 on y (T2's 4 then T1's 3 under an intermediate read).
cli_test(pl1-list-dirty-g0 1 "" "adya.PL-1: violated" sh -c
         "printf '%s\\n' '{:process 0, :type :ok, :f :txn, :value [[:append :x 1] [:append :y 3] [:append :y 5]]}' '{:process 1, :type :ok, :f :txn, :value [[:append :x 2] [:append :y 4]]}' '{:process 2, :type :fail, :f :txn, :value [[:append :x 9]]}' '{:process 3, :type :ok, :f :txn, :value [[:r :x [1 9 2]] [:r :y [4 3]]]}' | \"$0\" check - -l adya.PL-1"
         ${BIN})

# Elle's keys and values as Elle compares them: a vector key and float
# values, read and decided; NaN and spellings that would merge two values
# refused, naming the operation.
cli_test(elle-vector-key-float 1 "" "biswas.SER: violated" sh -c
         "printf '%s\\n' '{:process 0, :type :ok, :f :txn, :value [[:w [1 2] 1.5]]}' '{:process 1, :type :ok, :f :txn, :value [[:r (1 2) 1.50] [:w [1 2] 2.5]]}' '{:process 2, :type :ok, :f :txn, :value [[:r [1 2] 2.5] [:r [1 2] 1.5]]}' | \"$0\" check - -l SER"
         ${BIN})
cli_test(elle-vector-key-show 0 "" "w\\(\"\\[1 2\\]\",\"1.5\"\\)" sh -c
         "printf '%s\\n' '{:process 0, :type :ok, :f :txn, :value [[:w [1 2] 1.5]]}' | \"$0\" show -"
         ${BIN})
cli_test(elle-nan-refused 2 "<stdin>:1:49: a value holding ##NaN is not supported" "" sh -c
         "printf '%s\\n' '{:process 0, :type :ok, :f :txn, :value [[:w :x ##NaN]]}' | \"$0\" check - -l SER"
         ${BIN})
cli_test(elle-overlapping-invocations 2 "<stdin>:2:1: overlapping invocations in one process are not supported" ""
         sh -c "printf '%s\\n' '{:process 0, :type :invoke, :f :txn, :value [[:w :x 1]]}' '{:process 0, :type :invoke, :f :txn, :value [[:w :x 2]]}' | \"$0\" check - -l SER"
         ${BIN})
# After an :info the process's next invocation is a new operation.
cli_test(elle-info-then-invoke 0 "" "biswas.SER: allowed" sh -c
         "printf '%s\\n' '{:process 0, :type :invoke, :f :txn, :value [[:w :x 1]]}' '{:process 0, :type :info, :f :txn, :value [[:w :x 1]]}' '{:process 0, :type :invoke, :f :txn, :value [[:r :x nil]]}' '{:process 0, :type :ok, :f :txn, :value [[:r :x 1]]}' | \"$0\" check - -l SER"
         ${BIN})

# dbcop's values are u64: 2^64 - 1 and 2^63 are values, printed as numbers
# and told apart (T2.0 reads 2^63, then 2^64 - 1, which T1.0 overwrote).
cli_test(dbcop-u64-show 0 "" "T1.0: r\\(1,18446744073709551615\\) w\\(1,9223372036854775808\\)" ${BIN} show
         ${IN}/dbcop-u64.bincode)
cli_test(dbcop-u64-ser 1 "" "biswas.SER: violated" ${BIN} check ${IN}/dbcop-u64.bincode -l SER)
cli_test(dbcop-u64-pl2 0 "" "adya.PL-2: allowed" ${BIN} check ${IN}/dbcop-u64.bincode -l adya.PL-2)
# Native JSON keeps them, and reads them back.
cli_test(dbcop-u64-json 0 "" "18446744073709551615" ${BIN} show ${IN}/dbcop-u64.bincode --json)
cli_test(dbcop-u64-json-round-trip 1 "" "biswas.SER: violated" sh -c
         "\"$0\" show \"$1\" --json > dbcop-u64.json && \"$0\" check dbcop-u64.json -l SER"
         ${BIN} ${IN}/dbcop-u64.bincode)
