# The prediction reproducers of ../shared/repro (README there, "Found at
# commit d7f3b0d"): a run the weak level does not allow is predicted from, as
# IsoPredict does, and said so apart from the prediction; an input prediction
# cannot read is an error naming the file and the line of the operation at
# fault. Uses cli_test from cli_tests.cmake.
set(REPRO ${CMAKE_SOURCE_DIR}/../shared/repro)
if(EXISTS ${REPRO})
  # Each transaction read the other's write (not causal): both reads change
  # to the initial state, a write skew, exit 0; the observed run's own
  # verdict comes first, with its reason.
  cli_test(repro-predict-noncausal 0 "" "^predicted: a run that biswas.CC allows and biswas.SER forbids \\(strict boundary\\)$"
           ${BIN} predict ${REPRO}/predict-noncausal.txt --under CC)
  cli_test(repro-predict-noncausal-observed 0 "" "^observed: not allowed by biswas.CC: .*predicted from all the same$"
           ${BIN} predict ${REPRO}/predict-noncausal.txt --under CC)
  cli_test(repro-predict-noncausal-reason 0 "" "^biswas.CC: violated: G1c$"
           ${BIN} predict ${REPRO}/predict-noncausal.txt --under CC)
  cli_test(repro-predict-noncausal-changed 0 "" "^2 changed reads: the fewest any prediction changes$"
           ${BIN} predict ${REPRO}/predict-noncausal.txt --under CC)
  # A fractured read (not read committed): with a relaxed boundary, T2.0
  # reads the initial x and T1.0's y, which RC allows and SER forbids.
  cli_test(repro-predict-not-rc 0 "" "^session 2:  T2.0: r\\(x,0\\) r\\(y,1\\)$"
           ${BIN} predict ${REPRO}/predict-not-rc.txt --under RC --mode relaxed)
  cli_test(repro-predict-not-rc-observed 0 "" "^observed: not allowed by biswas.RC: "
           ${BIN} predict ${REPRO}/predict-not-rc.txt --under RC --mode relaxed)
  # With a strict boundary there is none: the observed verdict still comes
  # first, and the exit code is none's.
  cli_test(repro-predict-not-rc-strict 1 "" "^none: no run that biswas.RC allows"
           ${BIN} predict ${REPRO}/predict-not-rc.txt --under RC)
  cli_test(repro-predict-not-rc-strict-observed 1 "" "^observed: not allowed by biswas.RC: "
           ${BIN} predict ${REPRO}/predict-not-rc.txt --under RC)
  # In JSON: the outcome is the prediction's, the observed run's verdict a
  # field of its own.
  find_program(PYTHON3 python3)
  if(PYTHON3)
    # (Lines, not semicolons, separate the commands: CMake splits on those.)
    cli_test(repro-predict-noncausal-json 0 "" "^json ok$" sh -c
             "out=$(\"$1\" predict \"$2\" --under CC --json)
code=$?
printf %s \"$out\" | \"$3\" -c 'import json, sys
d = json.load(sys.stdin)
assert d[\"outcome\"] == \"found\", d[\"outcome\"]
assert d[\"observed\"][\"level\"] == \"biswas.CC\" and d[\"observed\"][\"verdict\"] == \"violated\", d[\"observed\"]
assert d[\"observed\"][\"anomaly\"][\"name\"] == \"G1c\"
assert len(d[\"runs\"][0][\"changed\"]) == 2
print(\"json ok\")'
exit $code"
             _ ${BIN} ${REPRO}/predict-noncausal.txt ${PYTHON3})
    cli_test(repro-predict-not-rc-strict-json 1 "" "^json ok$" sh -c
             "out=$(\"$1\" predict \"$2\" --under RC --json)
code=$?
printf %s \"$out\" | \"$3\" -c 'import json, sys
d = json.load(sys.stdin)
assert d[\"outcome\"] == \"none\", d[\"outcome\"]
assert d[\"observed\"][\"verdict\"] == \"violated\", d[\"observed\"]
print(\"json ok\")'
exit $code"
             _ ${BIN} ${REPRO}/predict-not-rc.txt ${PYTHON3})
  endif()
  # Inputs prediction cannot read: one line naming the file and the line of
  # the operation at fault, exit 2 (no note before it).
  cli_test(repro-predict-thin 2
           "^isosynth: error: .*/predict-thin\\.hist:1: S1T0's r\\(x,1\\): no other transaction's last write of x .*every read to have a writer$"
           "" ${BIN} predict ${REPRO}/predict-thin.hist)
  cli_test(repro-predict-dup 2
           "^isosynth: error: .*/predict-dup\\.json:1: T1 and T2 both leave x = 5: prediction needs the versions of a key to have distinct values$"
           "" ${BIN} predict ${REPRO}/predict-dup.json)
endif()
# A run causal consistency does not allow whose prefix is a write skew: the
# prediction is that prefix, no read changed, and says so.
cli_test(predict-not-allowed-prefix 0 "" "^no read changed: the observed run cut short, 4 of its operations dropped$"
         ${BIN} predict ${IN}/isopredict-causal-prefix.txt --under CC)
