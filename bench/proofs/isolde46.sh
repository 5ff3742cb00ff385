#!/usr/bin/env bash
# The isolde46 problems (bench/isolde46.cpp) that have no solution at scope
# 12 (bench/results/isolde46-2026-11-25-11to12.csv: the 21 UNSAT rows), each
# an implication A => B: proved for every history or not, with
# `isosynth synth --allow A --deny B --scope 3,2,2 --prove --json` (default
# --prove-timeout, at most --timeout LIMIT seconds per problem), one process
# at a time. Per problem: the outcome, the witness map or why not, the prover
# rounds and the seconds.
#
#   bench/proofs/isolde46.sh [ISOSYNTH] [LIMIT]   (default: build/isosynth 600)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/isosynth}
limit=${2:-600}
source bench/lib.sh
bench_header bench/proofs/isolde46.sh
echo "# per problem: --timeout $limit"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# Isolde's ids, as bench/isolde46.cpp maps them onto our levels.
level() {
  case $1 in
    RA_tap_b) echo plume.TapRA ;;
    CC_tap_b) echo plume.TapCC ;;
    Ser_ax_b) echo biswas.SER ;;
    Ser_ax_c) echo cerone.SER ;;
    *_ax_b) echo "biswas.${1%%_*}" ;;
    *_ax_c) echo "cerone.${1%%_*}" ;;
  esac
}
for problem in CC_ax_b/RA_ax_b PC_ax_b/CC_ax_b SI_ax_b/PC_ax_b Ser_ax_b/SI_ax_b \
               CC_ax_c/RA_ax_c PC_ax_c/CC_ax_c SI_ax_c/PC_ax_c Ser_ax_c/SI_ax_c \
               RA_ax_b/RA_tap_b CC_ax_b/CC_tap_b CC_tap_b/CC_ax_b \
               RA_ax_b/RA_ax_c RA_ax_c/RA_ax_b CC_ax_b/CC_ax_c CC_ax_c/CC_ax_b PC_ax_b/PC_ax_c \
               PC_ax_c/PC_ax_b SI_ax_b/SI_ax_c SI_ax_c/SI_ax_b Ser_ax_b/Ser_ax_c Ser_ax_c/Ser_ax_b; do
  a=$(level "${problem%/*}") b=$(level "${problem#*/}")
  start=$EPOCHREALTIME
  rc=0
  "$bin" synth --allow "$a" --deny "$b" --scope 3,2,2 --prove --timeout "$limit" --json 2>/dev/null >"$tmp" || rc=$?
  python3 - "$tmp" "$problem" "$rc" "$(elapsed "$start")" <<'PY'
import json, sys
path, problem, rc, wall = sys.argv[1:]
try:
    d = json.load(open(path))
except ValueError:
    print("%s: no answer (exit %s), %s s" % (problem, rc, wall)); sys.exit()
for p in d.get("proofs", []):
    what = ("proved; map: " + p["witness_map"]) if p["proved"] else ("not proved; why: " + p["why_not"][:300])
    print("%s (%s => %s): %s; rounds: %d; %.1f s; exit %s" % (problem, p["from"], p["to"], what, p["maps_tried"], p["seconds"], rc))
if not d.get("proofs"):
    print("%s: outcome %s within 3,2,2, nothing to prove (exit %s)" % (problem, d.get("outcome"), rc))
PY
done
