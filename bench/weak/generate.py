#!/usr/bin/env python3
"""Generate a large operation-level history from a simulated causally
consistent database, for benchmarking the RC, RA and CC checkers.

An event is one read or one write.  Generation stops at the first
transaction boundary at or after --events events.

The database: --replicas replicas, each holding every key; session s always
talks to replica s mod R (sticky sessions).  Transactions commit one at a
time, in a global log (position 0, 1, 2, ...).  A replica sees

  - every transaction of the log before its own horizon `seen[r]`, which
    trails the end of the log by a random lag of at most --lag transactions
    (re-drawn, never moving backwards, whenever one of its sessions starts a
    transaction), and
  - every transaction committed through it (its own writes, at once).

A transaction runs on the snapshot its replica sees when it starts (the
simulation runs it to completion before the next one starts): a read returns
the transaction's own last write of the key if it wrote it, otherwise the
version of the key with the highest log position among those the replica
sees (last writer wins), or 0, the initial value.  Its writes commit at the
next log position.  Every written value is fresh for its key (a per-key
counter from 1), so reads name their writer.

Why this is causally consistent (Biswas & Enea 2019): what a replica sees is
causally closed (a log prefix holds everything its transactions saw, since
they saw only earlier positions; a transaction committed through the
replica saw at most the replica's horizon, which never moves backwards, and
earlier transactions of the replica), and it contains every session
predecessor (sticky sessions) and every transaction read from, so everything
that happens before a transaction is visible to it.  Taking the log order as
the commit order co: so and wr go forward in the log, and a transaction t2
that writes x and happens before the reader t3 is visible to t3, so it is
earlier in the log than the version t3 read (the visible one with the
highest position).  That is the CC axiom; RA and RC are weaker.  The history
is typically not serializable: replicas read stale versions and overwrite
them (lost updates), and two replicas can disagree on the order of
concurrent transactions (long forks), so it is not prefix consistent either.

Workload per transaction: --ops operations (uniform in LO-HI), each a read
with probability --read-ratio, else a write.  A read re-reads a key the
transaction already read with probability --reread, reads a key it wrote
(a read of its own write, which is not a read event) with probability
--read-own, and otherwise reads a fresh key.  Keys: with probability
--hot-ratio one of the --hot-keys hot keys, otherwise uniform over --keys.

Formats (--format):
  text   r(k,v,s,t) / w(k,v,s,t), one operation per line (FORMATS.md §3);
         sessions numbered from 1, transactions from 1; initial value 0
  awdit  AWDIT's test format (FORMATS.md §4); AWDIT has no implicit initial
         state, so check it with --init implicit
  dbcop  dbcop's history.bincode (FORMATS.md §5); initial value 0

Sessions are written one after the other (each in program order).  The run
is deterministic for a given --seed.  A summary goes to stderr.
"""
import argparse
import random
import struct
import os
import sys
from array import array

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from argtypes import fraction, parse_ops, positive  # noqa: E402

# An operation packed into one integer: value << 33 | key << 1 | write.
KEY_BITS = 32


def count(text):
    """1000000, 1e6, 10M or 50.6M."""
    t = text.strip().upper()
    scale = 1
    if t.endswith("M"):
        scale, t = 1_000_000, t[:-1]
    elif t.endswith("K"):
        scale, t = 1_000, t[:-1]
    n = int(float(t) * scale)
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text}: expected a positive count")
    return n


def simulate(args):
    """Runs the database; returns per session the packed operations and the
    number of operations of each transaction."""
    rng = random.Random(args.seed)
    S, R = args.sessions, args.replicas
    keys = args.keys or max(1000, args.events // 20)
    hot = min(args.hot_keys, keys)
    lo, hi = args.ops
    if keys >= 1 << KEY_BITS:
        sys.exit("generate.py: too many keys")
    ops_of = [array("q") for _ in range(S)]
    sizes_of = [array("I") for _ in range(S)]
    # Versions of each key the replicas may still disagree on: (position,
    # replica, value), ascending position; older versions every replica
    # sees are dropped but the newest of them.
    versions = {}
    next_value = {}
    seen = [0] * R
    events = txns = reads = rereads = own_reads = writes = hot_ops = 0
    stale = 0  # read events that did not return the newest version of the key
    randrange, random_ = rng.randrange, rng.random
    read_ratio, reread, read_own, hot_ratio = args.read_ratio, args.reread, args.read_own, args.hot_ratio
    lag = args.lag

    def choose_key():
        nonlocal hot_ops
        if hot and random_() < hot_ratio:
            hot_ops += 1
            return randrange(hot)
        return randrange(keys)

    while events < args.events:
        s = randrange(S)
        r = s % R
        pos = txns
        h = pos - randrange(lag + 1)
        if h > seen[r]:
            seen[r] = h
        horizon = seen[r]
        out = ops_of[s]
        n = randrange(lo, hi + 1)
        own = {}       # key -> last value this transaction wrote
        snap = {}      # key -> value read from the snapshot (re-reads agree)
        read_keys = []
        for _ in range(n):
            if random_() < read_ratio:
                u = random_()
                if own and u < read_own:
                    k = rng.choice(list(own))
                    own_reads += 1
                elif read_keys and u < read_own + reread:
                    k = read_keys[randrange(len(read_keys))]
                    rereads += 1
                else:
                    k = choose_key()
                if k in own:
                    v = own[k]
                elif k in snap:
                    v = snap[k]
                else:
                    v = 0
                    vs = versions.get(k)
                    if vs:
                        for i in range(len(vs) - 1, -1, -1):
                            p, o, w = vs[i]
                            if p < horizon or o == r:
                                v = w
                                if i != len(vs) - 1:
                                    stale += 1
                                break
                    snap[k] = v
                    read_keys.append(k)
                reads += 1
                out.append(v << (KEY_BITS + 1) | k << 1)
            else:
                k = choose_key()
                v = next_value.get(k, 0) + 1
                next_value[k] = v
                own[k] = v
                writes += 1
                out.append(v << (KEY_BITS + 1) | k << 1 | 1)
        sizes_of[s].append(n)
        events += n
        txns += 1
        for k, v in own.items():
            vs = versions.get(k)
            if vs is None:
                versions[k] = [(pos, r, v)]
                continue
            vs.append((pos, r, v))
            if len(vs) > 16:
                floor = min(seen)
                i = len(vs) - 1
                while i > 0 and vs[i][0] >= floor:
                    i -= 1
                if i > 0:
                    del vs[:i]
        if args.progress and txns % 200_000 == 0:
            print(f"  {events:,} events", file=sys.stderr)
    summary = {
        "events": events, "transactions": txns, "sessions": S, "replicas": R, "keys": keys,
        "reads": reads, "re-reads": rereads, "reads of own writes": own_reads,
        "writes": writes, "hot-key operations": hot_ops,
        "stale read events": stale,
    }
    return ops_of, sizes_of, summary


MASK = (1 << KEY_BITS) - 1


def unpack(x):
    return x & 1, (x >> 1) & MASK, x >> (KEY_BITS + 1)


def write_text(f, ops_of, sizes_of):
    for s, (ops, sizes) in enumerate(zip(ops_of, sizes_of)):
        i = 0
        for t, n in enumerate(sizes):
            tail = f",{s + 1},{t + 1})\n"
            lines = []
            for x in ops[i:i + n]:
                lines.append(f"{'w' if x & 1 else 'r'}({(x >> 1) & MASK},{x >> (KEY_BITS + 1)}{tail}")
            i += n
            f.write("".join(lines))


def write_awdit(f, ops_of, sizes_of):
    for s, (ops, sizes) in enumerate(zip(ops_of, sizes_of)):
        if s > 0:
            f.write("=====\n")
        i = 0
        for t, n in enumerate(sizes):
            lines = ["-----\n"] if t > 0 else []
            for x in ops[i:i + n]:
                lines.append(f"{'w' if x & 1 else 'r'} {(x >> 1) & MASK} {x >> (KEY_BITS + 1)}\n")
            i += n
            f.write("".join(lines))


def write_dbcop(f, ops_of, sizes_of, summary):
    u64 = struct.Struct("<Q").pack
    event = struct.Struct("<?QQ?").pack

    def string(s):
        b = s.encode()
        return u64(len(b)) + b

    f.write(struct.pack("<5Q", 0, summary["replicas"], summary["keys"], summary["transactions"],
                        summary["events"]))
    f.write(string("bench/weak/generate.py causal replicas"))
    f.write(string("1970-01-01T00:00:00Z") + string("1970-01-01T00:00:00Z"))
    f.write(u64(len(ops_of)))
    for ops, sizes in zip(ops_of, sizes_of):
        f.write(u64(len(sizes)))
        i = 0
        for n in sizes:
            parts = [u64(n)]
            for x in ops[i:i + n]:
                parts.append(event(bool(x & 1), (x >> 1) & MASK, x >> (KEY_BITS + 1), True))
            parts.append(b"\x01")
            i += n
            f.write(b"".join(parts))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--events", type=count, required=True, help="events (reads and writes) to generate, e.g. 1M, 50.6M")
    p.add_argument("--sessions", type=positive, default=100, help="sessions (default 100)")
    p.add_argument("--replicas", type=positive, default=8, help="replicas (default 8); session s uses replica s mod R")
    p.add_argument("--keys", type=positive, default=0, help="keys (default: events / 20, at least 1000)")
    p.add_argument("--hot-keys", type=positive, default=100, help="hot keys (default 100)")
    p.add_argument("--hot-ratio", type=fraction, default=0.1, help="share of operations on hot keys (default 0.1)")
    p.add_argument("--ops", type=parse_ops, default=(8, 16), help="operations per transaction, N or LO-HI (default 8-16)")
    p.add_argument("--read-ratio", type=fraction, default=0.5, help="share of reads (default 0.5)")
    p.add_argument("--reread", type=fraction, default=0.15, help="chance that a read re-reads a key already read (default 0.15)")
    p.add_argument("--read-own", type=fraction, default=0.1, help="chance that a read reads a key the transaction wrote (default 0.1)")
    p.add_argument("--lag", type=int, default=200, help="most transactions a replica lags behind the log (default 200)")
    p.add_argument("--format", choices=["text", "awdit", "dbcop"], default="dbcop", help="output format (default dbcop)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--progress", action="store_true", help="report progress on stderr")
    p.add_argument("-o", "--output", required=True, help="file to write")
    args = p.parse_args()
    if args.reread + args.read_own > 1:
        p.error("--reread + --read-own must be at most 1")
    if args.lag < 0:
        p.error("--lag must be non-negative")

    ops_of, sizes_of, summary = simulate(args)
    if args.format == "dbcop":
        with open(args.output, "wb", buffering=1 << 20) as f:
            write_dbcop(f, ops_of, sizes_of, summary)
    else:
        with open(args.output, "w", buffering=1 << 20) as f:
            (write_text if args.format == "text" else write_awdit)(f, ops_of, sizes_of)
    print(", ".join(f"{k} {v:,}" for k, v in summary.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
