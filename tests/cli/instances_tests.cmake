# synth --count and --eval (synth, check, show): several histories different
# up to renaming, the evaluator's relations and truth values, and its
# errors (malformed, hostile: one line, exit code 2).
cli_test(synth-count-3 0 "" "^history 3 of 3:$" ${BIN} synth --count 3 --allow SI --deny SER --scope 4,3,3)
cli_test(synth-count-found-line 0 "" "^found: 3 histories allowed by \\{biswas.SI\\} and violating \\{biswas.SER\\} \\(scope 4,3,3\\), different up to renaming$"
         ${BIN} synth --count 3 --allow SI --deny SER --scope 4,3,3)
# Fewer than asked: the scope holds only so many, and the output says so.
cli_test(synth-count-exhausted 0 "" "asked for, and no other exists within the scope$"
         ${BIN} synth --count 50 --allow RC --deny SER --scope 2,1,3)
cli_test(synth-count-json 0 "" "\"requested\": 3" ${BIN} synth --count 3 --allow SI --deny SER --scope 4,3,3 --json)
cli_test(synth-count-none 1 "" "^none: 0 histories" ${BIN} synth --count 2 --allow SER --deny SI --scope 3,2,2)
cli_test(synth-count-zero 2 "--count" "" ${BIN} synth --count 0 --allow SI --deny SER)
cli_test(synth-eval-vis 0 "" "^eval: e.vis under cerone.SI = \\{T0->T1, " ${BIN} synth --allow cerone.SI --deny SER
         --scope 4,3,3 --eval e.vis)
cli_test(synth-eval-json 0 "" "\"expression\": \"h.wr\"" ${BIN} synth --allow SI --deny SER --eval h.wr --json)
cli_test(check-eval-co 0 "" "^eval: e.co under biswas.SI = \\{T0->T1, T0->T2, T1->T2\\}$" ${BIN} check
         ${EX}/write-skew.json -l SI --eval e.co)
cli_test(check-eval-join 1 "" "^eval: h.wr .. h.so = \\{" ${BIN} check ${EX}/write-skew.json -l SER --eval "h.wr .. h.so")
cli_test(check-eval-formula 0 "" "^eval: no\\(h.wr - h.so\\) = true$" ${BIN} check ${EX}/write-skew.json -l SI
         --eval "no(h.wr - h.so)")
cli_test(check-eval-no-witness 1 "" "^eval: e.co under biswas.SER: no witness" ${BIN} check ${EX}/write-skew.json
         -l SER --eval e.co)
cli_test(show-eval-wrx 0 "" "^eval: h.wrx = \\{" ${BIN} show ${EX}/long-fork.json --eval h.wrx)
cli_test(show-eval-malformed 2 "^isosynth: error: --eval:1: " "" ${BIN} show ${EX}/long-fork.json --eval "h.wr ..")
cli_test(show-eval-unknown 2 "unknown relation 'nope'" "" ${BIN} show ${EX}/long-fork.json --eval "h.nope")
cli_test(show-eval-witness 2 "e is the witness of a level" "" ${BIN} show ${EX}/long-fork.json --eval e.vis)
cli_test(check-eval-framework 2 "unknown relation 'vis'" "" ${BIN} check ${EX}/write-skew.json -l SI --eval e.vis)
cli_test(show-eval-loop 2 "instruction budget exceeded" "" ${BIN} show ${EX}/long-fork.json
         --eval "(function() while true do end end)()")
cli_test(show-eval-memory 2 "^isosynth: error: --eval:1: .*(memory|larger than)" "" ${BIN} show ${EX}/long-fork.json
         --eval "(function() local t = {} for i = 1, 1e9 do t[i] = i end end)()")
cli_test(show-eval-io 2 "^isosynth: error: --eval:1: " "" ${BIN} show ${EX}/long-fork.json --eval "io.open('/etc/passwd')")
cli_test(synth-eval-malformed 2 "^isosynth: error: --eval:1: " "" ${BIN} synth --allow SI --deny SER --eval "h.wr ..")
