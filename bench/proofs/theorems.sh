#!/usr/bin/env bash
# The theorems of docs/proofs.md, each proved with `compare A B --scope 3,2,2
# --prove --json` (default --prove-timeout), one process at a time: per
# implication attempted, proved or not, the witness map, the prover rounds
# over maps, the attempt's seconds and each prover's answer and seconds over
# the proving map's goals; then the process's wall time.
#
#   bench/proofs/theorems.sh [ISOSYNTH]   (default: build/isosynth)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/isosynth}
source bench/lib.sh
bench_header bench/proofs/theorems.sh
for pair in "biswas.SER cerone.SER" "biswas.SI cerone.SI" "biswas.PC cerone.PC" "biswas.RA cerone.RA" \
            "adya.SER biswas.SER --no-sessions" "viper.StrongSI viper.StrongSessionSI" \
            "viper.StrongSessionSI viper.GSI" "viper.GSI viper.AdyaSI" "biswas.CC cerone.CC"; do
  echo "### compare $pair --scope 3,2,2 --prove"
  start=$EPOCHREALTIME
  # shellcheck disable=SC2086
  "$bin" compare $pair --scope 3,2,2 --prove --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("verdict within 3,2,2:", d["verdict"])
for p in d.get("proofs", []):
    runs = ", ".join(f"{r[\"prover\"]} {r[\"answer\"][:60]} {r[\"seconds\"]:.2f} s" for r in p["provers"])
    verdict = "proved" if p["proved"] else "not proved"
    print(f"{p[\"from\"]} => {p[\"to\"]}: {verdict}; map: {p[\"witness_map\"] or \"-\"}; "
          f"rounds: {p[\"maps_tried\"]}; {p[\"seconds\"]:.1f} s; {runs}")
'
  echo "wall $(elapsed "$start") s"
done
