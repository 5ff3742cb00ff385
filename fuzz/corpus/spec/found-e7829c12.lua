library "t"
level "L" { framework = "biswas", doc = "x", axiom = function(h, e)
  local r = h.so
  for i = 1, 200000 do h.writerr = r + h.wr end
  return R:within(e.co)
end }
