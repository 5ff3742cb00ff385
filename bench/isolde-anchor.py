#!/usr/bin/env python3
"""Each problem of the Isolde anchor (Isolde built from source on this machine
kind: ../shared/anchors/isolde-here-2026-11-27.csv) as one whole isosynth
process, two builds alternately, beside Isolde's solving time.

usage: isolde-anchor.py OLD NEW ANCHOR.csv OUT.md [--reps N] [--only REGEX] [--timeout S]

OLD and NEW are isosynth executables. Each row runs
  isosynth synth --allow A [--allow A2] --deny D --scope T,5,5 --no-blind-writes --no-minimize --stats
(Isolde's space: no blind writes; Isolde returns the first history found, so
no minimization), OLD then NEW, REPS times (at least 3; rows of a second or
more once after the first round), and keeps the median wall time from
process start to exit. The outcome (exit code 0 found, 1 none) must agree
between the builds and with Isolde where Isolde answered. Isolde's
TIMEOUT_60s counts as 60 s. The target is Isolde / NEW >= 20.
"""
import csv
import os
import re
import resource
import statistics
import subprocess
import sys
import time


def level(isolde_id):
    special = {"RA_tap_b": "plume.TapRA", "CC_tap_b": "plume.TapCC",
               "UpdateSer__b": "biswas.UpdateSer", "UpdateSer__c": "cerone.UpdateSer"}
    if isolde_id in special:
        return special[isolde_id]
    base = isolde_id.split("_")[0]
    base = "SER" if base == "Ser" else base
    return ("biswas." if isolde_id.endswith("b") else "cerone.") + base


def command(binary, problem, txns, objects, values):
    allow, deny = problem.split("\\")
    cmd = [binary, "synth"]
    for a in allow.split("+"):
        cmd += ["--allow", level(a)]
    cmd += ["--deny", level(deny), "--scope", f"{txns},{objects},{values}",
            "--no-blind-writes", "--no-minimize", "--stats"]
    return cmd


def run(cmd, timeout):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd + ["--timeout", str(timeout)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    run.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    outcome = {0: "SAT", 1: "UNSAT", 3: "TIMEOUT"}.get(p.returncode, f"ERROR{p.returncode}")
    stats = ""
    for line in p.stderr.splitlines():
        if line.startswith("synth:") and "candidates" in line:
            stats = line
    return outcome, wall, stats


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def stats_summary(stats):
    """'search S s, translate S s, oracle S s, conflicts N' from --stats."""
    m = {k: re.search(p, stats) for k, p in {
        "translate": r"translate ([\d.]+) s", "search": r"candidate search ([\d.]+) s",
        "oracle": r"oracle ([\d.]+) s", "total": r"total ([\d.]+) s",
        "conflicts": r"(\d+) conflicts", "candidates": r"(\d+) candidates"}.items()}
    g = {k: (v.group(1) if v else "?") for k, v in m.items()}
    return (f"in-process {g['total']} s: translate {g['translate']}, search {g['search']} "
            f"({g['conflicts']} conflicts), oracle {g['oracle']}; {g['candidates']} candidates")


def main():
    args = sys.argv[1:]
    if len(args) < 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    old, new, anchor, out = args[:4]
    reps, only, timeout = 3, None, 120.0
    rest = args[4:]
    while rest:
        if rest[0] == "--reps":
            reps = max(3, int(rest[1]))
        elif rest[0] == "--only":
            only = re.compile(rest[1])
        elif rest[0] == "--timeout":
            timeout = float(rest[1])
        else:
            sys.exit(f"unknown argument {rest[0]}")
        rest = rest[2:]
    with open(anchor) as f:
        rows = list(csv.DictReader(f))
    rows.sort(key=lambda r: (r["problem"], int(r["transactions"])))
    if only:
        rows = [r for r in rows if only.search(f"{r['problem']}@{r['transactions']}")]
    results = []
    load_start = loadavg()
    for r in rows:
        cmd = lambda b: command(b, r["problem"], r["transactions"], r["objects"], r["values"])
        times = {old: [], new: []}
        cpus = {old: [], new: []}
        outcomes = {old: set(), new: set()}
        stats = {}
        for i in range(reps):
            for b in (old, new):
                o, w, s = run(cmd(b), timeout)
                times[b].append(w)
                cpus[b].append(run.cpu)
                outcomes[b].add(o)
                stats[b] = s
            # A row of a CPU second or more: its noise is small against its time.
            if i == 0 and min(cpus[old][0], cpus[new][0]) >= 1.0 and reps > 1:
                break
        isolde_ms = float(r["isolde_solving_ms_median"]) if r["isolde_solving_ms_median"] else 60000.0
        res = dict(row=f"{r['problem']} @ {r['transactions']}", problem=r["problem"], txns=r["transactions"],
                   isolde=r["isolde_outcome"], isolde_ms=isolde_ms,
                   old_ms=statistics.median(times[old]) * 1e3, new_ms=statistics.median(times[new]) * 1e3,
                   old_out="/".join(sorted(outcomes[old])), new_out="/".join(sorted(outcomes[new])),
                   old_cpu=statistics.median(cpus[old]) * 1e3, new_cpu=statistics.median(cpus[new]) * 1e3,
                   runs=len(times[new]), new_stats=stats[new], load=loadavg())
        res["ratio"] = isolde_ms / res["new_ms"]
        res["ratio_old"] = isolde_ms / res["old_ms"]
        res["met"] = res["ratio"] >= 20
        res["agree"] = res["old_out"] == res["new_out"] and (
            r["isolde_outcome"] not in ("SAT", "UNSAT") or r["isolde_outcome"] == res["new_out"])
        results.append(res)
        print(f"{res['row']}: Isolde {res['isolde']} {isolde_ms:.0f} ms; old {res['old_ms']:.1f} ms "
              f"{res['old_out']} (cpu {res['old_cpu']:.0f}); new {res['new_ms']:.1f} ms {res['new_out']} (cpu {res['new_cpu']:.0f}); x{res['ratio']:.1f}; "
              f"load {res['load']}", file=sys.stderr, flush=True)
    write(out, results, old, new, load_start, reps)


def write(out, results, old, new, load_start, reps):
    with open(out + ".rows.csv", "w") as f:
        w = csv.writer(f)
        w.writerow(["problem", "transactions", "isolde_outcome", "isolde_ms", "before_ms", "after_ms",
                    "before_outcome", "after_outcome", "before_cpu_ms", "after_cpu_ms", "runs", "ratio_after", "met", "after_stats"])
        for r in results:
            w.writerow([r["problem"], r["txns"], r["isolde"], f"{r['isolde_ms']:.0f}", f"{r['old_ms']:.1f}",
                        f"{r['new_ms']:.1f}", r["old_out"], r["new_out"], f"{r['old_cpu']:.1f}", f"{r['new_cpu']:.1f}", r["runs"], f"{r['ratio']:.1f}",
                        "yes" if r["met"] else "no", r["new_stats"]])
    with open(out, "a") as f:
        f.write(f"\n| row | Isolde | Isolde ms | before ms (cpu) | after ms (cpu) | runs | Isolde / after | Isolde / after cpu | met | after, in process (--stats) |\n")
        f.write("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n")
        for r in results:
            out_note = r["new_out"] if r["agree"] else f"{r['new_out']} (DIFFERS: before {r['old_out']})"
            f.write(f"| `{r['problem']}` @ {r['txns']} | {r['isolde']} | {r['isolde_ms']:.0f} | "
                    f"{r['old_ms']:.1f} ({r['old_cpu']:.0f}) | {r['new_ms']:.1f} ({r['new_cpu']:.0f}) | {r['runs']} | "
                    f"{r['ratio']:.1f}x | {r['isolde_ms'] / max(r['new_cpu'], 1e-3):.1f}x | {'yes' if r['met'] else 'no'} | {out_note}; {stats_summary(r['new_stats'])} |\n")
        f.write(f"\nrows: {len(results)}; met: {sum(r['met'] for r in results)}; outcome disagreements: "
                f"{sum(not r['agree'] for r in results)}; load average at start {load_start}, at end {loadavg()}\n")
    print(f"rows: {len(results)}; met: {sum(r['met'] for r in results)}; outcome disagreements: "
          f"{sum(not r['agree'] for r in results)}; load at start {load_start}, at end {loadavg()}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
