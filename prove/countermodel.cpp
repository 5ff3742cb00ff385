// The reader of countermodel.hpp: cvc5's model as s-expressions, each
// predicate evaluated on every tuple of atoms, then the history.
#include "prove/countermodel.hpp"

#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "engine/model/schema.hpp"
#include "prove/smt_problem.hpp"

namespace iso::prove {

namespace {

struct Sexp {
  std::string atom;  // empty for a list
  std::vector<Sexp> kids;
};

// The s-expressions of `text`, without its comments; the cardinality
// comment ("; cardinality of U is 5") read into `atoms`.
class Reader {
 public:
  explicit Reader(const std::string& text) : text_(text) {}
  std::vector<Sexp> all() {
    std::vector<Sexp> out;
    skip();
    while (at_ < text_.size()) {
      out.push_back(next());
      skip();
    }
    return out;
  }
  std::size_t atoms = 0;

 private:
  void skip() {
    while (at_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[at_]))) {
        ++at_;
      } else if (text_[at_] == ';') {
        const std::size_t end = std::min(text_.find('\n', at_), text_.size());
        const std::string line = text_.substr(at_, end - at_);
        const std::string mark = "cardinality of U is ";
        if (const auto k = line.find(mark); k != std::string::npos)
          atoms = std::stoul(line.substr(k + mark.size()));
        at_ = end;
      } else {
        return;
      }
    }
  }
  Sexp next() {
    if (++depth_ > 10000) throw std::runtime_error("the model nests too deeply");
    Sexp e;
    if (text_[at_] == '(') {
      ++at_;
      skip();
      while (at_ < text_.size() && text_[at_] != ')') {
        e.kids.push_back(next());
        skip();
      }
      if (at_ >= text_.size()) throw std::runtime_error("the model ends inside a list");
      ++at_;
    } else if (text_[at_] == ')') {
      throw std::runtime_error("the model has an unmatched ')'");
    } else {
      const std::size_t from = at_;
      while (at_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[at_])) && text_[at_] != '(' &&
             text_[at_] != ')')
        ++at_;
      e.atom = text_.substr(from, at_ - from);
    }
    --depth_;
    return e;
  }
  const std::string& text_;
  std::size_t at_ = 0;
  int depth_ = 0;
};

// The model's predicates, evaluated on atoms 0 .. atoms-1.
class Interpretation {
 public:
  Interpretation(const std::vector<Sexp>& model, std::size_t atoms) : atoms_(atoms) {
    for (const Sexp& d : model) {
      if (d.kids.size() != 5 || d.kids[0].atom != "define-fun") continue;
      Predicate p;
      for (const Sexp& arg : d.kids[2].kids)
        if (!arg.kids.empty()) p.args.push_back(arg.kids[0].atom);
      p.body = &d.kids[4];
      preds_[d.kids[1].atom] = std::move(p);
    }
  }
  std::size_t atoms() const { return atoms_; }
  // Does the predicate `name` hold of `tuple`? A predicate the model leaves
  // out holds of nothing.
  bool holds(const std::string& name, const std::vector<std::size_t>& tuple) const {
    const auto it = preds_.find(name);
    if (it == preds_.end()) return false;
    if (it->second.args.size() != tuple.size())
      throw std::runtime_error(fmt::format("{} has {} arguments in the model", name, it->second.args.size()));
    std::map<std::string, std::size_t> env;
    for (std::size_t i = 0; i < tuple.size(); ++i) env[it->second.args[i]] = tuple[i];
    return truth(*it->second.body, env);
  }

 private:
  struct Predicate {
    std::vector<std::string> args;
    const Sexp* body = nullptr;
  };
  std::size_t atom(const Sexp& e, const std::map<std::string, std::size_t>& env) const {
    if (!e.atom.empty()) {
      if (auto it = env.find(e.atom); it != env.end()) return it->second;
    } else if (e.kids.size() == 3 && e.kids[0].atom == "as") {
      const std::string& name = e.kids[1].atom;  // "@U_3"
      const auto k = name.find_last_of('_');
      if (k != std::string::npos && k + 1 < name.size() &&
          std::isdigit(static_cast<unsigned char>(name[k + 1]))) {
        const std::size_t i = std::stoul(name.substr(k + 1));
        if (i < atoms_) return i;
      }
    }
    throw std::runtime_error("the model names an atom it does not declare");
  }
  bool truth(const Sexp& e, const std::map<std::string, std::size_t>& env) const {
    if (e.atom == "true") return true;
    if (e.atom == "false") return false;
    if (e.kids.empty()) throw std::runtime_error(fmt::format("the model uses '{}' as a formula", e.atom));
    const std::string& op = e.kids[0].atom;
    const std::size_t n = e.kids.size();
    if (op == "and" || op == "or") {
      for (std::size_t i = 1; i < n; ++i)
        if (truth(e.kids[i], env) == (op == "or")) return op == "or";
      return op == "and";
    }
    if (op == "not" && n == 2) return !truth(e.kids[1], env);
    if (op == "=>" && n == 3) return !truth(e.kids[1], env) || truth(e.kids[2], env);
    if (op == "ite" && n == 4) return truth(e.kids[1], env) ? truth(e.kids[2], env) : truth(e.kids[3], env);
    if ((op == "=" || op == "distinct") && n == 3) return (atom(e.kids[1], env) == atom(e.kids[2], env)) == (op == "=");
    if (auto it = preds_.find(op); it != preds_.end()) {
      std::vector<std::size_t> tuple;
      for (std::size_t i = 1; i < n; ++i) tuple.push_back(atom(e.kids[i], env));
      return holds(op, tuple);
    }
    throw std::runtime_error(fmt::format("the model uses '{}', which this reader does not know", op));
  }
  std::size_t atoms_;
  std::map<std::string, Predicate> preds_;
};

// The atoms of which the unary predicate `name` holds.
std::vector<std::size_t> atoms_of(const Interpretation& m, const std::string& name) {
  std::vector<std::size_t> out;
  for (std::size_t a = 0; a < m.atoms(); ++a)
    if (m.holds(name, {a})) out.push_back(a);
  return out;
}

bool any_triple(const Interpretation& m, const logic::Relation& r) {
  const std::string name = relation_symbol(r);
  for (std::size_t a = 0; a < m.atoms(); ++a)
    for (std::size_t b = 0; b < m.atoms(); ++b)
      for (std::size_t c = 0; c < m.atoms(); ++c)
        if (m.holds(name, {a, b, c})) return true;
  return false;
}

// Does the ternary relation r (reads, writes) hold of (t, x, some value)?
bool of_some_value(const Interpretation& m, const logic::Relation& r, std::size_t t, std::size_t x) {
  const std::string name = relation_symbol(r);
  for (std::size_t v = 0; v < m.atoms(); ++v)
    if (m.holds(name, {t, x, v})) return true;
  return false;
}

// The sessions: chains of session order among the transactions other than
// T0, each in order; empty when session order is no set of chains.
std::optional<std::vector<std::vector<std::size_t>>> sessions(const Interpretation& m,
                                                              const std::vector<std::size_t>& txns) {
  const std::string so = relation_symbol(*model::history_schema().so);
  std::vector<std::vector<std::size_t>> out;
  std::set<std::size_t> placed;
  for (std::size_t t : txns) {
    if (placed.count(t)) continue;
    // The chain through t: every transaction related to t either way.
    std::vector<std::size_t> chain;
    for (std::size_t u : txns)
      if (u == t || m.holds(so, {u, t}) || m.holds(so, {t, u})) chain.push_back(u);
    // Ordered by the number of predecessors; a chain has 0, 1, 2, ...
    std::vector<std::size_t> at(chain.size(), 0);
    std::vector<std::size_t> order(chain.size(), SIZE_MAX);
    for (std::size_t i = 0; i < chain.size(); ++i) {
      for (std::size_t j = 0; j < chain.size(); ++j)
        if (m.holds(so, {chain[j], chain[i]})) ++at[i];
      if (at[i] >= chain.size() || order[at[i]] != SIZE_MAX) return std::nullopt;
      order[at[i]] = chain[i];
    }
    for (std::size_t i = 0; i < order.size(); ++i)
      for (std::size_t j = 0; j < order.size(); ++j)
        if (m.holds(so, {order[i], order[j]}) != (i < j)) return std::nullopt;
    for (std::size_t u : order)
      if (!placed.insert(u).second) return std::nullopt;
    out.push_back(order);
  }
  return out;
}

// One external read of a transaction: its key and the writer it reads from.
struct ModelRead {
  std::size_t key, writer;
};

// The single atom u with pred(u, a) (first = true) or pred(a, u), if one.
std::optional<std::size_t> single(const Interpretation& m, const logic::Relation& r, std::size_t a, bool first) {
  const std::string name = relation_symbol(r);
  std::optional<std::size_t> out;
  for (std::size_t u = 0; u < m.atoms(); ++u)
    if (m.holds(name, first ? std::vector<std::size_t>{u, a} : std::vector<std::size_t>{a, u})) {
      if (out) return std::nullopt;
      out = u;
    }
  return out;
}

// Transaction t's external reads, in program order: with read events, each
// event (its key, and the writer rf names), ordered by po; without, one
// read per key t reads, from the writer wrx names. Empty with why_not set
// when the model gives no single writer or key.
std::vector<ModelRead> reads_of(const Interpretation& m, std::size_t t, const std::vector<std::size_t>& objs,
                                const std::vector<std::size_t>& events, std::string& why_not) {
  const auto& s = model::history_schema();
  std::vector<ModelRead> out;
  if (events.empty()) {
    for (std::size_t x : objs) {
      if (!of_some_value(m, *s.reads, t, x)) continue;
      std::vector<std::size_t> from;
      for (std::size_t w = 0; w < m.atoms(); ++w)
        if (m.holds(relation_symbol(*s.wrx), {w, x, t})) from.push_back(w);
      if (from.size() != 1) return why_not = "a read of the model has no single writer", out;
      out.push_back({x, from[0]});
    }
    return out;
  }
  std::vector<std::size_t> mine;  // t's read events
  for (std::size_t a : events)
    if (m.holds(relation_symbol(*s.rtxn), {a, t})) mine.push_back(a);
  // Program order is a strict total order on them: the number of
  // predecessors places each.
  std::vector<std::optional<ModelRead>> placed(mine.size());
  for (std::size_t a : mine) {
    std::size_t before = 0;
    for (std::size_t b : mine) before += m.holds(relation_symbol(*s.po), {b, a});
    const auto key = single(m, *s.rkey, a, false), writer = single(m, *s.rf, a, true);
    if (!key || !writer) return why_not = "a read event of the model has no single key or writer", out;
    if (before >= mine.size() || placed[before]) return why_not = "a transaction's read events are not in one order", out;
    placed[before] = ModelRead{*key, *writer};
  }
  for (const auto& r : placed) out.push_back(*r);
  return out;
}

// The history of the model: the transactions of `chains` in their sessions,
// each reading (the value of its read-from writer, in program order) and
// then writing its keys; each write a value of its own.
ModelHistory history_of(const Interpretation& m, const std::vector<std::vector<std::size_t>>& chains,
                        const std::vector<std::size_t>& objs, const std::vector<std::size_t>& events,
                        std::size_t t0) {
  const auto& s = model::history_schema();
  History h;
  std::map<std::size_t, KeyId> key;
  for (std::size_t i = 0; i < objs.size(); ++i)  // x, y, z, x1, y1, ...
    key[objs[i]] =
        h.intern_key(std::string(1, static_cast<char>('x' + i % 3)) + (i < 3 ? "" : std::to_string(i / 3)));
  // Every write a value of its own, numbered in the order of the sessions.
  std::map<std::pair<std::size_t, std::size_t>, ValueId> written;
  std::int64_t next = 1;
  for (const auto& chain : chains)
    for (std::size_t t : chain)
      for (std::size_t x : objs)
        if (of_some_value(m, *s.writes, t, x)) written[{t, x}] = h.intern_value(Value{next++});
  std::size_t name = 1;
  for (const auto& chain : chains) {
    const SessionId session = h.add_session();
    for (std::size_t t : chain) {
      const TxnId id = h.add_txn(session, fmt::format("T{}", name++));
      std::string why_not;
      const std::vector<ModelRead> reads = reads_of(m, t, objs, events, why_not);
      if (!why_not.empty()) return {std::nullopt, why_not};
      for (const auto& [x, from] : reads) {
        if (!key.count(x)) return {std::nullopt, "a read event of the model reads no key"};
        if (from == t0) h.add_read(id, key[x], h.init_value(key[x]));
        else if (auto it = written.find({from, x}); it != written.end()) h.add_read(id, key[x], it->second);
        else return {std::nullopt, "a read of the model reads from a transaction that did not write its key"};
      }
      for (std::size_t x : objs)
        if (of_some_value(m, *s.writes, t, x)) h.add_write(id, key[x], written[{t, x}]);
    }
  }
  return {std::move(h), ""};
}

ModelHistory read_model(const std::string& text, bool session_free) {
  Reader reader(text);
  std::vector<Sexp> top = reader.all();
  if (top.size() != 2 || top[0].atom != "sat") return {std::nullopt, "the prover printed no model"};
  std::size_t atoms = reader.atoms;
  if (atoms == 0 || atoms > 64) return {std::nullopt, fmt::format("the model has {} atoms", atoms)};
  const Interpretation m(top[1].kids, atoms);
  const auto& s = model::history_schema();
  if (any_triple(m, *s.abr) || any_triple(m, *s.irr)) return {std::nullopt, "the model has aborted or intermediate reads"};
  if (any_triple(m, *s.vo)) return {std::nullopt, "the model has known version orders"};
  const std::vector<std::size_t> objs = atoms_of(m, sort_symbol(model::kObj));
  const std::vector<std::size_t> t0 = atoms_of(m, relation_symbol(*s.t0));
  if (t0.size() != 1) return {std::nullopt, "the model has no single T0"};
  std::vector<std::size_t> txns;
  for (std::size_t t : atoms_of(m, sort_symbol(model::kTxn)))
    if (t != t0[0]) txns.push_back(t);
  std::vector<std::vector<std::size_t>> chains;
  if (session_free) {
    for (std::size_t t : txns) chains.push_back({t});
  } else if (auto c = sessions(m, txns)) {
    chains = std::move(*c);
  } else {
    return {std::nullopt, "the model's session order is no set of sessions"};
  }
  return history_of(m, chains, objs, atoms_of(m, sort_symbol(model::kRead)), t0[0]);
}

}  // namespace

ModelHistory model_history(const std::string& model, bool session_free) {
  try {
    return read_model(model, session_free);
  } catch (const std::exception& e) {
    return {std::nullopt, e.what()};
  }
}

}  // namespace iso::prove
