library "bad"
level "X" { framewo~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~????????????? end)
f÷ils(function() framework "bad" { w???? end)
f÷ils(function() fr }
