# Output no input can forge, and output that fails is an error: the
# reproducers of ../shared/repro found at d7f3b0d. Uses cli_test from
# cli_tests.cmake.
set(REPRO ${CMAKE_SOURCE_DIR}/../shared/repro)
set(WS ${CMAKE_SOURCE_DIR}/examples/histories/write-skew.json)

# A failed write is one line and exit 2, whatever the verdict: the picture
# on a full disk, and the output itself.
cli_test(dot-full-disk 2 "^isosynth: error: /dev/full: cannot write the file: No space left on device$" ""
         ${BIN} check ${WS} -l SER --dot /dev/full)
cli_test(json-full-disk 2 "^isosynth: error: cannot write the output: No space left on device$" ""
         bash -c "\"$0\" check \"$1\" -l SER --json > /dev/full" ${BIN} ${WS})
cli_test(text-full-disk 2 "^isosynth: error: cannot write the output: No space left on device$" ""
         bash -c "\"$0\" levels > /dev/full" ${BIN})
# Graphviz's own messages are folded into the one line of the error.
cli_test(svg-dot-fails 2 "^isosynth: error: .*/no/such/folder/x\\.svg: Graphviz's dot failed to write the picture: .*[Nn]o such file" ""
         ${BIN} check ${WS} -l SER --svg ${CMAKE_CURRENT_BINARY_DIR}/no/such/folder/x.svg)

if(EXISTS ${REPRO})
  # U+202E (right-to-left override) in a transaction id and a value shows as
  # its escape, like the control characters around it; no raw one is left.
  cli_test(repro.forge-bidi 0 "" "A\\\\u202e1" ${BIN} show ${REPRO}/forge.json)
  add_test(NAME cli.repro.forge-no-raw
           COMMAND bash -c "out=$(\"$0\" show \"$1\") || exit 1
             if printf '%s' \"$out\" | grep -q \"$(printf '\\342\\200\\256')\"; then echo 'a raw U+202E'; exit 1; fi
             if printf '%s' \"$out\" | grep -q \"$(printf '\\033')\"; then echo 'a raw ESC'; exit 1; fi
             echo ok" ${BIN} ${REPRO}/forge.json)
  # An anomaly whose name and doc are markup: escaped in every attribute and
  # text of the page, so the page holds no element the spec wrote.
  add_test(NAME cli.repro.xss-anomaly
           COMMAND bash -c "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT
             \"$0\" anomalies --spec \"$1\" -l SER --scope 3,2,2 --html $d/out > /dev/null
             f=$d/out/index.html
             grep -qi 'Q&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;' $f
             grep -q '&lt;img src=x onerror=alert(2)&gt;' $f
             ! grep -qi '<script' $f
             ! grep -q '<img' $f
             grep -q 'href=\"#Q_22_3E_3Cscript' $f
             echo ok" ${BIN} ${REPRO}/xss-anomaly.lua)
endif()
