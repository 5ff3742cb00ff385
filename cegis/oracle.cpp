#include "cegis/oracle.hpp"
#include "engine/util/timing.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "engine/logic/cnf.hpp"
#include "engine/logic/translator.hpp"
#include "engine/model/concrete.hpp"
#include "engine/model/schema.hpp"
#include "engine/sat/solver.hpp"

namespace iso::cegis {

using namespace logic;

namespace {

std::string witness_names(const lua::Framework& fw) {
  std::string s;
  for (std::size_t i = 0; i < fw.witness.size(); ++i)
    s += (i ? (i + 1 == fw.witness.size() ? " and " : ", ") : "") + fw.witness[i].name;
  return s;
}

}  // namespace

std::vector<TxnId> order_sequence(const std::vector<std::pair<TxnId, TxnId>>& pairs,
                                  const std::vector<TxnId>& txns) {
  // A strict total order: sort by the number of predecessors.
  std::vector<std::pair<std::size_t, TxnId>> rank;
  for (TxnId t : txns) {
    std::size_t preds = 0;
    for (const auto& p : pairs) preds += (p.second == t);
    rank.emplace_back(preds, t);
  }
  std::sort(rank.begin(), rank.end());
  std::vector<TxnId> seq;
  for (const auto& r : rank) seq.push_back(r.second);
  return seq;
}

CheckResult check_members(const AbstractHistory& h, const lua::Level& level,
                          const CheckOptions& opt, const FixedRelations& fixed) {
  CheckResult result;
  if (h.has_predicate_reads)
    throw OracleError("predicate reads are not supported by the generic oracle");
  if (!h.int_violations.empty()) {
    result.verdict = Verdict::Denied;
    result.reason = "internal consistency (INT) violated: " + h.int_violations.front().message;
    return result;
  }
  if (!h.unjustified_reads.empty()) {
    result.verdict = Verdict::Denied;
    result.reason = h.unjustified_reads.front().message;
    return result;
  }

  auto t0 = Clock::now();
  Circuit circuit;
  model::ConcreteInstance inst = model::concrete_instance(h, circuit);
  const Universe& u = inst.universe;
  std::vector<BoolMatrix> witness_matrices;
  for (const auto& w : level.framework->witness) {
    const auto arity = static_cast<std::uint32_t>(w.rel->type.size());
    auto pinned = std::find_if(fixed.begin(), fixed.end(), [&](const auto& f) { return f.first == w.name; });
    if (pinned != fixed.end()) {
      std::vector<std::vector<Atom>> tuples;
      for (const auto& [a, b] : pinned->second) tuples.push_back({inst.atom_of_txn[a], inst.atom_of_txn[b]});
      witness_matrices.push_back(constant_matrix(u.size(), arity, tuples));
    } else {
      witness_matrices.push_back(
          variable_matrix(circuit, u.size(), arity, {}, model::all_tuples(u, w.rel->type)));
    }
    inst.bindings.bind(w.rel, witness_matrices.back());
  }
  Translator tr(u, circuit, inst.bindings);
  BLit goal = circuit.and_(inst.wellformed, tr.formula(level.constraint()));
  result.stats.translate_seconds = seconds_since(t0);
  result.stats.gates = circuit.num_gates();

  auto no_witness = [&] {
    result.verdict = Verdict::Denied;
    result.reason = fmt::format("no {} satisfies {} and the {} axioms",
                                witness_names(*level.framework), level.name, level.framework->name);
    return result;
  };
  // Constant folding alone may refute the level. (A true goal still needs a
  // model for the witness: the solver answers it at once.)
  if (goal == kFalse) return no_witness();
  sat::Solver solver;
  if (opt.timeout_seconds > 0) solver.set_max_seconds(opt.timeout_seconds);
  CnfEncoder cnf(circuit, solver);
  cnf.assert_true(goal);
  // Make sure every witness cell has a solver variable, so the model is total.
  for (const auto& m : witness_matrices)
    for (const auto& cell : m.cells) cnf.literal(cell.second);
  auto t1 = Clock::now();
  sat::Result r = solver.solve();
  result.stats.solve_seconds = seconds_since(t1);
  result.stats.sat_vars = solver.stats().vars;
  result.stats.sat_clauses = solver.stats().clauses;
  result.stats.solver_calls = 1;

  if (r == sat::Result::Unknown) {
    result.verdict = Verdict::Unknown;
    result.reason = "the solver ran out of time";
    return result;
  }
  if (r == sat::Result::Unsat) return no_witness();

  result.verdict = Verdict::Allowed;
  Witness w;
  const std::vector<bool> inputs = cnf.input_values();
  const std::uint32_t n = u.size();
  for (std::size_t i = 0; i < level.framework->witness.size(); ++i) {
    const auto& decl = level.framework->witness[i];
    WitnessRelation rel{decl.name, decl.order, {}, {}};
    if (decl.rel->type.size() == 2) {
      for (const auto& [idx, lit] : witness_matrices[i].cells) {
        if (!circuit.eval(lit, inputs)) continue;
        Atom a = static_cast<Atom>(idx / n), b = static_cast<Atom>(idx % n);
        if (u.in_sort(a, model::kTxn) && u.in_sort(b, model::kTxn))
          rel.pairs.emplace_back(inst.txn_of_atom[a - u.first(model::kTxn)],
                                 inst.txn_of_atom[b - u.first(model::kTxn)]);
      }
    }
    if (decl.order) rel.sequence = order_sequence(rel.pairs, h.txns);
    w.relations.push_back(std::move(rel));
  }
  // Read-from choices for reads with several candidates.
  const auto& wrx = *inst.bindings.find(*model::history_schema().wrx);
  for (TxnId t : h.txns) {
    const auto& rs = h.abs[t].reads;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      if (h.candidates[t][i].size() < 2) continue;
      for (TxnId cand : h.candidates[t][i]) {
        Index idx = tuple_index(n, {inst.atom_of_txn[cand], u.atom(model::kObj, rs[i].key),
                                    inst.atom_of_txn[t]});
        if (circuit.eval(wrx.at(idx), inputs)) w.chosen_reads.emplace_back(cand, rs[i].key, t);
      }
    }
  }
  result.witness = std::move(w);
  return result;
}

CheckResult check(const History& h, const lua::Level& level, const CheckOptions& opt) {
  std::vector<TxnId> unknown;
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (h.txn(t).status == TxnStatus::Unknown) unknown.push_back(t);
  if (unknown.size() > opt.max_unknown_transactions)
    throw OracleError(fmt::format(
        "{} transactions have unknown status; the generic oracle tries every subset and handles "
        "at most {}",
        unknown.size(), opt.max_unknown_transactions));
  // A transaction of unknown status may or may not have committed: the level
  // allows the history if it allows some choice. Fewer commits first.
  std::vector<std::uint32_t> masks(std::size_t{1} << unknown.size());
  for (std::uint32_t m = 0; m < masks.size(); ++m) masks[m] = m;
  std::stable_sort(masks.begin(), masks.end(), [](std::uint32_t a, std::uint32_t b) {
    return __builtin_popcount(a) < __builtin_popcount(b);
  });
  CheckResult first;
  bool have_first = false, unknown_verdict = false;
  CheckStats total;
  for (std::uint32_t mask : masks) {
    std::vector<bool> member = committed_members(h);
    for (std::size_t i = 0; i < unknown.size(); ++i)
      if (mask & (1u << i)) member[unknown[i]] = true;
    CheckResult r = check_members(abstract_history(h, member), level, opt);
    total.translate_seconds += r.stats.translate_seconds;
    total.solve_seconds += r.stats.solve_seconds;
    total.gates += r.stats.gates;
    total.sat_vars += r.stats.sat_vars;
    total.sat_clauses += r.stats.sat_clauses;
    total.solver_calls += r.stats.solver_calls;
    if (r.verdict == Verdict::Allowed) {
      for (std::size_t i = 0; i < unknown.size(); ++i)
        if (mask & (1u << i)) r.witness->committed_unknown.push_back(unknown[i]);
      r.stats = total;
      return r;
    }
    if (r.verdict == Verdict::Unknown) unknown_verdict = true;
    if (!have_first) {
      first = std::move(r);
      have_first = true;
    }
  }
  if (unknown_verdict) {
    first.verdict = Verdict::Unknown;
    first.reason = "the solver ran out of time";
  } else if (!unknown.empty()) {
    first.reason += fmt::format(" (for every choice of which of the {} unknown-status "
                                "transactions committed)", unknown.size());
  }
  first.stats = total;
  return first;
}

}  // namespace iso::cegis
