library "t"
level "L" { framework = "biswas", doc = "x", axiom = function(h, e)
  local f = (h.so)
  return f
end }
