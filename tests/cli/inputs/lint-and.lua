-- Parallel SI with Lua's `and` where `&` was meant: `and` returns its right
-- operand, so the transitivity of visibility would be dropped silently.
library "lint"
level "PSI" { framework = "cerone",
  axiom = function(h, e)
    local transvis = (e.vis .. e.vis):within(e.vis)
    local noconflict = acyclic(e.ar)
    return transvis and noconflict
  end,
}
