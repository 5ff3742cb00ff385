-- Named anomalies, each a pattern over a history and its dependencies in
-- Adya's framework (adya.lua: a version order ww(x) per key). A history
-- exhibits an anomaly when every execution satisfies the pattern, that is,
-- when the level forbidding it rejects the history; `isosynth anomalies`
-- synthesizes the smallest such history for each and decides it at every
-- level. The dependencies, as Adya defines them:
--   wr(x)  t3 read t1's version of x                        (h.wrx)
--   ww(x)  t1's version of x precedes t2's                  (e.ww)
--   rw(x)  s read a version of x that t's version follows
-- Reads of writes that never became committed versions are no reads of any
-- version and carry no dependency: every anomaly (as Adya's PL-1) permits
-- them, sets them aside, and sees them only through
--   h.aborted_reads(t, x, n)       t read x = n, written by an aborted transaction
--   h.intermediate_reads(t, x, n)  t read x = n, another transaction's non-final write
-- so G1a and G1b are patterns like any other, and synthesis searches the
-- space with aborted transactions and intermediate writes for them (on by
-- itself for a pattern that mentions these relations). G0, a cycle of ww
-- edges, is different: a version order is part of the witness, so only a
-- history whose reads reveal version orders (list-append reads, h.vo) can
-- force one; `histories = "list-append"` makes synthesis search those.
-- This file loads after the levels (lua/embed_specs.cmake), whose patterns
-- it reuses.

library "anomalies"

-- rw(x): s read some version of x, from u, and t's version of x follows u's.
-- `wrx` says which reads (default h.wrx, all of them).
local function rw(h, e, x, s, t, wrx)
  wrx = wrx or h.wrx
  return ne(s, t) & exists(Txn, function(u) return wrx(u, x, s) & (x .. e.ww)(u, t) end)
end

local function writes(h, t, x) return (h.writer .. x)(t) end

-- s sees t's write of x: s reads it, or t precedes s in their session.
local function sees(h, t, x, s) return h.wrx(t, x, s) | (h.so(t, s) & writes(h, t, x)) end

anomaly "LostUpdate" {
  framework = "adya",
  aka = "P4",
  doc = "Lost update (Berenson et al. 1995, P4; Hermitage's lost update): two transactions read "
     .. "the same version of x and both write x, so one overwrites the other's update unseen",
  pattern = function(h, e)
    return exists(Obj, function(x)
      local Wr = h.writer .. x
      return exists(Wr, Wr, Txn, function(t1, t2, u)
        return ne(t1, t2) & h.wrx(u, x, t1) & h.wrx(u, x, t2)
      end)
    end)
  end,
}

anomaly "WriteSkew" {
  framework = "adya",
  aka = "A5B, G2-item",
  doc = "Write skew (Berenson et al. 1995, A5B; Adya's G2-item with two anti-dependencies): "
     .. "t1 reads x and writes y, t2 reads y and writes x, each overwriting what the other read",
  pattern = function(h, e)
    return exists(Obj, Obj, Txn, Txn, function(x, y, t1, t2)
      return ne(x, y) & rw(h, e, x, t1, t2) & rw(h, e, y, t2, t1)
           & NOT(writes(h, t1, x)) & NOT(writes(h, t2, y))
    end)
  end,
}

anomaly "ReadSkew" {
  framework = "adya",
  aka = "A5A, G-single",
  doc = "Read skew (Berenson et al. 1995, A5A; Adya's G-single), also fractured read (Bailis "
     .. "et al. 2014): t1 sees t2's write of y but a version of x older than t2's",
  pattern = function(h, e)
    return exists(Obj, Obj, Txn, Txn, function(x, y, t1, t2)
      return ne(x, y) & rw(h, e, x, t1, t2) & h.wrx(t2, y, t1)
    end)
  end,
}

anomaly "NonRepeatableRead" {
  framework = "adya",
  aka = "P2",
  title = "non-repeatable read",
  doc = "Non-repeatable (fuzzy) read (Berenson et al. 1995, P2; Plume's TAP-j): a transaction "
     .. "reads x twice and the reads return the writes of two different transactions",
  -- Synthesis finds r(x,1) r(x,0): no database returns the older value
  -- second. On a database, T2 commits between the two reads.
  run_example = "T1: r(x,0) r(x,1) | T2: w(x,1)",
  -- The pattern Plume's level forbids (plume.lua; it reads no witness).
  pattern = function(h, e) return NOT(levels["plume.NoNonRepeatableRead"](h, e)) end,
}

anomaly "CircularInformationFlow" {
  framework = "adya",
  aka = "G1c",
  doc = "Circular information flow (Adya 1999, G1c): a cycle of write and read dependencies; "
     .. "each transaction sees the other's effects",
  -- The smallest example reads the other's write before making its own,
  -- which no interleaving does; Hermitage's G1c writes first, two keys.
  run_example = "T1: w(x,1) r(y,1) | T2: w(y,1) r(x,1)",
  pattern = function(h, e) return NOT(acyclic((Obj .. e.ww) + h.wr)) end,
}

anomaly "LongFork" {
  framework = "adya",
  aka = "G-nonadjacent",
  doc = "Long fork (Cerone et al. 2015, §2; Adya's G-nonadjacent, Elle's G-nonadjacent): two "
     .. "readers see the writes of two other transactions in opposite orders; a reader sees a "
     .. "write it reads or one of an earlier transaction of its session (Cerone's vis includes "
     .. "session order)",
  pattern = function(h, e)
    return exists(Obj, Obj, function(x, y)
      return ne(x, y) & exists(Txn, Txn, Txn, Txn, function(t1, t2, t3, t4)
        return ne(t1, t2) & ne(t3, t4)
             & sees(h, t1, x, t3) & rw(h, e, y, t3, t2) & sees(h, t2, y, t4) & rw(h, e, x, t4, t1)
      end)
    end)
  end,
}

anomaly "CausalityViolation" {
  framework = "adya",
  aka = "G-single",
  doc = "Causality violation (Cerone et al. 2015; Biswas & Enea 2019): t3 sees t2, which saw "
     .. "t1's write of x, yet t3 reads a version of x older than t1's",
  pattern = function(h, e)
    return exists(Obj, Obj, function(x, y)
      return ne(x, y) & exists(Txn, Txn, Txn, function(t1, t2, t3)
        return h.wrx(t1, x, t2) & h.wrx(t2, y, t3) & rw(h, e, x, t3, t1)
      end)
    end)
  end,
}

anomaly "MissedSessionWrite" {
  framework = "adya",
  aka = "read-your-writes violation, G-single-process",
  doc = "Missed session write (Terry et al. 1994, read your writes; Isolde §3.1.1): a "
     .. "transaction reads a version of x older than the write of x of an earlier transaction "
     .. "of its own session",
  pattern = function(h, e)
    return exists(Obj, Txn, Txn, function(x, t1, t2) return h.so(t1, t2) & rw(h, e, x, t2, t1) end)
  end,
}

anomaly "MonotonicReads" {
  framework = "adya",
  title = "monotonic reads violation",
  aka = "G-single-process",
  doc = "Monotonic reads violation (Terry et al. 1994, the monotonic reads guarantee; Cerone et al. "
     .. "2015 and Biswas & Enea 2019 forbid it with causal consistency; Elle's G-single-process): "
     .. "t2 reads t1's write of x, and a later transaction t3 of t2's session reads a version of x "
     .. "older than t1's",
  pattern = function(h, e)
    return exists(Obj, Txn, Txn, Txn, function(x, t1, t2, t3)
      return h.wrx(t1, x, t2) & h.so(t2, t3) & rw(h, e, x, t3, t1)
    end)
  end,
}

anomaly "SessionOrderViolation" {
  framework = "adya",
  title = "session-order violation",
  aka = "G1c-process",
  doc = "Session-order violation (Elle's G1c-process, a cycle of session order and write-read "
     .. "dependencies; Terry et al. 1994's session guarantees and Biswas & Enea 2019's so ∪ wr "
     .. "acyclicity forbid it): a transaction reads the write of a later transaction of its own "
     .. "session. Adya's levels, which know no sessions, allow it",
  pattern = function(h, e)
    return exists(Obj, Txn, Txn, function(x, t1, t2) return h.so(t1, t2) & h.wrx(t2, x, t1) end)
  end,
}

anomaly "StaleRead" {
  framework = "adya",
  aka = "G-single-realtime",
  title = "stale read",
  doc = "Stale read (Elle's G-single-realtime; the anomaly strict serializability and Strong SI "
     .. "forbid, Vbox §3.2): a transaction reads a version of x older than the write of x of a "
     .. "transaction that committed before it began, in real time (h.rt)",
  pattern = function(h, e)
    return exists(Obj, Txn, Txn, function(x, t1, t2) return h.rt(t1, t2) & rw(h, e, x, t2, t1) end)
  end,
}

anomaly "ReadOnlyAnomaly" {
  framework = "adya",
  aka = "G2-item",
  title = "read-only anomaly",
  doc = "Read-only transaction anomaly (Fekete, O'Neil & O'Neil 2004; Isolde §3.2.1): the update "
     .. "transactions alone are serializable, but a read-only transaction sees t1 and not t3, "
     .. "where t3 must precede t1: t2 -rw(x)-> t3 -rw(y)-> t1 -wr(y)-> t2, t2 writing nothing",
  pattern = function(h, e)
    return exists(Obj, Obj, function(x, y)
      return ne(x, y) & exists(Txn, Txn, Txn, function(t1, t2, t3)
        return ne(t1, t3) & h.wrx(t1, y, t2) & rw(h, e, x, t2, t3) & rw(h, e, y, t3, t1)
             & NOT(exists(Obj, function(z) return writes(h, t2, z) end))
      end)
    end)
  end,
}

anomaly "G0" {
  framework = "adya",
  aka = "G0, P0",
  title = "dirty write",
  doc = "Dirty write (Adya 1999, §4.1, G0; Berenson et al. 1995, P0): a cycle of write "
     .. "dependencies; the transactions' writes to two keys are installed in opposite orders, "
     .. "which only version orders revealed by the history (list-append reads) can show",
  histories = "list-append",
  -- On a database, each writer's appends interleave and a third
  -- transaction reads both lists (Hermitage's G0 reads after both commit).
  run_example = "T1: w(x,1) w(y,1) | T2: w(x,2) w(y,2) | T3: r(x,[1 2]) r(y,[2 1])",
  pattern = function(h, e) return NOT(acyclic(Obj .. e.ww)) end,
}

anomaly "G1a" {
  framework = "adya",
  aka = "G1a, A1",
  title = "aborted read",
  doc = "Aborted read (Adya 1999, §4.1–4.2, G1a; Berenson et al. 1995, A1 dirty read; Plume's "
     .. "TAP-b): a committed transaction reads a value that only an aborted transaction wrote",
  pattern = function(h, e) return some(h.aborted_reads) end,
}

anomaly "G1b" {
  framework = "adya",
  aka = "G1b",
  title = "intermediate read",
  doc = "Intermediate read (Adya 1999, §4.1–4.2, G1b; Plume's TAP-f): a committed transaction "
     .. "reads a version of x that its writer later overwrote, not the writer's final one",
  pattern = function(h, e) return some(h.intermediate_reads) end,
}

anomaly "Phantom" {
  framework = "adya",
  aka = "P3",
  doc = "Phantom (Berenson et al. 1995, P3; Adya's G2 through a predicate anti-dependency, "
     .. "which PL-2.99 allows and PL-3 forbids): t1's predicate read misses t2's write of x, "
     .. "yet t1 reads t2's write of y",
  -- A predicate anti-dependency: a read in h.wrx and not h.item_wrx, of a
  -- predicate read (or write).
  -- The smallest example reads through a predicate an uncommitted write
  -- (only read uncommitted shows it); Berenson's phantom: the predicate
  -- read misses a write that commits before t1's next read.
  run_example = "T1: pr(v!=0: {}) r(y,1) | T2: w(x,1) w(y,1)",
  pattern = function(h, e)
    return exists(Obj, Obj, Txn, Txn, function(x, y, t1, t2)
      return rw(h, e, x, t1, t2, h.wrx - h.item_wrx) & h.wrx(t2, y, t1)
    end)
  end,
}
