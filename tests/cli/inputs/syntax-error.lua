library "bad"
level "X" { framework = "biswas",
  axiom = function(h, e) return h.so + end }
