#!/usr/bin/env bash
# Every "exhibited" cell of `anomalies --db` really exhibits its anomaly:
# its last recorded run names the anomaly among those it exhibits, and that
# recorded history, written to a file as the JSON gives it, is decided again
# by `isosynth check`, which must find serializability violated (every
# anomaly of the catalogue a database can show is one serializability
# forbids). Every other cell has a recorded run, or no schedule.
#   db_exhibited.sh ISOSYNTH URL [LEVEL]
set -euo pipefail
bin=$1 url=$2 level=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(anomalies --db "$url" -l biswas.SER --json)
[ -n "$level" ] && args+=(--db-level "$level")
"$bin" "${args[@]}" >"$work/table.json" 2>"$work/err" || { cat "$work/err"; exit 1; }
python3 - "$work" <<'PY'
import json, sys, os
work = sys.argv[1]
d = json.load(open(os.path.join(work, "table.json")))
n = 0
for p in d["probes"]:
    for r in p["runs"]:
        if r["verdict"] != "exhibited":
            if r["verdict"] != "no schedule" and not r["attempts"]:
                print(f"{p['anomaly']} at {r['level']}: {r['verdict']} without a recorded run"); sys.exit(1)
            continue
        last = r["attempts"][-1]
        if last["verdict"] != "exhibited" or p["target"] not in last["exhibits"]:
            print(f"{p['anomaly']} at {r['level']}: the last attempt does not exhibit {p['target']}"); sys.exit(1)
        path = os.path.join(work, f"cell{n}.json")
        json.dump(last["recorded"], open(path, "w"))
        n += 1
open(os.path.join(work, "cells"), "w").write(str(n))
PY
cells=$(cat "$work/cells")
[ "$cells" -gt 0 ] || { echo "no cell exhibited anything"; exit 1; }
for ((i = 0; i < cells; i++)); do
  if "$bin" check "$work/cell$i.json" -l SER >"$work/check.out" 2>&1; then
    echo "cell $i: check finds the recorded run serializable:"; cat "$work/check.out"; exit 1
  fi
  grep -q "biswas.SER: violated" "$work/check.out" || { cat "$work/check.out"; exit 1; }
done
echo "$cells exhibited cells, each violating serializability when checked again"
