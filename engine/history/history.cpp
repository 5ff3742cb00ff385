// The history model (history.hpp): building sessions and transactions,
// interning keys and values, the database-timestamp orders, and the one
// escaping of names and values for output.

#include "engine/history/history.hpp"

#include <cassert>
#include <cstdint>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "engine/util/budget.hpp"
#include "engine/util/utf8.hpp"

namespace iso {

namespace {

// The lookup spelling of a value that is no signed 64-bit integer (those are
// found by number): a one-letter type tag, then the text, so that an
// integer and the string of its digits stay distinct.
std::string value_tag(const Value& v) {
  if (std::holds_alternative<std::monostate>(v)) return "n";
  if (std::holds_alternative<Deleted>(v)) return "d";
  if (const auto* u = std::get_if<BigUnsigned>(&v)) return "i" + std::to_string(u->value);
  return "s" + std::get<std::string>(v);
}

}  // namespace

namespace {

// The length of the valid UTF-8 sequence at s[i] that is neither ASCII nor
// hidden (utf8::hidden: a control, separator or format character), or 0.
std::size_t printable_utf8(std::string_view s, std::size_t i) {
  const utf8::Sequence seq = utf8::sequence_at(s, i);
  if (seq.length < 2 || utf8::hidden(seq.code_point)) return 0;
  return seq.length;
}

// Appends the escape of the character or byte at s[i] that may not be
// printed as it is, and returns how many bytes it covers: a hidden code
// point as \uXXXX (\UXXXXXXXX above the BMP), a byte that starts no valid
// sequence as \xNN.
std::size_t append_escape(std::string& out, std::string_view s, std::size_t i) {
  const utf8::Sequence seq = utf8::sequence_at(s, i);
  if (seq.length == 0) {
    out += fmt::format("\\x{:02x}", static_cast<unsigned>(static_cast<unsigned char>(s[i])));
    return 1;
  }
  if (seq.code_point > 0xFFFF)
    out += fmt::format("\\U{:08x}", seq.code_point);
  else
    out += fmt::format("\\u{:04x}", seq.code_point);
  return seq.length;
}

// Appends the character at s[i] as `escape_text` and `quote_string` print it
// and returns how many bytes it covers.
std::size_t append_escaped(std::string& out, std::string_view s, std::size_t i) {
  const char c = s[i];
  const auto u = static_cast<unsigned char>(c);
  switch (c) {
    case '\n': out += "\\n"; return 1;
    case '\t': out += "\\t"; return 1;
    case '\r': out += "\\r"; return 1;
    default: break;
  }
  if (u >= 0x20 && u < 0x7f) {
    out.push_back(c);
    return 1;
  }
  if (std::size_t n = printable_utf8(s, i)) {
    out.append(s.substr(i, n));
    return n;
  }
  return append_escape(out, s, i);
}

}  // namespace

std::string quote_string(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '"' || s[i] == '\\') {
      out.push_back('\\');
      out.push_back(s[i++]);
      continue;
    }
    i += append_escaped(out, s, i);
  }
  out.push_back('"');
  return out;
}

std::string escape_text(std::string_view s, bool keep_lines) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (keep_lines && (s[i] == '\n' || s[i] == '\t')) {
      out.push_back(s[i++]);
      continue;
    }
    i += append_escaped(out, s, i);
  }
  return out;
}

std::string display_text(std::string_view s) {
  bool plain = !s.empty();
  for (std::size_t i = 0; i < s.size() && plain;) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u >= 0x80) {
      std::size_t n = printable_utf8(s, i);
      plain = n > 0;
      i += n;
      continue;
    }
    plain = u > 0x20 && u < 0x7f && std::string_view("\"\\,`'").find(static_cast<char>(u)) ==
                                          std::string_view::npos;
    ++i;
  }
  return plain ? std::string(s) : quote_string(s);
}

History::History() {
  Transaction t0;
  t0.name = "T0";
  t0.session = kNoSession;
  t0.position = 0;
  t0.status = TxnStatus::Committed;
  txns_.push_back(std::move(t0));
  zero_ = intern_value(Value{std::int64_t{0}});
}

KeyId History::intern_key(std::string_view text, bool integer) {
  std::string s(text);
  auto it = key_index_.find(s);
  if (it != key_index_.end()) return it->second;
  auto id = static_cast<KeyId>(keys_.size());
  keys_.push_back(Key{s, integer});
  init_.emplace_back(std::nullopt);
  key_index_.emplace(std::move(s), id);
  return id;
}

ValueId History::intern_value(const Value& v) {
  std::optional<std::int64_t> number;
  if (const auto* i = std::get_if<std::int64_t>(&v)) number = *i;
  if (const auto* u = std::get_if<BigUnsigned>(&v); u && u->value <= static_cast<std::uint64_t>(INT64_MAX))
    number = static_cast<std::int64_t>(u->value);  // one spelling per number (unsigned_value())
  if (number)
    return int_value_index_.get_or_make(*number, [&] {
      values_.emplace_back(std::in_place_type<std::int64_t>, *number);
      return static_cast<ValueId>(values_.size() - 1);
    });
  std::string tag = value_tag(v);
  auto it = value_index_.find(tag);
  if (it != value_index_.end()) return it->second;
  auto id = static_cast<ValueId>(values_.size());
  values_.push_back(v);
  value_index_.emplace(std::move(tag), id);
  return id;
}

SessionId History::add_session() {
  sessions_.emplace_back();
  return static_cast<SessionId>(sessions_.size() - 1);
}

// Building a history polls the run's budget: every reader builds through
// these, so reading a large input respects --timeout and reports progress
// (budget.hpp) without each format's parser doing it.
TxnId History::add_txn(SessionId session, std::string name, TxnStatus status) {
  budget::poll();
  assert(session < sessions_.size());
  auto id = static_cast<TxnId>(txns_.size());
  Transaction t;
  t.name = std::move(name);
  t.session = session;
  t.position = static_cast<std::uint32_t>(sessions_[session].size());
  t.status = status;
  txns_.push_back(std::move(t));
  sessions_[session].push_back(id);
  return id;
}

void History::add_read(TxnId t, KeyId k, ValueId v, std::uint32_t line, std::uint32_t column) {
  budget::poll();
  assert(t < txns_.size() && k < keys_.size() && v < values_.size());
  txns_[t].ops.push_back(Op{OpKind::Read, column & kMaxOpColumn, k, v, 0, kNoList, line});
}

void History::add_write(TxnId t, KeyId k, ValueId v, std::uint32_t line, std::uint32_t column) {
  budget::poll();
  assert(t < txns_.size() && k < keys_.size() && v < values_.size());
  txns_[t].ops.push_back(Op{OpKind::Write, column & kMaxOpColumn, k, v, 0, kNoList, line});
}

void History::add_list_read(TxnId t, KeyId k, std::vector<ValueId> elements, ValueId empty,
                            std::uint32_t line, std::uint32_t column) {
  assert(t < txns_.size() && k < keys_.size() && empty < values_.size());
  const ValueId v = elements.empty() ? empty : elements.back();
  auto idx = static_cast<std::uint32_t>(lists_.size());
  lists_.push_back(std::move(elements));
  txns_[t].ops.push_back(Op{OpKind::Read, column & kMaxOpColumn, k, v, 0, idx, line});
}

void History::add_predicate_read(TxnId t, PredicateRead pr, std::uint32_t line, std::uint32_t column) {
  assert(t < txns_.size());
  auto idx = static_cast<std::uint32_t>(preds_.size());
  preds_.push_back(std::move(pr));
  txns_[t].ops.push_back(Op{OpKind::PredicateRead, column & kMaxOpColumn, 0, 0, idx, kNoList, line});
}

void History::add_predicate_write(TxnId t, std::string predicate, ValueId value, std::uint32_t line,
                                  std::uint32_t column) {
  assert(t < txns_.size() && value < values_.size());
  auto idx = static_cast<std::uint32_t>(preds_.size());
  preds_.push_back(PredicateRead{std::move(predicate), {}});
  ++predicate_writes_;
  txns_[t].ops.push_back(Op{OpKind::PredicateWrite, column & kMaxOpColumn, 0, value, idx, kNoList, line});
}

static_assert(sizeof(Op) == 24, "an Op per event: keep it small (the column shares kind's word)");

void History::set_init(KeyId k, ValueId v) {
  assert(k < keys_.size() && v < values_.size());
  init_[k] = v;
}

History History::each_in_own_session() const {
  History out = *this;
  out.sessions_.clear();
  for (TxnId t = 1; t < out.txns_.size(); ++t) {
    out.txns_[t].session = static_cast<SessionId>(out.sessions_.size());
    out.txns_[t].position = 0;
    out.sessions_.push_back({t});
  }
  return out;
}

History History::without_transactions() const {
  History out;
  for (const Key& k : keys_) out.intern_key(k.text, k.integer);
  for (const Value& v : values_) out.intern_value(v);
  out.set_initial_writes(initial_writes());
  for (KeyId k = 0; k < keys_.size(); ++k)
    if (has_explicit_init(k)) out.set_init(k, init_value(k));
  return out;
}

ValueId History::init_value(KeyId k) const {
  return init_[k].value_or(zero_);
}

bool History::has_explicit_init(KeyId k) const { return init_[k].has_value(); }

std::optional<TxnId> History::find_txn(std::string_view name) const {
  // Indexed on demand, and only the transactions added since the last call:
  // readers of millions of transactions never look one up by name.
  for (; txns_indexed_ < txns_.size(); ++txns_indexed_)
    txn_index_.emplace(txns_[txns_indexed_].name, static_cast<TxnId>(txns_indexed_));  // first of duplicates
  auto it = txn_index_.find(std::string(name));
  if (it == txn_index_.end()) return std::nullopt;
  return it->second;
}

std::optional<KeyId> History::find_key(std::string_view text) const {
  auto it = key_index_.find(std::string(text));
  if (it == key_index_.end()) return std::nullopt;
  return it->second;
}

std::string History::value_text(ValueId v) const {
  const Value& val = values_[v];
  if (std::holds_alternative<std::monostate>(val)) return "null";
  if (std::holds_alternative<Deleted>(val)) return "deleted";
  if (const auto* i = std::get_if<std::int64_t>(&val)) return std::to_string(*i);
  if (const auto* u = std::get_if<BigUnsigned>(&val)) return std::to_string(u->value);
  return quote_string(std::get<std::string>(val));
}

namespace {

// Both of the database's timestamps.
bool stamped(const Transaction& t) { return t.start_ts && t.commit_ts; }

}  // namespace

bool ts_visible(const History& h, TxnId a, TxnId b) {
  if (a == b || b == kInitTxn || !stamped(h.txn(b))) return false;
  if (a == kInitTxn) return true;
  const Transaction &ta = h.txn(a), &tb = h.txn(b);
  if (!stamped(ta)) return false;
  if (*ta.commit_ts != *tb.start_ts) return *ta.commit_ts < *tb.start_ts;
  const bool both_zero = *ta.start_ts == *ta.commit_ts && *tb.start_ts == *tb.commit_ts;
  return !both_zero || a < b;
}

bool ts_commit_before(const History& h, TxnId a, TxnId b) {
  if (a == b || b == kInitTxn || !stamped(h.txn(b))) return false;
  if (a == kInitTxn) return true;
  const Transaction& ta = h.txn(a);
  return stamped(ta) && *ta.commit_ts < *h.txn(b).commit_ts;
}

}  // namespace iso
