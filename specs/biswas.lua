-- Biswas & Enea, "On the Complexity of Checking Transactional Consistency",
-- OOPSLA 2019: an execution is a history plus a commit order co. Transcribed
-- as in Isolde §2.1 (Barros et al. 2026) and VeriStrong Appendix G.
--
-- Every level below is an instance of one axiom shape (docs/levels.md):
--   Ax(D, C) = ∀x ∈ K, t1, t2 ∈ Wr(x), t3 ∈ D(x):
--                t1 ≠ t2 ∧ wr(t1, x, t3) ∧ C(t2, t3) ⇒ (t2, t1) ∈ co

framework "biswas" {
  doc = "Biswas & Enea 2019: a history plus a commit order co, a strict total order "
     .. "with T0 first that contains so ∪ wr and the known version orders",
  witness = { co = order(Txn) },
  wf = function(h, e)
    return (h.T0 * h.Tplus):within(e.co)       -- T0 commits first
         & (h.so + h.wr):within(e.co)          -- so ∪ WR ⊆ co
         & (Obj .. h.vo):within(e.co)          -- co on Wr(x) agrees with x's known version order
  end,
}

-- D(x, t1, t2) gives the set t3 ranges over; C(t2, t3) the premise on t2, t3.
local function Ax(h, e, D, C)
  return forall(Obj, function(x)
    local Wr = h.writer .. x
    return forall(Wr, Wr, function(t1, t2)
      return forall(D(x, t1, t2), function(t3)
        return implies(ne(t1, t2) & h.wrx(t1, x, t3) & C(t2, t3), e.co(t2, t1))
      end)
    end)
  end)
end

local function RA(h, e)
  return Ax(h, e,
    function(x, t1, t2) return (h.reader .. x) - t1 - t2 end,   -- D(x) = Rd(x) \ {t1, t2}
    function(t2, t3) return (h.so + h.wr)(t2, t3) end)          -- C = so ∪ WR
end

local function CC(h, e)
  return Ax(h, e,
    function(x, t1, t2) return (h.reader .. x) - t1 - t2 end,   -- D(x) = Rd(x) \ {t1, t2}
    function(t2, t3) return h.hb(t2, t3) end)                   -- C = HB = (so ∪ WR)+
end

local function PC(h, e)
  return Ax(h, e,
    function(x) return h.reader .. x end,                       -- D(x) = Rd(x)
    function(t2, t3) return (opt(e.co) .. (h.so + h.wr))(t2, t3) end)  -- C = co? ; (so ∪ WR)
end

-- Conflict: ∀x, y, t1, t2 ∈ Wr(x), t3, t4 ∈ Wr(y):
--   t1 ≠ t2 ∧ wr(t1, x, t3) ∧ (t2, t4) ∈ co? ∧ (t4, t3) ∈ co ⇒ (t2, t1) ∈ co
local function Conflict(h, e)
  return forall(Obj, Obj, function(x, y)
    local Wx, Wy = h.writer .. x, h.writer .. y
    return forall(Wx, Wx, Wy, Wy, function(t1, t2, t3, t4)
      return implies(ne(t1, t2) & h.wrx(t1, x, t3) & opt(e.co)(t2, t4) & e.co(t4, t3),
                     e.co(t2, t1))
    end)
  end)
end

-- Read Committed, over read events (Biswas & Enea 2019, §3): a read α of x
-- returns t1's write after an earlier read β of the same transaction (of
-- any key) returned t2's, and t2 also writes x: then t2 commits before t1.
--   ∀x, α ∈ reads of x, β ∈ po⁻¹(α), t1 ∈ rf⁻¹(α), t2 ∈ rf⁻¹(β) ∩ Wr(x):
--     t1 ≠ t2 ⇒ (t2, t1) ∈ co
-- Reads of one transaction never go back to an older version than one an
-- earlier read depended on; a re-read may see a newer one.
local function RC(h, e)
  return forall(Obj, function(x)
    return forall(h.key .. x, function(a)                        -- α: a read of x
      return forall(h.po .. a, function(b)                       -- β: a read before α
        return forall(h.rf .. a, (h.rf .. b) & (h.writer .. x), function(t1, t2)
          return implies(ne(t1, t2), e.co(t2, t1))
        end)
      end)
    end)
  end)
end

level "RC" {
  framework = "biswas",
  doc = "Read Committed (Biswas & Enea 2019, §3), over read events: a read never returns an "
     .. "older version of x than the writer of an earlier read of the same transaction "
     .. "installed; non-repeatable reads allowed. AWDIT's read committed and dbcop's committed "
     .. "read (with sessions; dbcop's takes the earlier read of x itself only, and allows more); "
     .. "Elle's read-committed is adya.PL-2",
  -- Read Committed: an acyclic saturated so ∪ WR graph, the saturation
  -- edges taken from earlier reads (Biswas & Enea 2019).
  graph = "RC",
  axiom = RC,
}

level "RA" {
  framework = "biswas",
  doc = "Read Atomic (Biswas & Enea 2019, §3): Ax(Rd(x) \\ {t1,t2}, so ∪ WR)",
  -- Read Atomic: an acyclic saturated so ∪ WR graph for C = so ∪ WR (Biswas & Enea 2019).
  graph = "RA",
  axiom = RA,
}

level "CC" {
  framework = "biswas",
  doc = "Causal Consistency (Biswas & Enea 2019, §3): Ax(Rd(x) \\ {t1,t2}, (so ∪ WR)+)",
  -- Causal consistency: an acyclic saturated so ∪ WR graph for C = HB (Biswas & Enea 2019).
  graph = "CC",
  axiom = CC,
}

level "PC" {
  framework = "biswas",
  doc = "Prefix Consistency (Biswas & Enea 2019, §3): Ax(Rd(x), co? ; (so ∪ WR))",
  axiom = PC,
}

level "SI" {
  framework = "biswas",
  doc = "Snapshot Isolation (Biswas & Enea 2019, §3): Prefix ∧ Conflict",
  -- Snapshot isolation: acyclic induced SI graph (SO ∪ WR ∪ WW) ; RW? of some
  -- compatible dependency graph (VeriStrong Thm A.2, after Cerone & Gotsman 2016).
  graph = "SI",
  axiom = function(h, e) return PC(h, e) & Conflict(h, e) end,
}

level "SER" {
  framework = "biswas",
  doc = "Serializability (Biswas & Enea 2019, §3; VeriStrong Thm G.1): Ax(T, co)",
  -- Serializability: an acyclic compatible dependency graph (VeriStrong Thm 3.5).
  graph = "SER",
  axiom = function(h, e)
    return Ax(h, e,
      function() return Txn end,                                -- D(x) = T
      function(t2, t3) return e.co(t2, t3) end)                 -- C = co
  end,
}

level "StrictSER" {
  framework = "biswas",
  doc = "Strict serializability (Papadimitriou 1979; Herlihy & Wing 1990, for transactions): "
     .. "serializability with a commit order that respects real time, rt ⊆ co, where t1 rt t2 iff "
     .. "t1 committed before t2 began by more than the clock skew. Elle's strict-serializable; "
     .. "Vbox's SER with time dependencies",
  -- The SER hyper-polygraph with the real-time order among its known edges.
  graph = "SER",
  axiom = function(h, e)
    return levels["biswas.SER"](h, e)
         & h.rt:within(e.co)                                    -- rt ⊆ co
  end,
}

level "UpdateSer" {
  framework = "biswas",
  doc = "Serializability of the update transactions (Fekete et al. 2004, as Isolde Listing 1 "
     .. "writes it): Ax(T ∩ U, co), so read-only readers are unconstrained",
  axiom = function(h, e)
    return Ax(h, e,
      function() return h.U end,                                -- D(x) = T ∩ U
      function(t2, t3) return e.co(t2, t3) end)                 -- C = co
  end,
}
