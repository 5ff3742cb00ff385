#include "engine/history/json_format.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/history/predicate.hpp"

namespace iso {

namespace {

using nlohmann::json;

// ---------------------------------------------------------------------------
// Positions. nlohmann's SAX parser reports no positions for values, so each
// SAX event is numbered, and the position of event N is found on demand (only
// for an error) by scanning the text for its N-th token. Each event stands for
// exactly one token other than ',' and ':' ('{', '}', '[', ']', a key, a
// string, a number or a literal), and events arrive in text order, so the
// scan only has to be right on the prefix the parser has already accepted.


struct LineCol {
  std::size_t line, col;
};

LineCol line_col(std::string_view s, std::size_t offset) {
  offset = std::min(offset, s.size());
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (s[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, offset - line_start + 1};
}

// nlohmann's syntax errors quote the text read since the last token began
// ("last read: '...'"), which after a long run of brackets can be long: keep
// its end only.
std::string shorten_last_read(std::string msg) {
  constexpr std::string_view kLastRead = "last read: '";
  constexpr std::size_t kKeep = 40;
  auto start = msg.find(kLastRead);
  if (start == std::string::npos) return msg;
  start += kLastRead.size();
  auto end = msg.rfind("'; ");
  if (end == std::string::npos || end < start) end = msg.rfind('\'');
  if (end == std::string::npos || end < start || end - start <= kKeep) return msg;
  std::size_t cut = end - kKeep;
  // Do not start inside a UTF-8 sequence or a "<U+000A>" escape.
  while (cut < end && (static_cast<unsigned char>(msg[cut]) & 0xC0) == 0x80) ++cut;
  auto open = msg.rfind('<', cut);
  if (open != std::string::npos && open >= start && msg.find('>', open) >= cut) cut = open;
  return msg.substr(0, start) + "..." + msg.substr(cut);
}

// ---------------------------------------------------------------------------
// Events and frames of the streaming reader.

constexpr std::size_t kMaxDepth = 64;

enum class JType : std::uint8_t { Object, Array, Null, Bool, Int, BigInt, Float, String };

struct Event {
  Event(JType t, std::size_t token) : type(t), tok(token) {}
  JType type;
  std::size_t tok;  // token number
  std::int64_t i = 0;
  bool b = false;
  std::string s;  // a string, or the spelling of a number that is not an int64
};

enum class Ctx : std::uint8_t {
  Root, Init, Sessions, Session, Txn, Ops, Op, List, PrResult, PrPair, Stamp, Skip
};

struct Frame {
  Frame(Ctx c, bool obj, std::size_t tok) : ctx(c), object(obj), start(tok) {}
  Ctx ctx;
  bool object;
  std::size_t start;      // token of '{' or '['
  std::size_t count = 0;  // arrays: elements seen so far
  std::string key;        // objects: the current key
  unsigned fields = 0;    // Root and Txn: known fields seen (bits)
};

std::string describe(const Event& e) {
  switch (e.type) {
    case JType::Object: return "an object";
    case JType::Array: return "an array";
    case JType::Null: return "null";
    case JType::Bool: return e.b ? "true" : "false";
    case JType::Int: return fmt::format("the integer {}", e.i);
    case JType::BigInt: return fmt::format("the integer {}, which is out of range", e.s);
    case JType::Float: return fmt::format("the number {}", e.s);
    case JType::String: {
      if (e.s.size() <= 60) return "the string " + quote_string(e.s);
      return "the string " + quote_string(e.s.substr(0, 57)) + "...";
    }
  }
  return "a value";
}

std::optional<Value> to_value(const Event& e) {
  switch (e.type) {
    case JType::Null: return Value{std::monostate{}};
    case JType::Int: return Value{e.i};
    case JType::BigInt: {
      // Up to 2^64 - 1 (dbcop's u64 values, written back as they were).
      std::uint64_t u = 0;
      const auto [p, ec] = std::from_chars(e.s.data(), e.s.data() + e.s.size(), u);
      if (ec != std::errc{} || p != e.s.data() + e.s.size()) return std::nullopt;
      return unsigned_value(u);
    }
    case JType::String: return Value{e.s};
    default: return std::nullopt;
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
  std::uint32_t line = 0;
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

class Reader final : public nlohmann::json_sax<json> {
 public:
  // `explicit_first`: the file's first transaction is the initial state
  // (--init explicit): its writes become initial values, and it is refused
  // when it does anything else.
  Reader(std::string_view text, const std::string& source, History& h, bool explicit_first)
      : text_(text), source_(source), h_(h), lines_(text), explicit_first_(explicit_first) {}

  // --- SAX interface ---------------------------------------------------------
  bool null() override {
    Event e{JType::Null, tok_++};
    value(e);
    return true;
  }
  bool boolean(bool b) override {
    Event e{JType::Bool, tok_++};
    e.b = b;
    value(e);
    return true;
  }
  bool number_integer(number_integer_t v) override {
    Event e{JType::Int, tok_++};
    e.i = v;
    value(e);
    return true;
  }
  bool number_unsigned(number_unsigned_t v) override {
    Event e{JType::Int, tok_++};
    if (v > static_cast<number_unsigned_t>(std::numeric_limits<std::int64_t>::max())) {
      e.type = JType::BigInt;
      e.s = std::to_string(v);
    } else {
      e.i = static_cast<std::int64_t>(v);
    }
    value(e);
    return true;
  }
  bool number_float(number_float_t, const string_t& raw) override {
    // An integer too large for 64 bits also arrives here.
    bool integral = raw.find_first_of(".eE") == string_t::npos;
    Event e{integral ? JType::BigInt : JType::Float, tok_++};
    e.s = raw;
    value(e);
    return true;
  }
  bool string(string_t& s) override {
    Event e{JType::String, tok_++};
    e.s = std::move(s);
    value(e);
    return true;
  }
  bool binary(binary_t&) override {
    // Not produced by the JSON parser.
    fail(tok_, "", "unexpected binary value");
  }
  bool start_object(std::size_t) override {
    Event e{JType::Object, tok_++};
    value(e);
    return true;
  }
  bool start_array(std::size_t) override {
    Event e{JType::Array, tok_++};
    value(e);
    return true;
  }
  bool key(string_t& k) override {
    std::size_t tok = tok_++;
    Frame& f = frames_.back();
    f.key = std::move(k);
    if (f.ctx == Ctx::Root) {
      check_duplicate(f, tok, {{"format", kFormat}, {"version", kVersion}, {"init", kInit},
                               {"sessions", kSessions}, {"initial_state", kInitialState}});
    } else if (f.ctx == Ctx::Txn) {
      check_duplicate(f, tok, {{"id", kId}, {"ops", kOps}, {"status", kStatus},
                               {"begin", kBegin}, {"commit", kCommit}, {"sts", kSts},
                               {"cts", kCts}, {"begin_end", kBeginEnd},
                               {"commit_start", kCommitStart}});
    } else if (f.ctx == Ctx::Init) {
      if (!init_keys_.insert(f.key).second) {
        fail(tok, "init", fmt::format("duplicate key {}", quote_string(f.key)));
      }
    }
    return true;
  }
  bool end_object() override {
    end(tok_++);
    return true;
  }
  bool end_array() override {
    end(tok_++);
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    // `position` counts the characters read, the offending one included.
    std::string msg = ex.what();
    auto at = msg.find("parse error");
    if (at != std::string::npos) {
      auto colon = msg.find(": ", at);
      if (colon != std::string::npos) msg = msg.substr(colon + 2);
    }
    msg = shorten_last_read(std::move(msg));
    LineCol lc = line_col(text_, position == 0 ? 0 : position - 1);
    throw InputError(fmt::format("{}:{}:{}: {}", source_, lc.line, lc.col, msg));
  }

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
  // --- errors ----------------------------------------------------------------
  std::string position(std::size_t tok) const {
    LineCol lc = line_col(text_, json_token_offset(text_, tok));
    return fmt::format("{}:{}", lc.line, lc.col);
  }

  [[noreturn]] void fail(std::size_t tok, const std::string& path, const std::string& msg) const {
    if (path.empty()) throw InputError(fmt::format("{}:{}: {}", source_, position(tok), msg));
    throw InputError(fmt::format("{}:{}: {}: {}", source_, position(tok), path, msg));
  }

  // The JSON path of the element in the current slot of frames_[depth - 1].
  std::string path(std::size_t depth) const {
    std::string p;
    for (std::size_t i = 0; i < depth && i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      if (f.object) {
        if (!p.empty()) p += '.';
        p += f.key;
      } else {
        p += fmt::format("[{}]", f.count - 1);
      }
    }
    return p;
  }
  std::string here() const { return path(frames_.size()); }     // the current element
  std::string parent() const { return path(frames_.size() - 1); }  // the innermost frame

  void check_duplicate(Frame& f, std::size_t tok,
                       std::initializer_list<std::pair<std::string_view, unsigned>> known) {
    for (const auto& [name, bit] : known) {
      if (f.key != name) continue;
      if (f.fields & bit) {
        fail(tok, path(frames_.size() - 1), fmt::format("duplicate field \"{}\"", name));
      }
      f.fields |= bit;
    }
  }

  void push(Ctx ctx, const Event& e) {
    if (frames_.size() >= kMaxDepth) {
      fail(e.tok, here(), fmt::format("nesting deeper than {} levels", kMaxDepth));
    }
    frames_.emplace_back(ctx, e.type == JType::Object, e.tok);
  }

  bool compound(const Event& e) const {
    return e.type == JType::Object || e.type == JType::Array;
  }

  KeyId key_of(const Event& e, const std::string& where) {
    if (e.type == JType::String) return h_.intern_key(e.s, false);
    if (e.type == JType::Int) return h_.intern_key(std::to_string(e.i), true);
    fail(e.tok, where, "key must be a string or an integer, got " + describe(e));
  }

  ValueId value_of(const Event& e, const std::string& where) {
    auto v = to_value(e);
    if (!v) fail(e.tok, where, "value must be an integer, a string or null, got " + describe(e));
    return h_.intern_value(*v);
  }

  // --- the grammar -------------------------------------------------------------
  void value(Event& e) {
    if (frames_.empty()) {
      if (e.type != JType::Object) {
        fail(e.tok, "", "expected an object with a \"sessions\" field at top level, got " +
                            describe(e));
      }
      push(Ctx::Root, e);
      return;
    }
    Frame& f = frames_.back();
    if (!f.object) ++f.count;
    switch (f.ctx) {
      case Ctx::Root: return root_field(e);
      case Ctx::Init: return init_entry(e);
      case Ctx::Sessions: return session(e);
      case Ctx::Session: return transaction(e);
      case Ctx::Txn: return txn_field(e);
      case Ctx::Ops: return operation(e);
      case Ctx::Op: return op_element(e);
      case Ctx::List: return list_element(e);
      case Ctx::PrResult: return pr_entry(e);
      case Ctx::PrPair: return pr_element(e);
      case Ctx::Stamp: return stamp_element(e);
      case Ctx::Skip:
        if (compound(e)) push(Ctx::Skip, e);
        return;
    }
  }

  void root_field(const Event& e) {
    const std::string& name = frames_.back().key;
    if (name == "format") {
      if (e.type != JType::String) fail(e.tok, here(), "format must be a string, got " + describe(e));
      if (e.s != "isosynth-history") {
        fail(e.tok, here(),
             fmt::format("unknown format {} (expected \"isosynth-history\")", quote_string(e.s)));
      }
    } else if (name == "version") {
      if (e.type != JType::Int) fail(e.tok, here(), "version must be an integer, got " + describe(e));
      if (e.i != 1) fail(e.tok, here(), fmt::format("unsupported version {} (expected 1)", e.i));
    } else if (name == "init") {
      if (e.type != JType::Object) {
        fail(e.tok, here(), "init must be an object mapping keys to initial values, got " +
                                describe(e));
      }
      push(Ctx::Init, e);
    } else if (name == "sessions") {
      if (e.type != JType::Array) {
        fail(e.tok, here(), "sessions must be an array of sessions, got " + describe(e));
      }
      push(Ctx::Sessions, e);
    } else if (name == "initial_state") {
      if (e.type == JType::String && e.s == "every-key") {
        file_initial_ = InitialWrites::EveryKey;
      } else if (e.type == JType::String && e.s == "explicit-only") {
        file_initial_ = InitialWrites::ExplicitOnly;
      } else {
        fail(e.tok, here(),
             "initial_state must be \"every-key\" or \"explicit-only\", got " + describe(e));
      }
    } else if (compound(e)) {
      push(Ctx::Skip, e);
    }
  }

  void init_entry(const Event& e) {
    auto v = to_value(e);
    if (!v) {
      fail(e.tok, here(), "initial value must be an integer, a string or null, got " + describe(e));
    }
    init_.push_back(InitEntry{frames_.back().key, std::move(*v)});
  }

  void session(const Event& e) {
    if (e.type != JType::Array) {
      fail(e.tok, here(), "a session must be an array of transactions, got " + describe(e));
    }
    session_ = h_.add_session();
    push(Ctx::Session, e);
  }

  void transaction(const Event& e) {
    if (e.type != JType::Object) {
      fail(e.tok, here(), "a transaction must be an object, got " + describe(e));
    }
    txn_ = TxnState{};
    push(Ctx::Txn, e);
  }

  void txn_field(const Event& e) {
    const std::string& name = frames_.back().key;
    if (name == "id") {
      if (e.type != JType::String) fail(e.tok, here(), "id must be a string, got " + describe(e));
      if (e.s.empty()) fail(e.tok, here(), "transaction id must not be empty");
      if (e.s == "T0") {
        fail(e.tok, here(), "transaction id \"T0\" is reserved for the initial transaction");
      }
      // The token of the id's first use: by a transaction, or by the one
      // taken as T0.
      std::optional<std::size_t> first;
      if (auto other = h_.find_txn(e.s)) first = id_tok_[*other];
      else if (took_first_ && e.s == first_id_) first = first_id_tok_;
      if (first) {
        fail(e.tok, here(), fmt::format("duplicate transaction id {} (first used at {})",
                                        quote_string(e.s), position(*first)));
      }
      txn_.id = e.s;
      txn_.id_tok = e.tok;
    } else if (name == "ops") {
      if (e.type != JType::Array) {
        fail(e.tok, here(), "ops must be an array of operations, got " + describe(e));
      }
      push(Ctx::Ops, e);
    } else if (name == "status") {
      if (e.type != JType::String) fail(e.tok, here(), "status must be a string, got " + describe(e));
      if (e.s == "committed") {
        txn_.status = TxnStatus::Committed;
      } else if (e.s == "aborted") {
        txn_.status = TxnStatus::Aborted;
      } else if (e.s == "unknown") {
        txn_.status = TxnStatus::Unknown;
      } else {
        fail(e.tok, here(),
             fmt::format("unknown status {} (expected \"committed\", \"aborted\" or \"unknown\")",
                         quote_string(e.s)));
      }
    } else if (name == "begin" || name == "commit" || name == "begin_end" || name == "commit_start") {
      if (e.type != JType::Int) {
        fail(e.tok, here(), fmt::format("{} must be an integer timestamp, got {}", name, describe(e)));
      }
      if (name == "begin") {
        txn_.begin = e.i;
      } else if (name == "commit") {
        txn_.commit = e.i;
        txn_.commit_tok = e.tok;
      } else if (name == "begin_end") {
        txn_.begin_end = e.i;
        txn_.begin_end_tok = e.tok;
      } else {
        txn_.commit_start = e.i;
        txn_.commit_start_tok = e.tok;
      }
    } else if (name == "sts" || name == "cts") {
      if (e.type != JType::Array)
        fail(e.tok, here(), fmt::format("{} must be a [physical, logical] pair of integers, got {}",
                                        name, describe(e)));
      (name == "sts" ? txn_.sts : txn_.cts) = DbTimestamp{};
      if (name == "cts") txn_.cts_tok = e.tok;
      push(Ctx::Stamp, e);
    } else if (compound(e)) {
      push(Ctx::Skip, e);
    }
  }

  // An element of "sts" or "cts": the physical part, then the logical one.
  void stamp_element(const Event& e) {
    const std::size_t n = frames_.back().count - 1;
    const std::string& name = frames_[frames_.size() - 2].key;
    if (e.type != JType::Int)
      fail(e.tok, here(), fmt::format("{} must be a [physical, logical] pair of integers, got {}",
                                      name, describe(e)));
    if (n > 1) fail(e.tok, here(), fmt::format("{} has more than two elements", name));
    DbTimestamp& stamp = name == "sts" ? *txn_.sts : *txn_.cts;
    (n == 0 ? stamp.physical : stamp.logical) = e.i;
  }

  void operation(const Event& e) {
    if (e.type != JType::Array) {
      fail(e.tok, here(),
           fmt::format("an operation must be an array such as {}, got {}", kRwShape, describe(e)));
    }
    op_ = PendingOp{};
    op_.tok = e.tok;
    op_.line = op_line(lines_.line(e.tok));
    push(Ctx::Op, e);
  }

  void op_element(const Event& e) {
    const std::size_t n = frames_.back().count - 1;
    if (n == 0) {
      if (e.type != JType::String) {
        fail(e.tok, parent(),
             "operation kind must be the string \"r\", \"w\", \"d\", \"pr\", \"pw\" or \"pd\", got " +
                 describe(e));
      }
      if (e.s == "r") {
        op_.kind = OpKind::Read;
      } else if (e.s == "w") {
        op_.kind = OpKind::Write;
      } else if (e.s == "d") {
        op_.kind = OpKind::Write;  // a delete: a write of the tombstone
        op_.deleted = true;
        op_.value = h_.intern_value(Value{Deleted{}});
      } else if (e.s == "pr") {
        op_.kind = OpKind::PredicateRead;
      } else if (e.s == "pw") {
        op_.kind = OpKind::PredicateWrite;
      } else if (e.s == "pd") {
        op_.kind = OpKind::PredicateWrite;  // a predicate delete: writes the tombstone
        op_.deleted = true;
        op_.value = h_.intern_value(Value{Deleted{}});
      } else {
        fail(e.tok, parent(),
             fmt::format("unknown operation kind {} (expected \"r\", \"w\", \"d\", \"pr\", "
                         "\"pw\" or \"pd\")",
                         quote_string(e.s)));
      }
      return;
    }
    if (op_.kind == OpKind::Read || op_.kind == OpKind::Write) {
      if (n == 1) {
        op_.key = key_of(e, parent());
      } else if (n == 2 && op_.kind == OpKind::Read && e.type == JType::Array) {
        op_.list = true;  // a list-append read
        push(Ctx::List, e);
      } else if (n == 2 && op_.deleted) {
        fail(e.tok, parent(), "a delete has no value (expected [\"d\", key])");
      } else if (n == 2) {
        op_.value = value_of(e, parent());
      } else {
        fail(e.tok, parent(), fmt::format("too many elements in operation (expected {})", kRwShape));
      }
      return;
    }
    if (n == 1) {
      if (e.type != JType::String)
        fail(e.tok, parent(),
             "predicate must be a string such as \"[lo,hi]\", \"prefix:abc\" or \"v<3\", got " +
                 describe(e));
      std::string why;
      if (!parse_predicate(e.s, &why))
        fail(e.tok, parent(), fmt::format("predicate {}: {}", quote_string(e.s), why));
      op_.pr.predicate = e.s;
    } else if (op_.kind == OpKind::PredicateWrite) {
      if (n == 2 && !op_.deleted)
        op_.value = value_of(e, parent());
      else
        fail(e.tok, parent(), op_.deleted ? std::string("too many elements in a predicate delete (expected [\"pd\", predicate])")
                                          : fmt::format("too many elements in a predicate write (expected {})", kPwShape));
    } else if (n == 2) {
      if (e.type != JType::Array) {
        fail(e.tok, parent(),
             "predicate result must be an array of [key, value] pairs, got " + describe(e));
      }
      push(Ctx::PrResult, e);
    } else {
      fail(e.tok, parent(), fmt::format("too many elements in predicate read (expected {})", kPrShape));
    }
  }

  void list_element(const Event& e) {
    auto v = to_value(e);
    if (!v) {
      fail(e.tok, here(), fmt::format("a list element must be an integer, a string or null "
                                      "(expected {}), got {}",
                                      kListShape, describe(e)));
    }
    op_.elements.push_back(h_.intern_value(*v));
  }

  void pr_entry(const Event& e) {
    if (e.type != JType::Array) {
      fail(e.tok, here(), "a predicate result entry must be a [key, value] pair, got " + describe(e));
    }
    push(Ctx::PrPair, e);
  }

  void pr_element(const Event& e) {
    const std::size_t n = frames_.back().count - 1;
    if (n == 0) {
      pair_key_ = key_of(e, parent());
      for (const auto& [k, v] : op_.pr.result) {
        if (k == pair_key_) {
          fail(e.tok, parent(),
               fmt::format("key {} appears twice in the predicate result", h_.key_text(k)));
        }
      }
    } else if (n == 1) {
      op_.pr.result.emplace_back(pair_key_, value_of(e, parent()));
    } else {
      fail(e.tok, parent(), "too many elements in a predicate result entry (expected [key, value])");
    }
  }

  void end(std::size_t) {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    switch (f.ctx) {
      case Ctx::Root:
        if (!(f.fields & kSessions)) fail(f.start, "", "missing field \"sessions\"");
        break;
      case Ctx::Txn: end_txn(f); break;
      case Ctx::Op:
        if (f.count == 0) {
          fail(f.start, here(),
               fmt::format("empty operation (expected {}, [\"w\", key, value] or {})", kRwShape,
                           kPrShape));
        }
        if (f.count < (op_.deleted ? 2u : 3u)) {
          const bool pd = op_.kind == OpKind::PredicateWrite;
          fail(f.start, here(),
               op_.deleted ? std::string(pd ? "a predicate delete names its predicate: [\"pd\", predicate]"
                                            : "a delete names its key: [\"d\", key]") :
               fmt::format("operation has {} element{}, expected 3: {}", f.count,
                           f.count == 1 ? "" : "s",
                           op_.kind == OpKind::PredicateRead ? kPrShape
                           : pd                              ? kPwShape
                                                             : kRwShape));
        }
        txn_.ops.push_back(std::move(op_));
        break;
      case Ctx::Stamp:
        if (f.count != 2)
          fail(f.start, here(), fmt::format("a timestamp must be a [physical, logical] pair, got {} "
                                            "element{}", f.count, f.count == 1 ? "" : "s"));
        break;
      case Ctx::PrPair:
        if (f.count < 2) {
          fail(f.start, here(),
               fmt::format("a predicate result entry must be a [key, value] pair, got {} element{}",
                           f.count, f.count == 1 ? "" : "s"));
        }
        break;
      default: break;
    }
  }

  void end_txn(const Frame& f) {
    if (!(f.fields & kId)) fail(f.start, here(), "missing field \"id\"");
    if (!(f.fields & kOps)) fail(f.start, here(), "missing field \"ops\"");
    if (explicit_first_ && !took_first_) return take_first(f);
    if (txn_.begin && txn_.commit && *txn_.begin > *txn_.commit) {
      fail(txn_.commit_tok, here() + ".commit",
           fmt::format("commit timestamp {} is before begin timestamp {}", *txn_.commit,
                       *txn_.begin));
    }
    // The begin returned, and the commit was requested, within begin..commit.
    for (const auto& [name, ts, tok] : {std::tuple{"begin_end", txn_.begin_end, txn_.begin_end_tok},
                                        std::tuple{"commit_start", txn_.commit_start, txn_.commit_start_tok}})
      if (ts && ((txn_.begin && *ts < *txn_.begin) || (txn_.commit && *ts > *txn_.commit)))
        fail(tok, here() + "." + name,
             fmt::format("{} {} is outside the transaction's begin..commit", name, *ts));
    if (txn_.sts.has_value() != txn_.cts.has_value())
      fail(f.start, here(), "\"sts\" and \"cts\" come together: a database's start and commit timestamps");
    if (txn_.sts && *txn_.sts > *txn_.cts)
      fail(txn_.cts_tok, here() + ".cts",
           fmt::format("commit timestamp [{}, {}] is before start timestamp [{}, {}]",
                       txn_.cts->physical, txn_.cts->logical, txn_.sts->physical,
                       txn_.sts->logical));
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
            h_.add_read(t, op.key, op.value, op.line);
            break;
          }
          if (op.elements.empty()) empty_lists_.emplace_back(t, h_.txn(t).ops.size());
          // The empty list's version is known once the initial state is.
          h_.add_list_read(t, op.key, std::move(op.elements), op.value, op.line);
          break;
        case OpKind::Write: h_.add_write(t, op.key, op.value, op.line); break;
        case OpKind::PredicateRead:
          h_.add_predicate_read(t, std::move(op.pr), op.line);
          break;
        case OpKind::PredicateWrite:
          h_.add_predicate_write(t, std::move(op.pr.predicate), op.value, op.line);
          break;
      }
    }
  }

  // The file's first transaction as the initial state T0 (--init explicit).
  void take_first(const Frame& f) {
    const std::string where = here();
    const std::string name = quote_string(*txn_.id);
    if (txn_.status != TxnStatus::Committed) {
      fail(f.start, where,
           initial::not_initial_state(name, txn_.status == TxnStatus::Aborted
                                                ? "it is aborted"
                                                : "it is of unknown status"));
    }
    for (std::size_t i = 0; i < txn_.ops.size(); ++i) {
      if (txn_.ops[i].kind != OpKind::Write) {
        fail(txn_.ops[i].tok, fmt::format("{}.ops[{}]", where, i),
             initial::not_initial_state(name, "it reads"));
      }
    }
    for (const PendingOp& op : txn_.ops) first_writes_.emplace_back(op.key, op.value);
    took_first_ = true;
    first_id_ = *txn_.id;
    first_id_tok_ = txn_.id_tok;
  }

  std::string_view text_;
  const std::string& source_;
  History& h_;
  std::size_t tok_ = 0;
  std::vector<Frame> frames_;
  std::vector<InitEntry> init_;
  std::unordered_set<std::string> init_keys_;
  std::vector<std::size_t> id_tok_{0};  // per TxnId: the token of its id
  TokenScanner lines_;                  // the line of each operation
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

json key_json(const History& h, KeyId k) {
  const Key& key = h.keys()[k];
  if (key.integer) {
    std::int64_t v = 0;
    const char* end = key.text.data() + key.text.size();
    auto [p, ec] = std::from_chars(key.text.data(), end, v);
    // Only the integer's own spelling: "007" read back as 7 would be
    // another key.
    if (ec == std::errc{} && p == end && std::to_string(v) == key.text) return v;
  }
  return key.text;
}

// (Never a delete's tombstone: no read returns it, and a delete is written
// as ["d", key].)
json value_json(const History& h, ValueId v) {
  const Value& val = h.values()[v];
  if (std::holds_alternative<std::monostate>(val) || std::holds_alternative<Deleted>(val)) return nullptr;
  if (const auto* i = std::get_if<std::int64_t>(&val)) return *i;
  if (const auto* u = std::get_if<BigUnsigned>(&val)) return u->value;
  return std::get<std::string>(val);
}

}  // namespace

std::size_t json_token_offset(std::string_view s, std::size_t n) {
  return TokenScanner(s).offset(n);
}

ReadResult read_native(std::string_view text, const std::string& source,
                       const ReadOptions& options) {
  if (text.size() > kMaxNativeJsonBytes) throw InputError(too_large(source));
  ReadResult result;
  result.format = Format::Native;
  History& h = result.history;
  const InitMode mode = options.init;
  Reader reader(text, source, h, mode == InitMode::Explicit);
  json::sax_parse(text.data(), text.data() + text.size(), &reader);
  std::optional<InitialWrites> forced;
  if (mode == InitMode::Implicit) forced = InitialWrites::EveryKey;
  if (mode == InitMode::Explicit || mode == InitMode::None) forced = InitialWrites::ExplicitOnly;
  reader.finish(forced);

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
      if (h.initial_writes() == InitialWrites::ExplicitOnly) {  // the file says so
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
  return result;
}

History read_native_json(std::string_view text, const std::string& source_name) {
  return read_native(text, source_name, ReadOptions{}).history;
}

History read_native_json_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError(fmt::format("{}: cannot open ({})", path, std::strerror(EISDIR)));
  }
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
  if (std::ferror(f.get())) {
    throw InputError(fmt::format("{}: cannot read ({})", path, std::strerror(errno)));
  }
  return read_native_json(text, path);
}

nlohmann::json write_native_json(const History& h) {
  json out = json::object();
  out["format"] = "isosynth-history";
  out["version"] = 1;
  // Which keys T0 writes: every key (the default), or only those of "init".
  const bool explicit_only = h.initial_writes() == InitialWrites::ExplicitOnly;
  if (explicit_only) out["initial_state"] = "explicit-only";
  json init = json::object();
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    if (h.t0_writes(k)) init[h.keys()[k].text] = value_json(h, h.init_value(k));
  }
  out["init"] = std::move(init);

  json sessions = json::array();
  for (const auto& session : h.sessions()) {
    json txns = json::array();
    for (TxnId t : session) {
      const Transaction& txn = h.txn(t);
      json ops = json::array();
      for (const Op& op : txn.ops) {
        switch (op.kind) {
          case OpKind::Read: {
            if (op.list == kNoList) {
              ops.push_back(json::array({"r", key_json(h, op.key), value_json(h, op.value)}));
              break;
            }
            json list = json::array();
            for (ValueId v : h.lists()[op.list]) list.push_back(value_json(h, v));
            ops.push_back(json::array({"r", key_json(h, op.key), std::move(list)}));
            break;
          }
          case OpKind::Write:
            if (h.is_delete(op.value))
              ops.push_back(json::array({"d", key_json(h, op.key)}));
            else
              ops.push_back(json::array({"w", key_json(h, op.key), value_json(h, op.value)}));
            break;
          case OpKind::PredicateRead: {
            const PredicateRead& pr = h.predicate_reads()[op.predicate];
            json result = json::array();
            for (const auto& [k, v] : pr.result) {
              result.push_back(json::array({key_json(h, k), value_json(h, v)}));
            }
            ops.push_back(json::array({"pr", pr.predicate, std::move(result)}));
            break;
          }
          case OpKind::PredicateWrite: {
            const std::string& pred = h.predicate_reads()[op.predicate].predicate;
            if (h.is_delete(op.value))
              ops.push_back(json::array({"pd", pred}));
            else
              ops.push_back(json::array({"pw", pred, value_json(h, op.value)}));
            break;
          }
        }
      }
      json tx = json::object();
      tx["id"] = txn.name;
      tx["ops"] = std::move(ops);
      if (txn.status == TxnStatus::Aborted) tx["status"] = "aborted";
      if (txn.status == TxnStatus::Unknown) tx["status"] = "unknown";
      if (txn.begin) tx["begin"] = *txn.begin;
      if (txn.commit) tx["commit"] = *txn.commit;
      if (txn.begin_end) tx["begin_end"] = *txn.begin_end;
      if (txn.commit_start) tx["commit_start"] = *txn.commit_start;
      if (txn.start_ts) tx["sts"] = json::array({txn.start_ts->physical, txn.start_ts->logical});
      if (txn.commit_ts) tx["cts"] = json::array({txn.commit_ts->physical, txn.commit_ts->logical});
      txns.push_back(std::move(tx));
    }
    sessions.push_back(std::move(txns));
  }
  out["sessions"] = std::move(sessions);
  return out;
}

}  // namespace iso
