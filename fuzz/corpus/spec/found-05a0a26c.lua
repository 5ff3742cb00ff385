library "t"
level "L" { framework = "biswas", doc = "x", axiom = function(h, e)
  local r = h.so
  for i = 1, 200000 do r = r + h.wr end
 end }
