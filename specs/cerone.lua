-- Cerone, Bernardi & Gotsman, "A Framework for Transactional Consistency
-- Models with Atomic Visibility", CONCUR 2015: an execution is a history plus
-- visibility vis and arbitration ar. Transcribed as in Isolde §2.2 and
-- docs/levels.md. Every level includes EXT and SESSION, so they live in wf.

-- EXT: ∀t ∈ T⁺, x, n: R(t, x, n) ⇒ W(max_ar(vis⁻¹(t) ∩ Wr(x)), x, n)
local function EXT(h, e)
  return forall(h.Tplus, Obj, Val, function(t, x, n)
    local latest = maxof(e.ar, (e.vis .. t) & (h.writer .. x))
    return implies(h.reads(t, x, n), some(latest) & h.writes(latest, x, n))
  end)
end

-- SESSION: so ⊆ vis
local function SESSION(h, e) return h.so:within(e.vis) end

-- TRANSVIS: vis ; vis ⊆ vis
local function TRANSVIS(h, e) return (e.vis .. e.vis):within(e.vis) end

-- PREFIX: ar ; vis ⊆ vis
local function PREFIX(h, e) return (e.ar .. e.vis):within(e.vis) end

-- TOTALVIS over a set S: ∀t ≠ s ∈ S: (t, s) ∈ vis ∨ (s, t) ∈ vis
local function TOTALVIS(e, S)
  return forall(S, S, function(t, s)
    return implies(ne(t, s), e.vis(t, s) | e.vis(s, t))
  end)
end

-- NOCONFLICT: ∀x, t ≠ s ∈ Wr(x): (t, s) ∈ vis ∨ (s, t) ∈ vis,
-- i.e. TOTALVIS over the writers of each key
local function NOCONFLICT(h, e)
  return forall(Obj, function(x) return TOTALVIS(e, h.writer .. x) end)
end

framework "cerone" {
  doc = "Cerone, Bernardi & Gotsman 2015: a history plus visibility vis ⊆ ar and arbitration ar, "
     .. "a strict total order with T0 first that agrees with the known version orders; T0 is "
     .. "visible to all; EXT and SESSION hold",
  witness = { vis = rel(Txn, Txn), ar = order(Txn) },
  wf = function(h, e)
    return e.vis:within(e.ar)
         & (h.T0 * h.Tplus):within(e.ar)
         & (h.T0 * h.Tplus):within(e.vis)
         & (Obj .. h.vo):within(e.ar)          -- ar on Wr(x) agrees with x's known version order
         & EXT(h, e) & SESSION(h, e)
         -- so ∪ wr ⊆ ar follows from SESSION, EXT and vis ⊆ ar (a read returns the
         -- latest visible write, and where written values repeat that writer can be
         -- the one read from), so this allows the same histories; stated, it lets
         -- synthesis number transactions along ar (docs/synthesis.md).
         & (h.so + h.wr):within(e.ar)
  end,
}

level "RA" {
  framework = "cerone",
  doc = "Read Atomic (Cerone et al. 2015, Fig. 2): EXT ∧ SESSION",
  axiom = function(h, e) return TRUE end,
}

level "CC" {
  framework = "cerone",
  doc = "Causal Consistency (Cerone et al. 2015, Fig. 2): TRANSVIS",
  axiom = TRANSVIS,
}

level "UA" {
  framework = "cerone",
  doc = "Update Atomic (Cerone et al. 2015, Fig. 2): NOCONFLICT",
  axiom = NOCONFLICT,
}

level "PSI" {
  framework = "cerone",
  doc = "Parallel Snapshot Isolation (Cerone et al. 2015, Fig. 2): TRANSVIS ∧ NOCONFLICT",
  axiom = function(h, e) return TRANSVIS(h, e) & NOCONFLICT(h, e) end,
}

level "PC" {
  framework = "cerone",
  doc = "Prefix Consistency (Cerone et al. 2015, Fig. 2): PREFIX",
  axiom = PREFIX,
}

level "SI" {
  framework = "cerone",
  doc = "Snapshot Isolation (Cerone et al. 2015, Fig. 2): PREFIX ∧ NOCONFLICT",
  -- Equivalent to biswas.SI (Biswas & Enea 2019, Thm 3.3 with Cerone et al. 2015),
  -- so the same graph characterization decides it.
  graph = "SI",
  axiom = function(h, e) return PREFIX(h, e) & NOCONFLICT(h, e) end,
}

level "SER" {
  framework = "cerone",
  doc = "Serializability (Cerone et al. 2015, Fig. 2): TOTALVIS",
  -- Equivalent to biswas.SER: the same graph characterization decides it.
  graph = "SER",
  axiom = function(h, e) return TOTALVIS(e, Txn) end,
}

level "UpdateSer" {
  framework = "cerone",
  doc = "Serializability of the update transactions (Fekete et al. 2004; Isolde §3.2.1): "
     .. "TOTALVIS restricted to {T0} ∪ U. Isolde defines UpdateSer only for Biswas–Enea; in this "
     .. "transcription EXT and SESSION still bind read-only transactions, so it is stronger than "
     .. "biswas.UpdateSer",
  axiom = function(h, e) return TOTALVIS(e, h.T0 + h.U) end,
}

-- LU: ∃t ∈ T⁺, x: t ∈ Wr(x) ∧ max_ar(ar⁻¹(t) ∩ Wr(x)) ∉ vis⁻¹(t)
local function LU(h, e)
  return exists(h.Tplus, Obj, function(t, x)
    local previous = maxof(e.ar, (e.ar .. t) & (h.writer .. x))
    return h.writer(t, x) & no(previous & (e.vis .. t))
  end)
end

level "NLU" {
  framework = "cerone",
  doc = "No Lost Update (Isolde §3.2.2): EXT ∧ SESSION ∧ ¬LU, where LU says some writer of x "
     .. "does not see the ar-latest earlier writer of x",
  axiom = function(h, e) return NOT(LU(h, e)) end,
}

-- The database's own timestamps trusted, as Chronos/Aion check (Chen et
-- al., ICDE 2025; FORMATS.md §9): every transaction carries its start
-- (snapshot) timestamp sts and commit timestamp cts, and the witness is
-- read from them instead of searched for:
--   vis = h.ts_vis = {(t1, t2) | t1 ≠ t2, cts(t1) ≤ sts(t2)} (T0 to all)
--   ar ⊇ h.ts_ar  = {(t1, t2) | cts(t1) < cts(t2)}          (ties free)
-- So each is stronger than the level it fixes the witness of: a violation
-- says the database's own timestamps do not explain the history, which
-- the untrusted level may still allow.
local function TIMESTAMPS(h, e) return eq(e.vis, h.ts_vis) & h.ts_ar:within(e.ar) end

level "TimestampSI" {
  framework = "cerone",
  doc = "Snapshot isolation with the database's timestamps trusted (Chronos's SI, ICDE 2025): "
     .. "PREFIX ∧ NOCONFLICT with vis = h.ts_vis (t1 in t2's snapshot iff cts(t1) ≤ sts(t2)) "
     .. "and ar ⊇ h.ts_ar (commit timestamps); with SESSION, Chronos's session check. Implies "
     .. "cerone.SI",
  -- The timestamps are the witness: checked in one pass (engine/timestamps/).
  graph = "timestamps-SI",
  axiom = function(h, e) return PREFIX(h, e) & NOCONFLICT(h, e) & TIMESTAMPS(h, e) end,
}

level "TimestampSER" {
  framework = "cerone",
  doc = "Serializability with the database's timestamps trusted (Chronos's SER, ICDE 2025): "
     .. "TOTALVIS with vis = h.ts_vis and ar ⊇ h.ts_ar, so no two transactions overlap "
     .. "(cts(t1) ≤ sts(t2) or the reverse) and each reads the latest commit before its "
     .. "start. Implies cerone.SER",
  graph = "timestamps-SER",
  axiom = function(h, e) return TOTALVIS(e, Txn) & TIMESTAMPS(h, e) end,
}
