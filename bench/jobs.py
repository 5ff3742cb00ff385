#!/usr/bin/env python3
"""bench/jobs.py ISOSYNTH [--reps N] [--jobs J] [--only REGEX] [--out FILE]

--jobs N side by side: every row runs `ISOSYNTH ARGS --jobs 1` and
`ISOSYNTH ARGS --jobs J` (2 by default) alternately, N times each (3 by
default), and keeps each one's median wall seconds; their standard outputs
must be the same (times masked), or the row says DIFFER. Rows: check with
every shipped level on example and generated histories, check with several
levels on 10,000-transaction generated histories, hierarchy, compare and
anomalies.

For the question "what would 16 cores give", one more --jobs 1 run per row
measures its tasks: check's per-level decide seconds (--json --stats), and
for hierarchy and anomalies the time between the progress lines each task
prints on stderr when it starts (printed from the first second on; the
tasks before are summed into the first). With T the tasks' times and S the
rest of the run (loading the specs, reading, printing), k cores take at
least S + max(max(T), sum(T)/k): the longest task bounds the wall time.

Writes a Markdown table to FILE (default: standard output). Generated inputs
go to a temporary folder, made by bench/checker/generate.py with fixed seeds.
Run from the repository's root.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

EX = "examples/histories"


def inputs(tmp):
    gen = [sys.executable, "bench/checker/generate.py"]
    made = {}
    for name, extra in [
        ("ser40", ["--txns", "40", "--sessions", "4", "--keys", "6", "--seed", "3"]),
        ("si12", ["--txns", "12", "--sessions", "3", "--keys", "4", "--isolation", "si", "--concurrency", "3",
                  "--seed", "5"]),
        ("ser10k", ["--txns", "10000", "--sessions", "20", "--keys", "2000", "--seed", "1"]),
        ("si10k", ["--txns", "10000", "--sessions", "20", "--keys", "2000", "--isolation", "si",
                   "--concurrency", "5", "--seed", "2"]),
    ]:
        path = os.path.join(tmp, name + ".txt")
        subprocess.run(gen + extra + ["-o", path], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        made[name] = path
    return made


def rows(made):
    many = ["-l", "SER", "-l", "SI", "-l", "RC", "-l", "RA", "-l", "CC"]
    return [
        ("check -l all long-fork (4 txns)", ["check", f"{EX}/long-fork.json", "-l", "all"]),
        ("check -l all write-skew (2 txns)", ["check", f"{EX}/write-skew.json", "-l", "all"]),
        ("check -l all random8-1 (8 txns)", ["check", "bench/histories/random8-1.json", "-l", "all"]),
        ("check -l all generated si12 (12 txns)", ["check", made["si12"], "-l", "all"]),
        ("check -l all generated ser40 (40 txns)", ["check", made["ser40"], "-l", "all"]),
        ("check SER SI RC RA CC generated si10k", ["check", made["si10k"]] + many),
        ("check SER SI RC RA CC generated ser10k", ["check", made["ser10k"]] + many),
        ("hierarchy RA CC PC SI SER 5,3,3", ["hierarchy", "RA", "CC", "PC", "SI", "SER", "--scope", "5,3,3"]),
        ("hierarchy 12 biswas+cerone 4,2,3",
         ["hierarchy", "biswas.RA", "cerone.RA", "biswas.CC", "cerone.CC", "cerone.UA", "cerone.PSI", "biswas.PC",
          "cerone.PC", "biswas.SI", "cerone.SI", "biswas.SER", "cerone.SER", "--scope", "4,2,3"]),
        ("compare SI SER 5,3,3", ["compare", "SI", "SER", "--scope", "5,3,3"]),
        ("compare PC SI 5,3,3", ["compare", "PC", "SI", "--scope", "5,3,3"]),
        ("anomalies (every level, 4,2,3)", ["anomalies"]),
    ]


def mask(text):
    text = re.sub(r", [0-9]+\.[0-9] s$", ", (time) s", text, flags=re.M)
    return re.sub(r'"seconds": [0-9.e+-]+', '"seconds": (time)', text)


def run(binary, args, jobs, stamps=False):
    start = time.monotonic()
    p = subprocess.Popen([binary] + args + ["--jobs", str(jobs)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    lines = []
    if stamps:
        for line in p.stderr:
            lines.append((time.monotonic() - start, line.rstrip("\n")))
    out, err = p.communicate()
    return time.monotonic() - start, p.returncode, out, lines


def task_seconds(binary, args, wall):
    """The tasks' times of one --jobs 1 run, and the rest of the run."""
    if args[0] == "check":
        _, _, out, _ = run(binary, args + ["--json", "--stats"], 1)
        tasks = [r["stats"]["seconds"]["decide"] for r in json.loads(out)["results"] if "stats" in r]
        return tasks, max(wall - sum(tasks), 0)
    if args[0] == "compare":
        return None, None
    pattern = re.compile(r"^(hierarchy: pair|anomalies: synthesizing)")
    total, _, _, lines = run(binary, args, 1, stamps=True)
    starts = [t for t, line in lines if pattern.match(line)]
    if not starts:
        return None, None
    # Before the first line: the tasks of the first second, and loading.
    bounds = starts + [total]
    tasks = [starts[0]] + [b - a for a, b in zip(bounds, bounds[1:])]
    return tasks, 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("isosynth")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    binary = os.path.realpath(a.isosynth)
    out = open(a.out, "w") if a.out else sys.stdout
    with tempfile.TemporaryDirectory() as tmp:
        made = inputs(tmp)
        print(f"| row | tasks | --jobs 1 s | --jobs {a.jobs} s | speed-up | same output | longest task s | "
              f"sum of tasks s | 16 cores, at best s | load before/after |", file=out)
        print("| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |", file=out)
        for label, args in rows(made):
            if a.only and not re.search(a.only, label):
                continue
            load0 = open("/proc/loadavg").read().split()[0]
            one, many, same = [], [], True
            for _ in range(a.reps):
                t1, c1, o1, _ = run(binary, args, 1)
                t2, c2, o2, _ = run(binary, args, a.jobs)
                one.append(t1)
                many.append(t2)
                same = same and c1 == c2 and mask(o1) == mask(o2)
            m1, m2 = statistics.median(one), statistics.median(many)
            tasks, rest = task_seconds(binary, args, m1)
            load1 = open("/proc/loadavg").read().split()[0]
            if tasks:
                best16 = rest + max(max(tasks), sum(tasks) / 16)
                task_cols = f"{len(tasks)} | {m1:.2f} | {m2:.2f} | {m1 / m2:.2f} | {'yes' if same else 'DIFFER'} | " \
                            f"{max(tasks):.2f} | {sum(tasks):.2f} | {best16:.2f}"
            else:
                task_cols = f"2 | {m1:.2f} | {m2:.2f} | {m1 / m2:.2f} | {'yes' if same else 'DIFFER'} | | | " \
                            f"{m2:.2f}"
            print(f"| {label} | {task_cols} | {load0} / {load1} |", file=out, flush=True)


if __name__ == "__main__":
    main()
