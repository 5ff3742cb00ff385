// The facts of history_facts.hpp, each with why it holds.
#include "prove/history_facts.hpp"

#include "engine/model/schema.hpp"

namespace iso::prove {

using namespace logic;
using model::kObj;
using model::kRead;
using model::kTxn;
using model::kVal;

namespace {

FormulaPtr ne(const VariablePtr& a, const VariablePtr& b) { return not_(equal(var(a), var(b))); }

FormulaPtr in(std::vector<VariablePtr> vs, const ExprPtr& r) {
  std::vector<ExprPtr> atoms;
  for (const auto& v : vs) atoms.push_back(var(v));
  return member(atoms, r);
}

Decl decl(const VariablePtr& v) { return {v, sort(v->sort)}; }

// The facts about read events (schema.hpp, "The operation level").
std::vector<HistoryFact> read_event_facts() {
  const auto& s = model::history_schema();
  auto a = make_variable("a", kRead), b = make_variable("b", kRead);
  auto t = make_variable("t", kTxn), u = make_variable("u", kTxn);
  auto x = make_variable("x", kObj), n = make_variable("n", kVal);
  std::vector<HistoryFact> out;
  // A read event belongs to one transaction, reads one key, returns one
  // value, and reads from one writer (engine/history/abstract.hpp).
  out.push_back({"a read event has one transaction, key, value and writer",
                 forall({decl(a)}, and_({one(join(var(a), rel(s.rtxn))), one(join(var(a), rel(s.rkey))),
                                         one(join(var(a), rel(s.rval))), one(join(rel(s.rf), var(a)))}))});
  // rf(t, α): α returns t's final write of its key, and t is another
  // transaction (a read after an own write is no read event).
  out.push_back({"a read event returns its writer's final write of its key",
                 forall({decl(t), decl(a)},
                        implies(in({t, a}, rel(s.rf)),
                                and_(not_(in({a, t}, rel(s.rtxn))),
                                     subset(product(product(var(t), join(var(a), rel(s.rkey))), join(var(a), rel(s.rval))),
                                            rel(s.writes)))))});
  out.push_back({"reads are the read events' (transaction, key, value)",
                 forall({decl(t), decl(x), decl(n)},
                        iff(in({t, x, n}, rel(s.reads)),
                            exists({decl(a)}, and_({in({a, t}, rel(s.rtxn)), in({a, x}, rel(s.rkey)),
                                                    in({a, n}, rel(s.rval))}))))});
  out.push_back({"wrx is rf projected on (writer, key, reader)",
                 forall({decl(t), decl(x), decl(u)},
                        iff(in({t, x, u}, rel(s.wrx)),
                            exists({decl(a)}, and_({in({t, a}, rel(s.rf)), in({a, x}, rel(s.rkey)),
                                                    in({a, u}, rel(s.rtxn))}))))});
  // Program order: the reads of one transaction, in a strict total order.
  out.push_back({"program order orders each transaction's reads",
                 and_({subset(join(rel(s.po), rel(s.po)), rel(s.po)), no(inter(rel(s.po), iden())),
                       forall({decl(a), decl(b)},
                              iff(and_(ne(a, b), some(inter(join(var(a), rel(s.rtxn)), join(var(b), rel(s.rtxn))))),
                                  or_(in({a, b}, rel(s.po)), in({b, a}, rel(s.po)))))})});
  return out;
}

}  // namespace

std::vector<HistoryFact> history_facts(const HistoryShape& shape) {
  const auto& s = model::history_schema();
  auto a = make_variable("a", kTxn), b = make_variable("b", kTxn), c = make_variable("c", kTxn);
  auto x = make_variable("x", kObj), n = make_variable("n", kVal), m = make_variable("m", kVal);
  std::vector<HistoryFact> out;
  out.push_back({"one initial transaction T0", one(rel(s.t0))});
  // Session order: each session a chain, T0 before every other transaction.
  out.push_back({"session order is a strict partial order with T0 first",
                 and_({subset(join(rel(s.so), rel(s.so)), rel(s.so)), no(inter(rel(s.so), iden())),
                       subset(product(s.T0, s.Tplus), rel(s.so))})});
  out.push_back({"transactions before one transaction in session order are ordered",
                 forall({decl(a), decl(b), decl(c)},
                        implies(and_({in({a, c}, rel(s.so)), in({b, c}, rel(s.so)), ne(a, b)}),
                                or_(in({a, b}, rel(s.so)), in({b, a}, rel(s.so)))))});
  if (shape.session_free)
    out.push_back({"every transaction in its own session", equal(rel(s.so), product(s.T0, s.Tplus))});
  // A transaction's final write of a key is one value.
  out.push_back({"one final write per transaction and key",
                 forall({decl(a), decl(x), decl(n), decl(m)},
                        implies(and_(in({a, x, n}, rel(s.writes)), in({a, x, m}, rel(s.writes))),
                                equal(var(n), var(m))))});
  out.push_back({"T0 reads nothing", no(join(s.T0, rel(s.reads)))});
  // A known version order (engine/model/concrete.cpp, bind_known_orders)
  // puts a list read's appenders of x before the later writers of x: two
  // distinct writers of x. (Several reads' orders together need not be
  // transitive, so that is not assumed.)
  out.push_back({"a known version order of x orders two writers of x",
                 forall({decl(x), decl(a), decl(b)},
                        implies(in({x, a, b}, rel(s.vo)),
                                and_({in({a, x}, s.writer), in({b, x}, s.writer), ne(a, b)})))});
  // wrx is a read-from (a choice where values repeat), and every external
  // read has a writer: a read of a value nobody committed is a violation
  // of every level before its formula (engine/history/unjustified_reads.cpp).
  // Where two read events of one key return one value, each may read from
  // another writer of it: so at least one writer per value, not one.
  for (auto& f : read_from(rel(s.wrx), false)) out.push_back(std::move(f));
  out.push_back({"item read-from is part of read-from", subset(rel(s.iwrx), rel(s.wrx))});
  if (shape.read_events)
    for (auto& f : read_event_facts()) out.push_back(std::move(f));
  return out;
}

std::vector<HistoryFact> read_from(const ExprPtr& wrx, bool one_per_value) {
  const auto& s = model::history_schema();
  auto a = make_variable("a", kTxn), b = make_variable("b", kTxn), c = make_variable("c", kTxn);
  auto x = make_variable("x", kObj), n = make_variable("n", kVal);
  std::vector<HistoryFact> out;
  out.push_back({"read-from joins a final write and an external read of one value by two transactions",
                 forall({decl(a), decl(x), decl(c)},
                        implies(in({a, x, c}, wrx),
                                and_(ne(a, c), exists({decl(n)}, and_(in({a, x, n}, rel(s.writes)),
                                                                      in({c, x, n}, rel(s.reads)))))))});
  out.push_back({"every external read has a writer of its value in read-from",
                 forall({decl(c), decl(x), decl(n)},
                        implies(in({c, x, n}, rel(s.reads)),
                                exists({decl(a)}, and_(in({a, x, c}, wrx), in({a, x, n}, rel(s.writes))))))});
  if (one_per_value)
    out.push_back({"one writer per key and value read",
                   forall({decl(a), decl(b), decl(x), decl(c), decl(n)},
                          implies(and_({in({a, x, c}, wrx), in({b, x, c}, wrx), in({a, x, n}, rel(s.writes)),
                                        in({b, x, n}, rel(s.writes))}),
                                  equal(var(a), var(b))))});
  return out;
}

}  // namespace iso::prove
