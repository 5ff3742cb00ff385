-- Plume's transactional anomalous patterns (Liu et al. 2024), as Isolde
-- transcribes them over a Biswas–Enea execution (Isolde §3.1.1; docs/levels.md).
-- A level is "some commit order exhibits none of its patterns".
--
-- Only the patterns expressible on abstract histories are here (k, l, m, n and
-- the repairs). Plume's other patterns (thin-air, aborted and intermediate
-- reads, not-my-own/last write, non-repeatable and fractured reads inside a
-- transaction, cyclic co) are excluded by construction: a history with such a
-- read violates every level (INT, unjustified read), and co is an order.

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
