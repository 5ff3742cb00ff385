// Predicates of predicate reads (LEVELS.md, "Predicates"; Vbox §2.1): a
// condition on a key, a condition on its version's value, or both. A
// predicate is a function of a key's version; the unborn version (before the
// key is inserted: T0's, when T0 does not write the key) and the dead one
// (after a delete) satisfy no predicate.
//
// The text form, as histories spell it:
//   [lo,hi]        keys from lo to hi, inclusive (integer keys and bounds
//                  compare as integers, anything else by bytes)
//   prefix:abc     keys that start with abc
//   v=3  v!=3  v<3  v<=3  v>3  v>=3
//                  the value compared with an integer, or with a string in
//                  double quotes (v="abc"); = and != also with null. A value
//                  of another type than the constant fails the comparison.
//   v%2=0          the value an integer whose remainder modulo 2 (floored,
//                  so in 0..1) is 0 (Elle's [:mod 2 0])
//   [lo,hi] && v>3 (and prefix:abc && v="x")
//                  a key condition and a value condition together
//   true           every live version of every key (Elle's :true)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/history/history.hpp"

namespace iso {

struct Predicate {
  enum class Keys : std::uint8_t { All, Range, Prefix };
  enum class Cmp : std::uint8_t { None, Eq, Ne, Lt, Le, Gt, Ge, Mod };
  Keys keys = Keys::All;
  std::string lo, hi;  // Range: inclusive bounds
  std::string prefix;  // Prefix
  Cmp cmp = Cmp::None;  // None: any live version
  Value constant;       // Mod: the remainder
  std::int64_t modulus = 0;  // Mod: positive

  // Does the key satisfy the key condition? (A key outside it is never read
  // by the predicate: it is no part of the read.)
  bool covers(const Key& key) const;
  // Does a version of `key` with this value satisfy the predicate? The
  // unborn and dead versions are not values: they satisfy nothing.
  bool holds(const Key& key, const Value& value) const;
  // The text form, as parse_predicate() reads it.
  std::string text() const;
  friend bool operator==(const Predicate&, const Predicate&) = default;
};

// The integer a key or a bound spells: the whole text, in the signed 64-bit
// range (std::from_chars), else nullopt. Integer keys and bounds compare as
// these integers; the database clients store it as a row's `ikey`.
std::optional<std::int64_t> spelled_integer(std::string_view s);

// Parses the text form; nullopt with `error` saying what is wrong.
std::optional<Predicate> parse_predicate(std::string_view text, std::string* error = nullptr);

// The keys of a history in the orders predicates compare them by, so that
// the keys a range or a prefix covers are found by binary search: in time
// about the number covered, where a scan of every key would cost the
// history's size per predicate read. A value condition alone covers every
// key.
class KeyIndex {
 public:
  explicit KeyIndex(const History& h);
  // The keys `p` covers (Predicate::covers), ascending.
  std::vector<KeyId> covered(const Predicate& p) const;

 private:
  const History* h_;
  std::vector<std::pair<std::int64_t, KeyId>> integers_;  // keys spelled as integers, by value
  std::vector<KeyId> texts_;  // the other keys, by bytes
  std::vector<KeyId> all_;    // every key, by bytes
};

}  // namespace iso
