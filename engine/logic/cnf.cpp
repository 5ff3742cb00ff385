// The lazy Tseitin encoding of cnf.hpp: a gate's clauses, of the polarity
// it is used in, emitted on first use.
#include "engine/logic/cnf.hpp"

#include "engine/util/budget.hpp"

namespace iso::logic {

sat::Lit CnfEncoder::var_of(std::uint32_t node) {
  if (node >= var_.size()) {
    var_.resize(c_.num_gates(), -1);
    done_.resize(c_.num_gates(), 0);
  }
  if (var_[node] < 0) {
    var_[node] = s_.new_var();
    const auto& g = c_.gate(node);
    if (g.kind == Circuit::Kind::Input) {
      if (g.input >= input_var_.size()) input_var_.resize(g.input + 1, -1);
      input_var_[g.input] = var_[node];
    } else if (g.kind == Circuit::Kind::Const) {
      s_.add_clause({sat::Lit::pos(static_cast<std::uint32_t>(var_[node]))});
    }
  }
  return sat::Lit::pos(static_cast<std::uint32_t>(var_[node]));
}

sat::Lit CnfEncoder::encode(BLit root, bool positive) {
  // Depth-first, on a stack of its own: a chain of gates (a sequential
  // counter over thousands of literals) is as deep as it is long. The order
  // is that of the plain recursion (a gate's variable first, then each
  // kid's clauses before the gate's clause that mentions it), so the solver
  // sees the same problem either way.
  // The stack is the encoder's, kept between calls (one per clause kid).
  std::vector<Frame>& stack = stack_;
  stack.clear();
  auto enter = [&](BLit l, bool pos) {
    Frame f{l, var_of(l.node()), pos != l.negated(), false, 0, {}};
    if (c_.gate(l.node()).kind == Circuit::Kind::And) {
      const std::uint8_t bit = f.want_pos ? 1 : 2;
      if (!(done_[l.node()] & bit)) {
        done_[l.node()] |= bit;
        budget::poll();
        f.open = true;
        if (!f.want_pos) f.clause.push_back(f.v);
      }
    }
    stack.push_back(std::move(f));
  };
  enter(root, positive);
  while (true) {
    Frame& f = stack.back();
    // The kids stay put: encoding makes no gates.
    const std::span<const BLit> kids = f.open ? c_.kids(f.l.node()) : std::span<const BLit>{};
    if (f.next < kids.size()) {
      enter(kids[f.next], f.want_pos);
      continue;
    }
    if (f.open && !f.want_pos) s_.add_clause(f.clause);
    const sat::Lit lit = f.l.negated() ? ~f.v : f.v;
    stack.pop_back();
    if (stack.empty()) return lit;
    Frame& parent = stack.back();
    if (parent.want_pos)
      s_.add_clause({~parent.v, lit});  // v -> kid
    else
      parent.clause.push_back(~lit);   // all kids -> v
    ++parent.next;
  }
}

void CnfEncoder::assert_true(BLit root) {
  // Each literal once, and without recursion: circuits are DAGs, on which a
  // recursive walk takes exponential time (a conjunction shared by many
  // conjunctions was asserted once per path to it), and can be deep.
  // Conjuncts are pushed in reverse, so taken in their order.
  std::vector<BLit> todo{root};
  while (!todo.empty()) {
    budget::poll();
    const BLit l = todo.back();
    todo.pop_back();
    if (l == kTrue) continue;
    if (l == kFalse) {
      s_.add_clause(std::initializer_list<sat::Lit>{});
      continue;
    }
    if (!asserted_.insert(l.x).second) continue;
    const auto& g = c_.gate(l.node());
    if (g.kind == Circuit::Kind::And && !l.negated()) {
      const std::span<const BLit> kids = c_.kids(l.node());
      todo.insert(todo.end(), kids.rbegin(), kids.rend());
      continue;
    }
    if (g.kind == Circuit::Kind::And && l.negated()) {
      // !(a & b & ...) = !a | !b | ...
      std::vector<sat::Lit> clause;
      for (BLit k : c_.kids(l.node())) clause.push_back(encode(!k, true));
      s_.add_clause(clause);
      continue;
    }
    s_.add_clause({encode(l, true)});
  }
}

sat::Lit CnfEncoder::literal(BLit l) {
  encode(l, true);
  return encode(l, false);
}

std::vector<bool> CnfEncoder::input_values() const {
  std::vector<bool> v(c_.num_inputs(), false);
  for (std::uint32_t i = 0; i < input_var_.size(); ++i)
    if (input_var_[i] >= 0) v[i] = s_.model_value(static_cast<std::uint32_t>(input_var_[i]));
  return v;
}

}  // namespace iso::logic
