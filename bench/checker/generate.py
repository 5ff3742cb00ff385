#!/usr/bin/env python3
"""Generate a key-value history in the text format r/w(key,value,session,txn).

The history is what a simulated database returns to a workload of
transactions over integer keys (initial value 0), under one of two
isolation levels:

  ser  transactions run one at a time; at each step a session is chosen at
       random among those with work left and runs its next transaction to
       completion.  The history is serializable.
  si   snapshot isolation: a transaction reads from the snapshot taken when
       it starts and commits later; at most --concurrency transactions are
       in flight at once (each from a different session), and the first
       committer wins on write-write conflicts.  Aborted transactions do not
       appear in the output (their session goes on with a fresh
       transaction).  The history satisfies SI and, when transactions
       overlap, typically not SER (write skew).

A read returns the value of the version it sees (its own transaction's last
write of the key if any).  A write writes a fresh value (a global counter,
never 0) or, with probability --dup-ratio, a value already written to that
key by a committed transaction: the duplicate-value workloads (BL/RH/WH of
VeriStrong's PostgreSQL histories) where reads do not name their writer.

Output: one operation per line, `r(k,v,s,t)` or `w(k,v,s,t)`; the lines of a
transaction are consecutive; sessions are numbered from 1 and written one
after the other; a session's transactions are numbered 1, 2, ... in program
order.  The run is deterministic for a given --seed.  A summary goes to
stderr.
"""
import argparse
import bisect
import random
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from argtypes import fraction, parse_ops, positive  # noqa: E402


class KeyChooser:
    def __init__(self, rng, keys, dist, theta):
        self.rng = rng
        self.keys = keys
        self.cdf = None
        if dist == "zipfian":
            total, cdf = 0.0, []
            for i in range(keys):
                total += 1.0 / (i + 1) ** theta
                cdf.append(total)
            self.cdf = [c / total for c in cdf]
            # Key ranks are shuffled so that hot keys are not the small numbers.
            self.perm = list(range(keys))
            rng.shuffle(self.perm)

    def __call__(self):
        if self.cdf is None:
            return self.rng.randrange(self.keys)
        i = bisect.bisect_left(self.cdf, self.rng.random())
        return self.perm[min(i, self.keys - 1)]


class Workload:
    """Draws the operations of transactions: (is_write, key) pairs."""

    def __init__(self, args, rng):
        self.rng = rng
        self.ops = args.ops
        self.read_ratio = args.read_ratio
        self.key = KeyChooser(rng, args.keys, args.dist, args.zipf_theta)

    def txn(self):
        n = self.rng.randint(*self.ops)
        return [(self.rng.random() >= self.read_ratio, self.key()) for _ in range(n)]


class Values:
    """Values written: fresh ones from a counter, or duplicates of values already
    committed to the same key."""

    def __init__(self, rng, dup_ratio):
        self.rng = rng
        self.dup_ratio = dup_ratio
        self.next = 1
        self.committed = {}  # key -> list of distinct values committed to it
        self.seen = {}  # key -> set of the same
        self.duplicates = 0
        self.writes = 0

    def pick(self, key):
        self.writes += 1
        pool = self.committed.get(key)
        if pool and self.dup_ratio > 0 and self.rng.random() < self.dup_ratio:
            self.duplicates += 1
            return self.rng.choice(pool)
        v = self.next
        self.next += 1
        return v

    def commit(self, key, value):
        s = self.seen.setdefault(key, set())
        if value not in s:
            s.add(value)
            self.committed.setdefault(key, []).append(value)


def session_quota(txns, sessions):
    base, extra = divmod(txns, sessions)
    return [base + (1 if i < extra else 0) for i in range(sessions)]


def make_txn(work, values, read):
    """One transaction's ops: a read sees the transaction's own last write of
    the key, else read(key); returns the ops and the final writes."""
    ops, local = [], {}
    for write, k in work.txn():
        if write:
            v = values.pick(k)
            local[k] = v
            ops.append(("w", k, v))
        else:
            ops.append(("r", k, local[k] if k in local else read(k)))
    return ops, local


def simulate_ser(args, rng):
    """Serial execution in a random interleaving of sessions."""
    work = Workload(args, rng)
    values = Values(rng, args.dup_ratio)
    store = {}  # key -> current value
    left = session_quota(args.txns, args.sessions)
    out = [[] for _ in range(args.sessions)]  # per session: list of txns (list of ops)
    active = [s for s in range(args.sessions) if left[s] > 0]
    while active:
        i = rng.randrange(len(active))
        s = active[i]
        ops, local = make_txn(work, values, lambda k: store.get(k, 0))
        for k, v in local.items():
            store[k] = v
            values.commit(k, v)
        out[s].append(ops)
        left[s] -= 1
        if left[s] == 0:
            active[i] = active[-1]
            active.pop()
    return out, values, {"aborted": 0}


def simulate_si(args, rng):
    """Snapshot isolation with first-committer-wins and bounded concurrency."""
    work = Workload(args, rng)
    values = Values(rng, args.dup_ratio)
    versions = {}  # key -> list of (commit_ts, value), commit_ts increasing
    last_commit = {}  # key -> commit_ts of its latest version
    clock = 0  # commit timestamp of the latest commit
    left = session_quota(args.txns, args.sessions)
    out = [[] for _ in range(args.sessions)]
    idle = [s for s in range(args.sessions) if left[s] > 0]
    running = []  # (session, start_ts, ops, writes{key: value})
    aborted = 0
    overlaps = 0

    def read(k, ts):
        vs = versions.get(k)
        if not vs:
            return 0
        # Latest version with commit_ts <= ts.
        i = bisect.bisect_right(vs, (ts, float("inf"))) - 1
        return vs[i][1] if i >= 0 else 0

    while idle or running:
        start = idle and (len(running) < args.concurrency) and (not running or rng.random() < 0.5)
        if start:
            i = rng.randrange(len(idle))
            s = idle[i]
            idle[i] = idle[-1]
            idle.pop()
            overlaps += len(running)
            ops, local = make_txn(work, values, lambda k: read(k, clock))
            running.append((s, clock, ops, local))
            continue
        j = rng.randrange(len(running))
        s, ts, ops, local = running[j]
        running[j] = running[-1]
        running.pop()
        if any(last_commit.get(k, 0) > ts for k in local):
            aborted += 1  # first committer wins; the session tries a new transaction
        else:
            if local:
                clock += 1
                for k, v in local.items():
                    versions.setdefault(k, []).append((clock, v))
                    last_commit[k] = clock
                    values.commit(k, v)
            out[s].append(ops)
            left[s] -= 1
        if left[s] > 0:
            idle.append(s)
    return out, values, {"aborted": aborted, "mean_overlap_at_start": overlaps / max(1, args.txns + aborted)}


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Example (BL-like, 1000 transactions): generate.py --sessions 20 --txns 1000 "
               "--ops 8-10 --read-ratio 0.5 --keys 500 --dist zipfian --dup-ratio 0.05 "
               "--isolation ser --seed 1 -o bl1k.txt")
    p.add_argument("--sessions", type=positive, default=20, help="number of sessions (default 20)")
    p.add_argument("--txns", type=positive, default=1000,
                   help="committed transactions in total, spread evenly over the sessions (default 1000)")
    p.add_argument("--ops", type=parse_ops, default=(8, 10),
                   help="operations per transaction: N, or LO-HI drawn uniformly (default 8-10)")
    p.add_argument("--read-ratio", type=fraction, default=0.5,
                   help="probability that an operation is a read (default 0.5)")
    p.add_argument("--keys", type=positive, default=500, help="number of keys 0..KEYS-1 (default 500)")
    p.add_argument("--dist", choices=["uniform", "zipfian"], default="zipfian",
                   help="key distribution (default zipfian)")
    p.add_argument("--zipf-theta", type=float, default=0.5,
                   help="zipfian exponent: key of rank i has weight 1/i^theta (default 0.5, close to "
                        "the key skew of the PostgreSQL BL-1k history)")
    p.add_argument("--dup-ratio", type=fraction, default=0.05,
                   help="probability that a write reuses a value already committed to the same key "
                        "instead of a fresh one (default 0.05; BL-1k has about 0.03)")
    p.add_argument("--isolation", choices=["ser", "si"], default="ser",
                   help="what the simulated database provides: ser (serial execution) or si "
                        "(snapshot isolation, first committer wins) (default ser)")
    p.add_argument("--concurrency", type=positive, default=4,
                   help="si: at most this many transactions in flight at once (default 4)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    args = p.parse_args()
    if args.txns < args.sessions:
        p.error("--txns must be at least --sessions")

    rng = random.Random(args.seed)
    sim = simulate_ser if args.isolation == "ser" else simulate_si
    sessions, values, info = sim(args, rng)

    f = sys.stdout if args.output == "-" else open(args.output, "w")
    lines = 0
    buf = []
    for s, txns in enumerate(sessions, start=1):
        for t, ops in enumerate(txns, start=1):
            for kind, k, v in ops:
                buf.append(f"{kind}({k},{v},{s},{t})\n")
            lines += len(ops)
            if len(buf) > 100000:
                f.write("".join(buf))
                buf.clear()
    f.write("".join(buf))
    if f is not sys.stdout:
        f.close()
    extra = ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in info.items())
    print(f"{args.isolation}: {sum(len(x) for x in sessions)} transactions, {lines} operations, "
          f"{values.writes} writes{' (aborted attempts included)' if args.isolation == 'si' else ''} "
          f"({values.duplicates} duplicate values), {extra}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
