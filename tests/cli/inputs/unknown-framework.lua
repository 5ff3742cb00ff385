library "u"
level "X" { framework = "biswaz", axiom = function(h, e) return TRUE end }
