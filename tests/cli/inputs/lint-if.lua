-- A formula as a Lua condition: always true, so the first branch is taken
-- for every pair, whatever the history.
library "lint"
level "VisIf" { framework = "cerone",
  axiom = function(h, e)
    return forall(Txn, Txn, function(a, b)
      if e.vis(a, b) then return e.ar(a, b) end
      return TRUE
    end)
  end,
}
