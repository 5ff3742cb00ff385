library "bad"
level "X" { framework = "biswas",
  axiom = function(h, e)
    return (h.writer + h.so):some()
  end }
