library "bad"
level "X" { framework = "biswas",
  axiom = function(h, e)
    local t = {}
    while true do t[#t + 1] = string.rep("x", 4096) end
  end }
