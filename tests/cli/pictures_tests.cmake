# The pictures that teach: each catalogue picture draws its anomaly's own
# pattern under the anomaly's name (anomalies --dot DIR), and a check picture
# of a large history holds only the cycle's neighbourhood, with a legend.
set(PICS ${CMAKE_CURRENT_BINARY_DIR}/pictures)

# G0: the ww cycle the list reads reveal, in red, named dirty write (G0); not
# the wr cycle (G1c) that SER's checker reports first.
cli_test(pictures-g0 0 "" "^g0 ok$" sh -c
  "rm -rf \"$2\" && \"$1\" anomalies --dot \"$2\" >/dev/null && f=\"$2/G0.dot\" && grep -q 'label=\"dirty write: its pattern' \"$f\" && grep -q 'a cycle of dependencies: dirty write (G0)' \"$f\" && grep -q '\"T1\" -> \"T2\" .label=\"ww(x)\", color=\"#d62728\"' \"$f\" && grep -q '\"T1\" -> \"T2\" .label=\"ww(y)\", color=\"#d62728\".*dir=back' \"$f\" && ! grep -q 'wr([xy])\", color=\"#d62728\"' \"$f\" && ! grep -q G1c \"$f\" && echo g0 ok"
  _ ${BIN} ${PICS}/g0)
# Stale read: each transaction's timestamps, the real-time edge with them,
# and the read marked stale.
cli_test(pictures-stale-read 0 "" "^stale ok$" sh -c
  "rm -rf \"$2\" && \"$1\" anomalies --dot \"$2\" >/dev/null && f=\"$2/StaleRead.dot\" && grep -q 'label=\"stale read: its pattern' \"$f\" && grep -q 'T1: w(x,1).n.begin 10..10, commit 10..10.' \"$f\" && grep -q 'T2: r(x,0).n.begin 30..30, commit 40..40.' \"$f\" && grep -q 'label=\"rt: T1 committed at 10 before T2 began at 30\", color=\"#d62728\"' \"$f\" && grep -q 'label=\"rw(x): stale read, T2 began after T1 committed\", color=\"#d62728\"' \"$f\" && echo stale ok"
  _ ${BIN} ${PICS}/stale)
# Phantom: the predicate read, the keys it covers (returned and left out),
# and the write it misses, on the red anti-dependency.
cli_test(pictures-phantom 0 "" "^phantom ok$" sh -c
  "rm -rf \"$2\" && \"$1\" anomalies --dot \"$2\" >/dev/null && f=\"$2/Phantom.dot\" && grep -q 'label=\"phantom: its pattern' \"$f\" && grep -q 'pr(v!=0: {x=1})' \"$f\" && grep -q 'label=\"rw(y): pr(v!=0) misses T1.s w(y,1)\", color=\"#d62728\"' \"$f\" && grep -q 'predicate read covers x, y: it returned x, and left out y' \"$f\" && grep -q 'label=\"wr(y), fails the predicate\"' \"$f\" && echo phantom ok"
  _ ${BIN} ${PICS}/phantom)
# Long fork: named long fork, its four edges (two wr, two rw) in red, never
# G2-item (the name of SER's cycle).
cli_test(pictures-long-fork 0 "" "^fork ok$" sh -c
  "rm -rf \"$2\" && \"$1\" anomalies --dot \"$2\" >/dev/null && f=\"$2/LongFork.dot\" && grep -q 'label=\"long fork: its pattern' \"$f\" && grep -q 'a cycle of dependencies: long fork' \"$f\" && ! grep -q G2-item \"$f\" && [ \"$(grep -c 'label=\"wr([xy])\", color=\"#d62728\"' \"$f\")\" -eq 2 ] && [ \"$(grep -c 'label=\"rw([xy])\", color=\"#d62728\"' \"$f\")\" -eq 2 ] && echo fork ok"
  _ ${BIN} ${PICS}/fork)
# A write skew among 44 transactions: only the cycle (T1, T2) and the
# transactions reading from it (T3, T4) or that it reads from (T0) are drawn,
# with the note of what was left out and the legend.
cli_test(pictures-check-neighbourhood 0 "" "^cut ok$" sh -c
  "\"$1\" check \"$2\" -l SER --dot \"$3\" >/dev/null || f=\"$3\" && [ \"$(grep -c '^ *\"T[0-9]*\" .label=' \"$f\")\" -eq 5 ] && grep -q '\"T3\" .label=' \"$f\" && ! grep -q '\"T5\" .label=' \"$f\" && grep -q '40 of the 44 transactions left out: shown are the 2 on the cycle' \"$f\" && grep -q 'rw(x): read a version of x the other overwrites' \"$f\" && grep -q 'red: why biswas.SER rejects it' \"$f\" && echo cut ok"
  _ ${BIN} ${IN}/write-skew-in-crowd.json ${PICS}-crowd.dot)
