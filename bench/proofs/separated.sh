#!/usr/bin/env bash
# Never a proof of a falsehood, over every ordered pair of shipped levels:
# the test case of tests/unit/test_prove.cpp that the suite skips for its
# length (hours). Each pair synthesis separates within 4,2,3 is sent to the
# provers at 0.5 s per goal and must come out not proved (or refuted by a
# history); one line per pair, as it comes, then the summary.
#
#   bench/proofs/separated.sh [UNIT_TESTS] > report   (default: build/tests/unit_tests)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${1:-build/tests/unit_tests}")
source bench/lib.sh
bench_header bench/proofs/separated.sh
# The tests read their data relative to the build tree's tests folder.
cd build/tests
stdbuf -oL "$bin" -tc='prove: no ordered pair*' --no-skip -s 2>&1 |
  sed -n 's/^.*MESSAGE: //p; /test cases:/p; /assertions:/p'
