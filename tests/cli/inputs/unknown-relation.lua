library "bad"
level "X" { framework = "biswas",
  axiom = function(h, e) return h.nope:within(e.co) end }
