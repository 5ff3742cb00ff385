// The dbcop reader (FORMATS.md §5): one Rust bincode v1 value, little-endian,
// fixed-width integers:
//   u64 id, n_node, n_variable, n_transaction, n_event
//   string info, start, end               (u64 length + UTF-8 bytes)
//   vec<vec<transaction>>                 (u64 count + elements)
//   transaction = vec<event>, bool success
//   event       = bool write, u64 variable, u64 value, bool success
//   (variables and values are unsigned: all 2^64 of them are read, keys as
//   their decimal text, values as integers)
//
// Mapping to the history model:
//  - each session becomes a History session; transaction j of session i is
//    named "T<i>.<j>" (0-based, as in the file) so that a user can find it;
//  - a transaction with success = false is Aborted; its (successful) events
//    are kept so that a committed read of its writes is detectable as an
//    aborted read (G1a);
//  - an event with success = false did not take effect (dbcop records the
//    operations a failed transaction attempted after its failure, with value
//    0): it is dropped, and the number dropped is reported in a note;
//  - value 0 is the initial value of every variable (--init auto or
//    implicit), which is the History's default initial value, so nothing is
//    set explicitly; --init none gives no initial value, and a read of 0
//    then needs a write of 0; --init explicit is refused: dbcop histories
//    have no initial transaction.
//
// Speed: histories of tens of millions of events are read, so variables and
// values are interned through dense tables indexed by their number (one
// array access per event instead of formatting the number and hashing the
// text), for numbers below a bound proportional to the file's size, so that
// a malformed file cannot make the tables grow without bound; larger numbers
// go through a hash map.
//
// Robustness: every count is checked against the bytes that remain (each
// element needs a known minimum number of bytes) before it is looped over, and
// every string length likewise. Bytes left after the value are rejected: a
// history.bincode holds exactly one value, and trailing bytes mean the file is
// not what it claims to be (a concatenation, a different layout), where
// ignoring them could silently drop sessions.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/binary_util.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/util/utf8.hpp"

namespace iso {

namespace {

constexpr std::size_t kEventBytes = 1 + 8 + 8 + 1;
constexpr std::size_t kMinTxnBytes = 8 + 1;      // empty event list + success
constexpr std::size_t kMinSessionBytes = 8;      // empty transaction list

std::string read_string(ByteCursor& in, std::string_view what) {
  std::size_t at = in.offset();
  std::uint64_t len = in.u64_le(fmt::format("the length of {}", what));
  in.check_count(len, 1, at, fmt::format("{} byte", what));
  std::size_t text_at = in.offset();
  std::string_view text = in.take(static_cast<std::size_t>(len), what);
  if (!utf8::valid(text)) in.fail_at(text_at, fmt::format("expected {} as UTF-8 text", what));
  return std::string(text);
}

// Interned ids of the numbers of a history (variables or values): a dense
// table for numbers below `dense_limit`, a hash map for the others.
class NumberIds {
 public:
  static constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();
  explicit NumberIds(std::uint64_t dense_limit) : limit_(dense_limit) {}

  template <class Intern>
  std::uint32_t get(std::uint64_t number, Intern intern) {
    if (number < limit_) {
      if (number >= dense_.size()) {
        // Doubling, as a vector grows, but never past the limit.
        const std::uint64_t grown = std::min<std::uint64_t>(limit_, 2 * dense_.size());
        dense_.resize(static_cast<std::size_t>(std::max(number + 1, grown)), kUnset);
      }
      std::uint32_t& id = dense_[number];
      if (id == kUnset) id = intern(number);
      return id;
    }
    auto [it, fresh] = sparse_.try_emplace(number, 0);
    if (fresh) it->second = intern(number);
    return it->second;
  }

 private:
  std::uint64_t limit_;
  std::vector<std::uint32_t> dense_;
  std::unordered_map<std::uint64_t, std::uint32_t> sparse_;
};

// A short, printable rendering of a header string for a note.
std::string shown(const std::string& s) {
  constexpr std::size_t kMax = 80;
  if (s.size() <= kMax) return quote_string(s);
  std::size_t cut = kMax;  // not inside a UTF-8 sequence
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return quote_string(s.substr(0, cut) + "...");
}

// One event of a transaction, kept until the transaction's status (after
// its events) is known.
struct Event {
  bool write;
  std::uint64_t variable;
  std::uint64_t value;
  bool success;
};

// The counts the notes report.
struct Counts {
  std::size_t txns = 0, aborted = 0, failed_committed = 0, failed_aborted = 0;
  std::size_t writes_of_zero = 0;
};

// Reads the sessions of a history.bincode after its header.
class SessionsReader {
 public:
  SessionsReader(History& h, ByteCursor& in, std::size_t size)
      : h_(h),
        in_(in),
        zero_(h.intern_value(Value{std::int64_t{0}})),
        // A dense table entry costs 4 bytes, an event 18: tables up to the
        // number of events the file can hold stay within the size of the
        // file.
        key_ids_(size / kEventBytes + 1024),
        value_ids_(size / kEventBytes + 1024) {}

  const Counts& counts() const { return n_; }

  void session(std::uint64_t s) {
    const SessionId session = h_.add_session();
    const std::size_t at = in_.offset();
    std::uint64_t n_txns = in_.u64_le(fmt::format("the transaction count of session {}", s));
    in_.check_count(n_txns, kMinTxnBytes, at, fmt::format("session {} transaction", s));
    for (std::uint64_t t = 0; t < n_txns; ++t) transaction(session, s, t);
  }

 private:
  void transaction(SessionId session, std::uint64_t s, std::uint64_t t) {
    const std::string name = fmt::format("T{}.{}", s, t);
    read_events(name);
    // The messages that name the transaction are formatted only when they
    // are needed: millions of transactions are read.
    if (in_.remaining() < 1 || in_.peek_u8() > 1)
      in_.bool_byte(fmt::format("the success flag of {}", name));  // fails
    const bool committed = in_.bool_byte("a success flag");
    TxnId txn = h_.add_txn(session, name, committed ? TxnStatus::Committed : TxnStatus::Aborted);
    ++n_.txns;
    if (!committed) ++n_.aborted;
    add_events(txn, committed);
  }

  // The events of transaction `name`, into events_.
  void read_events(const std::string& name) {
    const std::size_t at = in_.offset();
    if (in_.remaining() < 8) in_.need(8, fmt::format("the event count of {}", name));
    std::uint64_t n_events = in_.u64_le("an event count");
    if (n_events > in_.remaining() / kEventBytes)
      in_.check_count(n_events, kEventBytes, at, fmt::format("{} event", name));
    events_.clear();
    events_.reserve(static_cast<std::size_t>(n_events));
    // check_count guarantees the bytes of every event: only the bool fields
    // can be malformed, and their messages are built only then.
    auto read_bool = [&](std::uint64_t e, const char* field) {
      std::size_t byte_at = in_.offset();
      std::uint8_t b = in_.u8(field);
      if (b > 1)
        in_.fail_at(byte_at, fmt::format("expected the {} of event {} of {} (a bool, 0 or 1), "
                                         "found {}",
                                         field, e, name, b));
      return b == 1;
    };
    for (std::uint64_t e = 0; e < n_events; ++e) {
      Event ev{};
      ev.write = read_bool(e, "kind");
      ev.variable = in_.u64_le("a variable");
      ev.value = in_.u64_le("a value");
      ev.success = read_bool(e, "success flag");
      events_.push_back(ev);
    }
  }

  void add_events(TxnId txn, bool committed) {
    h_.txn(txn).ops.reserve(events_.size());
    for (const Event& ev : events_) {
      if (!ev.success) {
        ++(committed ? n_.failed_committed : n_.failed_aborted);
        continue;
      }
      KeyId k = key_of(ev.variable);
      ValueId v = value_of(ev.value);
      if (ev.write) {
        if (v == zero_) ++n_.writes_of_zero;
        h_.add_write(txn, k, v);
      } else {
        h_.add_read(txn, k, v);
      }
    }
  }

  KeyId key_of(std::uint64_t variable) {
    return key_ids_.get(variable, [&](std::uint64_t v) {
      return h_.intern_key(std::to_string(v), /*integer=*/true);
    });
  }
  // Values are Rust u64: all of them are values, those above 2^63 - 1
  // BigUnsigned (history.hpp).
  ValueId value_of(std::uint64_t value) {
    return value_ids_.get(value, [&](std::uint64_t v) { return h_.intern_value(unsigned_value(v)); });
  }

  History& h_;
  ByteCursor& in_;
  const ValueId zero_;
  NumberIds key_ids_, value_ids_;
  std::vector<Event> events_;  // of the transaction being read
  Counts n_;
};

std::string plural_s(std::size_t n) { return n == 1 ? "" : "s"; }

// The notes on the operations dropped and the writes of 0.
void add_notes(ReadResult& result, const Counts& n) {
  if (n.failed_committed > 0)
    result.notes.push_back(fmt::format(
        "{} operation{} marked failed inside committed transactions did not take effect and "
        "{} dropped",
        n.failed_committed, plural_s(n.failed_committed), n.failed_committed == 1 ? "was" : "were"));
  if (n.failed_aborted > 0)
    result.notes.push_back(fmt::format(
        "{} operation{} marked failed inside aborted transactions {} dropped", n.failed_aborted,
        plural_s(n.failed_aborted), n.failed_aborted == 1 ? "was" : "were"));
  if (n.writes_of_zero > 0)
    result.notes.push_back(fmt::format(
        "{} write{} the value 0, which is also the initial value of every variable",
        n.writes_of_zero, n.writes_of_zero == 1 ? " writes" : "s write"));
}

}  // namespace

ReadResult read_dbcop(std::string_view bytes, const std::string& source,
                      const ReadOptions& options) {
  initial::refuse_explicit(source, options.init, "dbcop histories",
                           "they have no initial transaction");
  ReadResult result(Format::Dbcop);
  ByteCursor in(bytes, source);
  static constexpr const char* kHeader[] = {"the history id", "the node count",
                                            "the variable count", "the transaction count",
                                            "the event count"};
  for (const char* what : kHeader) in.u64_le(what);
  std::string info = read_string(in, "the database name");
  std::string start = read_string(in, "the start time");
  std::string end = read_string(in, "the end time");
  std::size_t at = in.offset();
  std::uint64_t n_sessions = in.u64_le("the session count");
  in.check_count(n_sessions, kMinSessionBytes, at, "session");

  SessionsReader sessions(result.history, in, bytes.size());
  for (std::uint64_t s = 0; s < n_sessions; ++s) sessions.session(s);
  if (!in.at_end())
    in.fail(fmt::format("expected the end of the history, but {} more byte{} follow",
                        in.remaining(), plural_s(in.remaining())));
  const Counts& n = sessions.counts();
  result.notes.push_back(fmt::format("dbcop history of {} recorded from {} to {}: {} sessions, "
                                     "{} transactions ({} aborted)",
                                     shown(info), shown(start), shown(end), n_sessions, n.txns,
                                     n.aborted));
  add_notes(result, n);
  initial::record_implicit_or_none(result, options.init, "T0 writes 0 to every variable",
                                   "T0 writes no variable: a read of 0 that no transaction "
                                   "wrote is a thin-air read");
  return result;
}

}  // namespace iso
