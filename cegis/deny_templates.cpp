// Deny templates from the history and the allow executions
// (cegis/deny_templates.hpp).
#include "cegis/deny_templates.hpp"

#include <algorithm>

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

namespace {

// Orders on Txn to build templates on, each with the read-from it goes with.
struct Orders {
  std::vector<BoolMatrix> orders;
  std::vector<const Bindings*> bases;  // one per order
};

// The index order and every order on Txn of an allow execution, each with
// the read-from it goes with (with repeated values, the execution's own;
// the index order's is the execution that fixed it, or the first). Any
// legal read-from is sound here: the deny level is violated under every one.
Orders candidate_orders(const TemplateSources& in) {
  Orders out{{in.space.index_order()},
             {&in.read_from(in.ordering ? in.ordering : std::optional<std::size_t>{0})}};
  if (!in.smart_search) return out;
  for (std::size_t x = 0; x < in.allow.size(); ++x) {
    const Execution& e = in.allow[x];
    for (std::size_t i = 0; i < e.framework->witness.size(); ++i)
      if (is_txn_order(e.framework->witness[i]) &&
          std::none_of(out.orders.begin(), out.orders.end(),
                       [&](const BoolMatrix& m) { return m.cells == e.witness[i].cells; })) {
        out.orders.push_back(e.witness[i]);
        out.bases.push_back(&in.read_from(x));
      }
  }
  return out;
}

bool all_typed(const lua::Framework& fw, const Type& type) {
  return std::all_of(fw.witness.begin(), fw.witness.end(), [&](const auto& w) { return w.rel->type == type; });
}

// A framework whose witness is per-key orders (Obj->Txn->Txn): each order
// restricted to each key's writers.
void per_key_templates(const lua::Framework& fw, const Orders& orders, const TemplateSources& in,
                       std::vector<Bindings>& out) {
  const std::uint32_t n = in.space.universe().size();
  Circuit& c = in.circuit;
  Translator tr(in.space.universe(), c, in.space.bindings());
  BoolMatrix writer = tr.expr(model::history_schema().writer);  // Txn->Obj
  for (std::size_t o = 0; o < orders.orders.size(); ++o) {
    std::vector<std::pair<Index, BLit>> cells;
    for (const auto& [idx, lit] : orders.orders[o].cells) {
      const Atom a = static_cast<Atom>(idx / n), b = static_cast<Atom>(idx % n);
      for (std::uint32_t x = 0; x < in.objects; ++x) {
        const Atom X = in.space.universe().atom(model::kObj, x);
        BLit both = c.and_(writer.at(Index{a} * n + X), writer.at(Index{b} * n + X));
        cells.emplace_back((Index{X} * n + a) * n + b, c.and_(lit, both));
      }
    }
    BoolMatrix m = make_matrix(c, 3, std::move(cells));
    Bindings b = *orders.bases[o];
    for (const auto& w : fw.witness) b.bind(w.rel, m);
    out.push_back(std::move(b));
  }
}

// so ∪ wr and happens-before under each order's read-from (computed once
// per run of equal read-froms), with happens-before's transitivity appended
// to `hb_transitive`. Happens-before is transitive whatever the history:
// asserting it removes no assignment of the inputs, and spares the solver
// unfolding the closure's circuit whenever a template needs it.
struct ReadFromRelations {
  std::vector<BoolMatrix> so_wr, hb;  // one per order
};

ReadFromRelations read_from_relations(const Orders& orders, const TemplateSources& in,
                                      std::vector<BLit>& hb_transitive) {
  const model::HistorySchema& s = model::history_schema();
  const std::uint32_t n = in.space.universe().size();
  Circuit& c = in.circuit;
  ReadFromRelations out;
  for (std::size_t o = 0; o < orders.bases.size(); ++o) {
    if (o > 0 && orders.bases[o] == orders.bases[o - 1]) {
      out.so_wr.push_back(out.so_wr.back());
      out.hb.push_back(out.hb.back());
      continue;
    }
    Translator tb(in.space.universe(), c, *orders.bases[o]);
    out.so_wr.push_back(tb.expr(union_(rel(s.so), s.wr)));
    out.hb.push_back(tb.expr(s.hb));
    const BoolMatrix& hb = out.hb.back();
    for (const auto& [ab, x] : hb.cells)
      for (const auto& [bc, y] : hb.cells) {
        if (ab % n != bc / n) continue;
        const BLit z = hb.at(Index{ab / n} * n + bc % n);
        if (z != kTrue) hb_transitive.push_back(c.implies(c.and_(x, y), z));
      }
  }
  return out;
}

// A framework of orders and relations on Txn: each order, with every
// relation (visibility) bound to the order itself and, with smart search,
// to its prefix closure of so ∪ wr, to happens-before, and to so ∪ wr.
void txn_templates(const lua::Framework& fw, const Orders& orders, const TemplateSources& in,
                   std::vector<BLit>& hb_transitive, std::vector<Bindings>& out) {
  const std::uint32_t n = in.space.universe().size();
  Circuit& c = in.circuit;
  const bool has_rel = std::any_of(fw.witness.begin(), fw.witness.end(), [](const auto& w) { return !w.order; });
  const ReadFromRelations rf = read_from_relations(orders, in, hb_transitive);
  BoolMatrix iden_txn;
  for (std::uint32_t t = 0; t <= in.txns; ++t) iden_txn.cells.emplace_back(Index{t} * n + t, kTrue);
  iden_txn.arity = 2;
  for (std::size_t o = 0; o < orders.orders.size(); ++o) {
    const BoolMatrix& order = orders.orders[o];
    std::vector<BoolMatrix> rels{order};
    if (has_rel && in.smart_search) {
      rels.push_back(m_join(c, n, m_union(c, order, iden_txn), rf.so_wr[o]));
      rels.push_back(rf.hb[o]);
      rels.push_back(rf.so_wr[o]);
    }
    for (const BoolMatrix& r : rels) {
      Bindings b = *orders.bases[o];
      for (const auto& w : fw.witness) b.bind(w.rel, w.order ? order : r);
      out.push_back(std::move(b));
    }
  }
}

}  // namespace

std::vector<Bindings> deny_templates(const lua::Level& deny, const TemplateSources& in,
                                     std::vector<BLit>& hb_transitive) {
  const lua::Framework& fw = *deny.framework;
  check_witness_sorts(fw);
  std::vector<Bindings> out;
  if (in.smart_search)
    for (const Execution& e : in.allow)
      if (e.framework == &fw) out.push_back(e.bindings);
  const Orders orders = candidate_orders(in);
  if (all_typed(fw, Type{model::kTxn, model::kTxn}))
    txn_templates(fw, orders, in, hb_transitive, out);
  else if (all_typed(fw, Type{model::kObj, model::kTxn, model::kTxn}))
    per_key_templates(fw, orders, in, out);
  return out;
}

}  // namespace iso::cegis
