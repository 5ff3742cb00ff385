library "t"
-- Sixteen nested quantified transactions: on a history of three
-- transactions the translation unrolls 3^16 instances, which takes longer
-- than a short --timeout (and ends in the translator's work limit after
-- several seconds without one).
local function nest(k, vars, e)
  if k == 0 then
    local g = FALSE
    for i = 1, #vars - 1 do g = g | e.co(vars[i], vars[i + 1]) end
    return g
  end
  return forall(Txn, Txn, function(a, b)
    local vs = { table.unpack(vars) }
    vs[#vs + 1] = a
    vs[#vs + 1] = b
    return nest(k - 1, vs, e)
  end)
end
level "L" { framework = "biswas", doc = "slow to translate", axiom = function(h, e) return nest(8, {}, e) end }
