// The grammar of witness_maps.hpp.
#include "prove/witness_maps.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/model/schema.hpp"

namespace iso::prove {

using namespace logic;
using model::kObj;
using model::kTxn;

namespace {

const Type kTxnTxn{kTxn, kTxn};
const Type kKeyed{kObj, kTxn, kTxn};

// T0 before everything, O among the rest: a linearization made an order of
// the frameworks, whose orders start with T0.
ExprPtr t0_first(const ExprPtr& o) {
  const auto& s = model::history_schema();
  return union_(product(s.T0, s.Tplus), inter(o, product(s.Tplus, s.Tplus)));
}

ExprPtr so_wr() {
  const auto& s = model::history_schema();
  return union_(rel(s.so), s.wr);
}

// O on the pairs of transactions that write a common key.
ExprPtr conflicts(const ExprPtr& o) {
  const auto& s = model::history_schema();
  return inter(o, join(s.writer, transpose(s.writer)));
}

// {(x, a, b) | a, b write x, (a, b) ∈ r}
ExprPtr per_key(const ExprPtr& r) {
  const auto& s = model::history_schema();
  auto x = make_variable("x", kObj), a = make_variable("a", kTxn), b = make_variable("b", kTxn);
  return comprehension({{x, sort(kObj)}, {a, sort(kTxn)}, {b, sort(kTxn)}},
                       and_({member({var(a), var(x)}, s.writer), member({var(b), var(x)}, s.writer),
                             member({var(a), var(b)}, r)}));
}

// {(a, x, c) | c reads x, a is the order-latest writer of x among `before`.c}
ExprPtr latest_writer(const ExprPtr& order, const ExprPtr& before) {
  const auto& s = model::history_schema();
  auto a = make_variable("a", kTxn), x = make_variable("x", kObj), c = make_variable("c", kTxn);
  ExprPtr seen = inter(join(before, var(c)), join(s.writer, var(x)));
  ExprPtr latest = diff(seen, join(order, seen));
  return comprehension({{a, sort(kTxn)}, {x, sort(kObj)}, {c, sort(kTxn)}},
                       and_(member({var(c), var(x)}, s.reader), member({var(a)}, latest)));
}

struct Sources {
  std::vector<Term> orders;     // strict total orders on Txn
  std::vector<Term> relations;  // other Txn x Txn relations
};

std::vector<Term> candidates(const WitnessDecl& d, const Level& a, const Sources& src) {
  std::vector<Term> out;
  for (const auto& w : a.framework->witness)
    if (w.rel->id == d.rel->id) out.push_back({rel(w.rel), w.name});
  if (d.rel->type == kTxnTxn && d.order) {
    for (const auto& o : src.orders) {
      out.push_back(o);
      out.push_back({t0_first(o.expr), fmt::format("T0 first, then {}", o.text)});
    }
    // Last, relations that are orders only where a history makes them one:
    // the goal's total_order must then refute them, a check of its own.
    const auto& h = model::history_schema();
    const ExprPtr t0 = product(h.T0, h.Tplus);
    for (const auto& r : src.relations) out.push_back({union_(r.expr, t0), fmt::format("{} ∪ T0×T⁺", r.text)});
    out.push_back({union_(h.hb, t0), "hb ∪ T0×T⁺"});
  } else if (d.rel->type == kTxnTxn) {
    for (const auto& o : src.orders) {
      const ExprPtr opt = union_(o.expr, iden());
      const ExprPtr t0 = product(model::history_schema().T0, model::history_schema().Tplus);
      out.push_back(o);
      out.push_back({union_(join(opt, so_wr()), t0), fmt::format("{0}?;(so ∪ wr) ∪ T0×T⁺", o.text)});
      out.push_back({union_(join(opt, union_(so_wr(), conflicts(o.expr))), t0),
                     fmt::format("{0}?;(so ∪ wr ∪ ww({0})) ∪ T0×T⁺", o.text)});
    }
    for (const auto& r : src.relations) out.push_back(r);
    // Visibility from the history alone: what Read Atomic and Causal
    // Consistency let a transaction see.
    const auto& h = model::history_schema();
    const ExprPtr t0 = product(h.T0, h.Tplus);
    out.push_back({union_(so_wr(), t0), "so ∪ wr ∪ T0×T⁺"});
    out.push_back({union_(h.hb, t0), "hb ∪ T0×T⁺"});
  } else if (d.rel->type == kKeyed) {
    for (const auto& o : src.orders) out.push_back({per_key(o.expr), fmt::format("{} on each key's writers", o.text)});
    for (const auto& r : src.relations)
      out.push_back({per_key(r.expr), fmt::format("{} on each key's writers", r.text)});
  }
  // Identity first, then the rest in order, without repeats.
  std::vector<Term> unique;
  for (auto& t : out)
    if (std::none_of(unique.begin(), unique.end(), [&](const Term& u) { return u.text == t.text; }))
      unique.push_back(std::move(t));
  return unique;
}

}  // namespace

std::string WitnessMap::text() const {
  std::vector<std::string> parts;
  for (const auto& [d, t] : witness) parts.push_back(fmt::format("{} := {}", d->name, t.text));
  if (read_from) parts.push_back(fmt::format("wr := {}", read_from->text));
  return parts.empty() ? "none needed" : fmt::format("{}", fmt::join(parts, ", "));
}

std::vector<WitnessMap> witness_maps(const Level& a, const Level& b, const std::vector<Linearization>& lins,
                                     bool rechoose_read_from, std::size_t limit) {
  Sources src;
  const WitnessDecl* vis = nullptr;
  const WitnessDecl* ar = nullptr;
  for (const auto& w : a.framework->witness) {
    if (w.rel->type != kTxnTxn) continue;
    (w.order ? src.orders : src.relations).push_back({rel(w.rel), w.name});
    (w.order ? ar : vis) = &w;
  }
  for (const auto& l : lins)
    src.orders.push_back({rel(l.order), fmt::format("a linearization of what {} requires acyclic", a.name)});
  std::vector<std::vector<Term>> choices;
  for (const auto& d : b.framework->witness) {
    choices.push_back(candidates(d, a, src));
    if (choices.back().empty()) return {};
  }
  std::vector<std::optional<Term>> reads{std::nullopt};
  if (rechoose_read_from) {
    if (vis && ar)
      reads.push_back(Term{latest_writer(rel(ar->rel), rel(vis->rel)),
                           fmt::format("each read's {}-latest {}-visible writer", ar->name, vis->name)});
    for (const auto& o : src.orders)
      reads.push_back(Term{latest_writer(o.expr, o.expr), fmt::format("each read's {}-latest earlier writer", o.text)});
  }
  // Every combination, ordered by the sum of the choices' ranks: simplest first.
  struct Pick {
    std::vector<std::size_t> at;
    std::size_t read = 0;
    std::size_t rank() const { return std::accumulate(at.begin(), at.end(), read); }
  };
  std::vector<Pick> picks{{std::vector<std::size_t>(choices.size(), 0), 0}};
  for (std::size_t i = 0; i < choices.size(); ++i) {
    std::vector<Pick> more;
    for (const auto& p : picks)
      for (std::size_t k = 0; k < choices[i].size(); ++k) {
        Pick q = p;
        q.at[i] = k;
        more.push_back(q);
      }
    picks = std::move(more);
  }
  std::vector<Pick> all;
  for (const auto& p : picks)
    for (std::size_t r = 0; r < reads.size(); ++r) all.push_back({p.at, r});
  std::stable_sort(all.begin(), all.end(), [](const Pick& x, const Pick& y) { return x.rank() < y.rank(); });
  std::vector<WitnessMap> out;
  for (const auto& p : all) {
    if (out.size() == limit) break;
    WitnessMap m;
    for (std::size_t i = 0; i < choices.size(); ++i)
      m.witness.emplace_back(&b.framework->witness[i], choices[i][p.at[i]]);
    m.read_from = reads[p.read];
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace iso::prove
