-- The snapshot-isolation variants that differ in time (Viper, Zhang et al.,
-- EuroSys 2023, §2.2 and §5, following Crooks et al., PODC 2017):
--
--   Strong SI ⊂ Strong Session SI (≡ PC-SI) ⊂ GSI (≡ ANSI SI) ⊂ Adya SI
--
-- A snapshot-isolation execution is a schedule of every transaction's begin
-- and commit (Viper's BC-graph). Cerone et al.'s vis and ar say the same:
-- ar is the order of the commits, and vis(t1, t2) says t1 committed before
-- t2 began, its snapshot (PREFIX makes every snapshot a prefix of ar, so a
-- schedule with exactly these snapshots exists). The variants add real-time
-- edges between begin and commit nodes, each event ordered before another
-- when its timestamp is smaller by more than the clock skew Δ (never begin
-- to begin; Viper §5):
--   h.rt     t1 committed before t2 began    C1 -> B2   t1 in t2's snapshot
--   h.rt_cc  t1 committed before t2 did      C1 -> C2   (t1, t2) ∈ ar
--   h.rt_bc  t1 began before t2 committed    B1 -> C2   t2 not in t1's snapshot
-- Adya SI has none of them and no sessions; GSI has the edges into commit
-- nodes (a transaction reads only from transactions that committed before
-- it began, in real time, and commits in real-time order), Strong Session
-- SI adds session order (a session sees its own earlier transactions), and
-- Strong SI every real-time edge (the snapshot holds every transaction that
-- committed before the begin).
--
-- Unlike Cerone's framework (cerone.lua), this one has no SESSION in wf:
-- Adya SI and GSI are session-free.

-- EXT: ∀t ∈ T⁺, x, n: R(t, x, n) ⇒ W(max_ar(vis⁻¹(t) ∩ Wr(x)), x, n)
local function EXT(h, e)
  return forall(h.Tplus, Obj, Val, function(t, x, n)
    local latest = maxof(e.ar, (e.vis .. t) & (h.writer .. x))
    return implies(h.reads(t, x, n), some(latest) & h.writes(latest, x, n))
  end)
end

framework "viper" {
  doc = "Begin/commit schedules (Viper §4-5; Crooks et al. 2017) as Cerone et al.'s vis and ar: "
     .. "ar the order of commits, vis(t1, t2) iff t1 committed before t2 began; T0 first and "
     .. "visible to all; EXT; no session order unless a level asks for it",
  witness = { vis = rel(Txn, Txn), ar = order(Txn) },
  wf = function(h, e)
    return e.vis:within(e.ar)
         & (h.T0 * h.Tplus):within(e.ar)
         & (h.T0 * h.Tplus):within(e.vis)
         & (Obj .. h.vo):within(e.ar)          -- ar on Wr(x) agrees with x's known version order
         & EXT(h, e)
         & h.wr:within(e.ar)                   -- follows from EXT and vis ⊆ ar (cerone.lua)
  end,
}

-- PREFIX: ar ; vis ⊆ vis (a snapshot is a prefix of the commits)
local function PREFIX(h, e) return (e.ar .. e.vis):within(e.vis) end

-- NOCONFLICT: ∀x, t ≠ s ∈ Wr(x): (t, s) ∈ vis ∨ (s, t) ∈ vis
local function NOCONFLICT(h, e)
  return forall(Obj, function(x)
    local W = h.writer .. x
    return forall(W, W, function(t, s)
      return implies(ne(t, s), e.vis(t, s) | e.vis(s, t))
    end)
  end)
end

local function AdyaSI(h, e) return PREFIX(h, e) & NOCONFLICT(h, e) end

-- GSI's real time: commits in real-time order (C1 -> C2), and nothing a
-- transaction began before is in its snapshot (B1 -> C2: t2 ∉ vis⁻¹(t1)).
local function GSItime(h, e)
  return h.rt_cc:within(e.ar)
       & no(e.vis & ~h.rt_bc)
end

level "AdyaSI" {
  framework = "viper",
  doc = "Adya SI as Viper checks it (Viper Def. 1, §3.2; Adya 1999 PL-SI without predicates): "
     .. "some schedule of begins and commits explains every read, with no two overlapping "
     .. "writers of a key; no sessions, no real time. The same level as adya.PL-SI; Elle's "
     .. "snapshot-isolation",
  graph = "SI",
  axiom = AdyaSI,
}

level "GSI" {
  framework = "viper",
  doc = "Generalized SI (Elnikety et al. 2005; Viper §5; ≡ ANSI SI in Crooks et al. 2017): "
     .. "Adya SI whose schedule respects real time into commit nodes: a transaction reads only "
     .. "from transactions that committed before it began, and commits are in real-time order "
     .. "(h.rt_cc ⊆ ar, vis ∩ h.rt_bc⁻¹ = ∅). Viper's GSI",
  graph = "SI",
  axiom = function(h, e) return AdyaSI(h, e) & GSItime(h, e) end,
}

level "StrongSessionSI" {
  framework = "viper",
  doc = "Strong Session SI (Daudjee & Salem 2006; ≡ PC-SI, Crooks et al. 2017; Viper §5): GSI "
     .. "in which each session sees its own earlier transactions (so ⊆ vis). Viper's Strong "
     .. "Session SI; without timestamps the same as biswas.SI and cerone.SI (Elle's "
     .. "strong-session-snapshot-isolation)",
  graph = "SI",
  axiom = function(h, e) return AdyaSI(h, e) & GSItime(h, e) & h.so:within(e.vis) end,
}

level "StrongSI" {
  framework = "viper",
  doc = "Strong SI (Daudjee & Salem 2006; Crooks et al. 2017; Viper §5): GSI whose snapshot "
     .. "holds every transaction that committed before the begin in real time (h.rt ⊆ vis), "
     .. "and session order, which real time implies whenever a session's timestamps come from "
     .. "one clock. Viper's Strong SI; Elle's strong-snapshot-isolation",
  graph = "SI",
  axiom = function(h, e)
    return AdyaSI(h, e) & GSItime(h, e) & h.rt:within(e.vis) & h.so:within(e.vis)
  end,
}
