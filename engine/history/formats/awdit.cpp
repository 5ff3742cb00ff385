// AWDIT's test format (FORMATS.md §4): sessions separated by a line "=====",
// transactions inside a session by "-----", one operation per line "r key
// value" or "w key value" with non-negative integers.
//
// Transactions are named T<session>.<index>, both counted from 0 in file
// order by the separators, so that a name points at its place in the file
// even when an empty transaction (two separators in a row) is skipped.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/history/formats/text_input.hpp"

namespace iso {
namespace {

constexpr std::uint64_t kMaxInt = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

struct AwditTxn {
  std::size_t session = 0, index = 0;
  std::vector<textin::InitOp> ops;
};

// A separator: a line of three or more '=' (sessions) or '-' (transactions)
// and nothing else but blanks.
bool separator(std::string_view line, char c) {
  auto first = line.find_first_not_of(" \t");
  auto last = line.find_last_not_of(" \t");
  if (first == std::string_view::npos) return false;
  std::string_view core = line.substr(first, last - first + 1);
  return core.size() >= 3 && core.find_first_not_of(c) == std::string_view::npos;
}

textin::InitOp parse_op(const std::string& source, std::string_view text, std::size_t number) {
  textin::Cursor c(source, text, number);
  textin::InitOp op;
  op.line = number;
  c.skip_spaces();
  op.column = c.col();
  if (c.eat("w")) {
    op.write = true;
  } else if (!c.eat("r")) {
    c.fail("expected an operation 'r key value' or 'w key value', or a separator "
           "'=====' / '-----'");
  }
  if (c.peek() != ' ' && c.peek() != '\t') c.fail("expected a blank after the operation kind");
  c.skip_spaces();
  op.key = c.unsigned_int("the key", kMaxInt);
  if (c.peek() != ' ' && c.peek() != '\t') c.fail("expected a blank after the key");
  c.skip_spaces();
  op.value = static_cast<std::int64_t>(c.unsigned_int("the value", kMaxInt));
  c.expect_end("the value");
  return op;
}

}  // namespace

ReadResult read_awdit(std::string_view text, const std::string& source,
                      const ReadOptions& options) {
  ReadResult result(Format::Awdit);
  History& h = result.history;

  // Transactions in file order; empty ones are not kept.
  std::vector<AwditTxn> txns;
  std::size_t session = 0, index = 0, empty = 0;
  bool open = false;  // the last transaction of `txns` is still being read
  textin::Lines lines(text);
  std::string_view line;
  while (lines.next(line)) {
    if (textin::blank(line)) continue;
    if (separator(line, '=') || separator(line, '-')) {
      if (!open) ++empty;
      open = false;
      if (separator(line, '=')) {
        ++session;
        index = 0;
      } else {
        ++index;
      }
      continue;
    }
    if (!open) {
      txns.push_back(AwditTxn{session, index, {}});
      open = true;
    }
    txns.back().ops.push_back(parse_op(source, line, lines.number()));
  }

  // AWDIT has no implicit initial state: "initial reads are handled
  // explicitly, meaning there should be a transaction writing 0 to all keys,
  // if so desired", and that transaction sits in an ordinary session. So by
  // default T0 writes nothing and the first transaction is an ordinary one;
  // --init explicit takes it as T0, --init implicit adds a T0 writing 0.
  textin::InitDecision init;
  if (options.init == InitMode::Explicit && !txns.empty())
    init = textin::decide_explicit_init(
        txns[0].ops, fmt::format("T{}.{}", txns[0].session, txns[0].index), options.init, source);
  const bool explicit_init = init.take;
  result.explicit_init = explicit_init;

  auto key_of = [&](std::uint64_t k) { return h.intern_key(std::to_string(k), true); };
  auto value_of = [&](std::int64_t v) { return h.intern_value(Value{v}); };
  SessionId current = 0;
  std::size_t current_file_session = 0;
  bool have_session = false;
  for (std::size_t i = 0; i < txns.size(); ++i) {
    const AwditTxn& tx = txns[i];
    if (i == 0 && explicit_init) {
      for (const auto& op : tx.ops) h.set_init(key_of(op.key), value_of(op.value));
      continue;
    }
    if (!have_session || tx.session != current_file_session) {
      current = h.add_session();
      current_file_session = tx.session;
      have_session = true;
    }
    TxnId t = h.add_txn(current, fmt::format("T{}.{}", tx.session, tx.index));
    for (const auto& op : tx.ops) {
      if (op.write)
        h.add_write(t, key_of(op.key), value_of(op.value), op_line(op.line), op_column(op.column));
      else
        h.add_read(t, key_of(op.key), value_of(op.value), op_line(op.line), op_column(op.column));
    }
  }
  switch (options.init) {
    case InitMode::Implicit:
      initial::record(result, options.init, InitialState::Implicit, "T0 writes 0 to every key");
      break;
    case InitMode::Explicit:
      initial::record(result, options.init, InitialState::Explicit,
                      explicit_init ? fmt::format("{}; T0 writes only its keys", init.why)
                                    : std::string("the file has no transaction"));
      break;
    case InitMode::Auto:
    case InitMode::None:
      initial::record(result, options.init, InitialState::None,
                      "AWDIT histories have no implicit initial state: T0 writes no key, and a "
                      "first transaction that writes the initial values is an ordinary one");
      break;
  }
  // A trailing separator ends the last transaction without opening an empty
  // one, so only separators with nothing before them count as empty.
  if (empty > 0)
    result.notes.push_back(fmt::format("{} empty transaction{} or session{} skipped", empty,
                                       empty == 1 ? "" : "s", empty == 1 ? "" : "s"));
  return result;
}

}  // namespace iso
