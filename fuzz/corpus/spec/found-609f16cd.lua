library "bad"
level "X" { framework = "bis:",
  axiom }
