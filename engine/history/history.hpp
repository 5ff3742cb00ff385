// The history model: sessions of transactions, each a list of operations in
// program order, plus the initial transaction T0 that writes the initial value
// of every key. Keys and values are interned to dense ids so that the rest of
// the engine works on small integers; the original spelling is kept for output.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "engine/util/int_map.hpp"

namespace iso {

using TxnId = std::uint32_t;      // index into History::txns(); T0 is 0
using KeyId = std::uint32_t;      // index into History::keys()
using ValueId = std::uint32_t;    // index into History::values()
using SessionId = std::uint32_t;  // index into History::sessions()

inline constexpr TxnId kInitTxn = 0;
inline constexpr SessionId kNoSession = UINT32_MAX;  // the session of T0

// What a delete writes: after it the key is dead (Vbox's x⊥), a version that
// satisfies no predicate and that no read returns.
struct Deleted {
  friend bool operator==(Deleted, Deleted) = default;
  friend auto operator<=>(Deleted, Deleted) = default;
};

// An integer above the signed 64-bit range, up to 2^64 - 1 (dbcop's values
// are Rust u64). Every integer has one spelling: those that fit are
// std::int64_t, only the others are BigUnsigned, so equality stays that of
// the numbers.
struct BigUnsigned {
  std::uint64_t value = 0;
  friend bool operator==(BigUnsigned, BigUnsigned) = default;
  friend auto operator<=>(BigUnsigned, BigUnsigned) = default;
};

// A value as written in a history file: an integer, a string, or null; or
// a delete's tombstone.
using Value = std::variant<std::monostate, std::int64_t, std::string, Deleted, BigUnsigned>;

// An integer as a Value in its one spelling (BigUnsigned).
inline Value unsigned_value(std::uint64_t v) {
  if (v <= static_cast<std::uint64_t>(INT64_MAX)) return Value{static_cast<std::int64_t>(v)};
  return Value{BigUnsigned{v}};
}

// A key keeps how it was spelled: JSON keys may be strings or integers. Keys
// are identified by their text: the integer key 1 and the string key "1" are
// the same key, spelled as it was first interned.
struct Key {
  std::string text;
  bool integer = false;
};

enum class OpKind : std::uint8_t { Read, Write, PredicateRead, PredicateWrite };

struct Predicate;  // engine/history/predicate.hpp

// A predicate read: its predicate (engine/history/predicate.hpp: a key range
// "[lo,hi]", a prefix "prefix:abc", a value condition "v<3", or a key and a
// value condition) and the keys it returned with the value read for each.
// A predicate write (UPDATE ... SET v = c WHERE θ, or DELETE ... WHERE θ)
// shares the form with an empty result: its Op's value is the value written
// (the tombstone for a delete) to every key whose version satisfies θ, which
// the database did not say (Vbox §2.2: invisible predicate writes).
struct PredicateRead {
  std::string predicate;  // the text form, which parse_predicate() accepts
  std::vector<std::pair<KeyId, ValueId>> result;
};

inline constexpr std::uint32_t kNoList = UINT32_MAX;

// The largest column an Op records (Op::column has 24 bits); a column past
// it is recorded as unknown.
inline constexpr std::uint32_t kMaxOpColumn = (1u << 24) - 1;

struct Op {
  OpKind kind : 8 = OpKind::Read;
  // Column (1-based, in bytes) in the input where it starts; 0: unknown, or
  // beyond kMaxOpColumn. It fills the bytes after `kind`: sizeof(Op) stays 24.
  std::uint32_t column : 24 = 0;
  KeyId key = 0;      // Read, Write
  // Read, Write, PredicateWrite. A list read's value is its last element, or
  // the key's initial value for the empty list: the version it returns.
  ValueId value = 0;
  // PredicateRead, PredicateWrite: index into History::predicate_reads()
  std::uint32_t predicate = 0;
  // Read: for a list-append read (Elle, Chronos), index into History::lists()
  // of the whole list it returned; kNoList for a register read.
  std::uint32_t list = kNoList;
  std::uint32_t line = 0;       // line of the input it was read from; 0: unknown
};

// Op::column for a 1-based input column: 0 (unknown) past kMaxOpColumn.
inline std::uint32_t op_column(std::size_t column) {
  return column > kMaxOpColumn ? 0 : static_cast<std::uint32_t>(column);
}

enum class TxnStatus : std::uint8_t { Committed, Aborted, Unknown };

// Which keys the initial transaction T0 writes (FORMATS.md, common
// conventions). EveryKey: every key, with its initial value (set_init, or
// the integer 0), as most producers mean. ExplicitOnly: only the keys given
// by set_init; a read of any other key's value needs a writer in the history
// (AWDIT's convention, and `--init none` / `--init explicit`).
enum class InitialWrites : std::uint8_t { EveryKey, ExplicitOnly };

// A timestamp the database itself assigned (Chronos/Aion JSON, FORMATS.md
// §9): a hybrid logical clock, compared physical part first. These are not
// client real time: real_time_before() never reads them; only the levels
// that trust the database (h.ts_vis, h.ts_ar; engine/timestamps/) do.
struct DbTimestamp {
  std::int64_t physical = 0;
  std::int64_t logical = 0;
  friend auto operator<=>(const DbTimestamp&, const DbTimestamp&) = default;
};

struct Transaction {
  std::string name;               // "T1"; unique within a history
  SessionId session = kNoSession;
  std::uint32_t position = 0;     // index inside its session
  TxnStatus status = TxnStatus::Committed;
  // Client-observed timestamps, one clock for all (time_before() says what
  // they claim): the begin was requested at `begin` and the commit had
  // returned by `commit`. Where the client also saw when the begin returned
  // (`begin_end`, Viper's postBeginTS) and when the commit was requested
  // (`commit_start`, its preCommitTS), the two events are known closer.
  std::optional<std::int64_t> begin, commit;
  std::optional<std::int64_t> begin_end, commit_start;
  // The database's start (snapshot) and commit timestamps, when it logged them.
  std::optional<DbTimestamp> start_ts, commit_ts;
  std::vector<Op> ops;            // program order
};

// A string in double quotes with escapes for '"', '\\' and hidden
// characters (utf8::hidden: controls as \n, \t, \r or \u001b, format
// characters such as U+202E as \u202e), and \xNN for a byte that is not
// part of valid UTF-8: for people to read, not for JSON.
std::string quote_string(std::string_view s);

// Free text from an input or a spec (a level's doc, an anomaly's
// description) as printed: hidden characters and invalid bytes escaped as
// quote_string escapes them, nothing quoted, so that it stays on its line
// and shows what it says. With `keep_lines`, line breaks and tabs stay as
// they are (text that is laid out in lines: a page's <pre>).
std::string escape_text(std::string_view s, bool keep_lines = false);

// How an identifier from an input (a transaction name, a key) is printed:
// as it is when it is one word of visible characters (no blank, quote,
// backslash or comma), otherwise quoted with escapes, so that no input can
// forge a line of output or a terminal escape: "T1\nbiswas.SER: allowed".
// Non-ASCII text that is valid UTF-8 is kept; invalid bytes, C1 and other
// control characters are escaped.
std::string display_text(std::string_view s);

class History {
 public:
  History();  // creates T0 (name "T0", no session, committed, no ops)

  // --- construction ---------------------------------------------------------
  KeyId intern_key(std::string_view text, bool integer = false);
  ValueId intern_value(const Value& v);
  SessionId add_session();
  // Appends a transaction at the end of `session`. Names must be unique; the
  // caller (a reader) reports duplicates, this asserts nothing about them.
  TxnId add_txn(SessionId session, std::string name,
                TxnStatus status = TxnStatus::Committed);
  // `line`, `column`: where the operation is in the input (0: unknown), for
  // messages and JSON output (column: op_column()).
  void add_read(TxnId t, KeyId k, ValueId v, std::uint32_t line = 0, std::uint32_t column = 0);
  void add_write(TxnId t, KeyId k, ValueId v, std::uint32_t line = 0, std::uint32_t column = 0);
  // A delete of k: a write of the tombstone (Deleted).
  void add_delete(TxnId t, KeyId k, std::uint32_t line = 0, std::uint32_t column = 0) {
    add_write(t, k, intern_value(Value{Deleted{}}), line, column);
  }
  bool is_delete(ValueId v) const { return std::holds_alternative<Deleted>(values_[v]); }
  // A list-append read (Elle): the list of k's appended elements it returned,
  // in order. It reads the version its last element installed, or for the
  // empty list the version `empty` (the key's initial value), and reveals
  // the order the versions before it were installed in (engine/history/
  // known_order.hpp). Appends are writes of their element.
  void add_list_read(TxnId t, KeyId k, std::vector<ValueId> elements, ValueId empty,
                     std::uint32_t line = 0, std::uint32_t column = 0);
  void add_predicate_read(TxnId t, PredicateRead pr, std::uint32_t line = 0, std::uint32_t column = 0);
  // UPDATE ... SET v = value WHERE predicate (value: the tombstone for a
  // DELETE ... WHERE).
  void add_predicate_write(TxnId t, std::string predicate, ValueId value, std::uint32_t line = 0,
                           std::uint32_t column = 0);
  bool has_predicate_writes() const { return predicate_writes_ > 0; }
  void set_init(KeyId k, ValueId v);  // default initial value is the integer 0
  void set_initial_writes(InitialWrites w) { initial_writes_ = w; }
  // The clock-skew bound Δ (in the timestamps' unit, >= 0) under which
  // real_time_before() reads the begin and commit timestamps: Vbox's Δ,
  // by which each end of a comparison is widened.
  void set_clock_skew(std::int64_t skew) { clock_skew_ = skew; }
  Transaction& txn(TxnId t) { return txns_[t]; }

  // --- access ---------------------------------------------------------------
  const std::vector<Transaction>& txns() const { return txns_; }
  const Transaction& txn(TxnId t) const { return txns_[t]; }
  std::size_t num_txns() const { return txns_.size(); }  // T0 included
  const std::vector<std::vector<TxnId>>& sessions() const { return sessions_; }
  const std::vector<Key>& keys() const { return keys_; }
  const std::vector<Value>& values() const { return values_; }
  const std::vector<PredicateRead>& predicate_reads() const { return preds_; }
  // The lists of list reads (Op::list indexes them).
  const std::vector<std::vector<ValueId>>& lists() const { return lists_; }
  bool has_list_reads() const { return !lists_.empty(); }
  ValueId init_value(KeyId k) const;   // the interned 0 unless set_init was called
  bool has_explicit_init(KeyId k) const;
  InitialWrites initial_writes() const { return initial_writes_; }
  std::int64_t clock_skew() const { return clock_skew_; }
  // Real-time order between the events of two transactions (LEVELS.md,
  // "Real time"; Vbox §3.2, Viper §5): a's event happened before b's for
  // certain, by more than the clock skew Δ. Each event is known to lie in
  // an interval: the begin in [begin, begin_end], the commit in
  // [commit_start, commit], where a missing begin_end is the commit and a
  // missing commit_start the begin (the begin precedes the commit, and that
  // is all the client saw). So a's event precedes b's when the latest a's
  // can be, widened by Δ, is before the earliest b's can be, widened by Δ
  // (Vbox §3.2: every timestamp may be off by Δ, so both ends move:
  // latest + Δ < earliest − Δ). With only begin and
  // commit, every order is "a committed before b began". T0, the initial
  // state, begins and commits before every event of every other
  // transaction; a transaction without timestamps is ordered with no other.
  enum class Event : std::uint8_t { Begin, Commit };
  std::optional<std::int64_t> latest(TxnId t, Event e) const {
    const Transaction& x = txns_[t];
    return e == Event::Commit ? x.commit : x.begin_end ? x.begin_end : x.commit;
  }
  std::optional<std::int64_t> earliest(TxnId t, Event e) const {
    const Transaction& x = txns_[t];
    return e == Event::Begin ? x.begin : x.commit_start ? x.commit_start : x.begin;
  }
  bool time_before(TxnId a, Event ea, TxnId b, Event eb) const {
    if (a == b || b == 0) return false;
    if (a == 0) return true;
    const auto x = latest(a, ea), y = earliest(b, eb);
    return x && y && skew_before(*x, *y, clock_skew_);
  }
  // rt: a committed before b began (strict serializability, Strong SI).
  bool real_time_before(TxnId a, TxnId b) const {
    return time_before(a, Event::Commit, b, Event::Begin);
  }
  // x + skew < y - skew for timestamps (both ends widened by the skew),
  // without overflow: y - x and 2 * skew (skew >= 0) both fit in 64 bits
  // unsigned.
  static bool skew_before(std::int64_t x, std::int64_t y, std::int64_t skew) {
    return x < y && static_cast<std::uint64_t>(y) - static_cast<std::uint64_t>(x) >
                        2 * static_cast<std::uint64_t>(skew);
  }
  // Does T0 write k? Every key, or only those set_init gave.
  bool t0_writes(KeyId k) const {
    return initial_writes_ == InitialWrites::EveryKey || has_explicit_init(k);
  }
  std::optional<TxnId> find_txn(std::string_view name) const;
  std::optional<KeyId> find_key(std::string_view text) const;

  // A copy with every transaction in its own session (in TxnId order);
  // transaction, key and value ids are unchanged.
  History each_in_own_session() const;
  // A history with this one's keys, values (the same ids) and initial
  // state, and no transaction: for building a variant of this one.
  History without_transactions() const;

  // Text of a key or value as the papers print it: x, 0, "abc", null
  // (display_text: an unusual key is quoted).
  std::string key_text(KeyId k) const { return display_text(keys_[k].text); }
  // A transaction's name as printed (display_text).
  std::string txn_name(TxnId t) const { return display_text(txns_[t].name); }
  std::string value_text(ValueId v) const;

 private:
  std::vector<Transaction> txns_;
  std::vector<std::vector<TxnId>> sessions_;
  std::vector<Key> keys_;
  std::vector<Value> values_;
  std::vector<PredicateRead> preds_;
  std::size_t predicate_writes_ = 0;
  std::vector<std::vector<ValueId>> lists_;
  std::vector<std::optional<ValueId>> init_;  // per key
  InitialWrites initial_writes_ = InitialWrites::EveryKey;
  std::int64_t clock_skew_ = 0;
  std::unordered_map<std::string, KeyId> key_index_;
  // Values by number (integers: most values of most histories, where a
  // string spelling and a hash node each cost most of reading a large file)
  // and the others by a tagged spelling.
  IntMap<ValueId> int_value_index_;
  std::unordered_map<std::string, ValueId> value_index_;
  // By name, built by find_txn() (not thread-safe, as the rest of a History
  // being built): txns_[0 ..< txns_indexed_] are in it.
  mutable std::unordered_map<std::string, TxnId> txn_index_;
  mutable std::size_t txns_indexed_ = 0;
  ValueId zero_ = 0;
};

// The database's snapshots (h.ts_vis): a ≠ b, both timestamped (T0 first),
// and a's commit timestamp is at most b's start timestamp. Two transactions
// that start and commit at one timestamp (read-only ones, typically) would
// see each other; only the later one (by TxnId: file order, for every
// reader) sees the earlier, as Chronos keeps file order among equal
// timestamps.
bool ts_visible(const History& h, TxnId a, TxnId b);
// The database's commit order (h.ts_ar): a ≠ b, both timestamped (T0
// first), and a's commit timestamp is below b's.
bool ts_commit_before(const History& h, TxnId a, TxnId b);

}  // namespace iso
