-- Every binding of the spec API once, in a framework of its own.
library "fz"

framework "fw" {
  doc = "a framework with an order and a relation",
  witness = { co = order(Txn), vis = rel(Txn, Txn), kv = rel(Obj, Txn, Txn) },
  wf = function(h, e)
    return (h.T0 * h.Tplus):within(e.co)
         & (h.so + h.wr):within(e.vis)
         & e.vis:within(e.co)
         & forall(Obj, function(x) return total_order(x .. e.kv, h.writer .. x) end)
  end,
}

level "Base" {
  framework = "fw",
  axiom = function(h, e) return (h.so):within(e.co) end,
}

level "Everything" {
  framework = "fw",
  doc = "uses every operator, method and function",
  graph = "SER",
  axiom = function(h, e)
    local r = (h.so + h.wr - iden) & ~e.co
    local j = (h.wrx .. Txn) .. Obj
    local s = setof(Txn, Txn, function(a, b) return e.co(a, b) | e.vis(b, a) end)
    local p = project(h.reads, 1, 3) + h.reads:project(1, 3)
    local t = ite(some(h.so), h.hb:closure(), h.hb:rclosure())
    local f = all{
      r:within(e.co), j:some(), j:no() | j:one(), s:lone(), eq(p, p), ne(t, h.so),
      p:eq(p), NOT(p:ne(p)), ~FALSE, TRUE, true,
      some(h.U), no(empty(Txn, Txn)), one(h.T0), lone(h.T0),
      acyclic(h.so + h.wr), total_order(e.co, Txn),
      exists(Txn, function(x) return (univ * x):some() end),
      forall(h.writer .. Obj, Txn, function(w, v) return implies(e.co(w, v), e.vis(w, v) | e.co(w, v)) end),
      iff(some(maxof(e.co, Txn)), some(Txn)),
      opt(h.so):within(opt(h.so)),
      (Val * Val):some():implies(TRUE):iff(TRUE),
    }
    local g = any{ f, FALSE, levels["fz.Base"] and TRUE or FALSE }
    assert(tostring(r) ~= "" and tostring(g) ~= "")
    return f & g
  end,
}

level "fz.Composed" {
  framework = "fw",
  axiom = function(h, e) return levels["fz.Base"](h, e) & levels["fz.Everything"](h, e) end,
}
