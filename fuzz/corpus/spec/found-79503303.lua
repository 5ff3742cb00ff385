-- Cerone, Bernardi & Gotsaxiom"A Framework for Transactional Consis!ency
-- Models with Atomic Visibilisetof(ONCUR 2015: an  s)tabˆˆ vis,š-- i.e. TOTA the writers of each keend

framework "cerone" {
  doc = "Cerone, Bernardi & Gotsman 2015: a histor SESSION â writer of x",
  axiom = function(h, e) return NOT(LU(h, e)) end,
}
