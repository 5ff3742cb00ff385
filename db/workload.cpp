// The workloads of workload.hpp: their names, the seeded generator and its
// draws, and the plans of transactions of each kind.
#include "db/workload.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace iso::db {

namespace {
// Each kind with its name, as --workload spells it.
constexpr std::pair<WorkloadKind, const char*> kWorkloadNames[] = {
    {WorkloadKind::RwRegister, "rw-register"},
    {WorkloadKind::ListAppend, "list-append"},
    {WorkloadKind::Predicate, "predicate"},
};
}  // namespace

const char* workload_name(WorkloadKind k) {
  for (const auto& [kind, name] : kWorkloadNames)
    if (kind == k) return name;
  return "?";
}

std::optional<WorkloadKind> parse_workload(std::string_view text) {
  for (const auto& [kind, name] : kWorkloadNames)
    if (text == name) return kind;
  return std::nullopt;
}

std::string key_name(std::size_t k) { return std::to_string(k); }

std::uint64_t Random::below(std::uint64_t n) {
  // The largest multiple of n that fits: draws at or above it would favour
  // the small residues, so they are drawn again.
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x = engine_();
  while (x >= limit) x = engine_();
  return x % n;
}

double Random::unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

KeyChooser::KeyChooser(std::size_t keys, double skew) {
  if (keys == 0) throw std::invalid_argument("a workload needs at least one key");
  cumulative_.resize(keys);
  double sum = 0;
  for (std::size_t k = 0; k < keys; ++k) {
    sum += 1.0 / std::pow(static_cast<double>(k + 1), skew);
    cumulative_[k] = sum;
  }
  for (double& c : cumulative_) c /= sum;
  cumulative_.back() = 1.0;  // no draw falls past the last key by rounding
}

std::size_t KeyChooser::draw(Random& r) const {
  const double u = r.unit();
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
  return static_cast<std::size_t>(std::min<std::ptrdiff_t>(it - cumulative_.begin(),
                                                           static_cast<std::ptrdiff_t>(cumulative_.size()) - 1));
}

double KeyChooser::probability(std::size_t k) const {
  return k == 0 ? cumulative_[0] : cumulative_[k] - cumulative_[k - 1];
}

namespace {

// How often an operation is a read-modify-write of one key (two operations:
// read it, then write or append to it), a read, or a blind write. Concurrent
// read-modify-writes of a hot key are what lost updates are made of; reads
// of one key and writes of another make write skew.
constexpr double kReadModifyWrite = 0.4;
constexpr double kRead = 0.3;  // the rest are blind writes (appends)
// In the predicate workload: how often an operation is a predicate read, how
// wide its range is at most, and how often it has a value condition too.
constexpr double kPredicateRead = 0.25;
constexpr std::size_t kMaxRange = 4;
constexpr double kValueCondition = 1.0 / 3;

class Generator {
 public:
  explicit Generator(const WorkloadOptions& o)
      : o_(o), random_(o.seed), keys_(o.keys, o.skew), next_(o.keys, 1) {
    if (o.max_ops == 0) throw std::invalid_argument("a transaction needs at least one operation");
  }

  PlannedTxn transaction() {
    PlannedTxn t;
    const std::size_t n = 1 + random_.below(o_.max_ops);
    while (t.ops.size() < n) {
      if (o_.kind == WorkloadKind::Predicate && random_.chance(kPredicateRead)) {
        t.ops.push_back(predicate_read());
        continue;
      }
      const std::size_t k = keys_.draw(random_);
      const double u = random_.unit();
      if (u < kReadModifyWrite && t.ops.size() + 2 <= n) {
        t.ops.push_back(read(k));
        t.ops.push_back(update(k));
      } else if (u < kReadModifyWrite + kRead) {
        t.ops.push_back(read(k));
      } else {
        t.ops.push_back(update(k));
      }
    }
    return t;
  }

 private:
  bool lists() const { return o_.kind == WorkloadKind::ListAppend; }

  PlannedOp read(std::size_t k) const {
    PlannedOp op;
    op.kind = lists() ? PlannedOp::Kind::ReadList : PlannedOp::Kind::Read;
    op.key = k;
    return op;
  }

  PlannedOp update(std::size_t k) {
    PlannedOp op;
    op.kind = lists() ? PlannedOp::Kind::Append : PlannedOp::Kind::Write;
    op.key = k;
    op.value = next_[k]++;
    return op;
  }

  PlannedOp predicate_read() {
    PlannedOp op;
    op.kind = PlannedOp::Kind::PredicateRead;
    const std::size_t lo = keys_.draw(random_);
    const std::size_t width = 1 + random_.below(std::min(kMaxRange, o_.keys));
    const std::size_t hi = std::min(lo + width - 1, o_.keys - 1);
    auto p = std::make_shared<Predicate>();
    p->keys = Predicate::Keys::Range;
    p->lo = key_name(lo);
    p->hi = key_name(hi);
    if (random_.chance(kValueCondition)) {
      p->cmp = Predicate::Cmp::Mod;
      p->modulus = 2;
      p->constant = Value{std::int64_t{0}};
    }
    op.predicate = std::move(p);
    return op;
  }

  const WorkloadOptions& o_;
  Random random_;
  KeyChooser keys_;
  std::vector<std::int64_t> next_;  // per key: the next value to write
};

}  // namespace

std::vector<PlannedTxn> generate_workload(const WorkloadOptions& o, std::size_t n) {
  Generator g(o);
  std::vector<PlannedTxn> txns;
  txns.reserve(n);
  for (std::size_t i = 0; i < n; ++i) txns.push_back(g.transaction());
  return txns;
}

}  // namespace iso::db
