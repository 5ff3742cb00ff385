-- Plume's transactional anomalous patterns (TAPs; Liu, Gu, Wei & Basin,
-- "Plume: Efficient and Complete Black-Box Checking of Weak Isolation
-- Levels", OOPSLA 2024), lettered a-n as Plume numbers them. A level is "some
-- commit order exhibits none of its patterns" (docs/levels.md).
--
-- Which pattern is what here, and why:
--  * Levels over read events, each forbidding one pattern (both its causal-
--    order and commit-order forms: HB ⊆ co, so the commit-order form
--    subsumes the other): NoNonRepeatableRead (TAP-j), NoNonMonotonicRead
--    (TAP-h/i) and NoFracturedRead (TAP-k/l). They are about the order of
--    the reads inside a transaction, which only the operation-level
--    relations (h.po, h.rf) can express.
--  * Read anomalies, found before any level is decided (engine/history/
--    read_anomaly.hpp) and named with Plume's letter in `check` output:
--    thin-air (TAP-a), aborted (TAP-b, Adya's G1a), future (TAP-c) and
--    intermediate (TAP-f, G1b) reads, not-my-own-write (TAP-d) and
--    not-my-last-write (TAP-e), the last two forms of INT. No execution
--    justifies such a read: its value is no committed final write, or it
--    contradicts the transaction's own writes. Plume forbids them from its
--    weakest level (RC) on, and so does every level here but Adya's PL-1,
--    which permits aborted and intermediate reads.
--  * Cyclic CO (TAP-g, so ∪ wr cyclic) is excluded by construction: the
--    Biswas-Enea co is an order that contains so ∪ wr.
--  * TapRA, TapCC and RA below: Isolde's transcription (Isolde §3.1.1) of
--    patterns k, l, m, n over abstract histories (one read per key, no
--    order between reads), where k and l also cover TAP-h and TAP-i.

library "plume"

-- k: ∃x ≠ y, t1, t2 ∈ Wr(x), t3 ∈ Rd(x):
--      t1 ≠ t2 ∧ wr(t1, x, t3) ∧ wr(t2, y, t3) ∧ (t1, t2) ∈ HB
-- l: the same with (t1, t2) ∈ co
local function k_or_l(h, order)
  return exists(Obj, Obj, function(x, y)
    local Wr = h.writer .. x
    return ne(x, y) & exists(Wr, Wr, h.reader .. x, function(t1, t2, t3)
      return ne(t1, t2) & h.wrx(t1, x, t3) & h.wrx(t2, y, t3) & order(t1, t2)
    end)
  end)
end

-- m: ∃x, t1, t2 ∈ Wr(x), t3 ∈ Rd(x) \ {t1, t2}:
--      t1 ≠ t2 ∧ wr(t1, x, t3) ∧ (t1, t2) ∈ HB ∧ (t2, t3) ∈ HB
-- n: the same with (t1, t2) ∈ co
local function m_or_n(h, order)
  return exists(Obj, function(x)
    local Wr = h.writer .. x
    return exists(Wr, Wr, function(t1, t2)
      return exists((h.reader .. x) - t1 - t2, function(t3)
        return ne(t1, t2) & h.wrx(t1, x, t3) & order(t1, t2) & h.hb(t2, t3)
      end)
    end)
  end)
end

local function TAP_k(h, e) return k_or_l(h, h.hb) end
local function TAP_l(h, e) return k_or_l(h, e.co) end
local function TAP_m(h, e) return m_or_n(h, h.hb) end
local function TAP_n(h, e) return m_or_n(h, e.co) end

-- fails-to-see-so-predecessor: ∃x, t1, t2 ∈ Wr(x), t3 ∈ Rd(x):
--   t1 ≠ t2 ∧ (t2, t3) ∈ so ∧ wr(t1, x, t3) ∧ (t1, t2) ∈ HB
local function fails_to_see_so_predecessor(h, e)
  return exists(Obj, function(x)
    local Wr = h.writer .. x
    return exists(Wr, Wr, h.reader .. x, function(t1, t2, t3)
      return ne(t1, t2) & h.so(t2, t3) & h.wrx(t1, x, t3) & h.hb(t1, t2)
    end)
  end)
end

-- inconsistent commit order (Isolde's repair): ∃x, t1, t3 ∈ Wr(x), t2, t4 ∈ Rd(x):
--   (t1, t2) ∈ so ∧ (t3, t4) ∈ so ∧ (t1, t4) ∉ so ∧ (t3, t2) ∉ so
--   ∧ wr(t1, x, t4) ∧ wr(t3, x, t2)
-- Two session-ordered pairs whose readers each read the other pair's writer.
local function inconsistent_commit_order(h, e)
  return exists(Obj, function(x)
    local Wr, Rd = h.writer .. x, h.reader .. x
    return exists(Wr, Rd, Wr, Rd, function(t1, t2, t3, t4)
      return h.so(t1, t2) & h.so(t3, t4) & NOT(h.so(t1, t4)) & NOT(h.so(t3, t2))
           & h.wrx(t1, x, t4) & h.wrx(t3, x, t2)
    end)
  end)
end

level "TapRA" {
  framework = "biswas",
  doc = "Plume's Read Atomic (Liu et al. 2024) as Isolde §3.1.1 encodes it: no TAP k, no TAP l. "
     .. "Strictly weaker than biswas.RA (misses the session-order pattern)",
  axiom = function(h, e) return NOT(TAP_k(h, e)) & NOT(TAP_l(h, e)) end,
}

level "TapCC" {
  framework = "biswas",
  doc = "Plume's Causal Consistency (Liu et al. 2024) as Isolde encodes it: no TAP k, l, m, n",
  axiom = function(h, e)
    return NOT(TAP_k(h, e)) & NOT(TAP_l(h, e)) & NOT(TAP_m(h, e)) & NOT(TAP_n(h, e))
  end,
}

level "RA" {
  framework = "biswas",
  doc = "Plume's Read Atomic repaired (Isolde §3.1.1): TapRA plus no fails-to-see-so-predecessor "
     .. "and no inconsistent commit order",
  axiom = function(h, e)
    return NOT(TAP_k(h, e)) & NOT(TAP_l(h, e))
         & NOT(fails_to_see_so_predecessor(h, e)) & NOT(inconsistent_commit_order(h, e))
  end,
}

-- Plume's operation-level patterns, over read events (h.txn, h.key, h.po,
-- h.rf; docs/spec-language.md). Plume states them with the causal order
-- CO = (so ∪ wr)+ (TAP-h, TAP-k) and again with the commit order (TAP-i,
-- TAP-l; AO in the names of Plume's checker, taps/TAP.java); CO ⊆ co in every Biswas-Enea execution, so each level below asks
-- for the commit-order form, and the premise forces (t2, t1) ∈ co.

-- TAP-j, non-repeatable read: a transaction reads x twice and the two reads
-- return the writes of two different transactions.
--   ∃x, read events β, α of x, (β, α) ∈ po: rf⁻¹(β) ≠ rf⁻¹(α)
local function non_repeatable_read(h)
  return exists(Obj, function(x)
    return exists(h.key .. x, function(a)
      return exists((h.po .. a) & (h.key .. x), function(b)
        return exists(h.rf .. a, h.rf .. b, function(t1, t2) return ne(t1, t2) end)
      end)
    end)
  end)
end

level "NoNonRepeatableRead" {
  framework = "biswas",
  doc = "No non-repeatable read: Plume's TAP-j, NonRepeatableRead (Liu et al. 2024): a "
     .. "transaction reads x twice, from two different transactions' writes. Every re-read of x "
     .. "returns the write the first read returned (cut isolation); the same level as dbcop.RR",
  axiom = function(h, e) return NOT(non_repeatable_read(h)) end,
}

-- TAP-h/i, non-monotonic read: t3 reads y ≠ x from t2, then (later in
-- program order) x from t1, t2 also writes x, and t1 precedes t2 (in CO:
-- TAP-h; in the commit order: TAP-i). Forbidding it:
--   ∀x, α ∈ reads of x, β ∈ po⁻¹(α) \ reads of x, t1 ∈ rf⁻¹(α),
--     t2 ∈ rf⁻¹(β) ∩ Wr(x): t1 ≠ t2 ⇒ (t2, t1) ∈ co
-- biswas.RC is the same axiom with β of any key, x included: it also
-- forbids re-reading x from a transaction that precedes the one an earlier
-- read of x returned, which Plume leaves to TAP-j.
local function monotonic_reads(h, e)
  return forall(Obj, function(x)
    return forall(h.key .. x, function(a)                           -- α: a read of x
      return forall((h.po .. a) - (h.key .. x), function(b)         -- β: an earlier read of y ≠ x
        return forall(h.rf .. a, (h.rf .. b) & (h.writer .. x), function(t1, t2)
          return implies(ne(t1, t2), e.co(t2, t1))
        end)
      end)
    end)
  end)
end

level "NoNonMonotonicRead" {
  framework = "biswas",
  doc = "No non-monotonic read: Plume's TAP-h, NonMonoReadCO, and TAP-i, NonMonoReadAO (Liu et "
     .. "al. 2024): t3 reads y from t2 and later x from t1, t2 also writes x, and t1 precedes t2 "
     .. "in causal (CO) or commit (AO) order. TAP-a to TAP-g being excluded by construction, "
     .. "Plume's read committed (no TAP-a to TAP-i); biswas.RC also forbids it with y = x",
  axiom = monotonic_reads,
}

-- TAP-k/l, fractured read: t3 reads x from t1, t2 also writes x, t1
-- precedes t2 (in CO: TAP-k; in the commit order: TAP-l), and t3 sees t2
-- otherwise: t2 precedes t3 in its session, or t3 reads y ≠ x from t2 after
-- its read of x (before it, the pattern is TAP-h/i). Forbidding it:
--   ∀x, α ∈ reads of x in t3, t1 ∈ rf⁻¹(α), t2 ∈ Wr(x):
--     t1 ≠ t2 ∧ ((t2, t3) ∈ so ∨ t2 ∈ rf⁻¹(po(α) \ reads of x)) ⇒ (t2, t1) ∈ co
-- The session-order case is in Plume's checker (Plume.java, FracturedReadCO
-- on an so edge); Isolde §3.1.1 found TapRA, without it, missing the
-- single-key history T1: r(x,0) w(x,1) -so-> T2: r(x,0).
local function atomic_reads(h, e)
  return forall(Obj, function(x)
    return forall(h.key .. x, function(a)                           -- α: a read of x
      local t3 = a .. h.txn
      local later = (a .. h.po) - (h.key .. x)                      -- t3's later reads of y ≠ x
      return forall(h.rf .. a, h.writer .. x, function(t1, t2)
        return implies(ne(t1, t2) & (h.so(t2, t3) | some((h.rf .. later) & t2)), e.co(t2, t1))
      end)
    end)
  end)
end

level "NoFracturedRead" {
  framework = "biswas",
  doc = "No fractured read: Plume's TAP-k, FracturedReadCO, and TAP-l, FracturedReadAO (Liu et "
     .. "al. 2024): t3 reads x from t1 and later y from t2, or follows t2 in its session, t2 also "
     .. "writes x, and t1 precedes t2 in causal (CO) or commit (AO) order",
  axiom = atomic_reads,
}
