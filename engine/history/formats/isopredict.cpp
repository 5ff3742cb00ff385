// IsoPredict traces (FORMATS.md §8), one event per line:
//   WRITE KEY[x] Txn(s, i)
//   READ KEY[x] Txn(s, i) From(s', i')
//   INSERT[k] to Set[c] Txn(s, i)
//   CONTAINS[k] in Set[c] From(s', i') Txn(s, i)
//   DELETE[k] from Set[c] Txn(s, i)     (also: DELETE KEY[k] From Set(c) Txn(s, i))
// Session 0 is the initial state. Some traces log it as transaction
// Txn(0, 0), whose WRITE events are the initial transaction's writes, and
// reads From(0, 0) then read them; others log no event of session 0 and
// reads From(0, 0) read the initial value of any key. Set operations become
// reads and writes of the key "Set(c:k)", the membership of k in c, as
// IsoPredict itself models them.
//
// The initial state (--init): auto takes a logged Txn(0, 0) as T0 (explicit:
// T0 writes exactly its keys, and it must not read), and otherwise T0 writes
// every key (implicit); implicit and none read a logged Txn(0, 0) as an
// ordinary transaction T0.0; none gives T0 no write, so a read From(0, 0) of
// a key Txn(0, 0) does not write is a thin-air read.
//
// The trace names the transaction a read read from instead of a value, so
// values are made up: the n-th write event to a key writes the integer n (the
// initial value, and T0's writes, are 0), and a read from Txn(s', i') reads
// the value of that
// transaction's last write to the key (its own latest write so far when it
// reads from itself). A read from a transaction that never writes the key
// gets a value nobody wrote, so the checker sees a read of a write that does
// not exist, as it is.
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/history/formats/text_input.hpp"
#include "engine/util/utf8.hpp"

namespace iso {
namespace {

constexpr std::uint64_t kMaxId = std::numeric_limits<std::uint32_t>::max();
constexpr std::size_t kMaxKeyBytes = 4096;

struct TxnRef {
  std::uint64_t session = 0, index = 0;
  auto operator<=>(const TxnRef&) const = default;
};

constexpr TxnRef kInitRef{0, 0};  // the initial state, when a trace logs it

struct Event {
  bool write = false;
  std::string key;   // as History interns it
  bool integer_key = false;
  TxnRef txn, from;  // from: reads only
  std::size_t line = 0, from_col = 0;
};

// "[text]" (or "(text)" when `paren`): the text up to the closing bracket.
std::string bracketed(textin::Cursor& c, std::string_view what, bool paren) {
  char open = paren ? '(' : '[', close = paren ? ')' : ']';
  if (!c.eat(std::string_view(&open, 1))) c.fail(fmt::format("expected '{}' before {}", open, what));
  std::string_view rest = c.rest();
  auto end = rest.find(close);
  if (end == std::string_view::npos) c.fail(fmt::format("expected '{}' after {}", close, what));
  if (end == 0) c.fail(fmt::format("expected {} inside '{}{}'", what, open, close));
  if (end > kMaxKeyBytes) c.fail(fmt::format("{} is longer than {} bytes", what, kMaxKeyBytes));
  // Keys must be UTF-8, like all JSON text, to round-trip.
  if (auto bad = utf8::first_invalid(rest.substr(0, end)))
    c.fail_at(c.col() + *bad, fmt::format("{} is not UTF-8 text", what));
  std::string text(rest.substr(0, end));
  c.advance(end + 1);
  return text;
}

// "Txn(s, i)" or "From(s, i)".
TxnRef txn_ref(textin::Cursor& c, std::string_view word) {
  c.skip_spaces();
  c.expect(word, fmt::format("'{}'", word));
  c.skip_spaces();
  TxnRef r;
  r.session = c.unsigned_int("the session number", kMaxId);
  c.skip_spaces();
  c.expect(",", "',' after the session number");
  c.skip_spaces();
  r.index = c.unsigned_int("the transaction number", kMaxId);
  c.skip_spaces();
  c.expect(")", "')' after the transaction number");
  return r;
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

Event parse_event(const std::string& source, std::string_view text, std::size_t number) {
  textin::Cursor c(source, text, number);
  Event ev;
  ev.line = number;
  c.skip_spaces();
  auto set_key = [&](std::string_view element, std::string_view set) {
    ev.key = fmt::format("Set({}:{})", set, element);
  };
  auto from = [&] {
    c.skip_spaces();
    ev.from_col = c.col();
    ev.from = txn_ref(c, "From(");
  };
  // "[k] WORD Set[c]" of INSERT ("to") and CONTAINS ("in").
  auto element_of_set = [&](std::string_view word) {
    std::string element = bracketed(c, "the element", false);
    c.skip_spaces();
    c.expect(word, fmt::format("'{} Set['", word));
    c.skip_spaces();
    c.expect("Set", "'Set['");
    set_key(element, bracketed(c, "the set", false));
  };
  bool is_write = c.eat("WRITE");
  if (is_write || c.eat("READ")) {
    ev.write = is_write;
    c.skip_spaces();
    c.expect("KEY", "'KEY[' and the key");
    ev.key = bracketed(c, "the key", false);
    ev.integer_key = all_digits(ev.key);
    ev.txn = txn_ref(c, "Txn(");
    if (!ev.write) from();
  } else if (c.eat("INSERT")) {
    ev.write = true;
    element_of_set("to");
    ev.txn = txn_ref(c, "Txn(");
  } else if (c.eat("CONTAINS")) {
    element_of_set("in");
    from();
    ev.txn = txn_ref(c, "Txn(");
  } else if (c.eat("DELETE")) {
    ev.write = true;
    c.skip_spaces();
    c.eat("KEY");
    std::string element = bracketed(c, "the element", false);
    c.skip_spaces();
    if (!c.eat("from")) c.expect("From", "'from Set['");
    c.skip_spaces();
    c.expect("Set", "'Set[' or 'Set('");
    set_key(element, bracketed(c, "the set", c.peek() == '('));
    ev.txn = txn_ref(c, "Txn(");
  } else {
    c.fail("expected an event: WRITE, READ, INSERT, CONTAINS or DELETE");
  }
  c.expect_end("the event");
  if (ev.txn.session == 0 && ev.txn.index != 0)
    c.fail_at(1, fmt::format("Txn(0, {}): session 0 is the initial state and has only "
                             "transaction 0",
                             ev.txn.index));
  if (!ev.write && ev.from.session == 0 && ev.from.index != 0)
    c.fail_at(ev.from_col, fmt::format("From(0, {}): session 0 is the initial state and has "
                                       "only transaction 0",
                                       ev.from.index));
  return ev;
}

// The first event of a logged Txn(0, 0), if any.
const Event* logged_initial(const std::vector<Event>& events) {
  for (const Event& ev : events)
    if (ev.txn == kInitRef) return &ev;
  return nullptr;
}

// The initial state `mode` gives, a logged Txn(0, 0) being `logged`.
InitialState choose_initial_state(InitMode mode, const Event* logged, const std::string& source) {
  switch (mode) {
    case InitMode::Auto: return logged ? InitialState::Explicit : InitialState::Implicit;
    case InitMode::Implicit: return InitialState::Implicit;
    case InitMode::None: return InitialState::None;
    case InitMode::Explicit:
      if (!logged)
        throw InputError(fmt::format("{}: --init explicit: the trace logs no initial "
                                     "transaction Txn(0, 0) (use auto, implicit or none)",
                                     source));
      return InitialState::Explicit;
  }
  return InitialState::Implicit;
}

// Adds the transactions in order of first appearance; within a session, a
// transaction's events must be consecutive and its numbers increase.
// `t0_logged`: Txn(0, 0) is T0 itself, not a transaction.
std::map<TxnRef, TxnId> add_transactions(History& h, const std::vector<Event>& events,
                                         bool t0_logged, const std::string& source) {
  std::map<TxnRef, TxnId> txn_ids;
  struct SessionState {
    SessionId id = 0;
    std::uint64_t last_index = 0;
    std::size_t last_line = 0;
  };
  std::unordered_map<std::uint64_t, SessionState> sessions;
  for (const Event& ev : events) {
    if (t0_logged && ev.txn == kInitRef) {
      if (!ev.write)
        textin::fail(source, ev.line, 1,
                     "the initial transaction Txn(0, 0) reads, so it cannot be the initial "
                     "state (--init implicit or none reads it as an ordinary transaction)");
      continue;
    }
    auto [sit, fresh] = sessions.try_emplace(ev.txn.session);
    SessionState& s = sit->second;
    if (fresh) {
      s.id = h.add_session();
    } else if (s.last_index == ev.txn.index) {
      s.last_line = ev.line;
      continue;
    } else if (ev.txn.index < s.last_index || txn_ids.count(ev.txn)) {
      textin::fail(source, ev.line, 1,
                   fmt::format("Txn({}, {}) comes after Txn({}, {}) (line {}): transaction "
                               "numbers must increase within a session and a transaction's "
                               "events must be consecutive",
                               ev.txn.session, ev.txn.index, ev.txn.session, s.last_index,
                               s.last_line));
    }
    s.last_index = ev.txn.index;
    s.last_line = ev.line;
    txn_ids.emplace(ev.txn, h.add_txn(s.id, fmt::format("T{}.{}", ev.txn.session, ev.txn.index)));
  }
  return txn_ids;
}

// The values made up for the writes: the n-th write event to a key writes n
// (T0's writes: 0), and each transaction's last write per key.
struct WriteValues {
  std::unordered_map<std::string, std::int64_t> per_key;  // writes so far
  std::vector<std::int64_t> of_event;                     // per event (0 for reads)
  std::map<std::pair<TxnRef, std::string>, std::int64_t> last;
  // The keys a logged T0 writes, wherever in the trace its events are: a
  // read from Txn(0, 0) may come before them.
  std::unordered_set<std::string> t0_keys;
};

WriteValues number_writes(const std::vector<Event>& events, bool t0_logged) {
  WriteValues w;
  w.of_event.assign(events.size(), 0);
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (!events[i].write) continue;
    if (t0_logged && events[i].txn == kInitRef) {
      w.t0_keys.insert(events[i].key);
      continue;
    }
    w.of_event[i] = ++w.per_key[events[i].key];
    w.last[{events[i].txn, events[i].key}] = w.of_event[i];
  }
  return w;
}

// Adds the events as operations (T0's as initial values); returns the number
// of reads of a transaction that never writes the key read.
std::size_t add_events(History& h, const std::vector<Event>& events, bool t0_logged,
                       const std::map<TxnRef, TxnId>& txn_ids, WriteValues& w,
                       const std::string& source) {
  std::map<std::pair<TxnRef, std::string>, std::int64_t> own_write;  // so far
  std::size_t thin_air = 0;
  const ValueId zero = h.intern_value(Value{std::int64_t{0}});
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& ev = events[i];
    KeyId k = h.intern_key(ev.key, ev.integer_key);
    if (t0_logged && ev.txn == kInitRef) {
      h.set_init(k, zero);
      continue;
    }
    TxnId t = txn_ids.at(ev.txn);
    if (ev.write) {
      h.add_write(t, k, h.intern_value(Value{w.of_event[i]}), op_line(ev.line));
      own_write[{ev.txn, ev.key}] = w.of_event[i];
      continue;
    }
    std::int64_t v = 0;  // From(0, 0) of an initial state T0 writes: the initial value
    if (ev.from == ev.txn) {
      auto it = own_write.find({ev.txn, ev.key});
      if (it == own_write.end())
        textin::fail(source, ev.line, ev.from_col,
                     fmt::format("Txn({}, {}) reads {} from itself before writing it",
                                 ev.txn.session, ev.txn.index, ev.key));
      v = it->second;
    } else if (t0_logged && ev.from == kInitRef) {
      if (!w.t0_keys.count(ev.key)) {
        v = ++w.per_key[ev.key];  // T0 does not write the key: a value nobody wrote
        ++thin_air;
      }
    } else if (auto it = w.last.find({ev.from, ev.key}); it != w.last.end()) {
      v = it->second;
    } else if (ev.from != kInitRef) {
      v = ++w.per_key[ev.key];  // a value no event writes
      ++thin_air;
    }
    h.add_read(t, k, h.intern_value(Value{v}), op_line(ev.line));
  }
  return thin_air;
}

// What the initial state note says T0 writes.
std::string initial_detail(const History& h, InitialState state, const Event* logged) {
  const std::string ordinary = logged ? "; Txn(0, 0) is an ordinary transaction T0.0" : "";
  switch (state) {
    case InitialState::Explicit: {
      std::size_t n = 0;
      for (KeyId k = 0; k < h.keys().size(); ++k) n += h.has_explicit_init(k) ? 1 : 0;
      return fmt::format("the trace logs the initial transaction Txn(0, 0) (line {}): it is "
                         "T0 and writes only its {} key{}",
                         logged->line, n, initial::plural(n));
    }
    case InitialState::Implicit:
      return fmt::format("T0 writes 0 to every key; reads From(0, 0) read it{}", ordinary);
    case InitialState::None:
      return fmt::format("T0 writes no key: a read From(0, 0) of a key that no logged "
                         "Txn(0, 0) writes is a thin-air read{}",
                         ordinary);
  }
  return {};
}

}  // namespace

ReadResult read_isopredict(std::string_view text, const std::string& source,
                           const ReadOptions& options) {
  ReadResult result(Format::IsoPredict);
  History& h = result.history;
  const auto events = textin::parse_lines(
      text, [&](std::string_view line, std::size_t number) { return parse_event(source, line, number); });
  // The initial state: a logged Txn(0, 0) is T0 unless the mode says otherwise.
  const Event* logged = logged_initial(events);
  const InitialState state = choose_initial_state(options.init, logged, source);
  const bool t0_logged = state == InitialState::Explicit;  // Txn(0, 0) is T0 itself
  result.explicit_init = t0_logged;
  const auto txn_ids = add_transactions(h, events, t0_logged, source);
  WriteValues writes = number_writes(events, t0_logged);
  const std::size_t thin_air = add_events(h, events, t0_logged, txn_ids, writes, source);
  if (thin_air > 0)
    result.notes.push_back(fmt::format(
        "{} read{} a transaction that never writes the key read: read as {} that no "
        "transaction wrote",
        thin_air, thin_air == 1 ? " names" : "s name", thin_air == 1 ? "a value" : "values"));
  initial::record(result, options.init, state, initial_detail(h, state, logged));
  return result;
}

}  // namespace iso
