#!/usr/bin/env python3
"""Rows and report of the weak-level benchmark (bench/weak/run.sh).

  report.py --header
  report.py row BINARY SIZE EVENTS FORMAT LEVEL EXIT TIMEOUT_S STDOUT STDERR TIMEFILE
                LOAD1 BUSY_BEFORE OTHERS_CPU_S ATTEMPT
  report.py md CSV [PROFILE_DIR]

`row` prints one CSV row from one timed `isosynth check FILE -l LEVEL --stats
--json` run: STDOUT holds the JSON document, STDERR the --stats lines,
TIMEFILE the report of `/usr/bin/time -v` (or lines `wall S`, `maxrss_kb KB`,
`user S`, `sys S` from the fallback).  `md` writes the markdown report of a
CSV to stdout, with AWDIT's published figures beside ours and, when
PROFILE_DIR holds `perf report` outputs (profile-LEVEL.txt), where the time
goes by function.
"""
import csv
import io
import json
import os
import re
import sys

COLUMNS = ["binary", "size", "events", "transactions", "format", "level", "verdict", "exit",
           "wall_s", "user_s", "sys_s", "peak_rss_mb", "parse_s", "construct_s", "encode_s",
           "solve_s", "other_s", "graph_edges", "hb_bytes", "load1", "busy_before",
           "others_cpu_s", "attempt", "note"]

# Published figures (../shared/anchors/README.md): AWDIT (PLDI 2025, arXiv
# 2504.06975), 50.6M events, RC in 43 s and CC in 143 s.  No RA figure.
AWDIT_EVENTS = 50_600_000
AWDIT = {"biswas.RC": 43.0, "biswas.CC": 143.0}
MEMORY_TARGET_MB = 16 * 1024


def seconds(pattern, text):
    m = re.search(pattern, text, re.M)
    return float(m.group(1)) if m else None


def wall_seconds(text):
    w = seconds(r"^wall ([\d.]+)", text)
    if w is not None:
        return w
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", text)
    if m:
        return int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
    return None


def row(args):
    (binary, size, events, fmt, level, code, limit, out_f, err_f, time_f, load1, busy,
     others, attempt) = args
    code = int(code)
    out = open(out_f, errors="replace").read()
    err = open(err_f, errors="replace").read()
    timing = open(time_f, errors="replace").read()
    r = dict.fromkeys(COLUMNS, "")
    r.update(binary=binary, size=size, events=events, format=fmt, level=level, exit=code,
             load1=load1, busy_before=busy, others_cpu_s=others, attempt=attempt)
    wall = wall_seconds(timing)
    user = seconds(r"User time \(seconds\): ([\d.]+)", timing)
    if user is None:
        user = seconds(r"^user ([\d.]+)", timing)
    sys_ = seconds(r"System time \(seconds\): ([\d.]+)", timing)
    if sys_ is None:
        sys_ = seconds(r"^sys ([\d.]+)", timing)
    rss = seconds(r"Maximum resident set size \(kbytes\): (\d+)", timing)
    if rss is None:
        rss = seconds(r"^maxrss_kb (\d+)", timing)
    for key, v, f in (("wall_s", wall, "{:.2f}"), ("user_s", user, "{:.2f}"),
                      ("sys_s", sys_, "{:.2f}"), ("peak_rss_mb", rss and rss / 1024, "{:.0f}")):
        r[key] = f.format(v) if v is not None else ""
    if code == 124 or code == 137:
        r["verdict"] = "timeout"
        r["note"] = f"time limit {limit} s"
    else:
        try:
            doc = json.loads(out)
            res = doc["results"][0]
            r["verdict"] = res.get("verdict", "")
            st = res.get("stats", {})
            sec = st.get("seconds", {})
            phases = 0.0
            for k in ("parse", "construct", "encode", "solve"):
                if k in sec:
                    r[f"{k}_s"] = f"{sec[k]:.2f}"
                    phases += sec[k]
            phases += sec.get("prune", 0.0)
            if wall is not None:
                r["other_s"] = f"{wall - phases:.2f}"
            r["transactions"] = max(0, st.get("transactions", 1) - 1)  # T0 aside
            r["graph_edges"] = st.get("known_edges", "")
            r["hb_bytes"] = st.get("reachability_bytes", "")
        except (ValueError, KeyError, IndexError):
            r["verdict"] = "error"
            r["note"] = " ".join(err.strip().splitlines()[-1:])[:200]
    w = csv.DictWriter(sys.stdout, COLUMNS, lineterminator="\n")
    w.writerow(r)


def fnum(x, digits=1):
    try:
        return f"{float(x):,.{digits}f}"
    except (TypeError, ValueError):
        return "—"


def gb(mb):
    try:
        return f"{float(mb) / 1024:.2f} GB"
    except (TypeError, ValueError):
        return "—"


def md(csv_path, profile_dir):
    text = open(csv_path).read()
    header = [l[2:] for l in text.splitlines() if l.startswith("# ")]
    rows = list(csv.DictReader(io.StringIO("\n".join(l for l in text.splitlines()
                                                     if not l.startswith("#")))))
    o = []
    o.append(f"# Weak levels at scale: `isosynth check -l biswas.RC|RA|CC` ({os.path.basename(csv_path)})\n")
    for h in header:
        o.append(f"- {h}")
    o.append("")
    o.append("Histories: `bench/weak/generate.py` (a simulated causally consistent database: "
             "sticky sessions on lagging replicas, last writer wins; every history satisfies "
             "CC, hence RA and RC, so every level answers *allowed* after doing its full work; "
             "not serializable). One process per (history, level), wall time and peak resident "
             "memory of the whole process under `/usr/bin/time -v`; phases from `--stats` "
             "(parse: reading the file into the history; construct: the abstract history and "
             "its read checks; encode: each read's candidate writers; solve: the saturated graph "
             "and its acyclicity; other: the rest of the process, mostly freeing the history at "
             "exit). `others_cpu_s`: CPU time other processes used during the run.\n")

    main = [r for r in rows if r["binary"] == "isosynth" and r["format"] == "dbcop"]
    o.append("## Results\n")
    o.append("| size | events | transactions | level | verdict | wall | peak memory | parse | construct | encode | solve | other | AWDIT (published) | target |")
    o.append("| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for r in main:
        awdit, target = "—", "—"
        try:
            big = int(r["events"]) >= AWDIT_EVENTS
        except ValueError:
            big = False
        if big and r["level"] in AWDIT:
            a = AWDIT[r["level"]]
            awdit = f"{a:.0f} s at 50.6M events"
            try:
                w, m = float(r["wall_s"]), float(r["peak_rss_mb"])
                ok = w <= a and m <= MEMORY_TARGET_MB and r["verdict"] == "allowed"
                target = ("met" if ok else "missed") + f" ({w / a:.2f}× AWDIT's time, {gb(m)} of 16 GB)"
            except ValueError:
                target = "missed (no time)"
        o.append(f"| {r['size']} | {int(r['events']):,} | {fnum(r['transactions'], 0)} | {r['level']} | "
                 f"{r['verdict']} | {fnum(r['wall_s'])} s | {gb(r['peak_rss_mb'])} | "
                 f"{fnum(r['parse_s'])} | {fnum(r['construct_s'])} | {fnum(r['encode_s'])} | "
                 f"{fnum(r['solve_s'])} | {fnum(r['other_s'])} | {awdit} | {target} |")
    o.append("")
    o.append("Times in seconds. AWDIT's figures are from its paper (its authors' machine "
             "and histories), not measured here: a comparison of magnitude, not of like with "
             "like. Target: AWDIT's time or less at 50.6M events, within 16 GB.\n")

    o.append("## Interference\n")
    o.append("| binary | size | format | level | load average at start | CPU busy before (others) | CPU used by others during the run | attempt |")
    o.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        o.append(f"| {r['binary']} | {r['size']} | {r['format']} | {r['level']} | {r['load1']} | {r['busy_before']}% | "
                 f"{fnum(r['others_cpu_s'])} s of {fnum(r['wall_s'])} s | {r['attempt']} |")
    o.append("")

    fmts = [r for r in rows if r["binary"] == "isosynth" and r["size"] == "1M"
            and r["level"] == "biswas.RC"]
    if len({r["format"] for r in fmts}) > 1:
        o.append("## Reading time by format (1M events, the same history)\n")
        o.append("The parse phase of `check -l biswas.RC` on one history written in each "
                 "format `generate.py` writes (AWDIT's with `--init implicit`, since it has no "
                 "implicit initial state).\n")
        o.append("| format | parse | wall (RC) |")
        o.append("| --- | ---: | ---: |")
        for r in sorted(fmts, key=lambda r: float(r["parse_s"] or 1e9)):
            o.append(f"| {r['format']} | {fnum(r['parse_s'], 2)} s | {fnum(r['wall_s'], 2)} s |")
        o.append("")

    base = [r for r in rows if r["binary"] == "baseline"]
    if base:
        o.append("## Before and after (baseline binary on the same histories)\n")
        o.append("The baseline's encode phase does not count preparing the choices (each "
                 "read's candidates), which it did outside every phase.\n")
        o.append("| size | level | baseline wall | baseline peak | baseline solve (encode) | wall | peak | solve (encode) |")
        o.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for b in base:
            a = next((r for r in main if r["size"] == b["size"] and r["level"] == b["level"]), None)
            if not a:
                continue
            o.append(f"| {b['size']} | {b['level']} | {fnum(b['wall_s'])} s | {gb(b['peak_rss_mb'])} | "
                     f"{fnum(b['solve_s'])} ({fnum(b['encode_s'])}) | {fnum(a['wall_s'])} s | "
                     f"{gb(a['peak_rss_mb'])} | {fnum(a['solve_s'])} ({fnum(a['encode_s'])}) |")
        o.append("")

    thp = [r for r in rows if r["binary"] == "isosynth+thp"]
    if thp:
        o.append("## With transparent huge pages for every allocation\n")
        o.append("The same runs with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` (glibc's malloc "
                 "advises its memory for transparent huge pages; the machine's setting is "
                 "`madvise`): fewer page faults and TLB misses. Not the default, shown for "
                 "where the time goes.\n")
        o.append("| size | level | wall | user | sys | peak memory | default wall | default user | default sys |")
        o.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for t in thp:
            a = next((r for r in main if r["size"] == t["size"] and r["level"] == t["level"]), {})
            o.append(f"| {t['size']} | {t['level']} | {fnum(t['wall_s'])} s | {fnum(t['user_s'])} s | "
                     f"{fnum(t['sys_s'])} s | {gb(t['peak_rss_mb'])} | {fnum(a.get('wall_s'))} s | "
                     f"{fnum(a.get('user_s'))} s | {fnum(a.get('sys_s'))} s |")
        o.append("")

    if profile_dir and os.path.isdir(profile_dir):
        profiles = sorted(f for f in os.listdir(profile_dir) if f.startswith("profile-") and f.endswith(".txt"))
        if profiles:
            o.append("## Where the time goes, by function (perf, largest history)\n")
            o.append("Self time of the 15 busiest functions (`perf record -F 200`, `perf report "
                     "--no-children`), all phases together; kernel symbols are page faults "
                     "and the zeroing of fresh memory.\n")
            for f in profiles:
                o.append(f"### {f[len('profile-'):-len('.txt')]}\n")
                o.append("| share | function |")
                o.append("| ---: | --- |")
                for line in open(os.path.join(profile_dir, f)).read().splitlines()[:15]:
                    pct, _, sym = line.partition(" ")
                    o.append(f"| {pct} | `{sym.strip()}` |")
                o.append("")
    print("\n".join(o))


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--header":
        print(",".join(COLUMNS))
    elif len(sys.argv) == 16 and sys.argv[1] == "row":
        row(sys.argv[2:])
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "md":
        md(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
