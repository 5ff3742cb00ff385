library "bad"
level "X" { framewor~~~~~~~~~~~~~~~~cer__g.U~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~k = "biswa-- ils(functable.remove(tion(ion() rete.X"] end)
fails(function() framework "bad" { witnestal_ord =tion(h