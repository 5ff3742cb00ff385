#!/usr/bin/env python3
"""Our checker times beside VeriStrong's (../shared/anchors/README.md).

  compare-veristrong.py bench/results/checker-DATE.csv [LABELS_DIR] > checker-DATE-vs-veristrong.md

Reads the CSV written by bench/checker/run.sh and writes a Markdown report:
the targets of the checker issue (met or missed, and by how much), the
verdicts beside VeriStrong's where known, the generated 10k/100k histories,
the sweeps, failures, and where the time went on the slowest runs.
"""
import csv
import os
import sys

# VeriStrong on this machine kind (anchors/README.md): (wall s, peak MB, verdict).
# Keys: (input name as in the CSV, level).
VERISTRONG = {
    ("dbcop/postgres-dup-values/BL-1k/hist-00000", "SER"): (0.77, 102, "allowed"),
    ("dbcop/postgres-dup-values/BL-1k/hist-00000", "SI"): (2.46, 169, "allowed"),
    ("dbcop/postgres-dup-values/RH-1k/hist-00000", "SER"): (0.12, 68, "allowed"),
    ("dbcop/postgres-dup-values/RH-1k/hist-00000", "SI"): (0.11, 50, "allowed"),
    ("dbcop/postgres-dup-values/WH-1k/hist-00000", "SER"): (1.36, 119, "allowed"),
    ("dbcop/postgres-dup-values/WH-1k/hist-00000", "SI"): (4.76, 207, "allowed"),
    ("dbcop/dgraph-si-violation", "SI"): (5.5, 86, "violated"),  # without pruning
    # Cobra's benchmark runs (data/LABELS.md: VeriStrong built on this machine kind, --pruning fast).
    ("cobra-bench/tpcc-10k", "SER"): (1.0, 114, "allowed"),
    ("cobra-bench/rubis-10k", "SER"): (10.7, 661, "allowed"),
    ("cobra-bench/twitter-10k", "SER"): (3.9, 620, "allowed"),
}
VERISTRONG_NOTES = {
    ("dbcop/dgraph-si-violation", "SI"): "VeriStrong without pruning",
}
# Anchored histories that are not in the shared data (listed for completeness).
NOT_SHARED = [
    ("dbcop roachdb_all_writes/15_30_20_900", "SER", "0.02 s, 15 MB, violated",
     "not in the shared sample (table2-sample has roachdb_general_all_writes/15_30_20_900)"),
    ("dbcop galera_all_writes/15_30_20_900", "SI", "0.05 s, 21 MB, violated",
     "under 0.1 s: no target; the shared sample has two histories of that group (below)"),
    ("PostgreSQL BL-10k", "SER / SI", "27.3 s, 1.08 GB / 130.7 s, 3.41 GB",
     "not shared; compared with the generated BL-like 10k history below"),
    ("Cobra yuga-G2-a / yuga-G2-b", "SER", "5.3 s, 383 MB / none in 600 s", "not in the shared data"),
]
# Known verdicts of the shared histories (data/LABELS.md; "by VeriStrong" or by construction).
KNOWN = {
    "dbcop/postgres-dup-values/BL-1k/hist-00000": ("allowed", "allowed"),
    "dbcop/postgres-dup-values/RH-1k/hist-00000": ("allowed", "allowed"),
    "dbcop/postgres-dup-values/WH-1k/hist-00000": ("allowed", "allowed"),
    "dbcop/dgraph-si-violation": ("violated", "violated"),
    "cobra/cock-G2": ("violated", "allowed"),
    "cobra/cock-blog": ("violated", None),
    "viper-json/postgres-1000": ("allowed", "allowed"),
    "cobra-bench/tpcc-10k": ("allowed", "allowed"),
    "cobra-bench/rubis-10k": ("allowed", "allowed"),
    "cobra-bench/twitter-10k": ("allowed", "allowed"),
    "polysi-text/galera-si-violation.txt": ("violated", "violated"),
    "polysi-text/yugabyte-si-violation.txt": ("violated", "violated"),
    "polysi-text/isovista-dgraph-si-bug.txt": ("violated", "violated"),
    "polysi-text/isovista-postgres-ser-bug.txt": ("violated", "allowed"),
    "polysi-text/isovista-yugabyte-tcc-bug.txt": ("violated", "violated"),
}



# Recorded verdicts that data/LABELS.md says are wrong: (input, level) ->
# (the right verdict, why).
CORRECTED = {
    ("dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_540/hist-00038", "SI"): (
        "violated",
        "LABELS.md: the history violates SI through session order; VeriStrong's SI solver "
        "without pruning misses the cycle (its Pearce-Kelly search leaves visited marks set)."),
}

def read_csv(path):
    meta, rows = [], []
    with open(path) as f:
        lines = [l for l in f]
    meta = [l[1:].strip() for l in lines if l.startswith("#")]
    body = [l for l in lines if not l.startswith("#")]
    rows = list(csv.DictReader(body))
    return meta, rows


def fnum(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def fmt_s(x):
    x = fnum(x)
    if x is None:
        return "—"
    return f"{x:.3f} s" if x < 10 else f"{x:.1f} s"


def ours_text(r):
    if not r:
        return "not run"
    cpu = r.get("cpu_s")
    return fmt_s(r["wall_s"]) + (f" (CPU {cpu} s)" if cpu else "")


def phases(r):
    parts = []
    for k in ("parse", "construct", "prune", "encode", "solve"):
        v = fnum(r.get(k + "_s"))
        if v is not None:
            parts.append((k, v))
    return parts


def phase_text(r):
    ps = phases(r)
    if not ps:
        return r.get("note", "") or "—"
    return ", ".join(f"{k} {v:.2f}" for k, v in ps)


def peaks_text(r):
    vals = [r.get(f"peak_{k}_mb") or "—" for k in ("construct", "prune", "encode")]
    return " / ".join(v.split(".")[0] if v != "—" else v for v in vals)


def generated_verdict(name, level):
    """The verdict a generated history has by construction (generate.py), or None."""
    if not name.startswith("gen:"):
        return None
    if name.endswith("-lost"):
        return "violated"
    if name.endswith("-ser"):
        return "allowed"
    if name.endswith("-si") and level in ("SI", "viper.StrongSI", "cerone.TimestampSI"):
        return "allowed"
    return None


def dominant(r):
    ps = phases(r)
    if not ps:
        return "—"
    total = sum(v for _, v in ps) or 1e-9
    k, v = max(ps, key=lambda kv: kv[1])
    return f"{k} ({100 * v / total:.0f}% of the phases)"


def verdict_known(name, level, labels):
    if name in KNOWN:
        v = KNOWN[name][0 if level == "SER" else 1]
        return v
    if name.startswith("dbcop/table2-sample/") and labels:
        key = name[len("dbcop/table2-sample/"):] + "/history.bincode"
        if key in labels:
            v = labels[key][0 if level == "SER" else 1]
            return "allowed" if v == "true" else "violated"
    return None


def load_labels(d):
    p = os.path.join(d, "table2-sample-verdicts.csv")
    if not os.path.exists(p):
        return {}
    with open(p) as f:
        return {r["file"]: (r["ser"], r["si"]) for r in csv.DictReader(f)}


def met(ours, target):
    if ours is None:
        return "missed (no result)"
    if ours <= target:
        return f"met ({target / max(ours, 1e-9):.1f}× under the target)"
    return f"missed by {ours - target:.2f} s ({ours / target:.1f}× the target)"


def main():
    csv_path = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    data_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "..", "..", "shared", "data")
    labels = load_labels(data_dir)
    meta, rows = read_csv(csv_path)
    by = {(r["input"], r["level"]): r for r in rows}
    out = []
    p = out.append
    p("# Checker benchmark beside VeriStrong\n")
    p(f"Results: `{os.path.basename(csv_path)}` (written by `bench/checker/run.sh`).\n")
    for m in meta:
        p(f"- {m}")
    p("")
    p("VeriStrong's numbers are from `../shared/anchors/README.md` (2-core, 24 GB machine of the "
      "same kind, `--pruning fast` unless noted). Our times are wall seconds of the whole "
      "`isosynth check` process for one level (start, Lua spec library, reading the history, "
      "checking, output), with the process's user+system CPU seconds and peak resident memory from `/usr/bin/time -v`; targets are judged on wall time. Other work on the "
      "machine (see the load averages above) only adds to them: times are upper bounds, and "
      "sub-0.1 s times especially are noisy.\n")

    # --- targets on shared histories
    p("## Targets on the shared histories\n")
    p("Target (checker issue): at most half of VeriStrong's time on every shared history where "
      "VeriStrong takes over 0.1 s.\n")
    p("| history | level | VeriStrong | target | ours: wall (CPU) | ours peak MB (VeriStrong) | ours: phases (s) | verdict ours / VeriStrong | outcome |")
    p("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    met_n = miss_n = 0
    for (name, level), (vs, vs_mb, vs_v) in VERISTRONG.items():
        r = by.get((name, level))
        target = vs / 2
        ours = fnum(r["wall_s"]) if r and r["verdict"] not in ("error", "timeout") else None
        res = met(ours, target) if r else "not run"
        met_n += res.startswith("met")
        miss_n += res.startswith("missed")
        note = VERISTRONG_NOTES.get((name, level))
        p(f"| {name} | {level} | {vs} s{' (' + note + ')' if note else ''} | {target:.3f} s | "
          f"{ours_text(r)} | {r['peak_rss_mb'] if r else '—'} ({vs_mb}) | "
          f"{phase_text(r) if r else '—'} | {(r['verdict'] if r else '—')} / {vs_v} | {res} |")
    p(f"\n{met_n} of {met_n + miss_n} met.\n")
    p("Anchored histories without a shared copy:\n")
    p("| history | level | VeriStrong | remark |")
    p("| --- | --- | --- | --- |")
    for h, l, v, why in NOT_SHARED:
        p(f"| {h} | {l} | {v} | {why} |")
    p("")

    # --- generated scale targets
    p("## Scale targets on generated histories\n")
    p("Generated by `bench/checker/generate.py` (arguments in `run.sh`). These are not VeriStrong's "
      "histories: the BL-like histories have the shape of the PostgreSQL BL ones (20 sessions, "
      "500 keys with mild zipfian skew, half reads, a few duplicate written values) but come from "
      "a simulated serial or snapshot-isolation database, so VeriStrong's BL-10k numbers (27.3 s "
      "SER, 130.7 s SI) are context, not a like-for-like comparison.\n")
    p("| history | level | target | ours: wall (CPU) | peak MB (after construct / prune / encode) | phases (s) | verdict | outcome |")
    p("| --- | --- | --- | --- | --- | --- | --- | --- |")
    scale = [("gen:bl-10k-ser", "SER", 10, 1024), ("gen:bl-10k-ser", "SI", 30, 1024),
             ("gen:bl-10k-si", "SER", 10, 1024), ("gen:bl-10k-si", "SI", 30, 1024),
             ("gen:bl-10k-5000keys-ser", "SER", 10, 1024), ("gen:bl-10k-5000keys-ser", "SI", 30, 1024),
             ("gen:big-100k-ser", "SER", 300, 8192), ("gen:big-100k-ser", "SI", 120, 4096),
             ("gen:huge-1m-ser", "SER", 600, 16384)]
    for name, level, t, mb in scale:
        r = by.get((name, level))
        if not r:
            p(f"| {name} | {level} | {t} s, {mb} MB | not run | — | — | — | — |")
            continue
        ours = fnum(r["wall_s"]) if r["verdict"] not in ("error", "timeout") else None
        mem = fnum(r["peak_rss_mb"])
        res = met(ours, t)
        if r["verdict"] == "error":
            res = "missed: " + (r["note"] or "no result")
        elif mem is not None:
            res += "; memory " + ("within" if mem <= mb else "over") + f" {mb} MB"
        p(f"| {name} | {level} | under {t} s within {mb} MB | {ours_text(r)} | {r['peak_rss_mb']} ({peaks_text(r)}) | "
          f"{phase_text(r)} | {r['verdict']} | {res} |")
    p("")

    # --- application workloads
    work = [r for r in rows if r["input"].startswith("gen:") and any(
        r["input"].startswith(f"gen:{w}-") for w in ("tpcc", "rubis", "twitter"))]
    if work:
        p("## Application workloads (generated)\n")
        p("`generate.py --workload tpcc|rubis|twitter`: the transactions of Cobra's benchmarks (hot rows "
          "with read-modify-write chains, inserts, skewed choice of rows), 8 sessions at 10k and 50 at 100k; "
          "`-ser` from a serial database, `-si` from a snapshot-isolated one, `-lost` from a serial one "
          "with stale read-modify-writes injected (lost updates, which SER and SI forbid). The expected "
          "column is the verdict by construction (none for SER on `-si`: it depends on the run).\n")
        p("| history | level | wall (CPU) | peak MB (after construct / prune / encode) | phases (s) | verdict | expected |")
        p("| --- | --- | --- | --- | --- | --- | --- |")
        for r in work:
            exp = generated_verdict(r["input"], r["level"])
            mark = "—" if exp is None else (exp + (" ✓" if exp == r["verdict"] else " ✗ DIFFERS"))
            p(f"| {r['input']} | {r['level']} | {ours_text(r)} | {r['peak_rss_mb']} ({peaks_text(r)}) | "
              f"{phase_text(r)} | {r['verdict']} | {mark} |")
        p("")

    # --- verdicts
    p("## Verdicts on the shared histories\n")
    agree, disagree, unknown, corrected = 0, [], [], []
    for r in rows:
        if r["input"].startswith("gen:") or r["level"] not in ("SER", "SI"):
            continue
        k = verdict_known(r["input"], r["level"], labels)
        fix = CORRECTED.get((r["input"], r["level"]))
        if fix and k is not None and k != fix[0]:
            corrected.append((r, k, fix[1]))
            k = fix[0]
        if k is None:
            unknown.append(r)
        elif k == r["verdict"]:
            agree += 1
        else:
            disagree.append((r, k))
    p(f"{agree} runs agree with the known verdict (data/LABELS.md, table2-sample-verdicts.csv); "
      f"{len(disagree)} differ; {len(unknown)} have no known verdict.\n")
    if disagree:
        p("| history | level | ours | known | note |")
        p("| --- | --- | --- | --- | --- |")
        for r, k in disagree:
            p(f"| {r['input']} | {r['level']} | {r['verdict']} | {k} | {r['note']} |")
        p("")
    for r, recorded, why in corrected:
        p(f"Counted against LABELS.md's correction, not the recorded verdict ({recorded}): "
          f"{r['input']} {r['level']}: ours {r['verdict']}. {why}\n")
    if unknown:
        p("No known verdict: " + ", ".join(f"{r['input']} {r['level']}: {r['verdict']}" for r in unknown) + "\n")

    # --- all shared runs, compact
    shared = [r for r in rows if not r["input"].startswith("gen:")]
    if shared:
        ts = [fnum(r["wall_s"]) for r in shared if fnum(r["wall_s"]) is not None]
        p(f"All {len(shared)} shared runs: wall median {sorted(ts)[len(ts) // 2]:.3f} s, "
          f"maximum {max(ts):.3f} s.\n" if ts else "")

    # --- RA and CC
    sat = [r for r in rows if r["level"] in ("RA", "CC")]
    if sat:
        p("## RA and CC by saturation\n")
        p("No VeriStrong figures exist for these levels; listed for scale. Runs whose history has "
          "repeated values or unknown-status transactions go through the SAT solver.\n")
        p("| history | level | wall (CPU) | peak MB | verdict |")
        p("| --- | --- | --- | --- | --- |")
        for r in sat:
            p(f"| {r['input']} | {r['level']} | {ours_text(r)} | {r['peak_rss_mb']} | {r['verdict']} |")
        p("")

    # --- sweeps
    p("## Generated histories (the sweeps have 2,000 transactions)\n")
    p("| history | txns | SER wall | SER verdict | SER peak MB | SI wall | SI verdict | SI peak MB | ww pairs | SI phases (s) |")
    p("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    names = []
    for r in rows:
        if r["input"].startswith("gen:") and r["input"] not in names:
            names.append(r["input"])
    for n in names:
        a, b = by.get((n, "SER")), by.get((n, "SI"))
        first = a or b
        if first is None:  # neither SER nor SI (e.g. only cerone.TimestampSI)
            continue
        p(f"| {n} | {first['transactions']} | {fmt_s(a['wall_s']) if a else '—'} | {a['verdict'] if a else '—'} | "
          f"{a['peak_rss_mb'] if a else '—'} | {fmt_s(b['wall_s']) if b else '—'} | {b['verdict'] if b else '—'} | "
          f"{b['peak_rss_mb'] if b else '—'} | {first['ww_pairs']} | {phase_text(b) if b else phase_text(a)} |")
    p("")

    # --- failures
    bad = [r for r in rows if r["verdict"] in ("error", "timeout", "unknown")]
    p("## Failures and timeouts\n")
    if not bad:
        p("None.\n")
    else:
        p("| history | level | outcome | exit | wall | note |")
        p("| --- | --- | --- | --- | --- | --- |")
        for r in bad:
            p(f"| {r['input']} | {r['level']} | {r['verdict']} | {r['exit']} | {fmt_s(r['wall_s'])} | {r['note']} |")
        p("")

    # --- slowest
    p("## Where the time goes on the slowest runs\n")
    p("| history | level | wall | peak MB | phases (s) | dominant | ww pairs (open) | known edges | rounds |")
    p("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    slow = sorted(rows, key=lambda r: -(fnum(r["wall_s"]) or 0))[:10]
    for r in slow:
        p(f"| {r['input']} | {r['level']} | {fmt_s(r['wall_s'])} | {r['peak_rss_mb']} | {phase_text(r)} | "
          f"{dominant(r)} | {r['ww_pairs']} ({r['ww_open']}) | {r['known_edges']} | {r['rounds']} |")
    p("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
