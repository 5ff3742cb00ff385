-- Adya, "Weak Consistency: A Generalized Theory and Optimistic
-- Implementations for Distributed Transactions", PhD thesis, MIT 1999
-- (Adya, Liskov & O'Neil, ICDE 2000): an execution is a history plus a
-- version order ww(x) per key, a strict total order on the writers of x with
-- T0 first. The levels forbid cycles of the direct serialization graph:
--   wr(x)  t1 wrote the version of x that t3 read      (h.wrx)
--   ww(x)  t1's version of x precedes t2's             (the witness)
--   rw(x)  s read a version of x that t overwrote:
--          rw(x) = {(s, t) | ∃u. wr(u, x, s) ∧ (u, t) ∈ ww(x), s ≠ t}
-- Reads are read events (a re-read is another event, decided like any read):
-- a non-repeatable read puts two wr edges into the reader, which G2-item
-- forbids and PL-2 allows. Reads of aborted (G1a) or intermediate (G1b)
-- writes are not reads of any version; PL-1 allows them and says so with
-- `permits`, which sets them aside (they carry no dependency); every other
-- level counts them as violations.
-- Session order is not part of Adya's graph, so these levels are
-- session-free (LEVELS.md, "Sessions"): PL-3 is serializability and PL-SI
-- snapshot isolation with every transaction in its own session (Elle's
-- serializable and snapshot-isolation, Viper's Adya SI). The session forms
-- are biswas.SER and biswas.SI (Elle's strong-session-*, Strong Session SI);
-- docs/levels.md maps the names.

framework "adya" {
  doc = "Adya 1999: a history plus a version order ww(x) per key, a strict total order "
     .. "on the writers of x with T0 first that agrees with x's known version order",
  witness = { ww = rel(Obj, Txn, Txn) },
  wf = function(h, e)
    return forall(Obj, function(x)
      local Wr = h.writer .. x
      local wwx = x .. e.ww
      return total_order(wwx, Wr)                      -- ww(x) orders Wr(x)
           & ((h.T0 & Wr) * (Wr - h.T0)):within(wwx)   -- T0 first, when it writes x
           & (x .. h.vo):within(wwx)                   -- and the known version order
    end)
  end,
}

-- ww: the version orders of all keys, as one relation on transactions.
local function WW(e) return Obj .. e.ww end

-- rw(x) for all keys: s read some x from u, and t's version of x follows u's.
-- `wrx` says which reads: h.wrx all of them (item and predicate
-- anti-dependencies), h.item_wrx item reads only (Adya §4.4: a key a
-- predicate read left out gives predicate anti-dependencies; a key it
-- returned is read as an item too, and gives item ones).
local function RW(h, e, wrx)
  wrx = wrx or h.wrx
  return setof(Txn, Txn, function(s, t)
    return ne(s, t) & exists(Obj, Txn, function(x, u)
      return wrx(u, x, s) & (x .. e.ww)(u, t)
    end)
  end)
end

-- G0: a cycle of ww edges. G1c: a cycle of ww ∪ wr edges.
local function noG0(h, e) return acyclic(WW(e)) end
local function noG1(h, e) return acyclic(WW(e) + h.wr) end

level "PL-1" {
  framework = "adya",
  doc = "PL-1 (Adya 1999, §4.1): no G0 (write cycles); dirty, intermediate and non-repeatable "
     .. "reads allowed. Elle's read-uncommitted, dbcop's and Plume's read uncommitted",
  permits = { "aborted reads", "intermediate reads" },
  axiom = noG0,
}

level "PL-2" {
  framework = "adya",
  doc = "PL-2 (Adya 1999, §4.2): no G0, G1a, G1b, G1c (circular information flow); "
     .. "non-repeatable (fuzzy) reads allowed. Elle's read-committed (Elle's name for the "
     .. "level of PL-2 without sessions); compare biswas.RC, AWDIT's and dbcop's read committed",
  axiom = function(h, e) return noG0(h, e) & noG1(h, e) end,
}

-- G-cursor(x) (Adya 1999, §4.2.3): a cycle of one anti-dependency edge and
-- write-dependency edges, all on the same key x. ww(x) is a total order, so
-- the write-dependency path is one ww(x) edge back:
--   ∃x, t1 ≠ t2: rw(x)(t1, t2) ∧ (t2, t1) ∈ ww(x)
-- t1 read a version of x that t2 overwrote, and then installed its own
-- version after t2's: a lost update.
local function GCursor(h, e)
  return exists(Obj, Txn, Txn, function(x, t1, t2)
    local wwx = x .. e.ww
    return ne(t1, t2) & wwx(t2, t1) & exists(Txn, function(u)
      return h.wrx(u, x, t1) & wwx(u, t2)
    end)
  end)
end

level "PL-CS" {
  framework = "adya",
  doc = "PL-CS, cursor stability (Adya 1999, §4.2.3): no G0, G1, G-cursor(x) (a single "
     .. "anti-dependency cycle on one key: a lost update). Elle's cursor-stability",
  axiom = function(h, e) return noG0(h, e) & noG1(h, e) & NOT(GCursor(h, e)) end,
}

-- G2-item (Adya 1999, §4.4.2): a cycle of the DSG with at least one item
-- anti-dependency edge; its other edges may be of any kind, predicate
-- anti-dependencies included. Its cycles with item anti-dependencies only
-- first (ww ∪ wr ∪ rw_item acyclic, which is PL-3 without predicates),
-- then those with predicate ones too: an item anti-dependency (s, t) is on
-- a cycle iff t reaches s,
--   no (rw_item ∩ ((ww ∪ wr ∪ rw)⁺)⁻¹)
local function noG2item(h, e)
  local RWitem = RW(h, e, h.item_wrx)
  return acyclic(WW(e) + h.wr + RWitem)
       & no(RWitem & ~(WW(e) + h.wr + RW(h, e)):closure())
end

level "PL-2.99" {
  framework = "adya",
  doc = "PL-2.99 (Adya 1999, §4.4): no G0, G1, G2-item (a cycle with an item anti-dependency); "
     .. "phantoms, cycles through predicate anti-dependencies alone, allowed",
  axiom = function(h, e) return noG1(h, e) & noG2item(h, e) end,
}

-- G-SI: a cycle of (wr ∪ ww) ; rw? (VeriStrong Thm A.2, without sessions).
local function PLSI(h, e)
  local D = h.wr + WW(e)
  return noG1(h, e) & acyclic(D .. opt(RW(h, e)))
end

level "PL-SI" {
  framework = "adya",
  doc = "PL-SI (Adya 1999, §4.3, as in VeriStrong Thm A.2 without session order): no G0, G1, "
     .. "G-SI; (wr ∪ ww) ; rw? acyclic. Elle's snapshot-isolation, Viper's Adya SI",
  graph = "SI",
  axiom = PLSI,
}

level "SI" {
  framework = "adya",
  doc = "Snapshot isolation in the Adya framework, session-free: the same level as adya.PL-SI",
  graph = "SI",
  axiom = PLSI,
}

-- PL-3: no G0, G1, G2: wr ∪ ww ∪ rw acyclic (VeriStrong Thm 3.5, without
-- session order).
local function PL3(h, e) return acyclic(h.wr + WW(e) + RW(h, e)) end

level "PL-3" {
  framework = "adya",
  doc = "PL-3 (Adya 1999, §4.5): no G0, G1, G2; wr ∪ ww ∪ rw acyclic. Elle's serializable",
  graph = "SER",
  axiom = PL3,
}

level "SER" {
  framework = "adya",
  doc = "Serializability in the Adya framework, session-free: the same level as adya.PL-3",
  graph = "SER",
  axiom = PL3,
}
