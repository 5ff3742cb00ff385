// The Viper reader (FORMATS.md §7): a folder of J<n>.log files, one per
// client, each line one committed transaction:
//   {"preBeginTS": 1, "postBeginTS": 2, "preCommitTS": 3, "postCommitTS": 4,
//    "value": [["r", key, value, flag], ["w", key, value, flag],
//              ["range", k1, k2, [live rows], [dead rows]]],
//    "isInitial": false, "isFinal": false}
// Timestamps, isInitial and isFinal are optional.
//
// Mapping to the history model and the decisions it needs:
//  - one session per log; the transaction on line L of J<n>.log is named
//    "J<n>.<L>" (1-based line) so that a user can find it;
//  - the fourth element of "r" / "w" is Viper's is_dead (reads) and
//    update_succ (writes) flag; its meaning differs between producers, so it
//    is ignored, but reads flagged dead and writes flagged unsuccessful are
//    counted in a note since they may deserve a look;
//  - a range read ["range", k1, k2, live, dead] becomes a predicate read
//    "[k1,k2]" whose result is the live rows; each row is Viper's
//    {"id": key, "sk": key, "val": value} (or a [key, value] pair). Dead rows
//    (deleted ones the scan passed) are not part of the result and are
//    counted; a bound spelled "nil" is open (the int64 extreme);
//  - timestamps: a transaction began somewhere between preBeginTS and
//    postBeginTS and committed between preCommitTS and postCommitTS: they
//    are Transaction::begin, begin_end, commit_start and commit, from which
//    History::time_before orders two events only when they certainly are
//    (the inner ones must lie inside preBeginTS..postCommitTS). Taking
//    begin = preBeginTS and commit = postCommitTS gives the widest interval
//    that surely contains the transaction, so a real-time order derived from
//    them (A before B when A.commit < B.begin) is never claimed unless it
//    certainly held. A missing bound leaves the timestamp unset;
//  - a line with "isInitial": true is Viper's explicit initial state: with
//    --init auto or explicit its writes and live range rows become the
//    initial values (it is T0 itself) and T0 writes only those keys; with
//    --init implicit or none it is an ordinary transaction. --init explicit
//    is refused when no line is initial;
//  - with --init none T0 writes nothing: a read of a value no logged
//    transaction wrote is a thin-air read;
//  - the initial value. Finding from data/histories/viper-json/postgres-1000:
//    every key read there is also written by some logged transaction, yet
//    3300 of 3976 reads return a value that no logged write to that key
//    produced, and each key has at most one such value (2758 keys, none
//    shared between keys). The benchmark preloads every key with a random
//    value before logging starts, and that load is not in the logs. So the
//    initial value of a key is inferred: when the reads of a key return
//    exactly one value that no logged transaction wrote to it, that value is
//    the key's initial value. A key whose reads return two or more such
//    values keeps the default 0 (at most one can be the initial value; the
//    others are reads of values no transaction wrote, which a checker must
//    report) and is counted in a note. This cannot tell a thin-air read from
//    the preloaded value when a key has only one; nothing in the logs can,
//    so a note says for how many keys it was done. The inference is the
//    implicit initial state (--init implicit, and auto when no line is
//    initial); an explicit initial state or none replaces it.
//
// Errors name the file, line and column (1-based, bytes) of the offending
// element. Each line is parsed on its own by nlohmann::json into an
// insertion-ordered DOM; positions are recovered on demand, for an error
// only, by counting the tokens that precede the element in the DOM and
// finding that token in the line (the JSON reading base, json_reader.hpp).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/history/formats/json_reader.hpp"
#include "engine/history/predicate.hpp"

namespace iso {

namespace {

using ojson = nlohmann::ordered_json;

// Lines nested deeper are rejected before parsing: real lines nest 4 deep,
// and the position helpers (jsonin::element_token, ...) recurse.
constexpr std::size_t kMaxDepth = 32;


using jsonin::element_token;
using jsonin::member_token;

std::string describe(const ojson& j) {
  switch (j.type()) {
    case ojson::value_t::null: return "null";
    case ojson::value_t::boolean: return j.get<bool>() ? "true" : "false";
    case ojson::value_t::number_integer:
    case ojson::value_t::number_unsigned:
    case ojson::value_t::number_float: return "the number " + j.dump();
    case ojson::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      return "the string " + quote_string(s.size() <= 40 ? s : s.substr(0, 37) + "...");
    }
    case ojson::value_t::array: return "an array";
    case ojson::value_t::object: return "an object";
    default: return "a value";
  }
}

// One line being read: its place in the input, for errors.
class Line {
 public:
  Line(const std::string& file, std::size_t number, std::string_view text, const ojson& root)
      : file_(file), number_(number), text_(text), root_(root) {}

  [[noreturn]] void fail_col(std::size_t col, std::string_view msg) const {
    throw InputError(fmt::format("{}:{}:{}: {}", file_, number_, col, msg));
  }
  [[noreturn]] void fail(std::size_t token, std::string_view msg) const {
    fail_col(jsonin::token_offset(text_, token) + 1, msg);
  }

  const ojson& root() const { return root_; }
  std::uint32_t number() const { return op_line(number_); }

 private:
  const std::string& file_;
  std::size_t number_;
  std::string_view text_;
  const ojson& root_;
};

// A key: an integer or a string.
KeyId read_key(History& h, const Line& line, const ojson& j, std::size_t tok,
               std::string_view what) {
  if (j.is_number_integer() && !(j.is_number_unsigned() &&
                                 j.get<std::uint64_t>() >
                                     static_cast<std::uint64_t>(
                                         std::numeric_limits<std::int64_t>::max())))
    return h.intern_key(std::to_string(j.get<std::int64_t>()), /*integer=*/true);
  if (j.is_string()) return h.intern_key(j.get_ref<const std::string&>(), false);
  line.fail(tok, fmt::format("expected {} (an integer in the 64-bit signed range, or a "
                             "string), found {}",
                             what, describe(j)));
}

// A value: an integer, a string or null.
ValueId read_value(History& h, const Line& line, const ojson& j, std::size_t tok,
                   std::string_view what) {
  if (j.is_number_unsigned()) {
    if (j.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return h.intern_value(Value{static_cast<std::int64_t>(j.get<std::uint64_t>())});
  } else if (j.is_number_integer()) {
    return h.intern_value(Value{j.get<std::int64_t>()});
  } else if (j.is_string()) {
    return h.intern_value(Value{j.get<std::string>()});
  } else if (j.is_null()) {
    return h.intern_value(Value{std::monostate{}});
  }
  line.fail(tok, fmt::format("expected {} (an integer in the 64-bit signed range, a string "
                             "or null), found {}",
                             what, describe(j)));
}

// A range bound: an integer, a string, or "nil" for an open end.
std::string read_bound(const Line& line, const ojson& j, std::size_t tok, bool low) {
  if (j.is_string() && j.get_ref<const std::string&>() == "nil")
    return std::to_string(low ? std::numeric_limits<std::int64_t>::min()
                              : std::numeric_limits<std::int64_t>::max());
  if (j.is_number_integer() && !j.is_number_unsigned()) return std::to_string(j.get<std::int64_t>());
  if (j.is_number_unsigned() &&
      j.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return std::to_string(j.get<std::uint64_t>());
  if (j.is_string()) return j.get<std::string>();
  line.fail(tok, fmt::format("expected the {} bound of the range (an integer, a string or "
                             "\"nil\"), found {}",
                             low ? "lower" : "upper", describe(j)));
}

struct Counts {
  std::size_t txns = 0, dead_reads = 0, failed_writes = 0, ranges = 0, dead_rows = 0;
  std::size_t timestamped = 0, initial_lines = 0;
};

// Where the operations of one line go: a transaction, or (for an
// initial-state line taken as T0, no transaction) the initial values.
struct OpsTarget {
  History& h;
  std::optional<TxnId> txn;
  Counts& counts;
};

// One operation of a line: element i of "value", whose '[' is token `tok`.
struct OpAt {
  const Line& line;
  const ojson& mop;
  std::size_t i;
  std::size_t tok;
  std::size_t element(std::size_t j) const { return element_token(mop, tok, j); }
};

// ["r" | "w", key, value, flag].
void read_key_op(OpsTarget& to, const OpAt& op, const std::string& kind) {
  const ojson& mop = op.mop;
  if (mop.size() < 3 || mop.size() > 4)
    op.line.fail(op.tok, fmt::format("value[{}]: expected [\"{}\", key, value, flag], found {} "
                                     "elements",
                                     op.i, kind, mop.size()));
  History& h = to.h;
  KeyId k = read_key(h, op.line, mop[1], op.element(1), "a key");
  ValueId v = read_value(h, op.line, mop[2], op.element(2), "a value");
  // The flag is ignored (see above); unusual ones are counted.
  const bool has_flag = mop.size() == 4 && mop[3].is_boolean();
  if (kind == "r") {
    to.counts.dead_reads += has_flag && mop[3].get<bool>();
    if (to.txn) h.add_read(*to.txn, k, v, op.line.number());
  } else {
    to.counts.failed_writes += has_flag && !mop[3].get<bool>();
    if (to.txn) h.add_write(*to.txn, k, v, op.line.number());
    else h.set_init(k, v);
  }
}

// The live rows of a range read (element 3): into its result, or the
// initial values.
void read_live_rows(OpsTarget& to, const OpAt& op, const ojson& rows, PredicateRead& pr) {
  History& h = to.h;
  const std::size_t rows_tok = op.element(3);
  std::unordered_set<KeyId> row_keys;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const ojson& row = rows[r];
    auto row_tok = [&] { return element_token(rows, rows_tok, r); };
    const ojson* key = nullptr;
    const ojson* val = nullptr;
    std::size_t key_tok = 0, val_tok = 0;
    if (row.is_object() && row.contains("id") && row.contains("val")) {
      key = &row.at("id");
      val = &row.at("val");
      key_tok = member_token(row, row_tok(), "id");
      val_tok = member_token(row, row_tok(), "val");
    } else if (row.is_array() && row.size() == 2) {
      key = &row[0];
      val = &row[1];
      key_tok = element_token(row, row_tok(), 0);
      val_tok = element_token(row, row_tok(), 1);
    } else {
      op.line.fail(row_tok(), fmt::format("value[{}][3][{}]: expected a row {{\"id\": key, "
                                          "\"val\": value}} or [key, value], found {}",
                                          op.i, r, describe(row)));
    }
    KeyId k = read_key(h, op.line, *key, key_tok, "the key of a row");
    ValueId v = read_value(h, op.line, *val, val_tok, "the value of a row");
    // A range read returns each key once; a second row would be a second
    // value read for it, which a predicate read cannot hold.
    if (!row_keys.insert(k).second)
      op.line.fail(key_tok, fmt::format("value[{}][3][{}]: key {} appears twice in the live rows",
                                        op.i, r, h.key_text(k)));
    if (to.txn) pr.result.emplace_back(k, v);
    else h.set_init(k, v);
  }
}

// ["range", k1, k2, [live rows], [dead rows]]: a predicate read "[k1,k2]".
void read_range(OpsTarget& to, const OpAt& op) {
  const ojson& mop = op.mop;
  if (mop.size() != 5)
    op.line.fail(op.tok, fmt::format("value[{}]: expected [\"range\", k1, k2, [live rows], "
                                     "[dead rows]], found {} elements",
                                     op.i, mop.size()));
  Predicate range;
  range.keys = Predicate::Keys::Range;
  range.lo = read_bound(op.line, mop[1], op.element(1), true);
  range.hi = read_bound(op.line, mop[2], op.element(2), false);
  PredicateRead pr;
  pr.predicate = range.text();
  for (std::size_t part = 3; part <= 4; ++part) {
    const ojson& rows = mop[part];
    if (!rows.is_array())
      op.line.fail(op.element(part), fmt::format("value[{}][{}]: expected the list of {} rows, "
                                                 "found {}",
                                                 op.i, part, part == 3 ? "live" : "dead",
                                                 describe(rows)));
    if (part == 3) read_live_rows(to, op, rows, pr);
    else to.counts.dead_rows += rows.size();
  }
  if (to.txn) {
    ++to.counts.ranges;
    to.h.add_predicate_read(*to.txn, std::move(pr), op.line.number());
  }
}

// Reads the operations of one line ("value", whose '[' is token `ops_tok`).
void read_ops(OpsTarget to, const Line& line, const ojson& ops, std::size_t ops_tok) {
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const ojson& mop = ops[i];
    const OpAt op{line, mop, i, element_token(ops, ops_tok, i)};
    if (!mop.is_array() || mop.empty() || !mop[0].is_string())
      line.fail(op.tok, fmt::format("value[{}]: expected an operation [\"r\"|\"w\", key, "
                                    "value, flag] or [\"range\", k1, k2, [...], [...]], "
                                    "found {}",
                                    i, mop.is_array() && !mop.empty() ? describe(mop[0])
                                                                     : describe(mop)));
    const std::string& kind = mop[0].get_ref<const std::string&>();
    if (kind == "r" || kind == "w") read_key_op(to, op, kind);
    else if (kind == "range") read_range(to, op);
    else
      line.fail(op.element(0), fmt::format("value[{}]: unknown operation {} (expected \"r\", "
                                           "\"w\" or \"range\")",
                                           i, describe(mop[0])));
  }
}

std::optional<std::int64_t> read_timestamp(const Line& line, const char* field) {
  const ojson& root = line.root();
  auto it = root.find(field);
  if (it == root.end()) return std::nullopt;
  if (it->is_number_integer() &&
      !(it->is_number_unsigned() &&
        it->get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())))
    return it->get<std::int64_t>();
  line.fail(member_token(root, 0, field),
            fmt::format("{}: expected an integer timestamp, found {}", field, describe(*it)));
}

// The four timestamps of a line, checked (the inner ones inside the outer
// ones), into the transaction.
void read_times(History& h, const Line& line, TxnId txn, Counts& counts) {
  const ojson& root = line.root();
  auto begin = read_timestamp(line, "preBeginTS");
  auto commit = read_timestamp(line, "postCommitTS");
  auto begin_end = read_timestamp(line, "postBeginTS");
  auto commit_start = read_timestamp(line, "preCommitTS");
  if (begin && commit && *begin > *commit)
    line.fail(member_token(root, 0, "postCommitTS"),
              fmt::format("postCommitTS {} is before preBeginTS {}", *commit, *begin));
  for (const auto& [name, ts] :
       {std::pair{"postBeginTS", begin_end}, std::pair{"preCommitTS", commit_start}}) {
    if (ts && ((begin && *ts < *begin) || (commit && *ts > *commit)))
      line.fail(member_token(root, 0, name),
                fmt::format("{} {} is outside preBeginTS..postCommitTS", name, *ts));
  }
  Transaction& t = h.txn(txn);
  t.begin = begin;
  t.commit = commit;
  t.begin_end = begin_end;
  t.commit_start = commit_start;
  counts.timestamped += begin || commit;
}

// One line parsed, or an InputError at its position: too deep, a syntax
// error, or a number too large for a double.
ojson parse_line(const std::string& file, std::size_t number, std::string_view text) {
  const ojson empty;
  Line pre(file, number, text, empty);
  if (auto at = jsonin::nesting_beyond(text, kMaxDepth))
    pre.fail_col(*at + 1, fmt::format("nesting deeper than {} levels", kMaxDepth));
  try {
    return ojson::parse(text);
  } catch (const ojson::parse_error& e) {
    // e.byte is the 1-based byte of the line where parsing stopped.
    pre.fail_col(std::max<std::size_t>(e.byte, 1),
                 jsonin::parser_message(e.what(), jsonin::LastRead::Keep));
  } catch (const ojson::exception& e) {
    // A number too large for a double ("number overflow parsing '1e999'")
    // carries no position: find the token it quotes.
    std::string msg = jsonin::parser_message(e.what(), jsonin::LastRead::Keep);
    std::size_t col = 1;
    auto open = msg.find('\'');
    auto close = open == std::string::npos ? open : msg.find('\'', open + 1);
    if (close != std::string::npos && close > open + 1)
      if (auto at = text.find(msg.substr(open + 1, close - open - 1)); at != text.npos)
        col = at + 1;
    pre.fail_col(col, msg);
  }
}

// One non-blank line of a log: a transaction of `session`, or the initial
// state.
void read_line(History& h, const ClientLog& log, SessionId session, std::size_t number,
               std::string_view text, InitMode mode, Counts& counts) {
  const ojson root = parse_line(log.name, number, text);
  Line line(log.name, number, text, root);
  if (!root.is_object())
    line.fail(0, fmt::format("expected a transaction {{\"value\": [...]}}, found {}",
                             describe(root)));
  auto ops = root.find("value");
  if (ops == root.end())
    line.fail(0, "expected a transaction {\"value\": [...]}: no \"value\" field");
  const std::size_t ops_tok = member_token(root, 0, "value");
  if (!ops->is_array())
    line.fail(ops_tok, fmt::format("value: expected the list of operations, found {}",
                                   describe(*ops)));
  bool initial = false;
  if (auto it = root.find("isInitial"); it != root.end()) {
    if (!it->is_boolean())
      line.fail(member_token(root, 0, "isInitial"),
                fmt::format("isInitial: expected true or false, found {}", describe(*it)));
    initial = it->get<bool>();
  }
  if (initial && (mode == InitMode::Auto || mode == InitMode::Explicit)) {
    // The initial state itself (T0): its values become the initial values.
    ++counts.initial_lines;
    read_ops(OpsTarget{h, std::nullopt, counts}, line, *ops, ops_tok);
    return;
  }
  TxnId txn = h.add_txn(session, fmt::format("{}.{}", client_stem(log.name), number));
  ++counts.txns;
  read_times(h, line, txn, counts);
  read_ops(OpsTarget{h, txn, counts}, line, *ops, ops_tok);
}

// The initial values inferred from the reads (see the finding above).
struct Inference {
  std::size_t inferred = 0, ambiguous = 0, unwritten_reads = 0, total_reads = 0;
};

Inference infer_initial_values(History& h) {
  Inference inf;
  std::vector<std::unordered_set<ValueId>> written(h.keys().size());
  for (const Transaction& t : h.txns())
    for (const Op& op : t.ops)
      if (op.kind == OpKind::Write) written[op.key].insert(op.value);
  std::vector<std::optional<ValueId>> unwritten(h.keys().size());
  std::vector<bool> ambiguous(h.keys().size(), false);
  auto see_read = [&](KeyId k, ValueId v) {
    ++inf.total_reads;
    if (h.has_explicit_init(k) || written[k].contains(v)) return;
    ++inf.unwritten_reads;
    if (!unwritten[k]) unwritten[k] = v;
    else if (*unwritten[k] != v) ambiguous[k] = true;
  };
  for (const Transaction& t : h.txns())
    for (const Op& op : t.ops) {
      if (op.kind == OpKind::Read) see_read(op.key, op.value);
      if (op.kind == OpKind::PredicateRead)
        for (const auto& [k, v] : h.predicate_reads()[op.predicate].result) see_read(k, v);
    }
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    if (ambiguous[k]) {
      ++inf.ambiguous;
    } else if (unwritten[k]) {
      h.set_init(k, *unwritten[k]);
      ++inf.inferred;
    }
  }
  return inf;
}

// What the initial state note says T0 writes.
std::string initial_detail(const History& h, InitialState state, const Counts& counts,
                           const Inference& inf) {
  switch (state) {
    case InitialState::Explicit: {
      std::size_t keys = 0;
      for (KeyId k = 0; k < h.keys().size(); ++k) keys += h.has_explicit_init(k) ? 1 : 0;
      return fmt::format("{} \"isInitial\" line{} {} T0, which writes only {} key{}",
                         counts.initial_lines, initial::plural(counts.initial_lines),
                         counts.initial_lines == 1 ? "is" : "are", keys, initial::plural(keys));
    }
    case InitialState::None:
      return "T0 writes no key: a read of a value no logged transaction wrote is a thin-air read";
    case InitialState::Implicit:
      return fmt::format("T0 writes every key: the inferred preloaded value for {} key{}, 0 for "
                         "the others",
                         inf.inferred, initial::plural(inf.inferred));
  }
  return {};
}

// The notes after the initial state's: inference, timestamps, ranges, flags.
void add_notes(ReadResult& result, const Counts& counts, const Inference& inf) {
  if (inf.inferred > 0)
    result.notes.push_back(fmt::format(
        "initial values inferred for {} key{}: {} of {} reads return a value no logged "
        "transaction wrote to the key, one such value per key, taken as its preloaded value",
        inf.inferred, inf.inferred == 1 ? "" : "s", inf.unwritten_reads, inf.total_reads));
  if (inf.ambiguous > 0)
    result.notes.push_back(fmt::format(
        "{} key{} read{} two or more values that no logged transaction wrote; {} initial value "
        "is left at 0",
        inf.ambiguous, inf.ambiguous == 1 ? "" : "s", inf.ambiguous == 1 ? "s" : "",
        inf.ambiguous == 1 ? "its" : "their"));
  if (counts.timestamped > 0)
    result.notes.push_back(fmt::format(
        "{} of {} transactions carry timestamps: the begin between preBeginTS and postBeginTS, "
        "the commit between preCommitTS and postCommitTS",
        counts.timestamped, counts.txns));
  if (counts.ranges > 0)
    result.notes.push_back(fmt::format("{} range read{} taken as predicate reads{}",
                                       counts.ranges, counts.ranges == 1 ? "" : "s",
                                       counts.dead_rows > 0
                                           ? fmt::format(" ({} dead rows left out of results)",
                                                         counts.dead_rows)
                                           : std::string()));
  if (counts.dead_reads > 0 || counts.failed_writes > 0)
    result.notes.push_back(fmt::format(
        "flags ignored: {} read{} flagged dead (true), {} write{} flagged unsuccessful (false)",
        counts.dead_reads, counts.dead_reads == 1 ? "" : "s", counts.failed_writes,
        counts.failed_writes == 1 ? "" : "s"));
}

}  // namespace

ReadResult read_viper(const std::vector<ClientLog>& logs, const std::string& source,
                      const ReadOptions& options) {
  if (logs.empty()) throw InputError(fmt::format("{}: no client logs", source));
  ReadResult result(Format::Viper);
  History& h = result.history;
  Counts counts;
  for (const ClientLog& log : logs) {
    const SessionId session = h.add_session();
    std::string_view rest = log.bytes;
    for (std::size_t number = 1; !rest.empty(); ++number) {
      auto nl = rest.find('\n');
      std::string_view text = rest.substr(0, nl);  // with a '\r' before the '\n'
      rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
      if (text.find_first_not_of(" \t\r") != std::string_view::npos)
        read_line(h, log, session, number, text, options.init, counts);
    }
  }

  const bool took_initial = counts.initial_lines > 0;
  if (options.init == InitMode::Explicit && !took_initial)
    throw InputError(fmt::format("{}: --init explicit: no line of the logs has \"isInitial\": "
                                 "true, so there is no initial transaction (use auto, implicit "
                                 "or none)",
                                 source));
  const InitialState state = took_initial ? InitialState::Explicit
                             : options.init == InitMode::None ? InitialState::None
                                                              : InitialState::Implicit;
  // Only T0 of an implicit initial state has inferred values.
  const Inference inf = state == InitialState::Implicit ? infer_initial_values(h) : Inference{};
  result.notes.push_back(fmt::format("Viper logs: {} client{}, {} transaction{}", logs.size(),
                                     logs.size() == 1 ? "" : "s", counts.txns,
                                     counts.txns == 1 ? "" : "s"));
  result.explicit_init = took_initial;
  initial::record(result, options.init, state, initial_detail(h, state, counts, inf));
  add_notes(result, counts, inf);
  return result;
}

}  // namespace iso
