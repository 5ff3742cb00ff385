// The current dbcop's history formats (rnbguy/dbcop, crates/core): its JSON,
// serde's spelling of Vec<Session<Variable, Version>>, and its compact .hist
// text (crates/core/src/history/raw/{types,parser}.rs). Both hold sessions
// of transactions of events:
//   Read  { variable, version: Option<u64> }   (None: "uninitialized")
//   Write { variable, version: u64 }
//   Transaction { events, committed }
//
// Their meaning is dbcop's (crates/core/src/history/raw/mod.rs,
// get_all_writes):
//  - transaction j (from 0) of session i (from 1) is named "S<i>T<j>", as
//    dbcop's TransactionId { session_id, session_height } numbers it;
//  - a transaction that did not commit is Aborted, with all its events: a
//    committed read of its writes is an aborted read (dbcop: UncommittedWrite);
//  - a read with no version (JSON null, text x==?) reads dbcop's root, the
//    initial state, whatever the history writes;
//  - a read of version 0 (Version::default()) reads the write of version 0 to
//    its variable when there is one, committed or not, and else the root;
//  - a read of another version reads the write of that version (two writes
//    of one version to one variable are an error for dbcop, SameVersionWrite;
//    a note counts them).
// So with --init auto or implicit T0 writes 0 to every variable, except that a
// variable that a transaction writes version 0 to starts at null, so that its
// reads of 0 read that write only, and the reads without a version read T0's
// value (0, or that null). --init none: T0 writes nothing, and a read without
// a version reads null, a thin-air read. --init explicit: the file's first
// transaction, which must commit and only write, is T0 (dbcop's generator
// writes version 0 of every variable in the first transaction of the first
// session); a read without a version reads its value, or null for a variable
// it does not write. Op::line is the event's line in the text, 0 for JSON.
//
// JSON (serde_json's rules for these types; unknown fields are ignored,
// duplicate fields refused):
//   history     = [session, ...] | {"data": [session, ...], ...}   (the CLI's
//                 files add "params", "info", "start" and "end")
//   session     = [transaction, ...]
//   transaction = {"events": [event, ...], "committed": bool} | [events, bool]
//   event       = {"Read": fields} | {"Write": fields}            (one key)
//               | ["r", variable, version-or-null] | ["w", variable, version]
//   fields      = {"variable": v, "version": n} | [v, n]  (a Read's missing or
//                 null version is None)
//   variable    = a string, or a non-negative integer (all of one kind)
//
// .hist text (dbcop's parser; see read_dbcop_hist for what is also accepted):
//   history     = session ("---" line session)*   (a line of one or more '-')
//   session     = (blank line | "//" comment line | transaction line)*
//   line        = transaction (blanks? transaction)*
//   transaction = "[" event (blanks event)* "]" "!"?      ("!": not committed)
//   event       = variable ":=" n | variable "==" n | variable "==?"
//   variable    = [A-Za-z0-9_]+,  n = decimal digits
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/history/formats/json_reader.hpp"
#include "engine/history/formats/text_input.hpp"

namespace iso {
namespace {

// Versions are Rust u64: every one of them is read (history.hpp,
// BigUnsigned).
constexpr std::uint64_t kMaxVersion = std::numeric_limits<std::uint64_t>::max();
// Builder::transaction's `fail` at the transaction rather than an event.
constexpr std::size_t kTxnItself = static_cast<std::size_t>(-1);

struct Event {
  bool write = false;
  KeyId key = 0;
  std::optional<std::uint64_t> version;  // nullopt: a read of the uninitialized variable
  std::uint32_t line = 0, column = 0;
};

struct KeyVersionHash {
  std::size_t operator()(const std::pair<KeyId, std::uint64_t>& p) const {
    return std::hash<std::uint64_t>()(p.second) * 31 + p.first;
  }
};

// Adds the sessions a reader parses to its History with dbcop's meaning
// (above), then the initial state and the notes.
class Builder {
 public:
  // `what`: "dbcop JSON"; `uninit`: how a read without a version is spelled.
  Builder(ReadResult& result, InitMode mode, std::string_view what, std::string_view uninit)
      : result_(result), h_(result.history), mode_(mode), what_(what), uninit_(uninit) {}

  void session() {
    session_ = h_.add_session();
    ++sessions_;
    height_ = 0;
  }

  // `fail(i, message)` throws at event i of the transaction, or at the
  // transaction itself for kTxnItself.
  void transaction(const std::vector<Event>& events, bool committed,
                   const std::function<void(std::size_t, const std::string&)>& fail) {
    const std::string name = fmt::format("S{}T{}", sessions_, height_++);
    for (const Event& e : events)
      if (e.write) count_write(e);
    const bool first = !seen_first_;
    seen_first_ = true;
    if (first && mode_ == InitMode::Explicit) return take_as_t0(name, events, committed, fail);
    TxnId t = h_.add_txn(session_, name, committed ? TxnStatus::Committed : TxnStatus::Aborted);
    ++txns_;
    if (!committed) ++aborted_;
    for (const Event& e : events) {
      if (e.write) {
        h_.add_write(t, e.key, value(*e.version), e.line, e.column);
      } else if (e.version) {
        h_.add_read(t, e.key, value(*e.version), e.line, e.column);
      } else {
        // Its value is T0's, known at the end.
        uninit_reads_.emplace_back(t, static_cast<std::uint32_t>(h_.txn(t).ops.size()));
        h_.add_read(t, e.key, null(), e.line, e.column);
      }
    }
  }

  void finish() {
    InitialState state = InitialState::Implicit;
    std::string detail;
    if (mode_ == InitMode::None) {
      state = InitialState::None;
      detail = fmt::format("T0 writes no variable: a read of version 0 needs a write of 0, and "
                           "a read of the uninitialized variable ({}) reads null, a thin-air "
                           "read",
                           uninit_);
    } else if (mode_ == InitMode::Explicit) {
      state = InitialState::Explicit;
      detail = t0_name_.empty()
                   ? std::string("the file has no transaction")
                   : fmt::format("the first transaction {} is T0; T0 writes only its {} "
                                 "variable{}, and a read of the uninitialized variable ({}) "
                                 "reads its value, or null",
                                 t0_name_, t0_keys_, initial::plural(t0_keys_), uninit_);
    } else {
      std::size_t zero_keys = 0;
      for (KeyId k = 0; k < written_zero_.size(); ++k) {
        if (!written_zero_[k]) continue;
        h_.set_init(k, null());
        ++zero_keys;
      }
      detail = fmt::format("T0 writes 0 to every variable (dbcop's root): a read of the "
                           "uninitialized variable ({}) reads it, and so does a read of 0 when "
                           "no transaction writes 0",
                           uninit_);
      if (zero_keys > 0)
        detail += fmt::format("; {} variable{} that a transaction writes 0 to start at null "
                              "instead, since dbcop's reads of 0 read that write",
                              zero_keys, initial::plural(zero_keys));
    }
    result_.notes.push_back(fmt::format("{} history: {} session{}, {} transaction{} ({} not "
                                        "committed)",
                                        what_, sessions_, initial::plural(sessions_), txns_,
                                        initial::plural(txns_), aborted_));
    initial::record(result_, mode_, state, detail);
    for (const auto& [t, i] : uninit_reads_) {
      Op& op = h_.txn(t).ops[i];
      op.value = h_.t0_writes(op.key) ? h_.init_value(op.key) : null();
    }
    if (!uninit_reads_.empty())
      result_.notes.push_back(fmt::format("{} read{} of the uninitialized variable ({}) read "
                                          "the initial state",
                                          uninit_reads_.size(),
                                          initial::plural(uninit_reads_.size()), uninit_));
    if (repeated_ > 0)
      result_.notes.push_back(fmt::format(
          "{} write{} a version that another write gave the same variable; dbcop refuses such "
          "histories (SameVersionWrite), here a read of that version may read either",
          repeated_, repeated_ == 1 ? " writes" : "s write"));
  }

 private:
  ValueId value(std::uint64_t v) { return h_.intern_value(unsigned_value(v)); }
  ValueId null() {
    if (!null_) null_ = h_.intern_value(Value{});
    return *null_;
  }

  void count_write(const Event& e) {
    if (*e.version == 0) {
      if (written_zero_.size() <= e.key) written_zero_.resize(std::size_t{e.key} + 1);
      written_zero_[e.key] = true;
    }
    if (!written_.emplace(e.key, *e.version).second) ++repeated_;
  }

  void take_as_t0(const std::string& name, const std::vector<Event>& events, bool committed,
                  const std::function<void(std::size_t, const std::string&)>& fail) {
    if (!committed) fail(kTxnItself, initial::not_initial_state(name, "it did not commit"));
    for (std::size_t i = 0; i < events.size(); ++i)
      if (!events[i].write) fail(i, initial::not_initial_state(name, "it reads"));
    std::unordered_set<KeyId> keys;
    for (const Event& e : events) {
      h_.set_init(e.key, value(*e.version));  // the last write wins
      keys.insert(e.key);
    }
    t0_name_ = name;
    t0_keys_ = keys.size();
    result_.explicit_init = true;
  }

  ReadResult& result_;
  History& h_;
  InitMode mode_;
  std::string_view what_, uninit_;
  SessionId session_ = 0;
  std::size_t sessions_ = 0, height_ = 0, txns_ = 0, aborted_ = 0, repeated_ = 0;
  bool seen_first_ = false;
  std::string t0_name_;
  std::size_t t0_keys_ = 0;
  std::optional<ValueId> null_;
  std::vector<bool> written_zero_;  // per key: some transaction writes version 0
  std::unordered_set<std::pair<KeyId, std::uint64_t>, KeyVersionHash> written_;
  std::vector<std::pair<TxnId, std::uint32_t>> uninit_reads_;  // (transaction, op index)
};

// --- JSON ------------------------------------------------------------------------

using jsonin::JValue;
using jsonin::compound;
using jsonin::shown;

enum class Ctx : std::uint8_t {
  Wrapper,    // {"data": ...}
  Sessions,   // [session, ...]
  Session,    // [transaction, ...]
  Txn,        // {"events": ..., "committed": ...}
  TxnSeq,     // [events, committed]
  Events,     // [event, ...]
  Variant,    // {"Read": fields} / {"Write": fields}
  Tuple,      // ["r", variable, version]
  Fields,     // {"variable": ..., "version": ...}
  FieldsSeq,  // [variable, version]
  Skip,       // an ignored field's value
};

// Known fields, as bits of Frame::seen.
enum : unsigned { kData = 1, kEvents = 1, kCommitted = 2, kVariable = 1, kVersion = 2, kKind = 1 };

using JFrame = jsonin::Frame<Ctx>;

class JsonReader final : public jsonin::Reader<Ctx> {
 public:
  JsonReader(std::string_view text, const std::string& source, Builder& b, History& h)
      : Reader(text, source), b_(b), h_(h) {}

  // The CLI's wrapper: what it says about the history, for a note.
  std::string wrapper_note() const {
    if (!wrapped_) return {};
    auto text = [](const std::optional<std::string>& s) {
      return s && s->size() <= 80 ? quote_string(*s) : std::string("?");
    };
    return fmt::format("the dbcop CLI's history {} recorded from {} to {}", text(info_),
                       text(start_), text(end_));
  }

 private:
  void on_key(std::size_t tok) override {
    JFrame& f = frames_.back();
    switch (f.ctx) {
      case Ctx::Wrapper:
        if (f.key == "data") once(kData, tok);
        break;
      case Ctx::Txn:
        if (f.key == "events") once(kEvents, tok);
        if (f.key == "committed") once(kCommitted, tok);
        break;
      case Ctx::Fields:
        if (f.key == "variable") once(kVariable, tok);
        if (f.key == "version") once(kVersion, tok);
        break;
      case Ctx::Variant:
        if (f.seen & kKind)
          fail(tok, "an event has one key, \"Read\" or \"Write\"");
        f.seen |= kKind;
        if (f.key != "Read" && f.key != "Write")
          fail(tok, fmt::format("unknown event {} (expected \"Read\" or \"Write\")",
                                quote_string(f.key)));
        event_.write = f.key == "Write";
        break;
      default: break;
    }
  }

  void on(JValue v) override {
    if (frames_.empty()) {
      if (v.type == JValue::Type::Array) push(Ctx::Sessions, v);
      else if (v.type == JValue::Type::Object) push(Ctx::Wrapper, v);
      else fail(v.tok, "expected an array of sessions, or an object with \"data\", got " + shown(v));
      wrapped_ = v.type == JValue::Type::Object;
      return;
    }
    JFrame& f = frames_.back();
    switch (f.ctx) {
      case Ctx::Wrapper: wrapper_field(v); break;
      case Ctx::Sessions:
        expect(v, JValue::Type::Array, "a session must be an array of transactions");
        b_.session();
        push(Ctx::Session, v);
        break;
      case Ctx::Session:
        if (!compound(v))
          fail(v.tok, "a transaction must be {\"events\": [...], \"committed\": true|false}, got " +
                          shown(v));
        txn_ = TxnState{v.tok, {}, {}, {}, v.type == JValue::Type::Array};
        push(v.type == JValue::Type::Object ? Ctx::Txn : Ctx::TxnSeq, v);
        break;
      case Ctx::Txn:
        if (f.key == "events") events_or_committed(v, true);
        else if (f.key == "committed") events_or_committed(v, false);
        else if (compound(v)) push(Ctx::Skip, v);
        break;
      case Ctx::TxnSeq:
        if (f.count > 2)
          fail(v.tok, "too many elements in a transaction (expected [events, committed])");
        events_or_committed(v, f.count == 1);
        break;
      case Ctx::Events:
        if (!compound(v))
          fail(v.tok, "an event must be {\"Read\": {...}}, {\"Write\": {...}}, [\"r\", variable, "
                      "version] or [\"w\", variable, version], got " + shown(v));
        event_ = EventState{v.tok, {}, {}, {}};
        push(v.type == JValue::Type::Object ? Ctx::Variant : Ctx::Tuple, v);
        break;
      case Ctx::Variant:
        if (!compound(v))
          fail(v.tok, fmt::format("the fields of a {} must be {{\"variable\": ..., \"version\": "
                                  "...}}, got {}",
                                  f.key, shown(v)));
        push(v.type == JValue::Type::Object ? Ctx::Fields : Ctx::FieldsSeq, v);
        break;
      case Ctx::Tuple: tuple_element(v, f.count); break;
      case Ctx::Fields:
        if (f.key == "variable") variable(v);
        else if (f.key == "version") version(v);
        else if (compound(v)) push(Ctx::Skip, v);
        break;
      case Ctx::FieldsSeq:
        if (f.count > 2) fail(v.tok, "too many elements (expected [variable, version])");
        if (f.count == 1) variable(v);
        else version(v);
        break;
      case Ctx::Skip:
        if (compound(v)) push(Ctx::Skip, v);
        break;
    }
  }

  void wrapper_field(const JValue& v) {
    const std::string& name = frames_.back().key;
    auto keep = [&](std::optional<std::string>& out) {
      if (v.type == JValue::Type::String) out = v.s;
    };
    if (name == "data") {
      expect(v, JValue::Type::Array, "\"data\" must be an array of sessions");
      push(Ctx::Sessions, v);
      return;
    }
    if (name == "info") keep(info_);
    if (name == "start") keep(start_);
    if (name == "end") keep(end_);
    if (compound(v)) push(Ctx::Skip, v);
  }

  void events_or_committed(const JValue& v, bool events) {
    if (events) {
      expect(v, JValue::Type::Array, "the events must be an array");
      push(Ctx::Events, v);
      return;
    }
    expect(v, JValue::Type::Bool, "\"committed\" must be true or false");
    txn_.committed = v.b;
  }

  void tuple_element(const JValue& v, std::size_t n) {
    if (n > 3) fail(v.tok, "too many elements in an event (expected [\"r\" or \"w\", variable, version])");
    if (n == 1) {
      if (v.type != JValue::Type::String || (v.s != "r" && v.s != "w"))
        fail(v.tok, "expected the event kind \"r\" or \"w\", got " + shown(v));
      event_.write = v.s == "w";
    } else if (n == 2) {
      variable(v);
    } else {
      version(v);
    }
  }

  void variable(const JValue& v) {
    const bool integer = v.type == JValue::Type::Unsigned;
    if (!integer && v.type != JValue::Type::String)
      fail(v.tok, "a variable must be a string or a non-negative integer, got " + shown(v));
    if (!first_variable_) {
      first_variable_ = std::pair{v.tok, integer};
    } else if (first_variable_->second != integer) {
      fail(v.tok, fmt::format("variables must be all strings or all integers (dbcop reads one "
                              "type), but this one is {} and the first one, at {}, is {}",
                              integer ? "an integer" : "a string",
                              token_position(first_variable_->first),
                              integer ? "a string" : "an integer"));
    }
    event_.key = integer ? h_.intern_key(std::to_string(v.u), true) : h_.intern_key(v.s, false);
  }

  void version(const JValue& v) {
    if (v.type == JValue::Type::Null && !event_.write) return;  // None
    if (v.type == JValue::Type::Unsigned) {
      event_.version = v.u;
      return;
    }
    const bool huge = jsonin::integer_beyond_64_bits(v) && v.s.front() != '-';
    if (huge) fail(v.tok, fmt::format("version {} is out of range (at most {})", v.s, kMaxVersion));
    fail(v.tok, fmt::format("a {} version must be a non-negative integer{}, got {}",
                            event_.write ? "write's" : "read's", event_.write ? "" : " or null",
                            shown(v)));
  }

  void on_end(JFrame& f) override {
    switch (f.ctx) {
      case Ctx::Wrapper:
        require(f, kData, "\"data\" (the sessions)");
        break;
      case Ctx::Txn:
      case Ctx::TxnSeq: end_txn(f); break;
      case Ctx::Variant:
      case Ctx::Tuple: end_event(f); break;
      case Ctx::Fields:
        require(f, kVariable, "\"variable\"");
        if (event_.write && !(f.seen & kVersion)) fail(f.start, "missing field \"version\"");
        break;
      case Ctx::FieldsSeq:
        elements(f, 2, "the fields array", "[variable, version]");
        break;
      default: break;
    }
  }

  // {"events": ..., "committed": ...} or [events, committed].
  void end_txn(const JFrame& f) {
    if (f.ctx == Ctx::Txn) {
      require(f, kEvents, "\"events\"");
      require(f, kCommitted, "\"committed\"");
    } else {
      elements(f, 2, "a transaction array", "[events, committed]");
    }
    add_txn();
  }

  // {"Read": fields} or {"Write": fields}, or ["r" or "w", variable, version].
  void end_event(const JFrame& f) {
    if (f.ctx == Ctx::Tuple)
      elements(f, 3, "an event array", "[\"r\" or \"w\", variable, version]");
    else if (!(f.seen & kKind))
      fail(f.start, "an empty event (expected {\"Read\": {...}} or {\"Write\": {...}})");
    add_event();
  }

  // An array of `n` elements `shape` that ended after fewer.
  void elements(const JFrame& f, std::size_t n, std::string_view what, std::string_view shape) {
    if (f.count < n)
      fail(f.start, fmt::format("{} has {} elements {}, not {}", what, n, shape, f.count));
  }

  void add_event() {
    txn_.events.push_back(Event{event_.write, *event_.key, event_.version, 0});
    txn_.tokens.push_back(event_.tok);
  }

  void add_txn() {
    b_.transaction(txn_.events, *txn_.committed, [this](std::size_t i, const std::string& msg) {
      if (i == kTxnItself) fail(txn_.tok, msg);
      fail(txn_.tokens[i], msg, fmt::format("{}[{}]", txn_.seq ? "[0]" : ".events", i));
    });
  }

  struct TxnState {
    std::size_t tok = 0;
    std::vector<Event> events;
    std::vector<std::size_t> tokens;  // of each event
    std::optional<bool> committed;
    bool seq = false;  // [events, committed]
  };
  struct EventState {
    std::size_t tok = 0;
    bool write = false;
    std::optional<KeyId> key;
    std::optional<std::uint64_t> version;
  };

  Builder& b_;
  History& h_;
  TxnState txn_;
  EventState event_;
  std::optional<std::pair<std::size_t, bool>> first_variable_;  // (token, integer)
  bool wrapped_ = false;
  std::optional<std::string> info_, start_, end_;
};

// --- .hist text --------------------------------------------------------------------

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

class HistReader {
 public:
  HistReader(const std::string& source, Builder& b, History& h) : source_(source), b_(b), h_(h) {}

  void read(std::string_view text) {
    b_.session();  // the first session needs no separator
    textin::Lines lines(text);
    std::string_view line;
    while (lines.next(line)) {
      textin::Cursor c(source_, line, lines.number());
      c.skip_spaces();
      if (c.at_end() || c.rest().starts_with("//")) continue;
      if (c.peek() == '-') {
        while (c.peek() == '-') c.advance(1);
        c.expect_end("the session separator (a line of dashes)");
        b_.session();
        continue;
      }
      transactions(c, lines.number());
    }
  }

 private:
  void transactions(textin::Cursor& c, std::size_t number) {
    for (bool first = true;; first = false) {
      if (c.peek() != '[') {
        if (c.rest().starts_with("//")) c.fail("a comment must be on a line of its own");
        c.fail(first ? "expected a transaction '[...]', a session separator '---' or a comment "
                       "'//'"
                     : "expected another transaction '[...]' or the end of the line");
      }
      transaction(c, number);
      c.skip_spaces();
      if (c.at_end()) return;
    }
  }

  void transaction(textin::Cursor& c, std::size_t number) {
    const std::size_t open = c.col();
    c.advance(1);
    events_.clear();
    cols_.clear();
    c.skip_spaces();
    bool blank = true;
    while (true) {
      if (c.at_end())
        c.fail(fmt::format("unexpected end of line: expected ']' to close the transaction "
                           "opened at column {}",
                           open));
      if (c.peek() == ']') {
        if (events_.empty()) c.fail("an empty transaction: a transaction holds one event or more");
        break;
      }
      if (!blank) c.fail("expected a blank or ']' after the event");
      cols_.push_back(c.col());
      events_.push_back(event(c, number));
      const std::size_t before = c.col();
      c.skip_spaces();
      blank = c.col() != before;
    }
    c.advance(1);
    const bool committed = !c.eat("!");
    b_.transaction(events_, committed, [&](std::size_t i, const std::string& msg) {
      textin::fail(source_, number, i == kTxnItself ? open : cols_[i], msg);
    });
  }

  Event event(textin::Cursor& c, std::size_t number) {
    std::string_view rest = c.rest();
    std::size_t n = 0;
    while (n < rest.size() && name_char(rest[n])) ++n;
    if (n < rest.size() && static_cast<unsigned char>(rest[n]) >= 0x80)
      c.fail_at(c.col() + n, "variable names of other than ASCII letters, digits and '_' are "
                             "not supported");
    if (n == 0)
      c.fail("expected an event: a variable (letters, digits, '_') and ':=' (a write), '==' (a "
             "read) or '==?' (a read of the uninitialized variable)");
    const std::string_view name = rest.substr(0, n);
    const std::size_t column = c.col();
    c.advance(n);
    Event e;
    e.column = op_column(column);
    e.key = h_.intern_key(name, false);
    e.line = op_line(number);
    if (c.eat(":=")) {
      e.write = true;
      e.version = version(c);
    } else if (!c.eat("==?")) {
      if (!c.eat("=="))
        c.fail(fmt::format("expected ':=' (a write), '==' (a read) or '==?' (a read of the "
                           "uninitialized variable) after the variable {}",
                           name));
      e.version = version(c);
    }
    return e;
  }

  static std::uint64_t version(textin::Cursor& c) {
    return c.unsigned_int("the version", kMaxVersion);
  }

  const std::string& source_;
  Builder& b_;
  History& h_;
  std::vector<Event> events_;
  std::vector<std::size_t> cols_;  // of each event
};

}  // namespace

ReadResult read_dbcop_json(std::string_view text, const std::string& source,
                           const ReadOptions& options) {
  ReadResult result(Format::DbcopJson);
  Builder b(result, options.init, "dbcop JSON", "\"version\": null");
  JsonReader reader(text, source, b, result.history);
  reader.parse();
  b.finish();
  if (std::string note = reader.wrapper_note(); !note.empty()) result.notes.push_back(note);
  return result;
}

// Also accepted, where dbcop's parser refuses but nothing can be misread: a
// last line without its newline, "\r\n" line ends, blanks after '[' and
// before ']', comments after blanks, and no blank between transactions (which
// the dbcop_parser crate accepts).
ReadResult read_dbcop_hist(std::string_view text, const std::string& source,
                           const ReadOptions& options) {
  ReadResult result(Format::DbcopHist);
  Builder b(result, options.init, "dbcop .hist", "x==?");
  HistReader(source, b, result.history).read(text);
  b.finish();
  return result;
}

}  // namespace iso
