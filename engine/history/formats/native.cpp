// The native JSON history reader (FORMATS.md §1; json_format.hpp states
// what it promises): one streaming pass of nlohmann's SAX parser over the
// text, on the JSON reading base (json_reader.hpp), which gives every error
// its "SOURCE:LINE:COL: PATH:" prefix.
//
// Input: the bytes of a file, at most kMaxNativeJsonBytes. Output: the
// history, with the initial state the file and --init say (read_native's
// notes tell which). The grammar, one method a context:
//   root        = {"format": "isosynth-history", "version": 1, "init": init,
//                  "sessions": [session, ...], "initial_state": ...}
//   session     = [transaction, ...]
//   transaction = {"id": ..., "ops": [op, ...], "status": ..., "begin": n,
//                  "commit": n, "begin_end": n, "commit_start": n,
//                  "sts": stamp, "cts": stamp}
//   op          = ["r", key, value | [v1, ...]] | ["w", key, value] | ["d", key]
//               | ["pr", predicate, [[key, value], ...]] | ["pw", predicate,
//                 value] | ["pd", predicate]
// Unknown fields are skipped; known ones may appear once.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/util/int_map.hpp"
#include "engine/history/formats/json_reader.hpp"
#include "engine/history/predicate.hpp"

namespace iso {

namespace {

using jsonin::compound;
using jsonin::int64_of;
using jsonin::JValue;
using Type = JValue::Type;

enum class Ctx : std::uint8_t {
  Root, Init, Sessions, Session, Txn, Ops, Op, List, PrResult, PrPair, Stamp, Skip
};

using Frame = jsonin::Frame<Ctx>;

// A value as this format's messages show it.
std::string describe_native(const JValue& v) {
  switch (v.type) {
    case Type::Negative: return fmt::format("the integer {}", v.negative);
    case Type::Unsigned:
      if (v.u > static_cast<std::uint64_t>(INT64_MAX))
        return fmt::format("the integer {}, which is out of range", v.u);
      return fmt::format("the integer {}", v.u);
    case Type::Float:
      if (jsonin::integer_beyond_64_bits(v))
        return fmt::format("the integer {}, which is out of range", v.s);
      return fmt::format("the number {}", v.s);
    case Type::String:
      if (v.s.size() <= 60) return "the string " + quote_string(v.s);
      return "the string " + quote_string(v.s.substr(0, 57)) + "...";
    default: return jsonin::shown(v);
  }
}

// A key, an initial value, a value read or written: an integer (up to
// 2^64 - 1: dbcop's u64 values, written back as they were), a string or
// null.
std::optional<Value> to_value(const JValue& v) {
  switch (v.type) {
    case Type::Null: return Value{std::monostate{}};
    case Type::Negative: return Value{v.negative};
    case Type::Unsigned:
      if (v.u <= static_cast<std::uint64_t>(INT64_MAX)) return Value{static_cast<std::int64_t>(v.u)};
      return unsigned_value(v.u);
    case Type::String: return Value{v.s};
    default: return std::nullopt;  // beyond 64 bits, a fraction, a bool, compound
  }
}

constexpr std::string_view kRwShape = R"(["r", key, value])";
constexpr std::string_view kListShape = R"(["r", key, [v1, v2, ...]])";
constexpr std::string_view kPrShape = R"(["pr", predicate, [[key, value], ...]])";
constexpr std::string_view kPwShape = R"(["pw", predicate, value])";

struct PendingOp {
  OpKind kind = OpKind::Read;
  KeyId key = 0;
  ValueId value = 0;
  bool list = false;               // a list-append read: `elements` is its list
  bool deleted = false;            // a delete ["d", key]: a write of the tombstone
  std::vector<ValueId> elements;
  PredicateRead pr;
  std::size_t tok = 0;             // token of the operation's '['
  std::uint32_t line = 0, column = 0;
};

struct TxnState {
  std::optional<std::string> id;
  std::size_t id_tok = 0;
  TxnStatus status = TxnStatus::Committed;
  std::optional<std::int64_t> begin, commit, begin_end, commit_start;
  std::size_t commit_tok = 0, begin_end_tok = 0, commit_start_tok = 0;
  // The database's timestamps "sts"/"cts" as [physical, logical].
  std::optional<DbTimestamp> sts, cts;
  std::size_t cts_tok = 0;
  std::vector<PendingOp> ops;
};

struct InitEntry {
  std::string key;
  Value value;
};

// Field bits of the root object and of a transaction.
enum : unsigned { kFormat = 1, kVersion = 2, kInit = 4, kSessions = 8, kInitialState = 16 };
enum : unsigned {
  kId = 1, kOps = 2, kStatus = 4, kBegin = 8, kCommit = 16, kSts = 32, kCts = 64, kBeginEnd = 128,
  kCommitStart = 256
};

std::string plural_elements(std::size_t n) {
  return fmt::format("{} element{}", n, n == 1 ? "" : "s");
}

class NativeReader final : public jsonin::Reader<Ctx> {
 public:
  // `explicit_first`: the file's first transaction is the initial state
  // (--init explicit): its writes become initial values, and it is refused
  // when it does anything else.
  NativeReader(std::string_view text, const std::string& source, History& h, bool explicit_first)
      : Reader(text, source, jsonin::LastRead::Shorten),
        h_(h),
        lines_(text),
        explicit_first_(explicit_first) {}

  // After a successful parse: the initial values, in the order of their keys'
  // text so that reading is independent of the order of `init`'s fields,
  // then those of the transaction taken as the initial state, which win;
  // then T0's keys as `initial` says (the file's "initial_state" when
  // absent), and the version each empty list read returns.
  void finish(std::optional<InitialWrites> initial) {
    std::sort(init_.begin(), init_.end(),
              [](const InitEntry& a, const InitEntry& b) { return a.key < b.key; });
    for (const InitEntry& e : init_) {
      KeyId k = h_.intern_key(e.key, false);
      h_.set_init(k, h_.intern_value(e.value));
    }
    for (const auto& [k, v] : first_writes_) h_.set_init(k, v);
    h_.set_initial_writes(initial.value_or(file_initial_.value_or(InitialWrites::EveryKey)));
    // An empty list reads the key's initial version: T0's value, or when T0
    // does not write the key a version nobody installed (null, the empty
    // list of Elle's histories).
    const ValueId null = h_.intern_value(Value{std::monostate{}});
    for (const auto& [t, i] : empty_lists_) {
      Op& op = h_.txn(t).ops[i];
      op.value = h_.t0_writes(op.key) ? h_.init_value(op.key) : null;
    }
  }

  std::size_t init_entries() const { return init_.size(); }
  std::size_t first_writes() const { return first_writes_.size(); }
  std::optional<InitialWrites> file_initial() const { return file_initial_; }
  bool took_first() const { return took_first_; }

 private:
  std::string describe(const JValue& v) const override { return describe_native(v); }

  std::string here() const { return path(frames_.size()); }       // the current element
  std::string parent() const { return path(frames_.size() - 1); }  // the innermost frame

  // At `v`, naming its operation (or pair) rather than the element itself.
  [[noreturn]] void fail_in_parent(const JValue& v, std::string_view msg) const {
    fail_at(v.tok, parent(), msg);
  }

  void on_key(std::size_t tok) override {
    Frame& f = frames_.back();
    if (f.ctx == Ctx::Root) {
      check_duplicate(f, tok, {{"format", kFormat}, {"version", kVersion}, {"init", kInit},
                               {"sessions", kSessions}, {"initial_state", kInitialState}});
    } else if (f.ctx == Ctx::Txn) {
      check_duplicate(f, tok, {{"id", kId}, {"ops", kOps}, {"status", kStatus},
                               {"begin", kBegin}, {"commit", kCommit}, {"sts", kSts},
                               {"cts", kCts}, {"begin_end", kBeginEnd},
                               {"commit_start", kCommitStart}});
    } else if (f.ctx == Ctx::Init && !init_keys_.insert(f.key).second) {
      fail_at(tok, "init", fmt::format("duplicate key {}", quote_string(f.key)));
    }
  }

  // A duplicate known field, named at the object that holds it.
  void check_duplicate(Frame& f, std::size_t tok,
                       std::initializer_list<std::pair<std::string_view, unsigned>> known) {
    for (const auto& [name, bit] : known) {
      if (f.key != name) continue;
      if (f.seen & bit) fail_at(tok, parent(), fmt::format("duplicate field \"{}\"", name));
      f.seen |= bit;
    }
  }

  KeyId key_of(const JValue& v, const std::string& where) {
    if (v.type == Type::String) return h_.intern_key(v.s, false);
    if (auto i = int64_of(v))
      return int_keys_.get_or_make(*i, [&] { return h_.intern_key(std::to_string(*i), true); });
    fail_at(v.tok, where, "key must be a string or an integer, got " + describe(v));
  }

  ValueId value_of(const JValue& v, const std::string& where) {
    auto value = to_value(v);
    if (!value)
      fail_at(v.tok, where, "value must be an integer, a string or null, got " + describe(v));
    return h_.intern_value(*value);  // an integer by number (History::intern_value)
  }

  // --- the grammar, one method a context ----------------------------------------
  void on(JValue v) override {
    if (frames_.empty()) {
      expect(v, Type::Object, "expected an object with a \"sessions\" field at top level");
      push(Ctx::Root, v);
      return;
    }
    switch (frames_.back().ctx) {
      case Ctx::Root: return root_field(v);
      case Ctx::Init: return init_entry(v);
      case Ctx::Sessions: return session(v);
      case Ctx::Session: return transaction(v);
      case Ctx::Txn: return txn_field(v);
      case Ctx::Ops: return operation(v);
      case Ctx::Op: return op_element(v);
      case Ctx::List: return list_element(v);
      case Ctx::PrResult: return pr_entry(v);
      case Ctx::PrPair: return pr_element(v);
      case Ctx::Stamp: return stamp_element(v);
      case Ctx::Skip:
        if (compound(v)) push(Ctx::Skip, v);
        return;
    }
  }

  void root_field(const JValue& v) {
    const std::string& name = frames_.back().key;
    if (name == "format") {
      expect(v, Type::String, "format must be a string");
      if (v.s != "isosynth-history")
        fail(v.tok, fmt::format("unknown format {} (expected \"isosynth-history\")",
                                quote_string(v.s)));
    } else if (name == "version") {
      const auto version = int64_of(v);
      if (!version) fail(v.tok, "version must be an integer, got " + describe(v));
      if (*version != 1) fail(v.tok, fmt::format("unsupported version {} (expected 1)", *version));
    } else if (name == "init") {
      expect(v, Type::Object, "init must be an object mapping keys to initial values");
      push(Ctx::Init, v);
    } else if (name == "sessions") {
      expect(v, Type::Array, "sessions must be an array of sessions");
      push(Ctx::Sessions, v);
    } else if (name == "initial_state") {
      if (v.type == Type::String && v.s == "every-key")
        file_initial_ = InitialWrites::EveryKey;
      else if (v.type == Type::String && v.s == "explicit-only")
        file_initial_ = InitialWrites::ExplicitOnly;
      else
        fail(v.tok, "initial_state must be \"every-key\" or \"explicit-only\", got " + describe(v));
    } else if (compound(v)) {
      push(Ctx::Skip, v);
    }
  }

  void init_entry(const JValue& v) {
    auto value = to_value(v);
    if (!value)
      fail(v.tok, "initial value must be an integer, a string or null, got " + describe(v));
    init_.push_back(InitEntry{frames_.back().key, std::move(*value)});
  }

  void session(const JValue& v) {
    expect(v, Type::Array, "a session must be an array of transactions");
    session_ = h_.add_session();
    push(Ctx::Session, v);
  }

  void transaction(const JValue& v) {
    expect(v, Type::Object, "a transaction must be an object");
    txn_ = TxnState{};
    push(Ctx::Txn, v);
  }

  void txn_field(const JValue& v) {
    const std::string& name = frames_.back().key;
    if (name == "id") {
      txn_id(v);
    } else if (name == "ops") {
      expect(v, Type::Array, "ops must be an array of operations");
      push(Ctx::Ops, v);
    } else if (name == "status") {
      txn_status(v);
    } else if (name == "begin" || name == "commit" || name == "begin_end" || name == "commit_start") {
      txn_time(v, name);
    } else if (name == "sts" || name == "cts") {
      if (v.type != Type::Array)
        fail(v.tok, fmt::format("{} must be a [physical, logical] pair of integers, got {}", name,
                                describe(v)));
      (name == "sts" ? txn_.sts : txn_.cts) = DbTimestamp{};
      if (name == "cts") txn_.cts_tok = v.tok;
      push(Ctx::Stamp, v);
    } else if (compound(v)) {
      push(Ctx::Skip, v);
    }
  }

  void txn_id(const JValue& v) {
    expect(v, Type::String, "id must be a string");
    if (v.s.empty()) fail(v.tok, "transaction id must not be empty");
    if (v.s == "T0") fail(v.tok, "transaction id \"T0\" is reserved for the initial transaction");
    // The token of the id's first use: by a transaction, or by the one
    // taken as T0.
    std::optional<std::size_t> first;
    if (auto other = h_.find_txn(v.s)) first = id_tok_[*other];
    else if (took_first_ && v.s == first_id_) first = first_id_tok_;
    if (first)
      fail(v.tok, fmt::format("duplicate transaction id {} (first used at {})", quote_string(v.s),
                              token_position(*first)));
    txn_.id = v.s;
    txn_.id_tok = v.tok;
  }

  void txn_status(const JValue& v) {
    expect(v, Type::String, "status must be a string");
    if (v.s == "committed") txn_.status = TxnStatus::Committed;
    else if (v.s == "aborted") txn_.status = TxnStatus::Aborted;
    else if (v.s == "unknown") txn_.status = TxnStatus::Unknown;
    else
      fail(v.tok, fmt::format("unknown status {} (expected \"committed\", \"aborted\" or "
                              "\"unknown\")",
                              quote_string(v.s)));
  }

  // "begin", "commit", "begin_end" or "commit_start".
  void txn_time(const JValue& v, const std::string& name) {
    const auto time = int64_of(v);
    if (!time)
      fail(v.tok, fmt::format("{} must be an integer timestamp, got {}", name, describe(v)));
    if (name == "begin") {
      txn_.begin = time;
    } else if (name == "commit") {
      txn_.commit = time;
      txn_.commit_tok = v.tok;
    } else if (name == "begin_end") {
      txn_.begin_end = time;
      txn_.begin_end_tok = v.tok;
    } else {
      txn_.commit_start = time;
      txn_.commit_start_tok = v.tok;
    }
  }

  // An element of "sts" or "cts": the physical part, then the logical one.
  void stamp_element(const JValue& v) {
    const std::size_t n = frames_.back().count - 1;
    const std::string& name = frames_[frames_.size() - 2].key;
    const auto part = int64_of(v);
    if (!part)
      fail(v.tok, fmt::format("{} must be a [physical, logical] pair of integers, got {}", name,
                              describe(v)));
    if (n > 1) fail(v.tok, fmt::format("{} has more than two elements", name));
    DbTimestamp& stamp = name == "sts" ? *txn_.sts : *txn_.cts;
    (n == 0 ? stamp.physical : stamp.logical) = *part;
  }

  void operation(const JValue& v) {
    if (v.type != Type::Array)
      fail(v.tok, fmt::format("an operation must be an array such as {}, got {}", kRwShape,
                              describe(v)));
    op_ = PendingOp{};
    op_.tok = v.tok;
    op_.line = op_line(lines_.line(v.tok));
    op_.column = op_column(lines_.column(v.tok));
    push(Ctx::Op, v);
  }

  void op_element(const JValue& v) {
    const std::size_t n = frames_.back().count - 1;
    if (n == 0) return op_kind(v);
    if (op_.kind == OpKind::Read || op_.kind == OpKind::Write) return key_op_element(v, n);
    if (n == 1) return predicate(v);
    if (op_.kind == OpKind::PredicateWrite) {
      if (n == 2 && !op_.deleted) {
        op_.value = value_of(v, parent());
        return;
      }
      fail_in_parent(v, op_.deleted ? std::string("too many elements in a predicate delete "
                                                  "(expected [\"pd\", predicate])")
                                    : fmt::format("too many elements in a predicate write "
                                                  "(expected {})",
                                                  kPwShape));
    }
    if (n != 2)
      fail_in_parent(v, fmt::format("too many elements in predicate read (expected {})", kPrShape));
    if (v.type != Type::Array)
      fail_in_parent(v, "predicate result must be an array of [key, value] pairs, got " +
                            describe(v));
    push(Ctx::PrResult, v);
  }

  void op_kind(const JValue& v) {
    if (v.type != Type::String)
      fail_in_parent(v, "operation kind must be the string \"r\", \"w\", \"d\", \"pr\", \"pw\" "
                        "or \"pd\", got " + describe(v));
    if (v.s == "r") {
      op_.kind = OpKind::Read;
    } else if (v.s == "w") {
      op_.kind = OpKind::Write;
    } else if (v.s == "d" || v.s == "pd") {
      // A delete writes the tombstone.
      op_.kind = v.s == "d" ? OpKind::Write : OpKind::PredicateWrite;
      op_.deleted = true;
      op_.value = h_.intern_value(Value{Deleted{}});
    } else if (v.s == "pr") {
      op_.kind = OpKind::PredicateRead;
    } else if (v.s == "pw") {
      op_.kind = OpKind::PredicateWrite;
    } else {
      fail_in_parent(v, fmt::format("unknown operation kind {} (expected \"r\", \"w\", \"d\", "
                                    "\"pr\", \"pw\" or \"pd\")",
                                    quote_string(v.s)));
    }
  }

  // Element n > 0 of a read, write or delete of a key.
  void key_op_element(const JValue& v, std::size_t n) {
    if (n == 1) {
      op_.key = key_of(v, parent());
    } else if (n == 2 && op_.kind == OpKind::Read && v.type == Type::Array) {
      op_.list = true;  // a list-append read
      push(Ctx::List, v);
    } else if (n == 2 && op_.deleted) {
      fail_in_parent(v, "a delete has no value (expected [\"d\", key])");
    } else if (n == 2) {
      op_.value = value_of(v, parent());
    } else {
      fail_in_parent(v, fmt::format("too many elements in operation (expected {})", kRwShape));
    }
  }

  // The predicate of "pr", "pw" or "pd".
  void predicate(const JValue& v) {
    if (v.type != Type::String)
      fail_in_parent(v, "predicate must be a string such as \"[lo,hi]\", \"prefix:abc\" or "
                        "\"v<3\", got " + describe(v));
    std::string why;
    if (!parse_predicate(v.s, &why))
      fail_in_parent(v, fmt::format("predicate {}: {}", quote_string(v.s), why));
    op_.pr.predicate = v.s;
  }

  void list_element(const JValue& v) {
    auto value = to_value(v);
    if (!value)
      fail(v.tok, fmt::format("a list element must be an integer, a string or null "
                              "(expected {}), got {}",
                              kListShape, describe(v)));
    op_.elements.push_back(h_.intern_value(*value));
  }

  void pr_entry(const JValue& v) {
    expect(v, Type::Array, "a predicate result entry must be a [key, value] pair");
    push(Ctx::PrPair, v);
  }

  void pr_element(const JValue& v) {
    const std::size_t n = frames_.back().count - 1;
    if (n == 0) {
      pair_key_ = key_of(v, parent());
      for (const auto& [k, value] : op_.pr.result)
        if (k == pair_key_)
          fail_in_parent(v, fmt::format("key {} appears twice in the predicate result",
                                        h_.key_text(k)));
    } else if (n == 1) {
      op_.pr.result.emplace_back(pair_key_, value_of(v, parent()));
    } else {
      fail_in_parent(v, "too many elements in a predicate result entry (expected [key, value])");
    }
  }

  // --- ends ----------------------------------------------------------------------
  void on_end(Frame& f) override {
    switch (f.ctx) {
      case Ctx::Root:
        require(f, kSessions, "\"sessions\"");
        break;
      case Ctx::Txn: end_txn(f); break;
      case Ctx::Op: end_op(f); break;
      case Ctx::Stamp:
        if (f.count != 2)
          fail(f.start, fmt::format("a timestamp must be a [physical, logical] pair, got {}",
                                    plural_elements(f.count)));
        break;
      case Ctx::PrPair:
        if (f.count < 2)
          fail(f.start, fmt::format("a predicate result entry must be a [key, value] pair, got {}",
                                    plural_elements(f.count)));
        break;
      default: break;
    }
  }

  void end_op(const Frame& f) {
    if (f.count == 0)
      fail(f.start, fmt::format("empty operation (expected {}, [\"w\", key, value] or {})",
                                kRwShape, kPrShape));
    if (f.count < (op_.deleted ? 2u : 3u)) {
      const bool pd = op_.kind == OpKind::PredicateWrite;
      if (op_.deleted)
        fail(f.start, pd ? "a predicate delete names its predicate: [\"pd\", predicate]"
                         : "a delete names its key: [\"d\", key]");
      fail(f.start, fmt::format("operation has {}, expected 3: {}", plural_elements(f.count),
                                op_.kind == OpKind::PredicateRead ? kPrShape
                                : pd                              ? kPwShape
                                                                  : kRwShape));
    }
    txn_.ops.push_back(std::move(op_));
  }

  void end_txn(const Frame& f) {
    require(f, kId, "\"id\"");
    require(f, kOps, "\"ops\"");
    if (explicit_first_ && !took_first_) return take_first(f);
    check_times(f);
    add_txn();
  }

  // begin <= commit, the inner times inside them, sts and cts together and
  // in order.
  void check_times(const Frame& f) const {
    if (txn_.begin && txn_.commit && *txn_.begin > *txn_.commit)
      fail(txn_.commit_tok, fmt::format("commit timestamp {} is before begin timestamp {}",
                                        *txn_.commit, *txn_.begin),
           ".commit");
    // The begin returned, and the commit was requested, within begin..commit.
    for (const auto& [name, ts, tok] :
         {std::tuple{"begin_end", txn_.begin_end, txn_.begin_end_tok},
          std::tuple{"commit_start", txn_.commit_start, txn_.commit_start_tok}})
      if (ts && ((txn_.begin && *ts < *txn_.begin) || (txn_.commit && *ts > *txn_.commit)))
        fail(tok, fmt::format("{} {} is outside the transaction's begin..commit", name, *ts),
             std::string(".") + name);
    if (txn_.sts.has_value() != txn_.cts.has_value())
      fail(f.start, "\"sts\" and \"cts\" come together: a database's start and commit timestamps");
    if (txn_.sts && *txn_.sts > *txn_.cts)
      fail(txn_.cts_tok,
           fmt::format("commit timestamp [{}, {}] is before start timestamp [{}, {}]",
                       txn_.cts->physical, txn_.cts->logical, txn_.sts->physical,
                       txn_.sts->logical),
           ".cts");
  }

  void add_txn() {
    TxnId t = h_.add_txn(session_, std::move(*txn_.id), txn_.status);
    id_tok_.push_back(txn_.id_tok);
    Transaction& txn = h_.txn(t);
    txn.begin = txn_.begin;
    txn.commit = txn_.commit;
    txn.begin_end = txn_.begin_end;
    txn.commit_start = txn_.commit_start;
    txn.start_ts = txn_.sts;
    txn.commit_ts = txn_.cts;
    for (PendingOp& op : txn_.ops) {
      switch (op.kind) {
        case OpKind::Read:
          if (!op.list) {
            h_.add_read(t, op.key, op.value, op.line, op.column);
            break;
          }
          // The empty list's version is known once the initial state is.
          if (op.elements.empty()) empty_lists_.emplace_back(t, h_.txn(t).ops.size());
          h_.add_list_read(t, op.key, std::move(op.elements), op.value, op.line, op.column);
          break;
        case OpKind::Write: h_.add_write(t, op.key, op.value, op.line, op.column); break;
        case OpKind::PredicateRead: h_.add_predicate_read(t, std::move(op.pr), op.line, op.column); break;
        case OpKind::PredicateWrite:
          h_.add_predicate_write(t, std::move(op.pr.predicate), op.value, op.line, op.column);
          break;
      }
    }
  }

  // The file's first transaction as the initial state T0 (--init explicit).
  void take_first(const Frame& f) {
    const std::string where = here();
    const std::string name = quote_string(*txn_.id);
    if (txn_.status != TxnStatus::Committed)
      fail_at(f.start, where,
              initial::not_initial_state(name, txn_.status == TxnStatus::Aborted
                                                   ? "it is aborted"
                                                   : "it is of unknown status"));
    for (std::size_t i = 0; i < txn_.ops.size(); ++i)
      if (txn_.ops[i].kind != OpKind::Write)
        fail_at(txn_.ops[i].tok, fmt::format("{}.ops[{}]", where, i),
                initial::not_initial_state(name, "it reads"));
    for (const PendingOp& op : txn_.ops) first_writes_.emplace_back(op.key, op.value);
    took_first_ = true;
    first_id_ = *txn_.id;
    first_id_tok_ = txn_.id_tok;
  }

  History& h_;
  std::vector<InitEntry> init_;
  std::unordered_set<std::string> init_keys_;
  std::vector<std::size_t> id_tok_{0};  // per TxnId: the token of its id
  jsonin::TokenScanner lines_;          // the line of each operation
  IntMap<KeyId> int_keys_;  // History's ids of integer keys, by number (History interns keys by text)
  bool explicit_first_ = false;
  bool took_first_ = false;
  std::vector<std::pair<KeyId, ValueId>> first_writes_;  // the first transaction's, as T0
  std::string first_id_;       // its id, still taken
  std::size_t first_id_tok_ = 0;
  std::optional<InitialWrites> file_initial_;            // "initial_state"
  std::vector<std::pair<TxnId, std::size_t>> empty_lists_;  // (txn, op index)
  SessionId session_ = 0;
  TxnState txn_;
  PendingOp op_;
  KeyId pair_key_ = 0;
};

std::string too_large(const std::string& source) {
  return fmt::format("{}: input is larger than {} bytes (1 GiB)", source, kMaxNativeJsonBytes);
}

// The initial state the reader used, and the note that says so.
void record_initial_state(ReadResult& result, InitMode mode, const NativeReader& reader) {
  const std::size_t n_init = reader.init_entries();
  const std::string init_keys = fmt::format("the {} key{} \"init\" gives", n_init,
                                            initial::plural(n_init));
  InitialState state = InitialState::Implicit;
  std::string detail;
  switch (mode) {
    case InitMode::Explicit:
      state = InitialState::Explicit;
      result.explicit_init = reader.took_first();
      detail = reader.took_first()
                   ? fmt::format("the first transaction is T0; T0 writes its {} write{} and {}",
                                 reader.first_writes(), initial::plural(reader.first_writes()),
                                 init_keys)
                   : fmt::format("the file has no transaction; T0 writes {}", init_keys);
      break;
    case InitMode::None:
      state = InitialState::None;
      detail = fmt::format("T0 writes only {}", init_keys);
      break;
    case InitMode::Implicit:
    case InitMode::Auto:
      if (result.history.initial_writes() == InitialWrites::ExplicitOnly) {  // the file says so
        state = n_init > 0 ? InitialState::Explicit : InitialState::None;
        detail = fmt::format("\"initial_state\": \"explicit-only\": T0 writes only {}",
                             init_keys);
      } else {
        detail = fmt::format("T0 writes the value \"init\" gives ({} key{}), or 0, to every key",
                             n_init, initial::plural(n_init));
      }
      break;
  }
  // The same InitialWrites as finish() set; record() adds the note, except
  // for a file read as it says with nothing said: the format's default
  // needs no telling.
  const std::size_t notes = result.notes.size();
  initial::record(result, mode, state, detail);
  if (mode == InitMode::Auto && !reader.file_initial()) result.notes.resize(notes);
}

}  // namespace

ReadResult read_native(std::string_view text, const std::string& source,
                       const ReadOptions& options) {
  if (text.size() > kMaxNativeJsonBytes) throw InputError(too_large(source));
  ReadResult result(Format::Native);
  const InitMode mode = options.init;
  NativeReader reader(text, source, result.history, mode == InitMode::Explicit);
  reader.parse();
  std::optional<InitialWrites> forced;
  if (mode == InitMode::Implicit) forced = InitialWrites::EveryKey;
  if (mode == InitMode::Explicit || mode == InitMode::None) forced = InitialWrites::ExplicitOnly;
  reader.finish(forced);
  record_initial_state(result, mode, reader);
  return result;
}

History read_native_json(std::string_view text, const std::string& source_name) {
  return read_native(text, source_name, ReadOptions{}).history;
}

History read_native_json_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(fmt::format("{}: cannot open ({})", path, std::strerror(EISDIR)));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw InputError(fmt::format("{}: cannot open ({})", path, std::strerror(errno)));
  auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxNativeJsonBytes) throw InputError(too_large(path));

  std::string text;
  if (!ec) text.reserve(static_cast<std::size_t>(size));
  char buf[1 << 16];
  while (true) {
    std::size_t got = std::fread(buf, 1, sizeof buf, f.get());
    if (got == 0) break;
    if (text.size() + got > kMaxNativeJsonBytes) throw InputError(too_large(path));
    text.append(buf, got);
  }
  if (std::ferror(f.get()))
    throw InputError(fmt::format("{}: cannot read ({})", path, std::strerror(errno)));
  return read_native_json(text, path);
}

}  // namespace iso
