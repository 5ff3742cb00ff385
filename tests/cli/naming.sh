#!/usr/bin/env bash
# One naming of histories (cli/classify.hpp), seen from outside.
#   naming.sh BIN DIR agree      check, synth, hierarchy and anomalies print
#                                the same name for the same history
#   naming.sh BIN DIR separated  "separated" is nowhere in their outputs
#                                (text, JSON, --html)
# Exit 77 (skipped) without python3, which reads the JSON.
set -u
bin=$1 dir=$2 mode=$3
command -v python3 >/dev/null || exit 77
rm -rf "$dir" && mkdir -p "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
levels=(SER SI cerone.PSI CC RA biswas.PC adya.PL-2.99)

if [ "$mode" = separated ]; then
  "$bin" anomalies --html "$dir/an" >"$dir/an.txt" 2>/dev/null
  "$bin" anomalies --json >"$dir/an.json" 2>/dev/null
  "$bin" hierarchy "${levels[@]}" --scope 4,2,2 --html "$dir/hy" >"$dir/hy.txt"
  "$bin" hierarchy "${levels[@]}" --scope 4,2,2 --json >"$dir/hy.json"
  "$bin" hierarchy "${levels[@]}" --scope 4,2,2 --dot "$dir/hy.dot" >/dev/null
  "$bin" synth --allow SI --deny SER --scope 4,3,3 >"$dir/sy.txt"
  "$bin" synth --allow SI --deny SER --scope 4,3,3 --json >"$dir/sy.json"
  "$bin" compare SI adya.PL-SI --scope 3,2,2 >"$dir/co.txt"
  "$bin" compare SI adya.PL-SI --scope 3,2,2 --json >"$dir/co.json"
  for f in "$dir"/*.txt "$dir"/*.json "$dir"/*.dot "$dir"/an/index.html "$dir"/hy/index.html; do
    [ -s "$f" ] || fail "$f: no output"
    ! grep -qi separated "$f" || fail "$f: $(grep -i -m1 separated "$f")"
  done
  echo ok
  exit 0
fi

# check's name for each history file given: its text line and its JSON list.
name_of() { "$bin" check "$1" | grep '^exhibits: ' || echo "exhibits: (none printed)"; }
json_of() { "$bin" check "$1" --json | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin).get("exhibits")))'; }

# anomalies: each example, its JSON names and its text line, in catalogue order.
"$bin" anomalies --json >"$dir/an.json" 2>/dev/null || fail "anomalies --json"
"$bin" anomalies 2>/dev/null | grep '^   exhibits: ' | sed 's/^   //' >"$dir/an-names.txt"
python3 - "$dir" <<'EOF' || exit 1
import json, sys
d = sys.argv[1]
rows = json.load(open(f"{d}/an.json"))["anomalies"]
with open(f"{d}/an-list.txt", "w") as out:
    for k, r in enumerate(rows):
        if r["example"] is None:
            continue
        own = [e["anomaly"] for e in r["exhibits"]]
        if r["anomaly"] not in own:
            sys.exit(f"FAIL: the example of {r['anomaly']} does not exhibit it: {own}")
        json.dump(r["example"], open(f"{d}/an{k}.json", "w"))
        print(f"{d}/an{k}.json", json.dumps(r["exhibits"]), file=out)
EOF
k=0
while read -r file names; do
  k=$((k + 1))
  text=$(sed -n "${k}p" "$dir/an-names.txt")
  [ "$(name_of "$file")" = "$text" ] || fail "anomalies says '$text', check says '$(name_of "$file")' ($file)"
  [ "$(json_of "$file")" = "$names" ] || fail "anomalies' JSON $names, check's $(json_of "$file") ($file)"
done <"$dir/an-list.txt"
[ "$k" -ge 10 ] || fail "only $k catalogue examples"

# synth --exhibit: each anomaly asked for; its JSON and text names, and check's.
for an in LongFork WriteSkew MonotonicReads SessionOrderViolation LostUpdate; do
  "$bin" synth --exhibit "$an" --scope 4,2,3 --json >"$dir/sy-$an.json" || fail "synth --exhibit $an"
  text=$("$bin" synth --exhibit "$an" --scope 4,2,3 | grep '^exhibits: ')
  names=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["exhibits"]))' "$dir/sy-$an.json")
  [ "$(name_of "$dir/sy-$an.json")" = "$text" ] || fail "synth says '$text', check says '$(name_of "$dir/sy-$an.json")'"
  [ "$(json_of "$dir/sy-$an.json")" = "$names" ] || fail "synth's JSON $names, check's $(json_of "$dir/sy-$an.json")"
  case "$names" in *"\"anomalies.$an\""*) ;; *) fail "synth --exhibit $an: $names" ;; esac
done

# hierarchy: every pair that does not imply, its text name and JSON names,
# and check's on its history.
"$bin" hierarchy "${levels[@]}" --scope 4,2,2 --json >"$dir/hy.json" || fail "hierarchy --json"
"$bin" hierarchy "${levels[@]}" --scope 4,2,2 >"$dir/hy.txt" || fail "hierarchy"
python3 - "$dir" <<'EOF' || exit 1
import json, sys
d = sys.argv[1]
pairs = [p for p in json.load(open(f"{d}/hy.json"))["pairs"] if p["relation"] == "does_not_imply"]
with open(f"{d}/hy-list.txt", "w") as out:
    for k, p in enumerate(pairs):
        json.dump(p["history"], open(f"{d}/hy{k}.json", "w"))
        print(f"{d}/hy{k}.json", p["a"], p["b"], json.dumps(p["exhibits"]), file=out)
EOF
n=0
while read -r file a b names; do
  n=$((n + 1))
  line=$(grep -F "  $a =/=> $b: " "$dir/hy.txt") || fail "hierarchy prints no line for $a =/=> $b"
  name=${line#"  $a =/=> $b: "}
  name=${name%%: T1*}
  got=$(name_of "$file")
  case "$name" in
    "no catalogue anomaly"*) [ "${got#exhibits: no catalogue anomaly}" != "$got" ] || fail "$a =/=> $b: '$name', check: '$got'" ;;
    *) [ "exhibits: $name" = "$got" ] || fail "$a =/=> $b: hierarchy says '$name', check says '$got'" ;;
  esac
  [ "$(json_of "$file")" = "$names" ] || fail "$a =/=> $b: hierarchy's JSON $names, check's $(json_of "$file")"
done <"$dir/hy-list.txt"
[ "$n" -ge 20 ] || fail "only $n pairs that do not imply"
echo ok
