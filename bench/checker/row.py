#!/usr/bin/env python3
"""One CSV row from one timed `isosynth check --stats --json` run.

  row.py NAME INPUT LEVEL EXIT TIMEOUT_S STDOUT STDERR TIMEFILE [TXNS_HINT]

STDOUT holds the JSON document, STDERR the --stats lines and progress, and
TIMEFILE the report of `/usr/bin/time -v` and/or lines `wall SECONDS` (measured
by run.sh, preferred) and `maxrss_kb KB` (the /proc polling fallback).  Used by run.sh.
"""
import csv
import json
import re
import sys

COLUMNS = ["input", "path", "format", "transactions", "level", "verdict", "exit", "wall_s",
           "cpu_s", "peak_rss_mb", "parse_s", "construct_s", "prune_s", "encode_s", "solve_s",
           "known_edges", "ww_pairs", "ww_open", "read_choices", "read_choices_open", "vars",
           "clauses", "rounds", "cycle_clauses", "peak_construct_mb", "peak_prune_mb", "peak_encode_mb",
           "note"]


def wall_seconds(text):
    m = re.search(r"^wall ([\d.]+)", text, re.M)  # measured by run.sh (microseconds)
    if m:
        return float(m.group(1))
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", text)
    if m:
        h = int(m.group(1) or 0)
        return h * 3600 + int(m.group(2)) * 60 + float(m.group(3))
    return None


def cpu_seconds(text):
    u = re.search(r"User time \(seconds\): ([\d.]+)", text)
    s = re.search(r"System time \(seconds\): ([\d.]+)", text)
    return float(u.group(1)) + float(s.group(1)) if u and s else None


def maxrss_kb(text):
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if not m:
        m = re.search(r"^maxrss_kb (\d+)", text, re.M)
    return int(m.group(1)) if m else None


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--header":
        print(",".join(COLUMNS))
        return
    name, path, level, code, limit, out_f, err_f, time_f = sys.argv[1:9]
    hint = sys.argv[9] if len(sys.argv) > 9 else ""
    code = int(code)
    out = open(out_f, errors="replace").read()
    err = open(err_f, errors="replace").read()
    timing = open(time_f, errors="replace").read() if time_f else ""
    row = dict.fromkeys(COLUMNS, "")
    row.update(input=name, path=path, level=level, exit=code, transactions=hint)
    wall = wall_seconds(timing)
    rss = maxrss_kb(timing)
    row["wall_s"] = f"{wall:.3f}" if wall is not None else ""
    cpu = cpu_seconds(timing)
    row["cpu_s"] = f"{cpu:.2f}" if cpu is not None else ""
    row["peak_rss_mb"] = f"{rss / 1024:.1f}" if rss is not None else ""
    progress = [l for l in err.splitlines() if l.startswith("[")]
    m = re.search(r"constructed: (\d+) transactions", err)
    if m:
        row["transactions"] = int(m.group(1)) - 1
    doc = None
    try:
        doc = json.loads(out) if out.strip() else None
    except json.JSONDecodeError:
        doc = None
    if doc:
        row["format"] = doc.get("format", "")
        res = (doc.get("results") or [{}])[0]
        row["verdict"] = res.get("verdict", "")
        st = res.get("stats")
        if st:
            if st.get("transactions", 0) > 0:
                row["transactions"] = st["transactions"] - 1  # without the initial transaction
            for k in ("parse", "construct", "prune", "encode", "solve"):
                row[k + "_s"] = f"{st['seconds'][k]:.3f}"
            for k in ("known_edges", "ww_pairs", "ww_open", "read_choices", "read_choices_open",
                      "vars", "clauses", "rounds", "cycle_clauses"):
                row[k] = st.get(k, "")
            peaks = st.get("peak_bytes") or {}
            for k in ("construct", "prune", "encode"):
                if peaks.get(k):
                    row[f"peak_{k}_mb"] = f"{peaks[k] / 2**20:.1f}"
        if res.get("anomaly"):
            a = res["anomaly"]
            row["note"] = a.get("name", "") if isinstance(a, dict) else ""
    if code in (124, 137) or (doc is None and "timed out" in timing.lower()):
        row["verdict"] = "timeout"
        row["wall_s"] = row["wall_s"] or limit
        row["note"] = f"time limit {limit} s; last progress: {progress[-1] if progress else 'none'}"
    elif doc is None:
        row["verdict"] = "error"
        lines = [l for l in err.splitlines() if l.strip() and not l.startswith(("[", "read "))]
        row["note"] = (lines[-1] if lines else f"exit {code}, no output")[:300]
    w = csv.DictWriter(sys.stdout, COLUMNS, lineterminator="\n")
    w.writerow(row)


if __name__ == "__main__":
    main()
