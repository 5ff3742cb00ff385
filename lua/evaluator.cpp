// The spec language's evaluator (lua/evaluator.hpp): parsing an `--eval`
// expression in the sandbox (SpecLibrary::expression) and evaluating it on
// a history's concrete instance with a witness's relations as constants.
#include "lua/evaluator.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/decide/generic.hpp"
#include "engine/logic/cnf.hpp"
#include "engine/model/concrete.hpp"
#include "engine/model/schema.hpp"
#include "engine/sat/solver.hpp"
#include "lua/embedded_specs.hpp"
#include "lua/api.hpp"
#include "lua/boxes.hpp"
#include "lua/sandbox.hpp"
#include "lua/spec_function.hpp"

namespace iso::lua {

using namespace logic;

namespace {

// The metatable of `e` when no level gives a witness: reading it says so.
constexpr const char* kNoWitnessMeta = "isosynth.no_witness";
int no_witness_index(lua_State* L) {
  const char* key = lua_tostring(L, 2);
  return luaL_error(L, "e.%s: e is the witness of a level, and no level gives one here (check --level, "
                    "synth --allow)", key ? escape_text(key).c_str() : "?");
}

// Called with the chunk `return function(h, e) return (EXPR) end`: runs it,
// and the function it returns on h and e, keeping what that returned.
// stack: chunk -> (empty)
int eval_call(lua_State* L) {
  sandbox::State& s = sandbox::state(L);
  lua_call(L, 0, 1);  // stack: fn
  if (s.eval_framework) {
    lua_getfield(L, LUA_REGISTRYINDEX, api::witness_key(s.eval_framework->name).c_str());  // stack: fn e
  } else {
    lua_newtable(L);  // stack: fn e
    if (luaL_getmetatable(L, kNoWitnessMeta) == LUA_TNIL) {  // stack: fn e mt|nil
      lua_pop(L, 1);  // stack: fn e
      const luaL_Reg metamethods[] = {{"__index", sandbox::guarded<no_witness_index>}, {nullptr, nullptr}};
      api::new_protected_metatable(L, kNoWitnessMeta, metamethods);
      luaL_getmetatable(L, kNoWitnessMeta);  // stack: fn e mt
    }
    lua_setmetatable(L, -2);  // stack: fn e
  }
  const api::SpecValue v = api::eval_spec_value(L, 1, 2, "the expression", "expression");
  s.eval_expr = v.expr;
  s.eval_formula = v.formula;
  lua_settop(L, 0);
  return 0;
}

// The atom of id `id` of sort `sort` in the instance, if it is in it.
std::optional<Atom> atom_of(const model::ConcreteInstance& inst, SortId sort, std::uint32_t id) {
  if (sort == model::kTxn) {
    if (id >= inst.atom_of_txn.size() || inst.atom_of_txn[id] == UINT32_MAX) return std::nullopt;
    return inst.atom_of_txn[id];
  }
  if (id >= inst.universe.count(sort)) return std::nullopt;
  return inst.universe.atom(sort, id);
}

// Binds each witness relation of `fw` in `inst` to w's tuples.
void bind_witness(model::ConcreteInstance& inst, const Framework& fw, const Witness& w) {
  const std::uint32_t n = inst.universe.size();
  for (const auto& decl : fw.witness) {
    const auto arity = static_cast<std::uint32_t>(decl.rel->type.size());
    std::vector<std::vector<Atom>> tuples;
    for (const WitnessRelation& r : w.relations) {
      if (r.name != decl.name) continue;
      for (const auto& tuple : tuples_of(w, r)) {
        std::vector<Atom> atoms;
        for (std::uint32_t c = 0; c < arity && c < tuple.size(); ++c)
          if (auto a = atom_of(inst, decl.rel->type[c], tuple[c])) atoms.push_back(*a);
        if (atoms.size() == arity) tuples.push_back(std::move(atoms));
      }
    }
    inst.bindings.bind(decl.rel, constant_matrix(n, arity, tuples));
  }
}

// The read-from choices of `w` as a conjunction over inst's rf.
BLit witness_reads(Circuit& c, const AbstractHistory& a, const model::ConcreteInstance& inst, const Witness* w) {
  if (!w) return kTrue;
  const Universe& u = inst.universe;
  const BoolMatrix& rf = *inst.bindings.find(*model::history_schema().rf);
  std::vector<BLit> fixed;
  for (const poly::ChosenRead& chosen : w->chosen_reads)
    for (std::uint32_t i = 0; i < inst.read_of_atom.size(); ++i) {
      const auto [t, j] = inst.read_of_atom[i];
      const ExternalRead& r = a.abs[t].reads[j];
      const auto writer = atom_of(inst, model::kTxn, chosen.writer);
      if (t == chosen.reader && r.op == chosen.op && r.key == chosen.key && writer)
        fixed.push_back(rf.at(tuple_index(u.size(), {*writer, u.first(model::kRead) + i})));
    }
  return c.and_(fixed);
}

}  // namespace

SpecLibrary::Expression SpecLibrary::expression(std::string_view text, const Framework* framework) const {
  load_standard(embedded_specs().size());  // the expression may name any level
  State& s = *state_;
  s.eval_framework = framework;
  s.eval_expr = nullptr;
  s.eval_formula = nullptr;
  // On one line, so that errors say "--eval:1:".
  run_chunk(fmt::format("return function(h, e) return ({}) end", text), "--eval", sandbox::guarded<eval_call>);
  Expression x{std::string(text), s.eval_expr, s.eval_formula, framework};
  s.eval_expr = nullptr;
  s.eval_formula = nullptr;
  return x;
}

EvalValue evaluate(const SpecLibrary::Expression& x, const History& h, const Level* level, const Witness* w) {
  AbstractOptions options;
  options.predicate_reads = true;
  if (level) options = generic::abstract_options(*level);
  std::vector<bool> member = committed_members(h);
  if (w)
    for (TxnId t : w->committed_unknown) member[t] = true;
  const AbstractHistory a = abstract_history(h, member, options);
  if (!a.int_violations.empty() || !a.unjustified_reads.empty())
    throw std::invalid_argument(
        "--eval: the history has an INT violation or a read no write explains, so no execution to evaluate on");
  Circuit c;
  model::ConcreteInstance inst = model::concrete_instance(a, c);
  if (x.framework && level && w) bind_witness(inst, *x.framework, *w);
  Translator tr(inst.universe, c, inst.bindings);
  BoolMatrix m;
  m.arity = 0;
  if (x.formula) m.cells.push_back({0, tr.formula(x.formula)});
  else m = tr.expr(x.expr);
  EvalValue out;
  out.is_formula = x.formula != nullptr;
  std::vector<bool> inputs;
  const bool constant = std::all_of(m.cells.begin(), m.cells.end(),
                                    [](const auto& cell) { return cell.second == kTrue || cell.second == kFalse; });
  if (!constant) {
    // Read-from is a choice (values repeat): the witness's, then any legal.
    sat::Solver solver;
    CnfEncoder cnf(c, solver);
    cnf.assert_true(c.and_(inst.wellformed, witness_reads(c, a, inst, w)));
    for (const auto& cell : m.cells) cnf.literal(cell.second);
    if (solver.solve() != sat::Result::Sat)
      throw std::invalid_argument("--eval: the witness's read-from choices are not legal on this history");
    inputs = cnf.input_values();
    // Does another legal choice give another value?
    for (const auto& cell : m.cells) {
      if (cell.second == kTrue || cell.second == kFalse) continue;
      const sat::Lit l = cnf.literal(cell.second);
      const sat::Lit other = c.eval(cell.second, inputs) ? ~l : l;
      if (solver.solve(std::span<const sat::Lit>(&other, 1)) == sat::Result::Sat) {
        out.read_from_chosen = true;
        break;
      }
    }
  }
  const std::uint32_t n = inst.universe.size();
  for (const auto& [idx, lit] : m.cells) {
    if (!(lit == kTrue || (lit != kFalse && c.eval(lit, inputs)))) continue;
    if (out.is_formula) {
      out.truth = true;
      continue;
    }
    std::vector<std::string> names;
    for (Atom at : index_tuple(n, m.arity, idx)) names.push_back(inst.universe.name(at));
    out.tuples.push_back(std::move(names));
  }
  return out;
}

std::string EvalValue::text() const {
  if (is_formula) return truth ? "true" : "false";
  std::vector<std::string> ts;
  for (const auto& t : tuples) ts.push_back(fmt::format("{}", fmt::join(t, "->")));
  return fmt::format("{{{}}}", fmt::join(ts, ", "));
}

}  // namespace iso::lua
