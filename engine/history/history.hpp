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

namespace iso {

using TxnId = std::uint32_t;      // index into History::txns(); T0 is 0
using KeyId = std::uint32_t;      // index into History::keys()
using ValueId = std::uint32_t;    // index into History::values()
using SessionId = std::uint32_t;  // index into History::sessions()

inline constexpr TxnId kInitTxn = 0;
inline constexpr SessionId kNoSession = UINT32_MAX;  // the session of T0

// A value as written in a history file: an integer, a string, or null.
using Value = std::variant<std::monostate, std::int64_t, std::string>;

// A key keeps how it was spelled: JSON keys may be strings or integers. Keys
// are identified by their text: the integer key 1 and the string key "1" are
// the same key, spelled as it was first interned.
struct Key {
  std::string text;
  bool integer = false;
};

enum class OpKind : std::uint8_t { Read, Write, PredicateRead };

// A predicate read: the predicate (a key range "[lo,hi]" or "prefix:abc") and
// the keys it returned with the value read for each.
struct PredicateRead {
  std::string predicate;
  std::vector<std::pair<KeyId, ValueId>> result;
};

struct Op {
  OpKind kind = OpKind::Read;
  KeyId key = 0;      // Read, Write
  ValueId value = 0;  // Read, Write
  std::uint32_t predicate = 0;  // PredicateRead: index into History::predicate_reads()
};

enum class TxnStatus : std::uint8_t { Committed, Aborted, Unknown };

struct Transaction {
  std::string name;               // "T1"; unique within a history
  SessionId session = kNoSession;
  std::uint32_t position = 0;     // index inside its session
  TxnStatus status = TxnStatus::Committed;
  std::optional<std::int64_t> begin, commit;  // timestamps, same clock for all
  std::vector<Op> ops;            // program order
};

// A string in double quotes with JSON escapes for '"', '\\' and control
// characters: "abc", "a\"b".
std::string quote_string(std::string_view s);

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
  void add_read(TxnId t, KeyId k, ValueId v);
  void add_write(TxnId t, KeyId k, ValueId v);
  void add_predicate_read(TxnId t, PredicateRead pr);
  void set_init(KeyId k, ValueId v);  // default initial value is the integer 0
  // A known prefix of the version order of key k: the values in the order
  // they were installed, right after the initial value, which is not listed.
  // A list-append read of [1 2 3] reveals that the list went through exactly
  // the versions 1, 2, 3: every other write of k comes after 3.
  void add_version_chain(KeyId k, std::vector<ValueId> chain);
  Transaction& txn(TxnId t) { return txns_[t]; }

  // --- access ---------------------------------------------------------------
  const std::vector<Transaction>& txns() const { return txns_; }
  const Transaction& txn(TxnId t) const { return txns_[t]; }
  std::size_t num_txns() const { return txns_.size(); }  // T0 included
  const std::vector<std::vector<TxnId>>& sessions() const { return sessions_; }
  const std::vector<Key>& keys() const { return keys_; }
  const std::vector<Value>& values() const { return values_; }
  const std::vector<PredicateRead>& predicate_reads() const { return preds_; }
  const std::vector<std::pair<KeyId, std::vector<ValueId>>>& version_chains() const {
    return chains_;
  }
  ValueId init_value(KeyId k) const;   // the interned 0 unless set_init was called
  bool has_explicit_init(KeyId k) const;
  std::optional<TxnId> find_txn(std::string_view name) const;
  std::optional<KeyId> find_key(std::string_view text) const;

  // Text of a key or value as the papers print it: x, 0, "abc", null.
  std::string key_text(KeyId k) const { return keys_[k].text; }
  std::string value_text(ValueId v) const;

 private:
  std::vector<Transaction> txns_;
  std::vector<std::vector<TxnId>> sessions_;
  std::vector<Key> keys_;
  std::vector<Value> values_;
  std::vector<PredicateRead> preds_;
  std::vector<std::pair<KeyId, std::vector<ValueId>>> chains_;
  std::vector<std::optional<ValueId>> init_;  // per key
  std::unordered_map<std::string, KeyId> key_index_;
  std::unordered_map<std::string, ValueId> value_index_;  // keyed by a tagged spelling
  std::unordered_map<std::string, TxnId> txn_index_;
  ValueId zero_ = 0;
};

}  // namespace iso
