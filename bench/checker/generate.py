#!/usr/bin/env python3
"""Generate a key-value history in the text format r/w(key,value,session,txn).

The history is what a simulated database returns to a workload of
transactions over integer keys (initial value 0): BL-like independent reads
and writes, or the application transactions of TPC-C, RUBiS or a Twitter
clone (--workload), under one of two isolation levels, optionally with
anomalies injected (--anomaly-rate):

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
    """Draws the operations of transactions: (is_write, key) pairs (BL-like:
    independent reads and writes of skewed keys)."""

    def __init__(self, args, rng):
        self.rng = rng
        self.ops = args.ops
        self.read_ratio = args.read_ratio
        self.key = KeyChooser(rng, args.keys, args.dist, args.zipf_theta)

    def txn(self):
        n = self.rng.randint(*self.ops)
        return [(self.rng.random() >= self.read_ratio, self.key()) for _ in range(n)]


class Templates:
    """Workloads of application transactions, after the benchmarks Cobra ran
    (TPC-C, RUBiS, a Twitter clone): each transaction is a template over
    tables mapped to disjoint integer key ranges, with read-modify-writes of
    hot rows (a read of a key, then a write of it) and inserts (writes of
    fresh keys, numbered after every table). --keys scales the tables;
    --dist and --zipf-theta skew the choice of rows within a table."""

    def __init__(self, args, rng):
        self.rng = rng
        self.dist, self.theta = args.dist, args.zipf_theta
        self.base = 0
        self.fresh = None  # first fresh key, once the tables are laid out
        self.kind = args.workload
        n = args.keys
        if self.kind == "tpcc":
            # Warehouses of 10 districts; customers, items and stock scale with --keys.
            self.w = max(1, args.warehouses)
            self.warehouse = self.table(self.w, skew=False)
            self.district = self.table(self.w * 10, skew=False)
            self.customer = self.table(max(30, n // 4))
            self.item = self.table(max(100, n // 4))
            self.stock = self.table(max(100, n // 4))
            self.last_order = self.table(max(30, n // 4))  # a customer's latest order
            self.mix = [(0.45, self.new_order), (0.43, self.payment), (0.04, self.order_status),
                        (0.04, self.delivery), (0.04, self.stock_level)]
        elif self.kind == "rubis":
            self.user = self.table(max(50, n // 3))
            self.item = self.table(max(50, n // 2))
            self.category = self.table(20, skew=False)
            self.bids = self.table(max(50, n // 2))  # an item's bid summary
            self.mix = [(0.20, self.bid), (0.40, self.view_item), (0.25, self.browse),
                        (0.05, self.register_item), (0.10, self.comment)]
        else:  # twitter
            self.user = self.table(max(50, n // 4))
            self.timeline = self.table(max(50, n // 4))  # a user's latest tweet
            self.follows = self.table(max(50, n // 4))  # whom a user follows
            self.mix = [(0.30, self.tweet), (0.10, self.follow), (0.60, self.read_timeline)]
        self.fresh = self.base

    def table(self, rows, skew=True):
        first = self.base
        self.base += rows
        chooser = KeyChooser(self.rng, rows, self.dist if skew else "uniform", self.theta)
        return lambda: first + chooser()

    def new_key(self):
        k = self.fresh
        self.fresh += 1
        return k

    def txn(self):
        x = self.rng.random()
        for p, make in self.mix:
            if x < p:
                return make()
            x -= p
        return self.mix[-1][1]()

    @staticmethod
    def rmw(k):
        return [(False, k), (True, k)]

    # TPC-C
    def new_order(self):
        ops = [(False, self.warehouse())] + self.rmw(self.district()) + [(False, self.customer())]
        for _ in range(self.rng.randint(5, 15)):
            ops += [(False, self.item())] + self.rmw(self.stock())
        return ops + [(True, self.new_key()), (True, self.last_order())]

    def payment(self):
        return (self.rmw(self.warehouse()) + self.rmw(self.district()) + self.rmw(self.customer())
                + [(True, self.new_key())])

    def order_status(self):
        return [(False, self.customer()), (False, self.last_order())]

    def delivery(self):
        ops = []
        for _ in range(10):
            ops += self.rmw(self.district()) + self.rmw(self.customer())
        return ops

    def stock_level(self):
        return [(False, self.district())] + [(False, self.stock()) for _ in range(20)]

    # RUBiS
    def bid(self):
        return [(False, self.user())] + self.rmw(self.item()) + self.rmw(self.bids()) + [(True, self.new_key())]

    def view_item(self):
        return [(False, self.item()), (False, self.bids())]

    def browse(self):
        return [(False, self.category())] + [(False, self.item()) for _ in range(10)]

    def register_item(self):
        return self.rmw(self.category()) + [(True, self.new_key())]

    def comment(self):
        return self.rmw(self.user()) + [(True, self.new_key())]

    # Twitter
    def tweet(self):
        return [(True, self.new_key())] + self.rmw(self.timeline())

    def follow(self):
        return self.rmw(self.follows()) + self.rmw(self.follows())

    def read_timeline(self):
        return [(False, self.follows())] + [(False, self.timeline()) for _ in range(10)]


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
        self.unique = set()  # values never repeated (predicate writes')

    def pick(self, key, fresh=False):
        self.writes += 1
        pool = self.committed.get(key)
        if not fresh and pool and self.dup_ratio > 0 and self.rng.random() < self.dup_ratio:
            self.duplicates += 1
            return self.rng.choice(pool)
        v = self.next
        self.next += 1
        return v

    def commit(self, key, value):
        s = self.seen.setdefault(key, set())
        if value not in s and value not in self.unique:
            s.add(value)
            self.committed.setdefault(key, []).append(value)


def session_quota(txns, sessions):
    base, extra = divmod(txns, sessions)
    return [base + (1 if i < extra else 0) for i in range(sessions)]


# Range reads (--range-reads P, --range-width W, --keys K): with probability
# P a transaction starts with a predicate read "[lo,hi] && v>0" over W
# consecutive keys, which returns every key of the range whose value it sees
# is positive (the initial value is 0: a key not written yet is left out).
RANGE = None  # (probability, width, keys) when on
# Predicate writes (--pred-writes P): with probability P a transaction then
# runs "UPDATE ... SET v = n WHERE k in [lo,hi] AND v % 2 = 0" over
# --range-width consecutive keys, n a fresh value: it writes every key of
# the range whose value it sees is even (the initial 0 included).
PRED_WRITES = 0.0


def make_txn(work, values, read_value, first=()):
    """One transaction's ops (`first`, then the workload's): a read sees the
    transaction's own last write of the key, else read_value(key); returns
    the ops and the final writes."""
    ops, local, read = [], {}, set()
    if RANGE and work.rng.random() < RANGE[0]:
        width = min(RANGE[1], RANGE[2])
        lo = work.rng.randrange(RANGE[2] - width + 1)
        hits = [(k, read_value(k)) for k in range(lo, lo + width)]
        ops.append(("pr", f"[{lo},{lo + width - 1}] && v>0",
                    [(k, v) for k, v in hits if isinstance(v, int) and v > 0]))
    if RANGE and PRED_WRITES > 0 and work.rng.random() < PRED_WRITES:
        width = min(RANGE[1], RANGE[2])
        lo = work.rng.randrange(RANGE[2] - width + 1)
        # Fresh and never repeated: a read of it after the update is then
        # a read of the update's write.
        n = values.pick(lo, fresh=True)
        values.unique.add(n)
        for k in range(lo, lo + width):
            v = local[k] if k in local else read_value(k)
            if isinstance(v, int) and v % 2 == 0:
                local[k] = n
                read.add(k)
        ops.append(("pw", f"[{lo},{lo + width - 1}] && v%2=0", n))
    for write, k in list(first) + work.txn():
        if write:
            # A read-modify-write (an increment, a balance update) writes a
            # new value: only blind writes repeat values (with the templates;
            # the BL-like workload keeps its duplicates as they were).
            v = values.pick(k, fresh=k in read and not isinstance(work, Workload))
            local[k] = v
            ops.append(("w", k, v))
        else:
            ops.append(("r", k, local[k] if k in local else read_value(k)))
            read.add(k)
    return ops, local


def workload(args, rng):
    return Workload(args, rng) if args.workload == "bl" else Templates(args, rng)


def simulate_ser(args, rng):
    """Serial execution in a random interleaving of sessions. With
    --anomaly-rate P, a transaction starts, with probability P, with a
    read-modify-write of a key the latest writing transaction wrote, and
    reads the state before that transaction committed (a stale read and a
    lost update, which neither a serializable nor a snapshot-isolated
    database returns)."""
    work = workload(args, rng)
    values = Values(rng, args.dup_ratio)
    store = {}  # key -> current value
    previous = {}  # the state before the latest commit: key -> value, for the keys it changed
    stale = 0
    tick = 0  # the clock: one tick per begin and per commit
    left = session_quota(args.txns, args.sessions)
    out = [[] for _ in range(args.sessions)]  # per session: list of txns (list of ops)
    active = [s for s in range(args.sessions) if left[s] > 0]
    while active:
        i = rng.randrange(len(active))
        s = active[i]
        if args.anomaly_rate > 0 and previous and rng.random() < args.anomaly_rate:
            stale += 1
            k = rng.choice(sorted(previous))
            ops, local = make_txn(work, values, lambda k: previous.get(k, store.get(k, 0)),
                                  first=[(False, k), (True, k)])
        else:
            ops, local = make_txn(work, values, lambda k: store.get(k, 0))
        if local:
            previous = {k: store.get(k, 0) for k in local}
        for k, v in local.items():
            store[k] = v
            values.commit(k, v)
        # One at a time: intervals never overlap; the database's start and
        # commit timestamps are the same ticks.
        out[s].append((ops, tick, tick + 1, tick, tick + 1))
        tick += 2
        left[s] -= 1
        if left[s] == 0:
            active[i] = active[-1]
            active.pop()
    return out, values, {"aborted": 0, "stale_reads_injected": stale}


def simulate_si(args, rng):
    """Snapshot isolation with first-committer-wins and bounded concurrency.
    With --anomaly-rate P, a transaction that first-committer-wins would
    abort commits anyway with probability P (a lost update, which snapshot
    isolation forbids)."""
    work = workload(args, rng)
    values = Values(rng, args.dup_ratio)
    versions = {}  # key -> list of (commit_ts, value), commit_ts increasing
    last_commit = {}  # key -> commit_ts of its latest version
    clock = 0  # commit timestamp of the latest commit
    left = session_quota(args.txns, args.sessions)
    out = [[] for _ in range(args.sessions)]
    idle = [s for s in range(args.sessions) if left[s] > 0]
    running = []  # (session, start_ts, ops, writes{key: value}, begin tick)
    tick = 0  # the clock: one tick per begin and per commit
    aborted = 0
    lost = 0
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
            running.append((s, clock, ops, local, tick))
            tick += 1
            continue
        j = rng.randrange(len(running))
        s, ts, ops, local, begun = running[j]
        running[j] = running[-1]
        running.pop()
        conflict = any(last_commit.get(k, 0) > ts for k in local)
        if conflict and args.anomaly_rate > 0 and rng.random() < args.anomaly_rate:
            conflict = False
            lost += 1
        if conflict:
            aborted += 1  # first committer wins; the session tries a new transaction
        else:
            # Every commit takes a fresh timestamp, a read-only one too: two
            # read-only transactions with start = commit at one timestamp
            # would each see the other (cts <= sts), which no commit order
            # allows (cerone.TimestampSI: ORDER). Reads are unchanged.
            clock += 1
            for k, v in local.items():
                versions.setdefault(k, []).append((clock, v))
                last_commit[k] = clock
                values.commit(k, v)
            # The database's timestamps: the snapshot it read (start) and
            # the commit's.
            out[s].append((ops, begun, tick, ts, clock))
            tick += 1
            left[s] -= 1
        if left[s] > 0:
            idle.append(s)
    return out, values, {"aborted": aborted, "lost_updates_injected": lost,
                         "mean_overlap_at_start": overlaps / max(1, args.txns + aborted)}


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
    p.add_argument("--workload", choices=["bl", "tpcc", "rubis", "twitter"], default="bl",
                   help="bl: independent reads and writes of skewed keys (--ops, --read-ratio); "
                        "tpcc, rubis, twitter: application transactions after the benchmarks Cobra "
                        "ran, with read-modify-writes of hot rows and inserts, tables scaled by --keys "
                        "(default bl)")
    p.add_argument("--warehouses", type=positive, default=2,
                   help="tpcc: warehouses, each of 10 districts: the hot rows (default 2)")
    p.add_argument("--anomaly-rate", type=fraction, default=0.0,
                   help="inject anomalies: ser, a transaction read-modify-writes a key of the latest "
                        "writer and reads the state before it with this probability (a lost update); si, a transaction that first "
                        "committer wins would abort commits with this probability (a lost update) "
                        "(default 0: none)")
    p.add_argument("--format", choices=["text", "native", "chronos"], default="text",
                   help="text: r/w(key,value,session,txn) lines; native: isosynth's JSON with each "
                        "transaction's begin and commit time on the simulation's clock (one tick per "
                        "begin and per commit), for the levels that use real time, and the "
                        "database's start and commit timestamps (sts, cts: the snapshot read and "
                        "the commit's version); chronos: Chronos's JSON with those sts and cts "
                        "(default text)")
    p.add_argument("--range-reads", type=fraction, default=0.0,
                   help="native format: probability that a transaction starts with a range read "
                        "\"[lo,hi] && v>0\" over --range-width consecutive keys (default 0)")
    p.add_argument("--range-width", type=positive, default=10,
                   help="keys a range read (or a predicate write) covers (default 10)")
    p.add_argument("--pred-writes", type=fraction, default=0.0,
                   help="native format: probability that a transaction runs a predicate write "
                        "\"[lo,hi] && v%%2=0\" over --range-width consecutive keys, writing a fresh "
                        "value to each key whose value is even (default 0)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    args = p.parse_args()
    if args.txns < args.sessions:
        p.error("--txns must be at least --sessions")

    if args.range_reads > 0 or args.pred_writes > 0:
        if args.format != "native":
            p.error("--range-reads and --pred-writes need --format native (the other formats have no "
                    "predicates)")
        global RANGE, PRED_WRITES
        RANGE = (args.range_reads, args.range_width, args.keys)
        PRED_WRITES = args.pred_writes
    rng = random.Random(args.seed)
    sim = simulate_ser if args.isolation == "ser" else simulate_si
    sessions, values, info = sim(args, rng)

    f = sys.stdout if args.output == "-" else open(args.output, "w")
    lines = 0
    buf = []
    if args.format == "native":
        # isosynth's native JSON, with each transaction's begin and commit on
        # the simulation's clock (docs/formats.md).
        buf.append('{"format": "isosynth-history", "version": 1, "sessions": [\n')
    if args.format == "chronos":
        buf.append("[\n")  # one array of transactions (FORMATS.md §9)
    first = True
    for s, txns in enumerate(sessions, start=1):
        if args.format == "native":
            buf.append(("" if s == 1 else ",\n") + "[")
        for t, (ops, begin, commit, sts, cts) in enumerate(txns, start=1):
            if args.format == "native":
                body = ", ".join(
                    f'["pr", "{k}", [{", ".join(f"[{a}, {b}]" for a, b in v)}]]' if kind == "pr"
                    else f'["pw", "{k}", {v}]' if kind == "pw"
                    else f'["{kind}", {k}, {v}]' for kind, k, v in ops)
                buf.append(("" if t == 1 else ",\n ") +
                           f'{{"id": "S{s}.{t}", "begin": {begin}, "commit": {commit}, '
                           f'"sts": [{sts}, 0], "cts": [{cts}, 0], "ops": [{body}]}}')
            elif args.format == "chronos":
                body = ", ".join(f'{{"t": "{kind}", "k": {k}, "v": {v}}}' for kind, k, v in ops)
                buf.append(("" if first else ",\n") +
                           f'{{"tid": "S{s}.{t}", "sid": {s}, "sts": {{"p": {sts}, "l": 0}}, '
                           f'"cts": {{"p": {cts}, "l": 0}}, "ops": [{body}]}}')
                first = False
            else:
                for kind, k, v in ops:
                    buf.append(f"{kind}({k},{v},{s},{t})\n")
            lines += len(ops)
            if len(buf) > 100000:
                f.write("".join(buf))
                buf.clear()
        if args.format == "native":
            buf.append("]")
    if args.format == "native":
        buf.append("\n]}\n")
    if args.format == "chronos":
        buf.append("\n]\n")
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
