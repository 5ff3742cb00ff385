#include "tests/brute/random_history.hpp"

#include "engine/history/abstract.hpp"
#include "engine/history/predicate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace iso::brute {
namespace {

// Platform-independent draws (the standard distributions are not).
int pick(std::mt19937_64& rng, int lo, int hi) {
  if (hi <= lo) return lo;
  return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

// Uniform in [0, 1).
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

bool chance(std::mt19937_64& rng, double p) { return uniform(rng) < p; }

std::int64_t any_value(std::mt19937_64& rng, const std::vector<std::int64_t>& v) {
  return v[static_cast<std::size_t>(pick(rng, 0, static_cast<int>(v.size()) - 1))];
}

// Aborted with probability `aborted`, unknown with `unknown`, else committed.
TxnStatus draw_status(std::mt19937_64& rng, double aborted, double unknown) {
  const double u = uniform(rng);
  if (u < aborted) return TxnStatus::Aborted;
  if (u < aborted + unknown) return TxnStatus::Unknown;
  return TxnStatus::Committed;
}

std::string key_name(int k) {
  static const char* const names[] = {"x", "y", "z"};
  return k < 3 ? std::string(names[k]) : fmt::format("k{}", k);
}

struct PlannedOp {
  bool read = false;
  int key = 0;
  std::int64_t value = 0;
  bool reread = false;  // a re-read whose value is drawn afresh
  bool own = false;     // a read of a key the transaction wrote
};

// A random element of the keys where `in` holds, or -1.
int pick_where(std::mt19937_64& rng, const std::vector<bool>& in) {
  std::vector<int> keys;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (in[k]) keys.push_back(static_cast<int>(k));
  }
  if (keys.empty()) return -1;
  return keys[static_cast<std::size_t>(pick(rng, 0, static_cast<int>(keys.size()) - 1))];
}

// One transaction's operation kinds, keys and written values (`value(key)`
// draws one); without blind writes a read of the key comes before the
// transaction's first write of it. A read re-reads a key read and not yet
// written with probability `reread`, else reads a key written with
// probability `read_own_write` (when there is such a key).
template <class ValueOf>
std::vector<PlannedOp> plan_txn(std::mt19937_64& rng, int nkeys, int min_ops, int max_ops,
                                double read_ratio, bool blind_writes, ValueOf value,
                                double reread = 0, double read_own_write = 0) {
  std::vector<PlannedOp> ops;
  const int nops = pick(rng, std::max(1, min_ops), std::max(min_ops, max_ops));
  std::vector<bool> touched(nkeys, false), read_only(nkeys, false), written(nkeys, false);
  for (int i = 0; i < nops; ++i) {
    PlannedOp op;
    op.key = pick(rng, 0, nkeys - 1);
    op.read = chance(rng, read_ratio);
    if (op.read && reread > 0 && chance(rng, reread)) {
      if (const int k = pick_where(rng, read_only); k >= 0) {
        op.key = k;
        op.reread = true;
      }
    } else if (op.read && read_own_write > 0 && chance(rng, read_own_write)) {
      if (const int k = pick_where(rng, written); k >= 0) {
        op.key = k;
        op.own = true;
      }
    }
    if (!op.read && !blind_writes && !touched[op.key]) {
      ops.push_back(PlannedOp{true, op.key, 0});  // read before writing
      read_only[op.key] = true;
    }
    if (!op.read) op.value = value(op.key);
    touched[op.key] = true;
    if (op.read) {
      read_only[op.key] = !written[op.key];
    } else {
      written[op.key] = true;
      read_only[op.key] = false;
    }
    ops.push_back(op);
  }
  return ops;
}

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
    ops = plan_txn(
        rng, nkeys, opt.min_ops, opt.max_ops, opt.read_ratio, opt.blind_writes,
        [&](int) -> std::int64_t {
          return opt.unique_values ? fresh++ : pick(rng, 0, std::max(1, opt.value_range) - 1);
        },
        opt.reread, opt.read_own_write);
  }
  std::vector<TxnStatus> status(ntxns, TxnStatus::Committed);
  if (opt.aborted > 0 || opt.unknown > 0) {
    for (TxnStatus& st : status) st = draw_status(rng, opt.aborted, opt.unknown);
  }

  // Final writes, the pool external reads mostly draw from.
  std::vector<std::vector<std::optional<std::int64_t>>> final_write(
      ntxns, std::vector<std::optional<std::int64_t>>(nkeys));
  for (int t = 0; t < ntxns; ++t) {
    for (const PlannedOp& op : plan[t]) {
      if (!op.read) final_write[t][op.key] = op.value;
    }
  }

  // Dirty values of each key: any write of an aborted transaction, and
  // non-final writes, with their writers.
  std::vector<std::vector<std::pair<int, std::int64_t>>> dirty(nkeys);
  if (opt.dirty > 0) {
    for (int s = 0; s < ntxns; ++s) {
      for (std::size_t i = 0; i < plan[s].size(); ++i) {
        const PlannedOp& op = plan[s][i];
        if (op.read) continue;
        const bool is_final = std::none_of(
            plan[s].begin() + static_cast<std::ptrdiff_t>(i) + 1, plan[s].end(),
            [&](const PlannedOp& later) { return !later.read && later.key == op.key; });
        if (status[s] == TxnStatus::Aborted || !is_final) {
          dirty[op.key].emplace_back(s, op.value);
        }
      }
    }
  }

  // Read values: a read after the transaction's own write returns that
  // write (INT), a re-read not drawn afresh repeats the earlier read; first
  // reads and re-reads drawn afresh draw from the writes of other
  // transactions.
  std::vector<std::pair<int, int>> external, internal;  // (txn, op index)
  for (int t = 0; t < ntxns; ++t) {
    std::vector<bool> snapshot;  // empty: reads choose independently
    if (chance(rng, opt.snapshot)) {
      snapshot.assign(t, false);
      for (int s = 0; s < t; ++s) snapshot[s] = session[s] == session[t] || chance(rng, 0.5);
    }
    std::vector<std::optional<std::int64_t>> last(nkeys);  // last op on key in t
    std::vector<std::vector<std::int64_t>> mine(nkeys);     // t's writes of key so far
    for (std::size_t i = 0; i < plan[t].size(); ++i) {
      PlannedOp& op = plan[t][i];
      if (!op.read) {
        last[op.key] = op.value;
        mine[op.key].push_back(op.value);
        continue;
      }
      if (last[op.key] && !op.reread) {
        op.value = *last[op.key];
        internal.emplace_back(t, static_cast<int>(i));
        if (op.own && opt.int_violation > 0 && chance(rng, opt.int_violation)) {
          // Not the transaction's last write: an earlier one, another
          // transaction's, or the initial value.
          std::vector<std::int64_t> other{0};
          for (std::int64_t v : mine[op.key]) other.push_back(v);
          for (int s = 0; s < ntxns; ++s) {
            if (s != t && final_write[s][op.key]) other.push_back(*final_write[s][op.key]);
          }
          other.erase(std::remove(other.begin(), other.end(), op.value), other.end());
          op.value = other.empty() ? op.value + 1000 : any_value(rng, other);
        }
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
      const double u = uniform(rng);
      if (!snapshot.empty()) {
        op.value = seen;
      } else if (u < opt.read_latest) {
        op.value = earlier.back();
      } else if (u < opt.read_latest + opt.read_earlier) {
        op.value = earlier[pick(rng, 0, static_cast<int>(earlier.size()) - 1)];
      } else {
        op.value = any[pick(rng, 0, static_cast<int>(any.size()) - 1)];
      }
      if (opt.dirty > 0 && chance(rng, opt.dirty)) {
        std::vector<std::int64_t> values;
        for (const auto& [s, v] : dirty[op.key]) {
          if (s != t) values.push_back(v);
        }
        if (!values.empty()) op.value = any_value(rng, values);
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
    const TxnId id = h.add_txn(it->second, fmt::format("T{}", t + 1), status[t]);
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

namespace {

// An append (a write of its element) or a list read.
struct ListOp : PlannedOp {
  std::vector<std::int64_t> list;  // a read's list
};

struct ListTxn {
  int session = 0;
  TxnStatus status = TxnStatus::Committed;
  bool applied = true;  // its appends are visible to later transactions
  std::vector<ListOp> ops;
};

// A read to inject an anomaly into: (transaction, operation).
using ReadRef = std::pair<int, int>;

// The list reads whose list satisfies `ok`.
template <class Ok>
std::vector<ReadRef> reads_where(const std::vector<ListTxn>& txns, Ok ok) {
  std::vector<ReadRef> out;
  for (std::size_t t = 0; t < txns.size(); ++t) {
    for (std::size_t i = 0; i < txns[t].ops.size(); ++i) {
      const ListOp& op = txns[t].ops[i];
      if (op.read && ok(op.list)) out.emplace_back(static_cast<int>(t), static_cast<int>(i));
    }
  }
  return out;
}

template <class T>
const T& any_of(std::mt19937_64& rng, const std::vector<T>& v) {
  return v[static_cast<std::size_t>(pick(rng, 0, static_cast<int>(v.size()) - 1))];
}

}  // namespace

History random_list_history(std::mt19937_64& rng, const RandomListOptions& opt) {
  const int ntxns = pick(rng, std::max(0, opt.min_txns), std::max(opt.min_txns, opt.max_txns));
  const int nkeys = pick(rng, 1, std::max(1, opt.max_keys));
  const int nsessions = pick(rng, 1, std::max(1, std::min(opt.max_sessions, ntxns)));
  std::vector<std::int64_t> fresh(nkeys, 1);  // next element per key

  // Sessions, statuses, and the operations with their appended elements.
  std::vector<ListTxn> txns(ntxns);
  for (ListTxn& txn : txns) {
    txn.session = pick(rng, 0, nsessions - 1);
    txn.status = draw_status(rng, opt.aborted, opt.unknown);
    txn.applied = txn.status == TxnStatus::Committed || chance(rng, opt.visible);
    for (const PlannedOp& op :
         plan_txn(rng, nkeys, opt.min_ops, opt.max_ops, opt.read_ratio, opt.blind_appends,
                  [&](int key) { return fresh[key]++; })) {
      txn.ops.push_back(ListOp{op, {}});
    }
  }

  // The simulated execution: what each read returns.
  const double mode = uniform(rng);
  const bool serial = mode < opt.serial;
  const bool snapshot = !serial && mode < opt.serial + opt.snapshot;
  for (int t = 0; t < ntxns; ++t) {
    std::vector<bool> sees(t, false);  // earlier transactions t sees
    for (int s = 0; s < t; ++s) {
      sees[s] = txns[s].applied &&
                (!snapshot || txns[s].session == txns[t].session || chance(rng, 0.5));
    }
    std::vector<std::vector<std::int64_t>> view(nkeys), own(nkeys);
    for (int s = 0; s < t; ++s) {
      if (!sees[s]) continue;
      for (const ListOp& op : txns[s].ops) {
        if (!op.read) view[op.key].push_back(op.value);
      }
    }
    if (!serial && !snapshot) {
      // Stale reads: each key independently a prefix of the serial list (the
      // same for every read of the key in t, which repeats its reads).
      for (auto& l : view) {
        l.resize(static_cast<std::size_t>(pick(rng, 0, static_cast<int>(l.size()))));
      }
    }
    for (ListOp& op : txns[t].ops) {
      if (!op.read) {
        own[op.key].push_back(op.value);
        continue;
      }
      op.list = view[op.key];
      op.list.insert(op.list.end(), own[op.key].begin(), own[op.key].end());
    }
  }

  // Injected anomalies, each into one random read whose list fits.
  using Elements = std::vector<std::int64_t>;
  const auto inject = [&](double p, auto fits, auto change) {
    if (!chance(rng, p)) return;
    const std::vector<ReadRef> reads = reads_where(txns, fits);
    if (reads.empty()) return;
    const auto [t, i] = any_of(rng, reads);
    change(txns[t].ops[i].list);
  };
  const auto size_of = [](const Elements& l) { return static_cast<int>(l.size()); };
  const auto at = [](Elements& l, int i) { return l.begin() + i; };
  inject(opt.garbage, [](const Elements&) { return true; }, [&](Elements& l) {
    l.insert(at(l, pick(rng, 0, size_of(l))), 1000000);  // nobody appends 1000000
  });
  inject(opt.duplicate, [](const Elements& l) { return !l.empty(); }, [&](Elements& l) {
    const int j = pick(rng, 0, size_of(l) - 1);
    l.insert(at(l, pick(rng, j + 1, size_of(l))), l[j]);
  });
  inject(opt.swap, [](const Elements& l) { return l.size() >= 2; }, [&](Elements& l) {
    const int j = pick(rng, 0, size_of(l) - 2);
    std::swap(l[j], l[j + 1]);
  });
  if (chance(rng, opt.intermediate)) {
    // (key, element) -> the transaction that appended it, when that was
    // not its last append to the key.
    std::map<std::pair<int, std::int64_t>, int> intermediate;
    for (int t = 0; t < ntxns; ++t) {
      std::map<int, std::int64_t> last;
      for (const ListOp& op : txns[t].ops) {
        if (op.read) continue;
        if (auto it = last.find(op.key); it != last.end()) intermediate[{op.key, it->second}] = t;
        last[op.key] = op.value;
      }
    }
    // (transaction, operation, length): reads that can stop after an
    // intermediate append of another transaction.
    std::vector<std::tuple<int, int, std::size_t>> cuts;
    for (int t = 0; t < ntxns; ++t) {
      for (std::size_t i = 0; i < txns[t].ops.size(); ++i) {
        const ListOp& op = txns[t].ops[i];
        for (std::size_t j = 0; op.read && j < op.list.size(); ++j) {
          const auto it = intermediate.find({op.key, op.list[j]});
          if (it != intermediate.end() && it->second != t) {
            cuts.emplace_back(t, static_cast<int>(i), j + 1);
          }
        }
      }
    }
    if (!cuts.empty()) {
      const auto [t, i, len] = any_of(rng, cuts);
      txns[t].ops[static_cast<std::size_t>(i)].list.resize(len);
    }
  }

  // Build the history.
  History h;
  std::vector<KeyId> keys;
  for (int k = 0; k < nkeys; ++k) keys.push_back(h.intern_key(key_name(k)));
  if (chance(rng, opt.explicit_init)) {
    h.set_initial_writes(InitialWrites::ExplicitOnly);
    for (KeyId k : keys) {
      if (chance(rng, 0.5)) h.set_init(k, h.intern_value(Value{std::int64_t{0}}));
    }
  }
  std::map<int, SessionId> sessions;
  for (int t = 0; t < ntxns; ++t) {
    auto it = sessions.find(txns[t].session);
    if (it == sessions.end()) it = sessions.emplace(txns[t].session, h.add_session()).first;
    const TxnId id = h.add_txn(it->second, fmt::format("T{}", t + 1), txns[t].status);
    for (const ListOp& op : txns[t].ops) {
      const KeyId k = keys[op.key];
      if (!op.read) {
        h.add_write(id, k, h.intern_value(Value{op.value}));
        continue;
      }
      std::vector<ValueId> list;
      for (std::int64_t e : op.list) list.push_back(h.intern_value(Value{e}));
      h.add_list_read(id, k, std::move(list), h.init_value(k));
    }
  }
  return h;
}

void randomize_status(std::mt19937_64& rng, History& h, double aborted, double unknown) {
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const TxnStatus s = draw_status(rng, aborted, unknown);
    if (s != TxnStatus::Committed) h.txn(t).status = s;
  }
}

void add_predicate_reads(std::mt19937_64& rng, History& h, const RandomPredicateOptions& opt) {
  std::vector<ValueId> state(h.keys().size());
  for (KeyId k = 0; k < h.keys().size(); ++k) state[k] = h.t0_writes(k) ? h.init_value(k) : kUnborn;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const Transaction& tx = h.txn(t);
    if (rng() % 2 == 0) {
      // At the end of t: it sees its own writes.
      std::vector<ValueId> local = state;
      for (const Op& op : tx.ops)
        if (op.kind == OpKind::Write) local[op.key] = op.value;
      const Predicate p = *parse_predicate(opt.shapes[rng() % opt.shapes.size()]);
      PredicateRead pr;
      pr.predicate = p.text();
      for (KeyId k = 0; k < h.keys().size(); ++k) {
        const bool keep = local[k] != kUnborn && p.holds(h.keys()[k], h.values()[local[k]]);
        const bool wrong = opt.wrong > 0 && rng() % opt.wrong == 0;
        if (keep != wrong && local[k] != kUnborn) pr.result.emplace_back(k, local[k]);
      }
      h.add_predicate_read(t, std::move(pr));
    }
    if (tx.status != TxnStatus::Committed) continue;
    for (const Op& op : tx.ops)
      if (op.kind == OpKind::Write) state[op.key] = op.value;
  }
}

void add_predicate_writes(std::mt19937_64& rng, History& h, int most) {
  const std::vector<std::string> shapes = {"[x,y]", "v=1", "v!=0", "v<2", "[y,z] && v>0", "prefix:z"};
  const int count = static_cast<int>(rng() % static_cast<unsigned>(most + 1));
  for (int c = 0; c < count; ++c) {
    const TxnId t = 1 + static_cast<TxnId>(rng() % (h.num_txns() - 1));
    const std::string pred = shapes[rng() % shapes.size()];
    const ValueId v = rng() % 5 == 0 ? h.intern_value(Value{Deleted{}})
                                     : h.intern_value(Value{std::int64_t(rng() % 4)});
    // Appended, then moved to a random place in program order.
    h.add_predicate_write(t, pred, v);
    auto& ops = h.txn(t).ops;
    const auto at = static_cast<std::ptrdiff_t>(rng() % ops.size());
    std::rotate(ops.begin() + at, ops.end() - 1, ops.end());
  }
}

}  // namespace iso::brute
