// Random workloads for `isosynth record`: plans of transactions, generated
// from a seed, that the recorder (db/recorder.hpp) runs on a database. A plan
// says what to do (read x, write 7 to y, append 3 to z, read the keys in
// [2,5]); what the database returns is recorded, not planned.
//
// Three kinds, after Elle's and dbcop's:
//   rw-register  reads and writes of integer registers; every write of a key
//                writes a value no other write of that key writes, so a read
//                names its writer. A read of a key followed by a write of it
//                (read-modify-write) is frequent: two concurrent ones are a
//                lost update where the level lets both commit.
//   list-append  appends of elements unique per key and reads of whole lists
//                (the lists reveal each key's version order).
//   predicate    register reads and writes plus predicate reads: a range of
//                integer keys ([2,5]), sometimes with a value condition
//                ([2,5] && v%2=0).
// Keys are "0" .. "M-1", integers, so ranges compare them as numbers. Which
// key an operation touches follows a Zipf law of exponent `skew` over the
// keys (0: uniform; 1: key 0 twice as often as key 1, ...), so a few hot
// keys carry the conflicts.
//
// The generator is its own: a 64-bit Mersenne twister (whose output the
// standard fixes) with integer and real draws written here, not the
// standard library's distributions, whose algorithms differ between
// implementations: one seed gives one workload everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/history/predicate.hpp"

namespace iso::db {

enum class WorkloadKind : std::uint8_t { RwRegister, ListAppend, Predicate };
// "rw-register", "list-append", "predicate".
const char* workload_name(WorkloadKind k);
// The kind of that name; nullopt when there is none.
std::optional<WorkloadKind> parse_workload(std::string_view name);

struct WorkloadOptions {
  WorkloadKind kind = WorkloadKind::RwRegister;
  std::size_t keys = 10;     // M >= 1
  std::size_t max_ops = 4;   // operations per transaction: 1 .. max_ops (a read-modify-write counts 2)
  double skew = 0;           // Zipf exponent >= 0 over the keys
  std::uint64_t seed = 0;
};

struct PlannedOp {
  enum class Kind : std::uint8_t { Read, Write, Append, ReadList, PredicateRead };
  Kind kind = Kind::Read;
  std::size_t key = 0;        // Read, Write, Append, ReadList: the key's number
  std::int64_t value = 0;     // Write: the value; Append: the element
  // PredicateRead (shared, so that an operation stays small: plans of a
  // million transactions are held whole).
  std::shared_ptr<const Predicate> predicate;
};

struct PlannedTxn {
  std::vector<PlannedOp> ops;
};

// The name of key number `k`: its decimal spelling.
std::string key_name(std::size_t k);

// Draws from a seed, the same on every platform.
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [0, n), n >= 1 (rejection sampling: no modulo bias).
  std::uint64_t below(std::uint64_t n);
  // Uniform in [0, 1), 53 bits.
  double unit();
  bool chance(double p) { return unit() < p; }

 private:
  std::mt19937_64 engine_;
};

// Key numbers under a Zipf law of exponent `skew` over `keys` keys.
class KeyChooser {
 public:
  KeyChooser(std::size_t keys, double skew);
  std::size_t draw(Random& r) const;
  // The probability of key k (for tests).
  double probability(std::size_t k) const;

 private:
  std::vector<double> cumulative_;  // cumulative_[k]: P(key <= k)
};

// `n` transactions of the workload `o`: the same for the same options.
// Write values and appended elements count up from 1 per key (0 is every
// key's initial value), so each is unique per key.
std::vector<PlannedTxn> generate_workload(const WorkloadOptions& o, std::size_t n);

}  // namespace iso::db
