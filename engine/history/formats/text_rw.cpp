// The text format r/w(key,value,session,txn) of PolySI, Plume, IsoVista and
// AWDIT's "plume" format (FORMATS.md §3).
//
// Consecutive lines with the same (session, txn) form one transaction, named
// T<s>.<t> after the file's numbers. In the Plume dialect txn -1 marks the
// writes of an aborted transaction: consecutive -1 lines of one session form
// one aborted transaction T<s>.abort<n> (n counts the session's aborted
// groups from 1). Within a session the txn numbers of committed transactions
// must increase: a transaction that resumes after another one of its session,
// or a number that goes backwards, is an error, since program order would be
// ambiguous.
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/history/formats/text_input.hpp"

namespace iso {
namespace {

constexpr std::uint64_t kMaxInt = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
constexpr std::int64_t kAbortedTxn = -1;

struct LineOp {
  bool write = false;
  std::uint64_t key = 0;
  std::int64_t value = 0;
  std::uint64_t session = 0;
  std::int64_t txn = 0;  // kAbortedTxn for the Plume dialect's aborted writes
  std::size_t line = 0, column = 0;
};

LineOp parse_line(const std::string& source, std::string_view text, std::size_t number) {
  textin::Cursor c(source, text, number);
  LineOp op;
  op.line = number;
  c.skip_spaces();
  op.column = c.col();
  if (c.eat("w(")) {
    op.write = true;
  } else if (!c.eat("r(")) {
    c.fail("expected an operation 'r(key,value,session,txn)' or 'w(key,value,session,txn)'");
  }
  // Blanks are tolerated around the numbers.
  auto field = [&](std::string_view what, char after, std::string_view after_what) {
    c.skip_spaces();
    std::uint64_t n = c.unsigned_int(what, kMaxInt);
    c.skip_spaces();
    if (!c.eat(std::string_view(&after, 1)))
      c.fail(fmt::format("expected '{}' after {}", after, after_what));
    return n;
  };
  op.key = field("the key", ',', "the key");
  op.value = static_cast<std::int64_t>(field("the value", ',', "the value"));
  op.session = field("the session", ',', "the session");
  c.skip_spaces();
  if (c.eat("-1")) {
    op.txn = kAbortedTxn;
    c.skip_spaces();
    if (!c.eat(")")) c.fail("expected ')' after the transaction number");
  } else {
    op.txn = static_cast<std::int64_t>(
        field("the transaction number (or -1 for an aborted write)", ')',
              "the transaction number"));
  }
  c.expect_end("the operation");
  return op;
}

// A run of consecutive lines with the same (session, txn).
struct Group {
  std::size_t first = 0, last = 0;  // indices into the ops
};

// Groups consecutive lines and checks program order per session.
std::vector<Group> group_lines(const std::vector<LineOp>& ops, const std::string& source) {
  std::vector<Group> groups;
  struct SessionState {
    std::int64_t last_txn = -1;  // last committed txn number seen
    std::size_t last_line = 0;
  };
  std::unordered_map<std::uint64_t, SessionState> sessions;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const LineOp& op = ops[i];
    if (!groups.empty()) {
      const LineOp& prev = ops[groups.back().last];
      if (prev.session == op.session && prev.txn == op.txn) {
        groups.back().last = i;
        continue;
      }
    }
    if (op.txn != kAbortedTxn) {
      auto [it, fresh] = sessions.try_emplace(op.session);
      if (!fresh && op.txn <= it->second.last_txn)
        textin::fail(source, op.line, 1,
                     fmt::format("transaction {} of session {} comes after transaction {} of "
                                 "the same session (line {}): transaction numbers must "
                                 "increase within a session and a transaction's lines must "
                                 "be consecutive",
                                 op.txn, op.session, it->second.last_txn,
                                 it->second.last_line));
      it->second.last_txn = op.txn;
      it->second.last_line = op.line;
    }
    groups.push_back(Group{i, i});
  }
  return groups;
}

// The initial state: the first transaction (session 0, txn 0 on the first
// line) may be T0 itself (FORMATS.md, common conventions).
textin::InitDecision decide_init(const std::vector<LineOp>& ops, const std::vector<Group>& groups,
                                 InitMode mode, const std::string& source) {
  textin::InitDecision init;
  if (groups.empty()) return init;
  if (ops[0].session == 0 && ops[0].txn == 0) {
    std::vector<textin::InitOp> init_ops;
    for (std::size_t i = groups[0].first; i <= groups[0].last; ++i)
      init_ops.push_back({ops[i].write, ops[i].key, ops[i].value, ops[i].line});
    return textin::decide_explicit_init(init_ops, "T0.0", mode, source);
  }
  init.why = fmt::format("the first line is transaction {} of session {}, not transaction 0 "
                         "of session 0",
                         ops[0].txn, ops[0].session);
  if (mode == InitMode::Explicit)
    textin::fail(source, ops[0].line, 1,
                 fmt::format("--init explicit: {}, so the file has no initial transaction",
                             init.why));
  return init;
}

// Adds the groups as transactions (the first as the initial values when
// `explicit_init`).
class Builder {
 public:
  Builder(History& h, const std::vector<LineOp>& ops) : h_(h), ops_(ops) {}

  std::size_t aborted = 0, dropped_reads = 0;

  void initial_values(const Group& g) {
    for (std::size_t i = g.first; i <= g.last; ++i)
      h_.set_init(key_of(ops_[i].key), value_of(ops_[i].value));  // the last write wins
  }

  void transaction(const Group& g) {
    const LineOp& head = ops_[g.first];
    auto [sit, fresh] = session_ids_.try_emplace(head.session, 0);
    if (fresh) sit->second = h_.add_session();
    TxnId t = 0;
    if (head.txn == kAbortedTxn) {
      ++aborted;
      t = h_.add_txn(sit->second,
                     fmt::format("T{}.abort{}", head.session, ++aborted_groups_[head.session]),
                     TxnStatus::Aborted);
    } else {
      t = h_.add_txn(sit->second, fmt::format("T{}.{}", head.session, head.txn));
    }
    for (std::size_t i = g.first; i <= g.last; ++i) {
      const LineOp& op = ops_[i];
      if (op.write)
        h_.add_write(t, key_of(op.key), value_of(op.value), op_line(op.line), op_column(op.column));
      else if (head.txn == kAbortedTxn)
        ++dropped_reads;  // what an aborted transaction read does not matter
      else
        h_.add_read(t, key_of(op.key), value_of(op.value), op_line(op.line), op_column(op.column));
    }
  }

 private:
  KeyId key_of(std::uint64_t k) { return h_.intern_key(std::to_string(k), true); }
  ValueId value_of(std::int64_t v) { return h_.intern_value(Value{v}); }

  History& h_;
  const std::vector<LineOp>& ops_;
  std::unordered_map<std::uint64_t, SessionId> session_ids_;
  std::unordered_map<std::uint64_t, std::size_t> aborted_groups_;  // per file session
};

// Records the initial state used.
void record_initial(ReadResult& result, InitMode mode, const textin::InitDecision& init) {
  std::string detail;
  InitialState state = InitialState::Implicit;
  if (init.take) {
    state = InitialState::Explicit;
    detail = fmt::format("{}; T0 writes only its keys", init.why);
  } else if (mode == InitMode::None) {
    state = InitialState::None;
    detail = "T0 writes no key: a read of a value no transaction wrote is a thin-air read";
  } else if (mode == InitMode::Explicit) {
    state = InitialState::Explicit;
    detail = "the file has no transaction";
  } else {
    detail = mode == InitMode::Auto && !init.why.empty()
                 ? fmt::format("T0 writes 0 to every key; no transaction is T0: {}", init.why)
                 : "T0 writes 0 to every key";
  }
  initial::record(result, mode, state, detail);
}

}  // namespace

ReadResult read_text_rw(std::string_view text, const std::string& source,
                        const ReadOptions& options) {
  const auto ops = textin::parse_lines(
      text, [&](std::string_view line, std::size_t number) { return parse_line(source, line, number); });
  const std::vector<Group> groups = group_lines(ops, source);
  const textin::InitDecision init = decide_init(ops, groups, options.init, source);
  ReadResult result(Format::Text);
  result.explicit_init = init.take;
  Builder b(result.history, ops);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (g == 0 && init.take) b.initial_values(groups[0]);
    else b.transaction(groups[g]);
  }
  record_initial(result, options.init, init);
  if (b.aborted > 0)
    result.notes.push_back(fmt::format(
        "{} aborted transaction{} (txn -1){}", b.aborted, b.aborted == 1 ? "" : "s",
        b.dropped_reads > 0 ? fmt::format("; their {} reads are ignored", b.dropped_reads) : ""));
  return result;
}

}  // namespace iso
