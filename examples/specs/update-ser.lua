-- UpdateSer as Isolde's Listing 1 writes it (Barros et al. 2026, §3.2.1):
-- serializability enforced only where the reading transaction t3 performs a
-- write. Load it with:  isosynth check H.json --spec examples/specs/update-ser.lua -l my.UpdateSer
library "my"

level "UpdateSer" {
  framework = "biswas",
  doc = "Serializability of the update transactions (Isolde Listing 1)",
  axiom = function(h, e)
    return forall(Obj, Txn, Txn, Txn, function(x, t1, t2, t3)
      return implies(ne(t1, t2)
                     & h.wrx(t1, x, t3)          -- (t1, t3) ∈ wr_x
                     & e.co(t2, t3)              -- (t2, t3) ∈ co
                     & h.writer(t2, x)           -- t2 ∈ writes(x)
                     & h.U(t3),                  -- t3 ∈ writeTxn
                     e.co(t2, t1))               -- ⇒ (t2, t1) ∈ co
    end)
  end,
}
