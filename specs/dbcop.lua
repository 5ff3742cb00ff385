-- dbcop's levels that Biswas & Enea 2019 do not define (dbcop, rnbguy/dbcop:
-- crates/core/src/consistency). dbcop's other levels are the Biswas-Enea
-- ones in biswas.lua (docs/levels.md maps the names).
--
-- Repeatable read, as dbcop checks it (saturation/repeatable_read.rs,
-- check_repeatable_read): first dbcop's committed read, then every read of x
-- in a transaction must return the write that the transaction's first read
-- of x returned (or, after the transaction's own write of x, that write:
-- INT, found before any level here).
--
-- dbcop's committed read (saturation/committed_read.rs) is an acyclic graph
-- of session order, wr, and an edge t2 -> t1 whenever a transaction reads x
-- from t2 and later reads x again from t1: the same key only, unlike
-- biswas.RC, whose earlier read may be of any key. Once every re-read of x
-- returns the first read's writer those edges add nothing (t2 = t1), and
-- what is left is the Biswas-Enea framework's own condition, so ∪ wr ⊆ co
-- for some commit order co. So repeatable read is that framework with one
-- axiom:
--   ∀x, read events β, α of x, (β, α) ∈ po: rf⁻¹(α) = rf⁻¹(β)
-- which is Plume's TAP-j forbidden (plume.NoNonRepeatableRead).
--
-- As written, dbcop's committed-read graph also gets a self-loop t -> t when
-- a transaction reads x twice from the same t, which its topological sort
-- counts as a cycle: dbcop rejects such repeatable reads at RC and RR alike.
-- That contradicts dbcop's own description of RR ("re-reading the same
-- variable within a transaction always returns the same writer"), and none
-- of dbcop's tests has such a read; the level follows the description.

library "dbcop"

level "RR" {
  framework = "biswas",
  doc = "Repeatable read as dbcop checks it (rnbguy/dbcop, crates/core/src/consistency/"
     .. "saturation/repeatable_read.rs): dbcop's committed read plus every re-read of x returning "
     .. "the first read's writer; amounts to so ∪ wr acyclic and no non-repeatable read (the "
     .. "same level as plume.NoNonRepeatableRead). Fractured reads allowed. Not Elle's "
     .. "repeatable-read, which is Adya's PL-2.99 (adya.PL-2.99: no G2-item)",
  axiom = function(h, e)
    return forall(Obj, function(x)
      return forall(h.key .. x, function(a)                      -- α: a read of x
        return forall((h.po .. a) & (h.key .. x), function(b)    -- β: an earlier read of x
          return eq(h.rf .. a, h.rf .. b)
        end)
      end)
    end)
  end,
}
