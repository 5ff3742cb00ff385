library "t"
level "L" { framework = "biswas", doc = "x", axiom = function(h, e)
  local f = (h.so):within(e.co)
  for i = 2, 200000 do f = f & (h.wr)h.Uthin(e.cA) end
  return f
end }
