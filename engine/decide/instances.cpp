// Finding and explaining the failing instances of instances.hpp: the
// constraint unrolled into instances (Splitter), a minimal unsatisfiable set
// of them (MinimalCore), and what each asks of the witness cells, read in
// order (WitnessCells, Forcing).
#include "engine/decide/instances.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "engine/decide/generic.hpp"
#include "engine/logic/cnf.hpp"
#include "engine/logic/translator.hpp"
#include "engine/model/schema.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/sat/solver.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso {

using namespace logic;

namespace {

// A conjunct instance: its literal over the witness and how to print it.
struct Part {
  BLit lit;
  FailingInstance info;
  BoolMatrix graph;  // Acyclic instances: the relation over the witness
};

bool fixed(const BoolMatrix& m) {
  return std::all_of(m.cells.begin(), m.cells.end(), [](const auto& c) { return c.second == kTrue; });
}

// Unrolls conjuncts into instances (instances.hpp).
class Splitter {
 public:
  Splitter(const Universe& u, Translator& tr, std::size_t limit) : u_(u), tr_(tr), limit_(limit) {}

  // Appends the instances of `f` to parts(), each called `of`; false when
  // there would be more than the limit.
  bool split(const FormulaPtr& f, const std::string& of) {
    of_ = &of;
    return go(f);
  }
  std::vector<Part>& parts() { return parts_; }

 private:
  bool go(const FormulaPtr& f) {
    using Op = Formula::Op;
    switch (f->op) {
      case Op::And:
        for (const auto& k : f->kids)
          if (!go(k)) return false;
        return true;
      case Op::Forall: return unroll(f->decls, 0, f->kids[0], false);
      case Op::Not:
        // ¬∃x: φ is ∀x: ¬φ.
        if (f->kids[0]->op == Op::Exists)
          return unroll(f->kids[0]->decls, 0, f->kids[0]->kids[0], true);
        break;
      case Op::Implies: {
        // A premise the history decides: false, nothing to ask; true, the
        // conclusion's instances.
        const BLit premise = tr_.formula(f->kids[0]);
        if (premise == kFalse) return true;
        if (premise == kTrue) return go(f->kids[1]);
        break;
      }
      case Op::Subset: {
        // l ⊆ r with l fixed by the history: one instance per tuple of l.
        const BoolMatrix l = tr_.expr(f->exprs[0]);
        if (!fixed(l)) break;
        const BoolMatrix r = tr_.expr(f->exprs[1]);
        for (const auto& [idx, lit] : l.cells) {
          const BLit in = r.at(idx);
          if (in == kTrue) continue;
          std::vector<std::string> atoms;
          for (Atom a : index_tuple(u_.size(), l.arity, idx)) atoms.push_back(u_.name(a));
          at_.emplace_back("", l.arity == 1 ? atoms[0] : fmt::format("({})", fmt::join(atoms, ", ")));
          const bool ok = add(in, to_string(f, 120));
          at_.pop_back();
          if (!ok) return false;
        }
        return true;
      }
      case Op::Acyclic: return add(tr_.formula(f), to_string(f, 160), false, tr_.expr(f->exprs[0]));
      default: break;
    }
    return add(tr_.formula(f), to_string(f, 160));
  }

  // The instances of ∀ decls[i..]: body, or with `negated`, of
  // ∀ decls[i..]: ¬body (from ¬∃). The variables of decls[..i] are bound.
  bool unroll(const std::vector<Decl>& decls, std::size_t i, const FormulaPtr& body, bool negated) {
    if (i == decls.size()) {
      if (!negated) return go(body);
      // ¬∃x ∃y: φ is ∀x ∀y: ¬φ.
      if (body->op == Formula::Op::Exists) return unroll(body->decls, 0, body->kids[0], true);
      return add(!tr_.formula(body), to_string(body, 150), true);
    }
    const Decl& d = decls[i];
    const BoolMatrix dom = tr_.expr(d.domain);
    if (!fixed(dom)) {
      // The domain depends on the witness: the rest is one instance.
      const std::vector<Decl> rest(decls.begin() + static_cast<std::ptrdiff_t>(i), decls.end());
      if (!negated) {
        const FormulaPtr f = forall(rest, body);
        return add(tr_.formula(f), to_string(f, 160));
      }
      const FormulaPtr f = exists(rest, body);
      return add(!tr_.formula(f), to_string(f, 160), true);
    }
    for (const auto& [atom, member] : dom.cells) {
      tr_.bind_variable(*d.var, static_cast<Atom>(atom));
      at_.emplace_back(d.var->name, u_.name(static_cast<Atom>(atom)));
      const bool ok = unroll(decls, i + 1, body, negated);
      at_.pop_back();
      tr_.unbind_variable(*d.var);
      if (!ok) return false;
    }
    return true;
  }

  // `forbids`: the instance is ¬formula.
  bool add(BLit lit, std::string formula, bool forbids = false, BoolMatrix graph = {}) {
    if (lit == kTrue) return true;
    if (parts_.size() >= limit_) return false;
    FailingInstance info;
    info.of = *of_;
    info.at = at_;
    info.formula = std::move(formula);
    info.forbids = forbids;
    parts_.push_back(Part{lit, std::move(info), std::move(graph)});
    return true;
  }

  const Universe& u_;
  Translator& tr_;
  std::size_t limit_;
  const std::string* of_ = nullptr;
  std::vector<std::pair<std::string, std::string>> at_;
  std::vector<Part> parts_;
};

// A cycle among `edges`, first node repeated last, or empty.
std::vector<Atom> find_cycle(const std::vector<std::pair<Atom, Atom>>& edges) {
  std::map<Atom, std::vector<Atom>> next;
  for (auto [a, b] : edges) next[a].push_back(b);
  std::map<Atom, int> state;  // 1: on the path, 2: done
  std::vector<Atom> path, cycle;
  std::function<bool(Atom)> dfs = [&](Atom a) {
    state[a] = 1;
    path.push_back(a);
    for (Atom b : next[a]) {
      if (state[b] == 1) {
        cycle.assign(std::find(path.begin(), path.end(), b), path.end());
        cycle.push_back(b);
        return true;
      }
      if (state[b] == 0 && dfs(b)) return true;
    }
    path.pop_back();
    state[a] = 2;
    return false;
  };
  for (const auto& [a, _] : next)
    if (state[a] == 0 && dfs(a)) break;
  return cycle;
}

// The edges between transactions of a binary relation `graph` whose cells
// `keep` holds, as pairs of atoms.
template <class Keep>
std::vector<std::pair<Atom, Atom>> txn_edges(const Universe& u, const BoolMatrix& graph, Keep keep) {
  std::vector<std::pair<Atom, Atom>> edges;
  for (const auto& [idx, lit] : graph.cells) {
    if (!keep(lit)) continue;
    const auto t = index_tuple(u.size(), 2, idx);
    if (u.in_sort(t[0], model::kTxn) && u.in_sort(t[1], model::kTxn)) edges.emplace_back(t[0], t[1]);
  }
  return edges;
}

// A cycle among `edges` (find_cycle) as the transactions its atoms stand for.
std::vector<TxnId> txn_cycle(const generic::Encoding& enc, const std::vector<std::pair<Atom, Atom>>& edges) {
  const Universe& u = enc.inst.universe;
  std::vector<TxnId> cycle;
  for (Atom a : find_cycle(edges)) cycle.push_back(enc.inst.txn_of_atom[a - u.first(model::kTxn)]);
  return cycle;
}

// The conjuncts of Level::constraint unrolled into instances, each with what
// to call it: the reads' one writer, each witness order's totality, the
// framework's well-formedness, the level's axiom. nullopt: more than
// `limit` instances.
std::optional<std::vector<Part>> constraint_instances(const generic::Encoding& enc, const Level& level,
                                                      Translator& tr, std::size_t limit) {
  const Framework& fw = *level.framework;
  Splitter split(enc.inst.universe, tr, limit);
  std::vector<Part> parts;
  if (enc.inst.wellformed != kTrue) {
    FailingInstance info;
    info.of = "one writer per read";
    parts.push_back(Part{enc.inst.wellformed, std::move(info), {}});
  }
  std::vector<std::string> names;
  for (const auto& w : fw.witness)
    if (w.order) names.push_back(fmt::format("{} is a strict total order", w.name));
  names.push_back(fmt::format("{} well-formedness", fw.name));
  names.push_back(fmt::format("{} axiom", level.name));
  std::size_t name = 0;
  for (const auto& w : fw.witness)
    if (w.order && !split.split(total_order(rel(w.rel), sort(w.order_sort)), names[name++]))
      return std::nullopt;
  if (fw.wf && !split.split(fw.wf, names[name])) return std::nullopt;
  if (!split.split(level.axiom, names[name + 1])) return std::nullopt;
  for (Part& p : split.parts()) parts.push_back(std::move(p));
  return parts;
}

// An instance the history alone falsifies, as the whole reason (with the
// history's own cycle for an acyclicity instance); nullopt when there is none.
std::optional<FailingInstances> refuted_by_history(const generic::Encoding& enc, std::vector<Part>& parts) {
  for (Part& p : parts) {
    if (p.lit != kFalse) continue;
    p.info.needs = "nothing";
    if (p.graph.arity == 2)
      p.info.cycle = txn_cycle(enc, txn_edges(enc.inst.universe, p.graph, [](BLit l) { return l == kTrue; }));
    FailingInstances out;
    out.instances.push_back(std::move(p.info));
    return out;
  }
  return std::nullopt;
}

// A minimal set of parts with no witness together: the solver's final
// conflict under one selector per part, then deletion (drop each part the
// others still refute). Parts by index, ascending; nullopt when the solver
// gives no answer or all the parts together have a witness.
class MinimalCore {
 public:
  MinimalCore(Circuit& c, const std::vector<Part>& parts) : cnf_(c, solver_), selector_(parts.size()) {
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const BLit s = c.input();
      cnf_.assert_true(c.implies(s, parts[i].lit));
      selector_[i] = cnf_.literal(s);
      part_of_var_[selector_[i].var()] = i;
    }
  }

  std::optional<std::vector<std::size_t>> find() {
    std::vector<std::size_t> core(selector_.size());
    for (std::size_t i = 0; i < core.size(); ++i) core[i] = i;
    auto r = unsat(core);
    if (!r || !*r) return std::nullopt;  // no answer, or the precondition broken
    for (std::size_t k = 0; k < core.size();) {
      const std::size_t at = core[k];
      std::vector<std::size_t> rest = core;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(k));
      auto still = unsat(rest);
      if (!still) return std::nullopt;
      if (*still) {
        // The conflict may drop earlier instances too: go on after the
        // ones before `at` that are left.
        core = std::move(rest);
        k = static_cast<std::size_t>(std::lower_bound(core.begin(), core.end(), at) - core.begin());
      } else {
        ++k;
      }
    }
    return core;
  }

 private:
  // Solves with the parts in `chosen`; when they have no witness, narrows
  // `chosen` to the solver's final conflict. nullopt: no answer.
  std::optional<bool> unsat(std::vector<std::size_t>& chosen) {
    std::vector<sat::Lit> assumptions;
    for (std::size_t i : chosen) assumptions.push_back(selector_[i]);
    const sat::Result r = solver_.solve(assumptions);
    if (r == sat::Result::Unknown) return std::nullopt;
    if (r == sat::Result::Sat) return false;
    std::vector<std::size_t> core;
    for (sat::Lit l : solver_.conflict())
      if (auto it = part_of_var_.find(l.var()); it != part_of_var_.end()) core.push_back(it->second);
    std::sort(core.begin(), core.end());
    chosen = std::move(core);
    return true;
  }

  sat::Solver solver_;
  CnfEncoder cnf_;
  std::vector<sat::Lit> selector_;
  std::unordered_map<std::uint32_t, std::size_t> part_of_var_;
};

// A witness cell: which witness relation, which tuple of it.
using Cell = std::pair<std::size_t, Index>;

// The witness's cells as circuit inputs, and an instance over them as text.
class WitnessCells {
 public:
  WitnessCells(const generic::Encoding& enc, const Framework& fw)
      : c_(enc.circuit), u_(enc.inst.universe), fw_(fw) {
    for (std::size_t w = 0; w < enc.witness.size(); ++w)
      for (const auto& [idx, lit] : enc.witness[w].cells)
        if (!lit.negated() && c_.gate(lit.node()).kind == Circuit::Kind::Input)
          cell_of_input_[c_.gate(lit.node()).input] = {w, idx};
    for (const auto& [input, cell] : cell_of_input_) input_of_cell_[cell] = input;
  }

  // The cell `l` is (negated or not); null when it is no witness cell.
  const Cell* cell_of(BLit l) const {
    const auto& g = c_.gate(l.node());
    if (g.kind != Circuit::Kind::Input) return nullptr;
    auto it = cell_of_input_.find(g.input);
    return it == cell_of_input_.end() ? nullptr : &it->second;
  }
  // The input that is the cell of witness `w` at `tuple`, if any.
  std::optional<std::uint32_t> input_of(std::size_t w, const std::vector<Atom>& tuple) const {
    auto it = input_of_cell_.find({w, tuple_index(u_.size(), tuple)});
    return it == input_of_cell_.end() ? std::nullopt : std::optional<std::uint32_t>(it->second);
  }
  std::vector<Atom> tuple_of(const Cell& cell) const {
    return index_tuple(u_.size(), static_cast<std::uint32_t>(fw_.witness[cell.first].rel->type.size()),
                       cell.second);
  }

  // The instance as a formula over witness cells, negations pushed down to
  // them; empty past a size a reader takes in at once (`budget` gates), or
  // when it is not made of witness cells alone.
  std::string text(BLit l, int& budget) const {
    if (--budget < 0) return "";
    if (const auto* cell = cell_of(l)) {
      std::vector<std::string> atoms;
      for (Atom a : tuple_of(*cell)) atoms.push_back(u_.name(a));
      return fmt::format("{}{}({})", l.negated() ? "not " : "", fw_.witness[cell->first].name,
                         fmt::join(atoms, ", "));
    }
    if (c_.gate(l.node()).kind != Circuit::Kind::And) return "";
    std::vector<std::string> kids;
    for (BLit k : c_.kids(l.node())) {
      const BLit kid = l.negated() ? !k : k;
      std::string t = text(kid, budget);
      if (t.empty()) return "";
      kids.push_back(c_.gate(kid.node()).kind == Circuit::Kind::And ? "(" + t + ")" : t);
    }
    return fmt::format("{}", fmt::join(kids, l.negated() ? " or " : " and "));
  }

 private:
  const Circuit& c_;
  const Universe& u_;
  const Framework& fw_;
  std::unordered_map<std::uint32_t, Cell> cell_of_input_;
  std::map<Cell, std::uint32_t> input_of_cell_;
};

// Whether a witness relation is a strict total order on transactions.
bool txn_order(const WitnessDecl& decl) { return decl.order && decl.rel->type == Type{model::kTxn, model::kTxn}; }

// The witness relations that never relate a transaction to itself: strict
// total orders on transactions, a relation the framework's well-formedness
// puts inside one (vis within ar), and one it makes a strict total order
// per key (total_order(x..ww, ...)). Read off the conjuncts of wf.
class Irreflexive {
 public:
  explicit Irreflexive(const Framework& fw) : fw_(fw), marked_(fw.witness.size(), false) {
    for (std::size_t w = 0; w < fw.witness.size(); ++w) marked_[w] = txn_order(fw.witness[w]);
    if (fw.wf) walk(*fw.wf);
  }
  const std::vector<bool>& relations() const { return marked_; }

 private:
  // The witness relation `e` is (or ends a join with), if any.
  std::optional<std::size_t> witness_of(const Expr& e, bool joined) const {
    if (joined && e.op == Expr::Op::Join) return witness_of(*e.kids[1], false);
    if (e.op != Expr::Op::Relation) return std::nullopt;
    for (std::size_t w = 0; w < fw_.witness.size(); ++w)
      if (fw_.witness[w].rel->id == e.rel->id) return w;
    return std::nullopt;
  }
  void walk(const Formula& f) {
    using Op = Formula::Op;
    if (f.op == Op::And || f.op == Op::Forall)
      for (const auto& k : f.kids) walk(*k);
    if (f.op == Op::TotalOrder)
      if (auto w = witness_of(*f.exprs[0], true)) marked_[*w] = true;
    if (f.op == Op::Subset) {
      const auto a = witness_of(*f.exprs[0], false), b = witness_of(*f.exprs[1], false);
      if (a && b && txn_order(fw_.witness[*b])) marked_[*a] = true;
    }
  }
  const Framework& fw_;
  std::vector<bool> marked_;
};

// What the instances force, one at a time, in order: a cell an instance
// needs outright, or once the cells before it are set (unit propagation).
// A cell of a strict total order on transactions sets its reverse too, and
// such an order is irreflexive from the start.
class Forcing {
 public:
  // The cells of `irreflexive` relations that relate a transaction to
  // itself are false from the start.
  Forcing(Circuit& c, const Universe& u, const Framework& fw, const WitnessCells& cells,
          const std::vector<bool>& irreflexive)
      : c_(c), fw_(fw), cells_(cells) {
    const Atom t0 = u.first(model::kTxn), tn = t0 + u.count(model::kTxn);
    const Atom k0 = u.first(model::kObj), kn = k0 + u.count(model::kObj);
    for (std::size_t w = 0; w < fw.witness.size(); ++w) {
      const Type& type = fw.witness[w].rel->type;
      const bool per_key = type == Type{model::kObj, model::kTxn, model::kTxn};
      if (!irreflexive[w] || (!per_key && type != Type{model::kTxn, model::kTxn})) continue;
      for (Atom a = t0; a < tn; ++a)
        for (Atom k = per_key ? k0 : 0; k < (per_key ? kn : 1); ++k)
          if (const auto input = cells.input_of(w, per_key ? std::vector<Atom>{k, a, a} : std::vector<Atom>{a, a}))
            assigned_[*input] = false;
    }
  }

  // Sets the witness cell `l` true (its negation: false), as instance
  // number `by` asks.
  void assign(BLit l, std::size_t by) {
    const Cell* cell = cells_.cell_of(l);
    assigned_[c_.gate(l.node()).input] = !l.negated();
    by_[c_.gate(l.node()).input] = by;
    if (!txn_order(fw_.witness[cell->first])) return;
    auto t = cells_.tuple_of(*cell);
    if (t[0] == t[1]) return;
    if (const auto reverse = cells_.input_of(cell->first, {t[1], t[0]})) assigned_[*reverse] = l.negated();
    if (l.negated()) std::swap(t[0], t[1]);  // not (a, b) in a total order: (b, a)
    forced_[cell->first].emplace_back(t[0], t[1]);
  }

  // The cell `l` of an order on transactions that an instance needs against
  // the cells set before it: its edge closes their cycle. Only the edge is
  // kept; the cells stay as they were.
  void close(BLit l) {
    const Cell* cell = cells_.cell_of(l);
    if (!cell || !txn_order(fw_.witness[cell->first])) return;
    auto t = cells_.tuple_of(*cell);
    if (t[0] == t[1]) return;
    if (l.negated()) std::swap(t[0], t[1]);
    forced_[cell->first].emplace_back(t[0], t[1]);
  }

  // `l` with the assigned cells replaced by constants; remembered per gate
  // until forget().
  BLit simplify(BLit l) {
    const std::uint32_t node = l.node();
    BLit v;
    if (auto it = memo_.find(node); it != memo_.end()) {
      v = it->second;
    } else {
      const auto& g = c_.gate(node);
      v = BLit{node << 1};
      if (g.kind == Circuit::Kind::Input) {
        if (auto a = assigned_.find(g.input); a != assigned_.end()) v = a->second ? kTrue : kFalse;
      } else if (g.kind == Circuit::Kind::And) {
        const std::vector<BLit> kids(c_.kids(node).begin(), c_.kids(node).end());
        std::vector<BLit> simple;
        for (BLit k : kids) simple.push_back(simplify(k));
        v = c_.and_(simple);
      }
      memo_[node] = v;
    }
    return l.negated() ? !v : v;
  }
  void forget() { memo_.clear(); }
  // Is `l` true once the assigned cells are set?
  bool holds(BLit l) { return simplify(l) == kTrue; }
  // The instance that set the cell `l`, if one did.
  std::optional<std::size_t> set_by(BLit l) const {
    if (c_.gate(l.node()).kind != Circuit::Kind::Input) return std::nullopt;
    auto it = by_.find(c_.gate(l.node()).input);
    return it == by_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }

  // The forced edges of each order on transactions, by witness relation.
  const std::map<std::size_t, std::vector<std::pair<Atom, Atom>>>& forced() const { return forced_; }

 private:
  Circuit& c_;
  const Framework& fw_;
  const WitnessCells& cells_;
  std::unordered_map<std::uint32_t, bool> assigned_;  // input number -> value
  std::unordered_map<std::uint32_t, std::size_t> by_;  // input number -> instance
  std::map<std::size_t, std::vector<std::pair<Atom, Atom>>> forced_;
  std::unordered_map<std::uint32_t, BLit> memo_;
};

// Which dependency of the history an edge between two transactions is,
// once the forced cells are set: wr(x) (wrx), ww(x) (a per-key version
// order of the witness), so, rw(x) (a read of a version the version order
// puts before the other's, item reads first), real time. Each edge of a
// cycle found in a relation must be one, or the cycle is not typed.
class Dependencies {
 public:
  Dependencies(const generic::Encoding& enc, const Framework& fw, Forcing& forcing)
      : enc_(enc), u_(enc.inst.universe), forcing_(forcing) {
    const model::HistorySchema& s = model::history_schema();
    wrx_ = enc.inst.bindings.find(*s.wrx);
    iwrx_ = enc.inst.bindings.find(*s.iwrx);
    for (const auto& [r, d] : {std::pair{s.so, Dep::SO}, {s.rt, Dep::RT}, {s.rt_cc, Dep::RTCC}, {s.rt_bc, Dep::RTBC}})
      if (const BoolMatrix* m = enc.inst.bindings.find(*r)) orders_.emplace_back(m, d);
    for (std::size_t w = 0; w < fw.witness.size(); ++w)
      if (fw.witness[w].rel->type == Type{model::kObj, model::kTxn, model::kTxn}) ww_ = w;
  }

  // The edge a -> b as a dependency, with the cell of the version order it
  // rests on (ww, or the overwrite of rw), or nullopt.
  struct Typed {
    DepEdge edge;
    std::optional<BLit> order_cell;
    bool item = false;
  };
  std::optional<Typed> edge(Atom a, Atom b) {
    const TxnId ta = txn(a), tb = txn(b);
    const Atom k0 = u_.first(model::kObj);
    for (Atom k = k0; k < k0 + u_.count(model::kObj); ++k)
      if (wrx_ && holds(*wrx_, {a, k, b})) return Typed{{ta, tb, Dep::WR, k - k0}, {}, false};
    for (Atom k = k0; ww_ && k < k0 + u_.count(model::kObj); ++k)
      if (const BLit c = cell(*ww_, {k, a, b}); forcing_.holds(c)) return Typed{{ta, tb, Dep::WW, k - k0}, c, false};
    for (const auto& [m, d] : orders_)
      if (holds(*m, {a, b})) return Typed{{ta, tb, d, 0}, {}, false};
    for (const BoolMatrix* reads : {iwrx_, wrx_})
      if (auto t = anti_dependency(reads, a, b)) {
        t->item = reads == iwrx_;
        return t;
      }
    return std::nullopt;
  }

 private:
  TxnId txn(Atom a) const { return enc_.inst.txn_of_atom[a - u_.first(model::kTxn)]; }
  bool holds(const BoolMatrix& m, const std::vector<Atom>& t) {
    return forcing_.holds(m.at(tuple_index(u_.size(), t)));
  }
  BLit cell(std::size_t w, const std::vector<Atom>& t) const {
    return enc_.witness[w].at(tuple_index(u_.size(), t));
  }
  // a read some key from u, and the version order puts u's version before b's.
  std::optional<Typed> anti_dependency(const BoolMatrix* reads, Atom a, Atom b) {
    if (!reads || !ww_ || a == b) return std::nullopt;
    const Atom k0 = u_.first(model::kObj), t0 = u_.first(model::kTxn);
    for (Atom k = k0; k < k0 + u_.count(model::kObj); ++k)
      for (Atom w = t0; w < t0 + u_.count(model::kTxn); ++w)
        if (holds(*reads, {w, k, a}))
          if (const BLit c = cell(*ww_, {k, w, b}); forcing_.holds(c))
            return Typed{{txn(a), txn(b), Dep::RW, k - k0}, c, false};
    return std::nullopt;
  }

  const generic::Encoding& enc_;
  const Universe& u_;
  Forcing& forcing_;
  const BoolMatrix* wrx_ = nullptr;
  const BoolMatrix* iwrx_ = nullptr;
  std::vector<std::pair<const BoolMatrix*, Dep>> orders_;
  std::optional<std::size_t> ww_;
};

// The instance's cycle typed as dependencies (FailingInstance::dependencies),
// or left untyped when one of its edges is none.
void type_cycle(Dependencies& deps, const Forcing& forcing, const generic::Encoding& enc,
                const std::vector<FailingInstance>& before, FailingInstance& i) {
  const auto& atom_of = enc.inst.atom_of_txn;
  std::vector<DepEdge> edges;
  std::vector<std::string> by;
  std::vector<bool> item;
  for (std::size_t j = 0; j + 1 < i.cycle.size(); ++j) {
    const auto t = deps.edge(atom_of[i.cycle[j]], atom_of[i.cycle[j + 1]]);
    if (!t) return;
    edges.push_back(t->edge);
    item.push_back(t->item);
    std::string why;
    if (t->order_cell)
      if (auto k = forcing.set_by(*t->order_cell); k && *k < before.size())
        why = before[*k].at.empty() ? before[*k].of : before[*k].of + " at " + before[*k].at_text();
    by.push_back(std::move(why));
  }
  i.dependencies = std::move(edges);
  i.forced_by = std::move(by);
  i.item = std::move(item);
}

// The core's instances in order, each with what it needs of the witness and
// what it needs given the cells the ones before it force; then each
// acyclicity instance's forced cycle, and the first order whose forced edges
// close a cycle.
FailingInstances explain(generic::Encoding& enc, const Framework& fw, std::vector<Part>& parts,
                         const std::vector<std::size_t>& core) {
  const WitnessCells cells(enc, fw);
  const Irreflexive irreflexive(fw);
  // What each instance needs by itself: with only the cells no witness has
  // (a transaction before itself) set false.
  Forcing base(enc.circuit, enc.inst.universe, fw, cells, irreflexive.relations());
  Forcing forcing(enc.circuit, enc.inst.universe, fw, cells, irreflexive.relations());
  FailingInstances out;
  for (std::size_t i : core) {
    Part& p = parts[i];
    const BLit needs = base.simplify(p.lit);
    int budget = 12;
    p.info.needs = cells.text(needs, budget);
    forcing.forget();
    const BLit given = forcing.simplify(p.lit);
    if (given != needs) {
      budget = 12;
      p.info.given = given == kFalse ? "nothing: the lines above contradict it" : cells.text(given, budget);
    }
    if (cells.cell_of(given))
      forcing.assign(given, out.instances.size());
    else if (given == kFalse)
      forcing.close(needs);
    out.instances.push_back(std::move(p.info));
  }
  // Each acyclicity instance's relation with the forced cells set: a cycle
  // of edges true whatever the other cells are, and its dependencies.
  forcing.forget();
  Dependencies deps(enc, fw, forcing);
  for (std::size_t j = 0; j < core.size(); ++j) {
    const Part& p = parts[core[j]];
    if (p.graph.arity != 2 || p.graph.cells.empty()) continue;
    out.instances[j].cycle = txn_cycle(
        enc, txn_edges(enc.inst.universe, p.graph, [&](BLit l) { return forcing.holds(l); }));
    if (!out.instances[j].cycle.empty()) type_cycle(deps, forcing, enc, out.instances, out.instances[j]);
  }
  for (const auto& [w, edges] : forcing.forced()) {
    std::vector<TxnId> cycle = txn_cycle(enc, edges);
    if (cycle.empty()) continue;
    out.order = fw.witness[w].name;
    out.cycle = std::move(cycle);
    break;
  }
  // An order's forced cycle whose edges are all dependencies of the history
  // (so and wr, which every order of the frameworks contains): a cycle of
  // the history itself.
  if (!out.cycle.empty()) {
    FailingInstance order;
    order.cycle = out.cycle;
    type_cycle(deps, forcing, enc, {}, order);
    out.dependencies = std::move(order.dependencies);
  }
  return out;
}

}  // namespace

std::string FailingInstance::at_text() const {
  std::vector<std::string> parts;
  for (const auto& [var, value] : at) parts.push_back(var.empty() ? value : var + " := " + value);
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::optional<FailingInstances> failing_instances(const AbstractHistory& h, const Level& level,
                                                  std::size_t max_instances) {
  generic::Encoding enc(h, level, {});
  Translator tr(enc.inst.universe, enc.circuit, enc.inst.bindings);
  std::optional<std::vector<Part>> parts = constraint_instances(enc, level, tr, max_instances);
  if (!parts) return std::nullopt;
  if (auto reason = refuted_by_history(enc, *parts)) {
    // A cycle of the history alone: its edges are dependencies the
    // history gives, or none.
    FailingInstance& i = reason->instances[0];
    if (!i.cycle.empty()) {
      const WitnessCells cells(enc, *level.framework);
      Forcing none(enc.circuit, enc.inst.universe, *level.framework, cells,
                   std::vector<bool>(level.framework->witness.size(), false));
      Dependencies deps(enc, *level.framework, none);
      type_cycle(deps, none, enc, {}, i);
    }
    return reason;
  }
  const std::optional<std::vector<std::size_t>> core = MinimalCore(enc.circuit, *parts).find();
  if (!core) return std::nullopt;
  return explain(enc, *level.framework, *parts, *core);
}

namespace {

// "T1 → T2 → T1".
std::string path_text(const History& h, const std::vector<TxnId>& seq) {
  std::vector<std::string> names;
  for (TxnId t : seq) names.push_back(h.txn_name(t));
  return fmt::format("{}", fmt::join(names, " → "));
}

}  // namespace

std::optional<Anomaly> dependency_cycle(const History& h, const FailingInstances& f) {
  std::vector<FailingInstance> with_cycles = f.instances;
  if (!f.dependencies.empty()) {
    FailingInstance order;
    order.dependencies = f.dependencies;
    order.forced_by.assign(f.dependencies.size(), "");
    order.item.assign(f.dependencies.size(), false);
    with_cycles.push_back(std::move(order));
  }
  for (const FailingInstance& i : with_cycles) {
    if (i.dependencies.empty()) continue;
    Anomaly a = poly::cycle_anomaly(h, i.dependencies, GraphLevel::Ser);
    std::vector<std::string> item, predicate;
    for (const DepEdge& e : a.cycle) {
      const auto at = static_cast<std::size_t>(std::find(i.dependencies.begin(), i.dependencies.end(), e) -
                                               i.dependencies.begin());
      std::string why = poly::edge_fact(h, e);
      if (!i.forced_by[at].empty() && e.type == Dep::WW)
        why += fmt::format(": the version order of {} puts {}'s first ({})", h.key_text(e.key),
                           h.txn_name(e.from), i.forced_by[at]);
      else if (!i.forced_by[at].empty())
        why += fmt::format(": the version order of {} puts the version read before {}'s ({})",
                           h.key_text(e.key), h.txn_name(e.to), i.forced_by[at]);
      a.why.push_back(std::move(why));
      if (e.type == Dep::RW)
        (i.item[at] ? item : predicate).push_back(poly::format_cycle(h, {e}));
    }
    if (!item.empty())
      a.description += fmt::format(" (Adya's G2-item: a cycle with an item anti-dependency, here {})",
                                   fmt::join(item, " and "));
    else if (!predicate.empty())
      a.description += fmt::format(" (Adya's G2 but not G2-item: its anti-dependencies, {}, are predicate ones)",
                                   fmt::join(predicate, " and "));
    return a;
  }
  return std::nullopt;
}

std::string failing_text(const History& h, const std::string& witness, const FailingInstances& f) {
  std::string s = fmt::format("  no {} satisfies these together (without any one of them, one does):\n", witness);
  for (const FailingInstance& i : f.instances) {
    s += "    " + i.of;
    if (!i.at.empty()) s += " at " + i.at_text();
    if (i.needs == "nothing" && i.forbids)
      s += fmt::format(": forbids what holds in this history:\n      {}\n", i.formula);
    else if (i.needs == "nothing")
      s += fmt::format(": false in this history:\n      {}\n", i.formula);
    else if (!i.needs.empty())
      s += fmt::format("{}: needs {}{}\n", i.formula.size() <= 60 ? " (" + i.formula + ")" : "", i.needs,
                       i.given.empty() ? "" : ", so " + i.given);
    else if (i.at.empty() && i.of.ends_with("total order"))
      s += "\n";  // the name says it all
    else
      s += fmt::format(":\n      {}\n", i.formula);
    if (!i.cycle.empty())
      s += fmt::format("      {}, it has the cycle {}\n",
                       i.needs == "nothing" ? "in the history alone" : "with the cells above",
                       i.dependencies.empty() ? path_text(h, i.cycle) : poly::format_cycle(h, i.dependencies));
  }
  if (!f.cycle.empty())
    s += fmt::format("  they force the {} cycle {}\n", f.order,
                     f.dependencies.empty() ? path_text(h, f.cycle) : poly::format_cycle(h, f.dependencies));
  return s;
}

}  // namespace iso
