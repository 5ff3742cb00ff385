#include "tests/brute/random_history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace iso::brute {
namespace {

// Platform-independent draws (the standard distributions are not).
int pick(std::mt19937_64& rng, int lo, int hi) {
  if (hi <= lo) return lo;
  return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

bool chance(std::mt19937_64& rng, double p) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53 < p;
}

std::string key_name(int k) {
  static const char* const names[] = {"x", "y", "z"};
  return k < 3 ? std::string(names[k]) : fmt::format("k{}", k);
}

struct PlannedOp {
  bool read = false;
  int key = 0;
  std::int64_t value = 0;
};

}  // namespace

History random_history(std::mt19937_64& rng, const RandomHistoryOptions& opt) {
  const int ntxns = pick(rng, std::max(0, opt.min_txns), std::max(opt.min_txns, opt.max_txns));
  const int nkeys = pick(rng, 1, std::max(1, opt.max_keys));
  const int nsessions = pick(rng, 1, std::max(1, std::min(opt.max_sessions, ntxns)));
  std::int64_t fresh = 1;  // next fresh value

  // Sessions, operation kinds, keys and written values first.
  std::vector<int> session(ntxns);
  for (int& s : session) s = pick(rng, 0, nsessions - 1);
  std::vector<std::vector<PlannedOp>> plan(ntxns);
  for (auto& ops : plan) {
    const int nops = pick(rng, std::max(1, opt.min_ops), std::max(opt.min_ops, opt.max_ops));
    std::vector<bool> touched(nkeys, false);
    for (int i = 0; i < nops; ++i) {
      PlannedOp op;
      op.key = pick(rng, 0, nkeys - 1);
      op.read = chance(rng, opt.read_ratio);
      if (!op.read && !opt.blind_writes && !touched[op.key]) {
        ops.push_back(PlannedOp{true, op.key, 0});  // read before writing
      }
      if (!op.read) {
        op.value = opt.unique_values ? fresh++
                                     : pick(rng, 0, std::max(1, opt.value_range) - 1);
      }
      touched[op.key] = true;
      ops.push_back(op);
    }
  }

  // Final writes, the pool external reads mostly draw from.
  std::vector<std::vector<std::optional<std::int64_t>>> final_write(
      ntxns, std::vector<std::optional<std::int64_t>>(nkeys));
  for (int t = 0; t < ntxns; ++t) {
    for (const PlannedOp& op : plan[t]) {
      if (!op.read) final_write[t][op.key] = op.value;
    }
  }

  // Read values: internal reads return the transaction's own last op on the
  // key (INT); external reads draw from the writes of other transactions.
  std::vector<std::pair<int, int>> external, internal;  // (txn, op index)
  for (int t = 0; t < ntxns; ++t) {
    std::vector<bool> snapshot;  // empty: reads choose independently
    if (chance(rng, opt.snapshot)) {
      snapshot.assign(t, false);
      for (int s = 0; s < t; ++s) snapshot[s] = session[s] == session[t] || chance(rng, 0.5);
    }
    std::vector<std::optional<std::int64_t>> last(nkeys);  // last op on key in t
    for (std::size_t i = 0; i < plan[t].size(); ++i) {
      PlannedOp& op = plan[t][i];
      if (!op.read) {
        last[op.key] = op.value;
        continue;
      }
      if (last[op.key]) {
        op.value = *last[op.key];
        internal.emplace_back(t, static_cast<int>(i));
        continue;
      }
      external.emplace_back(t, static_cast<int>(i));
      std::vector<std::int64_t> earlier{0}, any{0};
      std::int64_t seen = 0;
      for (int s = 0; s < ntxns; ++s) {
        if (s == t || !final_write[s][op.key]) continue;
        any.push_back(*final_write[s][op.key]);
        if (s < t) earlier.push_back(*final_write[s][op.key]);
        if (s < t && !snapshot.empty() && snapshot[s]) seen = *final_write[s][op.key];
      }
      const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
      if (!snapshot.empty()) {
        op.value = seen;
      } else if (u < opt.read_latest) {
        op.value = earlier.back();
      } else if (u < opt.read_latest + opt.read_earlier) {
        op.value = earlier[pick(rng, 0, static_cast<int>(earlier.size()) - 1)];
      } else {
        op.value = any[pick(rng, 0, static_cast<int>(any.size()) - 1)];
      }
      last[op.key] = op.value;
    }
  }
  if (!external.empty() && chance(rng, opt.thin_air)) {
    const auto [t, i] = external[pick(rng, 0, static_cast<int>(external.size()) - 1)];
    plan[t][i].value = 1000000 + fresh++;
    // Later reads of the key in the same transaction repeat it (INT).
    for (std::size_t j = static_cast<std::size_t>(i) + 1; j < plan[t].size(); ++j) {
      PlannedOp& later = plan[t][j];
      if (later.key != plan[t][i].key) continue;
      if (!later.read) break;
      later.value = plan[t][i].value;
    }
  }
  if (!internal.empty() && chance(rng, opt.int_violation)) {
    const auto [t, i] = internal[pick(rng, 0, static_cast<int>(internal.size()) - 1)];
    plan[t][i].value += 1000;
  }

  // Build the history; keys and sessions are created on first use.
  History h;
  std::map<int, KeyId> keys;
  std::map<int, SessionId> sessions;
  for (int t = 0; t < ntxns; ++t) {
    auto it = sessions.find(session[t]);
    if (it == sessions.end()) it = sessions.emplace(session[t], h.add_session()).first;
    const TxnId id = h.add_txn(it->second, fmt::format("T{}", t + 1));
    for (const PlannedOp& op : plan[t]) {
      auto kt = keys.find(op.key);
      if (kt == keys.end()) kt = keys.emplace(op.key, h.intern_key(key_name(op.key))).first;
      const ValueId v = h.intern_value(Value{op.value});
      if (op.read) {
        h.add_read(id, kt->second, v);
      } else {
        h.add_write(id, kt->second, v);
      }
    }
  }
  return h;
}

void randomize_status(std::mt19937_64& rng, History& h, double aborted, double unknown) {
  std::uniform_real_distribution<double> d(0, 1);
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    double r = d(rng);
    if (r < aborted) h.txn(t).status = TxnStatus::Aborted;
    else if (r < aborted + unknown) h.txn(t).status = TxnStatus::Unknown;
  }
}

}  // namespace iso::brute
