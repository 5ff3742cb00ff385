library"bad"
level "X" { framework = "biswas",
  axiom }
