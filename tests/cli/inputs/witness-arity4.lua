-- A witness relation of 41^4 = 2.8 million possible tuples on h40.json: under
-- the generic oracle's limit, built while polling the run's deadline.
library "t"
framework "z" { witness = { r = rel(Txn,Txn,Txn,Txn) }, wf = function(h, e) return TRUE end }
level "L" { framework = "z", axiom = function(h, e) return no(e.r) end }
