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
#include "engine/sat/solver.hpp"

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

}  // namespace

std::string FailingInstance::at_text() const {
  std::vector<std::string> parts;
  for (const auto& [var, value] : at) parts.push_back(var.empty() ? value : var + " = " + value);
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::optional<FailingInstances> failing_instances(const AbstractHistory& h, const Level& level,
                                                  std::size_t max_instances) {
  generic::Encoding enc(h, level, {});
  Circuit& c = enc.circuit;
  const Universe& u = enc.inst.universe;
  const Framework& fw = *level.framework;
  Translator tr(u, c, enc.inst.bindings);
  Splitter split(u, tr, max_instances);

  // The conjuncts of Level::constraint, each with what to call it.
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

  // The history alone falsifies an instance: it is the whole reason.
  for (Part& p : parts)
    if (p.lit == kFalse) {
      p.info.needs = "nothing";
      if (p.graph.arity == 2) {  // an acyclicity instance: the history's own cycle
        std::vector<std::pair<Atom, Atom>> edges;
        for (const auto& [idx, lit] : p.graph.cells)
          if (lit == kTrue) {
            const auto t = index_tuple(u.size(), 2, idx);
            if (u.in_sort(t[0], model::kTxn) && u.in_sort(t[1], model::kTxn)) edges.emplace_back(t[0], t[1]);
          }
        for (Atom a : find_cycle(edges)) p.info.cycle.push_back(enc.inst.txn_of_atom[a - u.first(model::kTxn)]);
      }
      FailingInstances out;
      out.instances.push_back(std::move(p.info));
      return out;
    }

  sat::Solver solver;
  CnfEncoder cnf(c, solver);
  std::vector<sat::Lit> selector(parts.size());
  std::unordered_map<std::uint32_t, std::size_t> part_of_var;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const BLit s = c.input();
    cnf.assert_true(c.implies(s, parts[i].lit));
    selector[i] = cnf.literal(s);
    part_of_var[selector[i].var()] = i;
  }
  // Solves with the parts in `chosen`; when they have no witness, narrows
  // `chosen` to the solver's final conflict. nullopt: no answer.
  auto unsat = [&](std::vector<std::size_t>& chosen) -> std::optional<bool> {
    std::vector<sat::Lit> assumptions;
    for (std::size_t i : chosen) assumptions.push_back(selector[i]);
    const sat::Result r = solver.solve(assumptions);
    if (r == sat::Result::Unknown) return std::nullopt;
    if (r == sat::Result::Sat) return false;
    std::vector<std::size_t> core;
    for (sat::Lit l : solver.conflict())
      if (auto it = part_of_var.find(l.var()); it != part_of_var.end()) core.push_back(it->second);
    std::sort(core.begin(), core.end());
    chosen = std::move(core);
    return true;
  };
  std::vector<std::size_t> core(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) core[i] = i;
  auto r = unsat(core);
  if (!r || !*r) return std::nullopt;  // no answer, or the precondition broken
  // Deletion: drop each instance the others still refute.
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

  // Names of the witness cells, to say what each instance needs.
  std::unordered_map<std::uint32_t, std::pair<std::size_t, Index>> cell_of_input;
  for (std::size_t w = 0; w < enc.witness.size(); ++w)
    for (const auto& [idx, lit] : enc.witness[w].cells)
      if (!lit.negated() && c.gate(lit.node()).kind == Circuit::Kind::Input)
        cell_of_input[c.gate(lit.node()).input] = {w, idx};
  auto cell_of = [&](BLit l) -> const std::pair<std::size_t, Index>* {
    const auto& g = c.gate(l.node());
    if (g.kind != Circuit::Kind::Input) return nullptr;
    auto it = cell_of_input.find(g.input);
    return it == cell_of_input.end() ? nullptr : &it->second;
  };
  auto tuple_of = [&](const std::pair<std::size_t, Index>& cell) {
    return index_tuple(u.size(), static_cast<std::uint32_t>(fw.witness[cell.first].rel->type.size()),
                       cell.second);
  };
  // The instance as a formula over witness cells, negations pushed down to
  // them; empty past a size a reader takes in at once, or when it is not
  // made of witness cells alone.
  std::function<std::string(BLit, int&)> text = [&](BLit l, int& budget) -> std::string {
    if (--budget < 0) return "";
    if (const auto* cell = cell_of(l)) {
      std::vector<std::string> atoms;
      for (Atom a : tuple_of(*cell)) atoms.push_back(u.name(a));
      return fmt::format("{}{}({})", l.negated() ? "not " : "", fw.witness[cell->first].name,
                         fmt::join(atoms, ", "));
    }
    if (c.gate(l.node()).kind != Circuit::Kind::And) return "";
    std::vector<std::string> kids;
    for (BLit k : c.kids(l.node())) {
      const BLit kid = l.negated() ? !k : k;
      std::string t = text(kid, budget);
      if (t.empty()) return "";
      kids.push_back(c.gate(kid.node()).kind == Circuit::Kind::And ? "(" + t + ")" : t);
    }
    return fmt::format("{}", fmt::join(kids, l.negated() ? " or " : " and "));
  };

  // What the instances force, one at a time, in order: a cell an instance
  // needs outright, or once the cells before it are set (unit propagation).
  // A cell of a strict total order on transactions sets its reverse too.
  std::map<std::pair<std::size_t, Index>, std::uint32_t> input_of_cell;
  for (const auto& [input, cell] : cell_of_input) input_of_cell[cell] = input;
  std::unordered_map<std::uint32_t, bool> assigned;  // input number -> value
  std::map<std::size_t, std::vector<std::pair<Atom, Atom>>> forced;  // edges of orders on Txn
  auto assign = [&](BLit l) {
    const auto* cell = cell_of(l);
    assigned[c.gate(l.node()).input] = !l.negated();
    const auto& decl = fw.witness[cell->first];
    if (!decl.order || decl.rel->type != Type{model::kTxn, model::kTxn}) return;
    auto t = tuple_of(*cell);
    if (t[0] == t[1]) return;
    if (auto it = input_of_cell.find({cell->first, tuple_index(u.size(), {t[1], t[0]})}); it != input_of_cell.end())
      assigned[it->second] = l.negated();
    if (l.negated()) std::swap(t[0], t[1]);  // not (a, b) in a total order: (b, a)
    forced[cell->first].emplace_back(t[0], t[1]);
  };
  // A strict order is irreflexive.
  for (std::size_t w = 0; w < fw.witness.size(); ++w)
    if (fw.witness[w].order && fw.witness[w].rel->type == Type{model::kTxn, model::kTxn})
      for (Atom a = u.first(model::kTxn); a < u.first(model::kTxn) + u.count(model::kTxn); ++a)
        if (auto it = input_of_cell.find({w, tuple_index(u.size(), {a, a})}); it != input_of_cell.end())
          assigned[it->second] = false;
  // `l` with the assigned cells replaced by constants.
  std::unordered_map<std::uint32_t, BLit> memo;
  std::function<BLit(BLit)> simplify = [&](BLit l) -> BLit {
    const std::uint32_t node = l.node();
    BLit v;
    if (auto it = memo.find(node); it != memo.end()) {
      v = it->second;
    } else {
      const auto& g = c.gate(node);
      v = BLit{node << 1};
      if (g.kind == Circuit::Kind::Input) {
        if (auto a = assigned.find(g.input); a != assigned.end()) v = a->second ? kTrue : kFalse;
      } else if (g.kind == Circuit::Kind::And) {
        const std::vector<BLit> kids(c.kids(node).begin(), c.kids(node).end());
        std::vector<BLit> simple;
        for (BLit k : kids) simple.push_back(simplify(k));
        v = c.and_(simple);
      }
      memo[node] = v;
    }
    return l.negated() ? !v : v;
  };

  FailingInstances out;
  for (std::size_t i : core) {
    Part& p = parts[i];
    int budget = 12;
    p.info.needs = text(p.lit, budget);
    memo.clear();
    const BLit given = simplify(p.lit);
    if (given != p.lit) {
      budget = 12;
      p.info.given = given == kFalse ? "nothing: the lines above contradict it" : text(given, budget);
    }
    if (cell_of(given)) assign(given);
    out.instances.push_back(std::move(p.info));
  }
  // Each acyclicity instance's relation with the forced cells set: a cycle
  // of edges true whatever the other cells are.
  memo.clear();
  for (std::size_t j = 0; j < core.size(); ++j) {
    const Part& p = parts[core[j]];
    if (p.graph.arity != 2 || p.graph.cells.empty()) continue;
    std::vector<std::pair<Atom, Atom>> edges;
    for (const auto& [idx, lit] : p.graph.cells) {
      if (simplify(lit) != kTrue) continue;
      const auto t = index_tuple(u.size(), 2, idx);
      if (u.in_sort(t[0], model::kTxn) && u.in_sort(t[1], model::kTxn)) edges.emplace_back(t[0], t[1]);
    }
    for (Atom a : find_cycle(edges))
      out.instances[j].cycle.push_back(enc.inst.txn_of_atom[a - u.first(model::kTxn)]);
  }
  for (const auto& [w, edges] : forced) {
    const std::vector<Atom> cycle = find_cycle(edges);
    if (cycle.empty()) continue;
    out.order = fw.witness[w].name;
    for (Atom a : cycle) out.cycle.push_back(enc.inst.txn_of_atom[a - u.first(model::kTxn)]);
    break;
  }
  return out;
}

}  // namespace iso
