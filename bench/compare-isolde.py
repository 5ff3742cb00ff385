#!/usr/bin/env python3
"""Puts isosynth's isolde46 results beside Isolde's recorded ones.

usage: compare-isolde.py OURS.csv ISOLDE.csv
OURS.csv is the output of bench/isolde46 (comment lines start with '#');
ISOLDE.csv is Isolde's recorded benchmark (implementation 'all').
Prints, per number of transactions: problems finished by each tool, outcome
disagreements, the median time of each, their ratio, and our slowest run.
"""
import csv
import statistics
import sys


def load(path, implementation=None):
    rows = {}
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(lines):
        if implementation and r.get("implementation") != implementation:
            continue
        key = (r["allow"], r["deny"], int(r["txn"]))
        ms = r.get("total_ms") or r.get("median_total_ms")
        rows[key] = (r["outcome"], float(ms) if ms else None)
    return rows


def main():
    ours = load(sys.argv[1])
    theirs = load(sys.argv[2], "all")
    print("| txn | ours finished | Isolde finished | outcome disagreements | our median ms | Isolde median ms | ratio | our max ms (problem) |")
    print("|---|---|---|---|---|---|---|---|")
    disagreements = []
    for n in sorted({k[2] for k in ours}):
        keys = [k for k in ours if k[2] == n]
        done = [k for k in keys if ours[k][0] in ("SAT", "UNSAT")]
        their_done = [k for k in keys if k in theirs and theirs[k][0] in ("SAT", "UNSAT")]
        for k in keys:
            if k in theirs and theirs[k][0] in ("SAT", "UNSAT") and ours[k][0] in ("SAT", "UNSAT") \
                    and theirs[k][0] != ours[k][0]:
                disagreements.append((k, ours[k][0], theirs[k][0]))
        # Medians over all 46 problems; a run that did not finish counts as
        # its time limit (a lower bound), as in Isolde's own medians.
        our_ms = [ours[k][1] for k in keys]
        their_ms = [theirs[k][1] if k in theirs and theirs[k][1] is not None else float("inf") for k in keys]
        om, tm = statistics.median(our_ms), statistics.median(their_ms)
        worst = max(keys, key=lambda k: ours[k][1])
        ratio = f"{tm / om:.0f}x" if om > 0 and tm != float("inf") else "-"
        print(f"| {n} | {len(done)}/{len(keys)} | {len(their_done)}/{len(keys)} | "
              f"{sum(1 for d in disagreements if d[0][2] == n)} | {om:.1f} | {tm:.0f} | {ratio} | "
              f"{ours[worst][1]:.0f} ({worst[0]}\\{worst[1]}) |")
    for (a, d, n), o, t in disagreements:
        print(f"disagreement: {a}\\{d} at {n}: ours {o}, Isolde {t}")


if __name__ == "__main__":
    main()
