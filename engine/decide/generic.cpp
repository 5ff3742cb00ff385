// The generic oracle of generic.hpp: the level's constraint over the
// history's constants, one SAT instance, a model read back as a witness.
#include "engine/decide/generic.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "engine/logic/cnf.hpp"
#include "engine/logic/translator.hpp"
#include "engine/model/concrete.hpp"
#include "engine/model/schema.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/sat/solver.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/timing.hpp"

namespace iso {

namespace generic {

using namespace logic;

namespace {

std::string witness_names(const Framework& fw) {
  std::string s;
  for (std::size_t i = 0; i < fw.witness.size(); ++i)
    s += (i ? (i + 1 == fw.witness.size() ? " and " : ", ") : "") + fw.witness[i].name;
  return s;
}

// The atom of id `id` of sort `sort` in the instance, or nullopt when it is
// not in the universe (a transaction that is not a member).
std::optional<Atom> atom_of(const model::ConcreteInstance& inst, SortId sort, std::uint32_t id) {
  const Universe& u = inst.universe;
  if (sort == model::kTxn) {
    if (id >= inst.atom_of_txn.size() || inst.atom_of_txn[id] == UINT32_MAX) return std::nullopt;
    return inst.atom_of_txn[id];
  }
  if (id >= u.count(sort)) return std::nullopt;
  return u.atom(sort, id);
}

// The id (TxnId, KeyId, ValueId) of an atom of the given sort.
std::uint32_t id_of(const model::ConcreteInstance& inst, SortId sort, Atom a) {
  const Universe& u = inst.universe;
  if (sort == model::kTxn) return inst.txn_of_atom[a - u.first(model::kTxn)];
  return a - u.first(sort);
}

// The tuples a witness relation of type `type` can hold on the universe `u`
// (the product of its columns' sorts), saturating at UINT64_MAX.
std::uint64_t possible_tuples(const Universe& u, const Type& type) {
  std::uint64_t n = 1;
  for (SortId s : type) {
    const std::uint64_t count = s == kAnySort ? u.size() : u.count(s);
    if (count != 0 && n > UINT64_MAX / count) return UINT64_MAX;
    n *= count;
  }
  return n;
}

}  // namespace

AbstractOptions abstract_options(const Level& level) {
  AbstractOptions o;
  o.set_aside_aborted_reads = level.permits.aborted_reads;
  o.set_aside_intermediate_reads = level.permits.intermediate_reads;
  o.predicate_reads = true;  // read events of the keys each predicate read covers
  return o;
}

Encoding::Encoding(const AbstractHistory& h, const Level& level, const PinnedRelations& pinned)
    : inst(model::concrete_instance(h, circuit)) {
  const Universe& u = inst.universe;
  const std::uint32_t n = u.size();
  // Every tuple a free witness relation can hold is a circuit input and a
  // SAT variable, built before anything else: a relation of high arity
  // (Txn^5 on 40 transactions: 115 million tuples) is refused here rather
  // than left to fill the memory, whatever --timeout says.
  for (const auto& w : level.framework->witness) {
    const bool is_pinned = std::any_of(pinned.begin(), pinned.end(),
                                       [&](const auto& p) { return p.first == w.name; });
    const std::uint64_t tuples = possible_tuples(u, w.rel->type);
    if (!is_pinned && tuples > kMaxWitnessTuples)
      throw DecideRefused(fmt::format(
          "{}: the witness relation {} ({}) of framework {} has {} possible tuples on this "
          "history, more than the {} the generic oracle builds",
          level.name, w.name, logic::type_name(w.rel->type), level.framework->name, tuples,
          kMaxWitnessTuples));
  }
  for (const auto& w : level.framework->witness) {
    const auto arity = static_cast<std::uint32_t>(w.rel->type.size());
    auto pin = std::find_if(pinned.begin(), pinned.end(),
                            [&](const auto& p) { return p.first == w.name; });
    if (pin != pinned.end()) {
      std::vector<std::vector<Atom>> tuples;
      for (const auto& tuple : pin->second) {
        if (tuple.size() != arity) continue;
        std::vector<Atom> atoms;
        for (std::size_t c = 0; c < arity; ++c)
          if (auto a = atom_of(inst, w.rel->type[c], tuple[c])) atoms.push_back(*a);
        if (atoms.size() == arity) tuples.push_back(std::move(atoms));
      }
      witness.push_back(constant_matrix(n, arity, tuples));
    } else {
      witness.push_back(variable_matrix(circuit, n, arity, {}, model::all_tuples(u, w.rel->type)));
    }
    inst.bindings.bind(w.rel, witness.back());
  }
}

namespace {

// The witness a satisfying model of `enc` (its inputs' values `inputs`)
// gives: every witness relation's tuples, as ids of the history, and the
// read-from of each read with several candidate writers.
Witness decode_witness(const AbstractHistory& h, const Level& level, const Encoding& enc,
                       const std::vector<bool>& inputs) {
  const Circuit& circuit = enc.circuit;
  const model::ConcreteInstance& inst = enc.inst;
  const std::vector<BoolMatrix>& witness_matrices = enc.witness;
  const Universe& u = inst.universe;
  const std::uint32_t n = u.size();
  const auto& rf = *inst.bindings.find(*model::history_schema().rf);
  const Atom first_read = u.first(model::kRead);
  Witness w;
  for (std::size_t i = 0; i < level.framework->witness.size(); ++i) {
    const auto& decl = level.framework->witness[i];
    WitnessRelation rel{decl.name, decl.rel->type, decl.order, WitnessRelation::Form::Tuples, {}, {}, {}};
    const std::size_t arity = decl.rel->type.size();
    for (const auto& [idx, lit] : witness_matrices[i].cells) {
      budget::poll();
      if (!circuit.eval(lit, inputs)) continue;
      std::vector<std::uint32_t> tuple(arity);
      Index rest = idx;
      for (std::size_t c = arity; c-- > 0;) {
        const auto a = static_cast<Atom>(rest % n);
        rest /= n;
        if (!u.in_sort(a, decl.rel->type[c])) {
          tuple.clear();
          break;
        }
        tuple[c] = id_of(inst, decl.rel->type[c], a);
      }
      if (!tuple.empty()) rel.tuples.push_back(std::move(tuple));
    }
    std::sort(rel.tuples.begin(), rel.tuples.end());
    if (decl.order && decl.order_sort == model::kTxn) rel.sequence = order_sequence(rel.tuples, h.txns);
    w.relations.push_back(std::move(rel));
  }
  // Read-from choices for reads with several candidates.
  for (std::uint32_t i = 0; i < inst.read_of_atom.size(); ++i) {
    const auto [t, j] = inst.read_of_atom[i];
    if (h.candidates[t][j].size() < 2) continue;
    const ExternalRead& read = h.abs[t].reads[j];
    for (TxnId cand : h.candidates[t][j])
      if (circuit.eval(rf.at(tuple_index(n, {inst.atom_of_txn[cand], first_read + i})), inputs))
        w.chosen_reads.push_back({cand, t, read.op, read.key});
  }
  return w;
}

}  // namespace

Result check_members(const AbstractHistory& h, const Level& level, const PinnedRelations& pinned,
                     const std::vector<poly::ChosenRead>& fixed_reads) {
  Result result;
  if (!h.int_violations.empty()) {
    result.verdict = Verdict::Violated;
    result.anomaly = poly::int_anomaly(h.int_violations.front());
    return result;
  }
  if (!h.unjustified_reads.empty()) {
    result.verdict = Verdict::Violated;
    result.anomaly = poly::read_anomaly(h.unjustified_reads.front());
    return result;
  }

  for (const UnjustifiedRead& u : h.set_aside)
    result.notes.push_back(fmt::format(
        "{}: {} permits it; it carries no dependency (only committed final versions are read "
        "from), so it is set aside",
        u.message, level.name));

  auto t0 = Clock::now();
  Encoding enc(h, level, pinned);
  Circuit& circuit = enc.circuit;
  model::ConcreteInstance& inst = enc.inst;
  const std::vector<BoolMatrix>& witness_matrices = enc.witness;
  const Universe& u = inst.universe;
  const std::uint32_t n = u.size();
  Translator tr(u, circuit, inst.bindings);
  BLit goal = circuit.and_(inst.wellformed, tr.formula(level.constraint()));
  // Forced read-from choices.
  const auto& rf = *inst.bindings.find(*model::history_schema().rf);
  const Atom first_read = u.first(model::kRead);
  // The read event of (reader, op, key): a predicate read has one per key.
  auto read_atom = [&](TxnId reader, std::uint32_t op, KeyId key) -> std::optional<Atom> {
    for (std::uint32_t i = 0; i < inst.read_of_atom.size(); ++i) {
      const auto [t, j] = inst.read_of_atom[i];
      if (t == reader && h.abs[t].reads[j].op == op && h.abs[t].reads[j].key == key) return first_read + i;
    }
    return std::nullopt;
  };
  for (const poly::ChosenRead& fixed : fixed_reads) {
    auto aw = atom_of(inst, model::kTxn, fixed.writer);
    auto ar = read_atom(fixed.reader, fixed.op, fixed.key);
    if (!aw || !ar) {
      goal = kFalse;
      break;
    }
    goal = circuit.and_(goal, rf.at(tuple_index(n, {*aw, *ar})));
  }
  result.stats.translate_seconds = seconds_since(t0);
  result.stats.gates = circuit.num_gates();

  auto no_witness = [&] {
    result.verdict = Verdict::Violated;
    result.reason = fmt::format("no {} satisfies {} and the {} axioms",
                                witness_names(*level.framework), level.name,
                                level.framework->name);
    return result;
  };
  // Constant folding alone may refute the level. (A true goal still needs a
  // model for the witness: the solver answers it at once.)
  if (goal == kFalse) return no_witness();
  sat::Solver solver;
  CnfEncoder cnf(circuit, solver);
  cnf.assert_true(goal);
  // Every witness cell gets a solver variable, so the model is total.
  for (const auto& m : witness_matrices)
    for (const auto& cell : m.cells) {
      budget::poll();
      cnf.literal(cell.second);
    }
  auto t1 = Clock::now();
  sat::Result r = solver.solve();
  result.stats.solve_seconds = seconds_since(t1);
  result.stats.sat_vars = solver.stats().vars;
  result.stats.sat_clauses = solver.stats().clauses;
  result.stats.solver_calls = 1;
  if (r == sat::Result::Unknown) {
    result.reason = "the solver gave no answer";
    return result;
  }
  if (r == sat::Result::Unsat) return no_witness();

  result.verdict = Verdict::Allowed;
  result.witness = decode_witness(h, level, enc, cnf.input_values());
  return result;
}

Result check(const History& h, const Level& level, std::uint32_t max_unknown,
             const PinnedRelations& pinned) {
  std::vector<TxnId> unknown;
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (h.txn(t).status == TxnStatus::Unknown) unknown.push_back(t);
  if (unknown.size() > max_unknown)
    throw DecideRefused(fmt::format(
        "{} transactions have unknown status; the generic oracle tries every subset and handles "
        "at most {}",
        unknown.size(), max_unknown));
  // A transaction of unknown status may or may not have committed: the level
  // allows the history if it allows some choice. Fewer commits first.
  std::vector<std::uint32_t> masks(std::size_t{1} << unknown.size());
  for (std::uint32_t m = 0; m < masks.size(); ++m) masks[m] = m;
  std::stable_sort(masks.begin(), masks.end(), [](std::uint32_t a, std::uint32_t b) {
    return __builtin_popcount(a) < __builtin_popcount(b);
  });
  Result first;
  bool have_first = false;
  GenericStats total;
  for (std::uint32_t mask : masks) {
    std::vector<bool> member = committed_members(h);
    for (std::size_t i = 0; i < unknown.size(); ++i)
      if (mask & (1u << i)) member[unknown[i]] = true;
    Result r = check_members(abstract_history(h, member, abstract_options(level)), level, pinned);
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
    if (!have_first) {
      first = std::move(r);
      have_first = true;
    }
  }
  if (!unknown.empty() && first.verdict == Verdict::Violated)
    first.reason += fmt::format("{}for every choice of which of the {} unknown-status "
                                "transactions committed",
                                first.reason.empty() ? "" : " ", unknown.size());
  first.stats = total;
  return first;
}

}  // namespace generic
}  // namespace iso
