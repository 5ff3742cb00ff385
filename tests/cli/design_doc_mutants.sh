#!/usr/bin/env bash
# design_doc.sh must fail where the map is false: on a copy of the product
# folders and docs/ with one thing broken at a time, it must print the
# problem named here.
#   design_doc_mutants.sh ISOSYNTH ROOT
set -u
bin=$(realpath "$1") root=$(realpath "$2")
check=$root/tests/cli/design_doc.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# mutant NAME EXPECTED EDIT: EDIT runs in a fresh copy; the check must
# fail and print a line matching EXPECTED.
mutant() {
  local name=$1 expected=$2 edit=$3 copy=$work/$1
  mkdir -p "$copy"
  (cd "$root" && cp -r docs engine lua cegis db cli "$copy/")
  (cd "$copy" && eval "$edit")
  local out
  out=$(bash "$check" "$bin" "$copy" 2>&1) && { echo "$name: the check passed"; status=1; return; }
  printf '%s\n' "$out" | grep -Eq "$expected" || { echo "$name: no line matching '$expected' in:"; printf '%s\n' "$out"; status=1; }
}

# The history includes the polygraph: an arrow up the layers.
mutant include-up 'engine/history/history.hpp includes engine/polygraph/checker.hpp' \
  "echo '#include \"engine/polygraph/checker.hpp\"' >> engine/history/history.hpp"
# Two folders of one layer include each other.
mutant include-sideways 'engine/level/level.hpp includes engine/polygraph/checker.hpp' \
  "echo '#include \"engine/polygraph/checker.hpp\"' >> engine/level/level.hpp"
# A folder the layers do not place.
mutant unplaced 'the layers block lacks engine/newpart' \
  "mkdir engine/newpart && echo '#include \"engine/util/budget.hpp\"' > engine/newpart/x.cpp"
# A path in the layout that does not exist.
mutant missing-path 'names `engine/nowhere.hpp`' "echo 'See \`engine/nowhere.hpp\`.' >> docs/design.md"

[ $status -eq 0 ] && echo "ok: every mutant of the map is caught"
exit $status
