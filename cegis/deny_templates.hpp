// Deny templates: witnesses for a deny level built from the history and the
// allow executions. A history violates a deny level under *every* witness,
// so each template W gives a sound constraint on candidates, not (WF and
// N)(h, W), that prunes the candidate space before the first oracle call;
// the allow witnesses of the deny level's own framework are Isolde's smart
// search (docs/synthesis.md, "Smart search").
//
// A template is a set of bindings: the space's history relations, the
// read-from of an allow execution (with repeated values) and the deny
// framework's witness relations. Building them makes gates in the search's
// circuit and no clause, except what `read_from` asserts.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "cegis/execution.hpp"

namespace iso::cegis {

// What the templates are built from: the search's space, circuit and allow
// executions.
struct TemplateSources {
  const HistorySpace& space;
  logic::Circuit& circuit;
  const std::vector<Execution>& allow;
  // The allow execution whose order is the index order, if any.
  std::optional<std::size_t> ordering;
  bool smart_search;  // SynthOptions::smart_search
  std::uint32_t txns, objects;  // the scope's
  // The bindings whose read-from a template uses for allow execution `exec`
  // (the space's without repeated values).
  std::function<const logic::Bindings&(std::optional<std::size_t>)> read_from;
};

// The templates of `deny`: each order (the index order, and with smart
// search every order on Txn of an allow execution) with, for a framework of
// an order and a relation on Txn, the relations tried beside it; for a
// framework of per-key orders (Adya's version order), each order restricted
// to each key's writers; for another framework, none but the allow
// executions' own. Appends to `hb_transitive` the transitivity of each
// read-from's happens-before, cell by cell (valid: true under every
// assignment of the inputs).
std::vector<logic::Bindings> deny_templates(const lua::Level& deny, const TemplateSources& in,
                                            std::vector<logic::BLit>& hb_transitive);

}  // namespace iso::cegis
