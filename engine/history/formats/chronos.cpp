// Chronos / Aion JSON histories (FORMATS.md §9), as TimeKiller's readers
// read them (FertileFragrance/TimeKiller, src/main/java/reader/si/
// SIKVFastReader.java and SIListFastReader.java):
//   history     = [transaction, ...]
//   transaction = {"tid": id, "sid": id, "sts": clock, "cts": clock,
//                  "ops": [op, ...]}      (Aion adds "rtts"; other fields are
//                                          ignored, duplicate ones refused)
//   id          = an integer or a string
//   clock       = {"p": n, "l": n}        a hybrid logical clock: physical
//                                          part, then logical; n >= 0
//   op          = {"t": type, "k": integer, "v": value}
//   type        = "w" | "write" | "r" | "read"      key-value histories
//               | "a" | "append" | "r" | "read"     list-append histories
//                 (in any case)
// An integer is a JSON integer or a string of its decimal digits, as
// fastjson's getLong reads both (the key-value sample spells "p" so); 64-bit
// signed, and p and l non-negative.
//
// What it means:
//  - one session per distinct sid (an integer and a string of the same text
//    are one sid: Chronos reads both as strings), in order of first
//    appearance; a session's transactions in file order, Chronos's session
//    order;
//  - each transaction is named by its tid's text (unique; not "T0", the
//    initial transaction's name) and committed: Chronos logs only those;
//  - sts and cts are Transaction::start_ts and commit_ts, the database's own
//    timestamps, not client real time (begin and commit stay unset); a
//    transaction whose sts is after its cts is refused, as Chronos does;
//  - key-value: "w" writes v, "r" reads v; a missing v is null. List-append:
//    "a" appends v (a write of the integer v), "r" reads the list v
//    (History::add_list_read; null or missing: the empty list, which reads
//    the key's initial value, or null with --init none). A file is one or the other, as Chronos reads
//    it with one reader per run: an operation of the other kind is refused.
//    A read of null in a file that has no other operation to tell is read as
//    key-value (a read of null); should the file turn out list-append, it
//    reads the initial value, as the empty list does;
//  - the initial state: T0 writes the initial value to every key, null
//    (Chronos's default) or ReadOptions::initial_value (its
//    --initial_value); --init none: T0 writes nothing; --init explicit is
//    refused, as the file holds no initial transaction;
//  - Aion's "rtts" (one real-time instant per transaction, in milliseconds)
//    is not modelled: a note counts the transactions that carry it;
//  - Op::line is the line of the operation's '{'.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/util/int_map.hpp"
#include "engine/history/formats/json_reader.hpp"

namespace iso {
namespace {

using jsonin::compound;
using jsonin::JValue;
using jsonin::shown;

enum class Ctx : std::uint8_t {
  Txns,   // [transaction, ...]
  Txn,    // {"tid": ..., "sid": ..., "sts": ..., "cts": ..., "ops": ...}
  Clock,  // {"p": ..., "l": ...}
  Ops,    // [op, ...]
  Op,     // {"t": ..., "k": ..., "v": ...}
  List,   // a list read's "v": [element, ...]
  Skip,   // an ignored field's value
};

using Frame = jsonin::Frame<Ctx>;

// Known fields, as bits of Frame::seen.
enum : unsigned { kTid = 1, kSid = 2, kSts = 4, kCts = 8, kOps = 16, kRtts = 32 };
enum : unsigned { kP = 1, kL = 2 };
enum : unsigned { kT = 1, kK = 2, kV = 4 };

enum class Model : std::uint8_t { Unknown, KeyValue, List };

std::string_view model_name(Model m) { return m == Model::List ? "list-append" : "key-value"; }

enum class OpType : std::uint8_t { Write, Read, Append };

// What an operation's "v" holds.
enum class VKind : std::uint8_t { Missing, Null, Integer, List };

struct OpState {
  std::uint32_t line = 0, column = 0;  // of its '{'

  OpType type = OpType::Read;
  KeyId key = 0;
  VKind v = VKind::Missing;
  std::size_t v_tok = 0;
  std::int64_t value = 0;           // VKind::Integer
  std::size_t first = 0, last = 0;  // VKind::List: its elements in TxnState::elements
};

struct TxnState {
  std::string tid, sid;
  std::optional<DbTimestamp> sts, cts;
  std::vector<OpState> ops;
  std::vector<ValueId> elements;  // of the list reads
};

// The data model an operation belongs to (Unknown: a read of null, either).
Model model_of(const OpState& op) {
  switch (op.type) {
    case OpType::Write: return Model::KeyValue;
    case OpType::Append: return Model::List;
    case OpType::Read:
      if (op.v == VKind::Integer) return Model::KeyValue;
      if (op.v == VKind::List) return Model::List;
      return Model::Unknown;
  }
  return Model::Unknown;
}

// "a write", "a list read", ... for messages.
std::string_view what_op(const OpState& op) {
  switch (op.type) {
    case OpType::Write: return "a write";
    case OpType::Append: return "an append";
    case OpType::Read: return op.v == VKind::List ? "a list read" : "a read of an integer";
  }
  return "an operation";
}

std::string clock_text(const DbTimestamp& t) {
  return fmt::format("{{\"p\": {}, \"l\": {}}}", t.physical, t.logical);
}

class ChronosReader final : public jsonin::Reader<Ctx> {
 public:
  ChronosReader(std::string_view text, const std::string& source, ReadResult& result,
                const ReadOptions& options)
      : Reader(text, source),
        result_(result),
        h_(result.history),
        lines_(text),
        mode_(options.init),
        initial_value_(options.initial_value) {
    initial::refuse_explicit(source, mode_, "Chronos JSON", "the file has no initial transaction");
    null_ = h_.intern_value(Value{});
    initial_ = initial_value_ ? h_.intern_value(Value{*initial_value_}) : null_;
    // With no initial state the empty list reads null, which no append
    // writes: a thin-air read, as with Elle's.
    empty_ = mode_ == InitMode::None ? null_ : initial_;
  }

  // After parse(): the initial state and the notes.
  void finish() {
    if (model_ == Model::List)
      for (const auto& [t, i] : pending_) h_.txn(t).ops[i].value = empty_;
    const std::size_t keys = h_.keys().size();
    result_.notes.push_back(fmt::format("Chronos JSON history, {}: {} transaction{}, {} "
                                        "session{}, {} key{}",
                                        model_name(model_), txns_, initial::plural(txns_),
                                        sessions_.size(), initial::plural(sessions_.size()),
                                        keys, initial::plural(keys)));
    const bool list = model_ == Model::List;
    const std::string implicit =
        fmt::format("T0 writes {} to every key ({}){}",
                    initial_value_ ? std::to_string(*initial_value_) : std::string("null"),
                    initial_value_ ? "--initial-value"
                                   : "Chronos's default initial value; --initial-value gives "
                                     "another",
                    list ? "; a read of the empty list reads it" : "");
    initial::record_implicit_or_none(
        result_, mode_, implicit,
        list ? "T0 writes no key: a read of the empty list is a thin-air read"
             : "T0 writes no key: a read of a value no transaction wrote, such as null, is a "
               "thin-air read",
        initial_);
    if (txns_ > 0)
      result_.notes.push_back("sts and cts are the database's own start and commit "
                              "timestamps: kept as such, not taken as real time");
    if (rtts_ > 0)
      result_.notes.push_back(fmt::format("{} transaction{} carr{} Aion's real-time timestamp "
                                          "\"rtts\": ignored",
                                          rtts_, initial::plural(rtts_),
                                          rtts_ == 1 ? "ies" : "y"));
  }

 private:
  void on(JValue v) override {
    if (frames_.empty()) {
      expect(v, JValue::Type::Array, "expected an array of transactions");
      push(Ctx::Txns, v);
      return;
    }
    switch (frames_.back().ctx) {
      case Ctx::Txns:
        expect(v, JValue::Type::Object,
               "a transaction must be an object {\"tid\": ..., \"sid\": ..., \"sts\": ..., "
               "\"cts\": ..., \"ops\": [...]}");
        txn_.tid.clear();
        txn_.sid.clear();
        txn_.sts.reset();
        txn_.cts.reset();
        txn_.ops.clear();
        txn_.elements.clear();
        push(Ctx::Txn, v);
        break;
      case Ctx::Txn: txn_field(v); break;
      case Ctx::Clock: clock_field(v); break;
      case Ctx::Ops:
        expect(v, JValue::Type::Object,
               "an operation must be an object {\"t\": ..., \"k\": ..., \"v\": ...}");
        op_ = OpState{};
        op_.line = op_line(lines_.line(v.tok));
        op_.column = op_column(lines_.column(v.tok));
        push(Ctx::Op, v);
        break;
      case Ctx::Op: op_field(v); break;
      case Ctx::List:
        txn_.elements.push_back(value_id(integer(v, "a list element", "an integer")));
        break;
      case Ctx::Skip:
        if (compound(v)) push(Ctx::Skip, v);
        break;
    }
  }

  void on_key(std::size_t tok) override {
    Frame& f = frames_.back();
    switch (f.ctx) {
      case Ctx::Txn:
        if (f.key == "tid") once(kTid, tok);
        else if (f.key == "sid") once(kSid, tok);
        else if (f.key == "sts") once(kSts, tok);
        else if (f.key == "cts") once(kCts, tok);
        else if (f.key == "ops") once(kOps, tok);
        else if (f.key == "rtts") once(kRtts, tok);
        break;
      case Ctx::Clock:
        if (f.key == "p") once(kP, tok);
        else if (f.key == "l") once(kL, tok);
        break;
      case Ctx::Op:
        if (f.key == "t") once(kT, tok);
        else if (f.key == "k") once(kK, tok);
        else if (f.key == "v") once(kV, tok);
        break;
      default: break;
    }
  }

  void on_end(Frame& f) override {
    switch (f.ctx) {
      case Ctx::Txn: end_txn(f); break;
      case Ctx::Clock: {
        require(f, kP, "\"p\" (the physical part)");
        require(f, kL, "\"l\" (the logical part)");
        // frames_.back() is the transaction, its key "sts" or "cts".
        (frames_.back().key == "sts" ? txn_.sts : txn_.cts) = clock_;
        break;
      }
      case Ctx::Op: end_op(f); break;
      default: break;
    }
  }

  void txn_field(const JValue& v) {
    const std::string& name = frames_.back().key;
    if (name == "tid") {
      txn_.tid = id_text(v, "tid");
      if (txn_.tid.empty()) fail(v.tok, "tid must not be empty");
      if (txn_.tid == "T0") fail(v.tok, "tid \"T0\" is reserved for the initial transaction");
      auto [it, fresh] = tids_.try_emplace(txn_.tid, v.tok);
      if (!fresh)
        fail(v.tok, fmt::format("duplicate tid {} (first used at {})", quote_string(txn_.tid),
                                token_position(it->second)));
    } else if (name == "sid") {
      txn_.sid = id_text(v, "sid");
    } else if (name == "sts" || name == "cts") {
      if (v.type != JValue::Type::Object)
        fail(v.tok, fmt::format("{} must be a hybrid logical clock {{\"p\": ..., \"l\": ...}}, "
                                "got {}",
                                name, shown(v)));
      clock_ = DbTimestamp{};
      push(Ctx::Clock, v);
    } else if (name == "ops") {
      expect(v, JValue::Type::Array, "ops must be an array of operations");
      push(Ctx::Ops, v);
    } else if (compound(v)) {
      push(Ctx::Skip, v);  // "rtts" or an unknown field
    }
  }

  void clock_field(const JValue& v) {
    const std::string& name = frames_.back().key;
    if (name == "p") clock_.physical = integer(v, "p", "a non-negative integer", true);
    else if (name == "l") clock_.logical = integer(v, "l", "a non-negative integer", true);
    else if (compound(v)) push(Ctx::Skip, v);
  }

  void op_field(const JValue& v) {
    const std::string& name = frames_.back().key;
    if (name == "t") {
      op_.type = op_type(v);
    } else if (name == "k") {
      op_.key = key_id(integer(v, "the key k", "an integer"));
    } else if (name == "v") {
      op_.v_tok = v.tok;
      if (v.type == JValue::Type::Null) {
        op_.v = VKind::Null;
      } else if (v.type == JValue::Type::Array) {
        op_.v = VKind::List;
        op_.first = txn_.elements.size();
        push(Ctx::List, v);
      } else {
        op_.v = VKind::Integer;
        op_.value = integer(v, "v", "an integer, a list of integers or null");
      }
    } else if (compound(v)) {
      push(Ctx::Skip, v);
    }
  }

  OpType op_type(const JValue& v) const {
    expect(v, JValue::Type::String,
           "the operation type t must be a string (\"w\", \"r\", \"a\", ...)");
    std::string lower;
    if (v.s.size() <= 6)
      for (char c : v.s) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower == "w" || lower == "write") return OpType::Write;
    if (lower == "r" || lower == "read") return OpType::Read;
    if (lower == "a" || lower == "append") return OpType::Append;
    fail(v.tok, fmt::format("unknown operation type {} (expected \"w\" or \"write\", \"r\" or "
                            "\"read\", \"a\" or \"append\")",
                            v.s.size() <= 20 ? quote_string(v.s)
                                             : quote_string(v.s.substr(0, 17)) + "..."));
  }

  // tid and sid: an integer or a string, as text.
  std::string id_text(const JValue& v, std::string_view what) const {
    switch (v.type) {
      case JValue::Type::String: return v.s;
      case JValue::Type::Unsigned: return std::to_string(v.u);
      case JValue::Type::Negative: return std::to_string(v.negative);
      default:
        fail(v.tok, fmt::format("{} must be an integer or a string, got {}", what, shown(v)));
    }
  }

  // An integer as Chronos reads one: a JSON integer, or a string of its
  // decimal digits. `expected` says what the field may hold, for messages.
  std::int64_t integer(const JValue& v, std::string_view what, std::string_view expected,
                       bool non_negative = false) const {
    std::int64_t n = 0;
    switch (v.type) {
      case JValue::Type::Unsigned:
        if (v.u > static_cast<std::uint64_t>(INT64_MAX))
          out_of_range(v, what, std::to_string(v.u));
        n = static_cast<std::int64_t>(v.u);
        break;
      case JValue::Type::Negative: n = v.negative; break;
      case JValue::Type::Float:
        // Digits only: an integer beyond 64 bits, which nlohmann reads as a float.
        if (jsonin::integer_beyond_64_bits(v)) out_of_range(v, what, v.s);
        fail(v.tok, fmt::format("{} must be {}, got {}", what, expected, shown(v)));
      case JValue::Type::String: {
        const char* end = v.s.data() + v.s.size();
        auto [ptr, ec] = std::from_chars(v.s.data(), end, n);
        if (ec == std::errc::result_out_of_range && ptr == end)
          out_of_range(v, what, quote_string(v.s));
        if (ec != std::errc() || ptr != end)
          fail(v.tok, fmt::format("{} must be {}, got {} (a string must spell an integer in "
                                  "decimal digits)",
                                  what, expected, shown(v)));
        break;
      }
      default: fail(v.tok, fmt::format("{} must be {}, got {}", what, expected, shown(v)));
    }
    if (non_negative && n < 0)
      fail(v.tok, fmt::format("{} must be {}, got {}", what, expected, shown(v)));
    return n;
  }

  [[noreturn]] void out_of_range(const JValue& v, std::string_view what,
                                 std::string_view spelling) const {
    fail(v.tok, fmt::format("{} {} is out of the 64-bit signed range this checker supports",
                            what, spelling));
  }

  // A key through a cache by number (History interns keys by text); a value
  // as History interns integers, by number.
  KeyId key_id(std::int64_t k) {
    return key_ids_.get_or_make(k, [&] { return h_.intern_key(std::to_string(k), true); });
  }
  ValueId value_id(std::int64_t v) { return h_.intern_value(Value{v}); }

  void end_op(const Frame& f) {
    require(f, kT, "\"t\" (the operation type)");
    require(f, kK, "\"k\" (the key)");
    if (op_.v == VKind::List) op_.last = txn_.elements.size();
    if (op_.type == OpType::Write && op_.v == VKind::List)
      fail(op_.v_tok, "a write's v must be an integer or null, got a list", ".v");
    if (op_.type == OpType::Append) {
      if (op_.v == VKind::Missing) fail(f.start, "missing field \"v\" (the appended element)");
      if (op_.v != VKind::Integer)
        fail(op_.v_tok,
             fmt::format("an append's v must be an integer, got {}",
                         op_.v == VKind::Null ? "null" : "a list"),
             ".v");
    }
    if (const Model m = model_of(op_); m != Model::Unknown) {
      if (model_ == Model::Unknown) {
        model_ = m;
        model_tok_ = f.start;
        model_op_ = what_op(op_);
      } else if (m != model_) {
        fail(f.start, fmt::format("{} in a {} history (the operation at {} is {}); a Chronos "
                                  "history is all key-value or all list-append",
                                  what_op(op_), model_name(model_), token_position(model_tok_),
                                  model_op_));
      }
    }
    txn_.ops.push_back(op_);
  }

  void end_txn(const Frame& f) {
    require(f, kTid, "\"tid\" (the transaction id)");
    require(f, kSid, "\"sid\" (the session id)");
    require(f, kSts, "\"sts\" (the start timestamp)");
    require(f, kCts, "\"cts\" (the commit timestamp)");
    require(f, kOps, "\"ops\" (the operations)");
    if (*txn_.sts > *txn_.cts)
      fail(f.start, fmt::format("transaction {}: its start timestamp sts {} is after its commit "
                                "timestamp cts {}",
                                display_text(txn_.tid), clock_text(*txn_.sts),
                                clock_text(*txn_.cts)));
    if (f.seen & kRtts) ++rtts_;
    add_txn();
  }

  void add_txn() {
    auto [it, fresh] = sessions_.try_emplace(txn_.sid, SessionId{0});
    if (fresh) it->second = h_.add_session();
    const TxnId t = h_.add_txn(it->second, txn_.tid, TxnStatus::Committed);
    ++txns_;
    h_.txn(t).start_ts = txn_.sts;
    h_.txn(t).commit_ts = txn_.cts;
    for (const OpState& op : txn_.ops) {
      if (op.type == OpType::Write) {
        h_.add_write(t, op.key, op.v == VKind::Integer ? value_id(op.value) : null_, op.line, op.column);
      } else if (op.type == OpType::Append) {
        h_.add_write(t, op.key, value_id(op.value), op.line, op.column);
      } else if (op.v == VKind::Integer) {
        h_.add_read(t, op.key, value_id(op.value), op.line, op.column);
      } else if (op.v == VKind::List || model_ == Model::List) {
        std::vector<ValueId> elements;
        if (op.v == VKind::List)
          elements.assign(txn_.elements.begin() + static_cast<std::ptrdiff_t>(op.first),
                          txn_.elements.begin() + static_cast<std::ptrdiff_t>(op.last));
        h_.add_list_read(t, op.key, std::move(elements), empty_, op.line, op.column);
      } else {
        // A read of null: key-value, unless the file turns out list-append.
        if (model_ == Model::Unknown)
          pending_.emplace_back(t, static_cast<std::uint32_t>(h_.txn(t).ops.size()));
        h_.add_read(t, op.key, null_, op.line, op.column);
      }
    }
  }

  ReadResult& result_;
  History& h_;
  jsonin::TokenScanner lines_;  // the line of each operation
  InitMode mode_;
  std::optional<std::int64_t> initial_value_;
  ValueId null_ = 0, initial_ = 0;
  ValueId empty_ = 0;  // what the empty list reads
  TxnState txn_;
  OpState op_;
  DbTimestamp clock_;
  Model model_ = Model::Unknown;
  std::size_t model_tok_ = 0;          // the operation that set model_
  std::string_view model_op_;          // and what it is
  std::unordered_map<std::string, std::size_t> tids_;  // tid -> its token
  std::unordered_map<std::string, SessionId> sessions_;  // sid -> session
  IntMap<KeyId> key_ids_;
  std::vector<std::pair<TxnId, std::uint32_t>> pending_;  // reads of null, model unknown
  std::size_t txns_ = 0, rtts_ = 0;
};

}  // namespace

ReadResult read_chronos(std::string_view text, const std::string& source,
                        const ReadOptions& options) {
  ReadResult result(Format::Chronos);
  ChronosReader reader(text, source, result, options);  // refuses --init explicit
  reader.parse();
  reader.finish();
  return result;
}

}  // namespace iso
