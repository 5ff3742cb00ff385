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
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for pair in "biswas.SER cerone.SER" "biswas.SI cerone.SI" "biswas.PC cerone.PC" "biswas.RA cerone.RA" \
            "adya.SER biswas.SER --no-sessions" "viper.StrongSI viper.StrongSessionSI" \
            "viper.StrongSessionSI viper.GSI" "viper.GSI viper.AdyaSI" "biswas.CC cerone.CC"; do
  echo "### compare $pair --scope 3,2,2 --prove"
  start=$EPOCHREALTIME
  # shellcheck disable=SC2086
  "$bin" compare $pair --scope 3,2,2 --prove --json 2>/dev/null >"$tmp"
  python3 - "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("verdict within 3,2,2:", d["verdict"])
for p in d.get("proofs", []):
    runs = ", ".join("%s %s %.2f s" % (r["prover"], r["answer"][:60], r["seconds"]) for r in p["provers"])
    verdict = "proved" if p["proved"] else "not proved"
    print("%s => %s: %s; map: %s; rounds: %d; %.1f s; %s"
          % (p["from"], p["to"], verdict, p["witness_map"] or "-", p["maps_tried"], p["seconds"], runs))
PY
  echo "wall $(elapsed "$start") s"
done
