#include "tests/brute/predict.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"

namespace iso::brute {
namespace {

// t's last write of k (an index into its operations), if it writes k.
std::optional<std::uint32_t> last_write(const History& h, TxnId t, KeyId k) {
  const auto& ops = h.txn(t).ops;
  for (std::uint32_t i = static_cast<std::uint32_t>(ops.size()); i-- > 0;)
    if (ops[i].kind == OpKind::Write && ops[i].key == k) return i;
  return std::nullopt;
}

// A read event of a session: its transaction's index there, its operation.
struct ReadAt {
  std::size_t index;
  std::uint32_t op;
};

}  // namespace

std::vector<Prediction> predictions(const History& h, std::string_view level, PredictMode mode,
                                    std::size_t limit) {
  const std::size_t n = h.num_txns();
  // The observed writer of a read: the reader itself after its own write of
  // the key, else the transaction whose last write of the key has the value
  // read (T0 for the initial value).
  auto observed = [&](TxnId t, std::uint32_t i) -> TxnId {
    const Op& r = h.txn(t).ops[i];
    for (std::uint32_t j = 0; j < i; ++j)
      if (h.txn(t).ops[j].kind == OpKind::Write && h.txn(t).ops[j].key == r.key) return t;
    for (TxnId w = 1; w < n; ++w)
      if (auto lw = last_write(h, w, r.key); lw && w != t && h.txn(w).ops[*lw].value == r.value) return w;
    if (h.t0_writes(r.key) && h.init_value(r.key) == r.value) return kInitTxn;
    throw std::invalid_argument(fmt::format("{} reads a value no transaction's last write has", h.txn_name(t)));
  };
  auto writers = [&](TxnId t, std::uint32_t i) {  // what a free read may read from
    const Op& r = h.txn(t).ops[i];
    std::vector<TxnId> out;
    if (observed(t, i) == t) return std::vector<TxnId>{t};  // its own write (INT)
    if (h.t0_writes(r.key)) out.push_back(kInitTxn);
    for (TxnId w = 1; w < n; ++w)
      if (w != t && last_write(h, w, r.key)) out.push_back(w);
    return out;
  };
  const auto& sessions = h.sessions();
  std::vector<std::vector<ReadAt>> reads(sessions.size());  // per session, in program order
  std::vector<std::pair<std::size_t, std::size_t>> place(n, {SIZE_MAX, 0});
  for (std::size_t s = 0; s < sessions.size(); ++s)
    for (std::size_t j = 0; j < sessions[s].size(); ++j) {
      const TxnId t = sessions[s][j];
      place[t] = {s, j};
      if (h.txn(t).status != TxnStatus::Committed)
        throw std::invalid_argument("prediction reads committed transactions only");
      for (std::uint32_t i = 0; i < h.txn(t).ops.size(); ++i) {
        const Op& op = h.txn(t).ops[i];
        if (op.kind == OpKind::PredicateRead || op.kind == OpKind::PredicateWrite || op.list != kNoList)
          throw std::invalid_argument("prediction reads item reads and writes only");
        if (op.kind == OpKind::Read) reads[s].push_back(ReadAt{j, i});
      }
    }
  // Each session's boundary: 0 for none, b + 1 for its b-th read.
  std::vector<std::size_t> boundary(sessions.size(), 0);
  // The last kept transaction of a session, and whether it is cut after an
  // operation (strict) or kept whole.
  auto cut = [&](std::size_t s) -> std::pair<std::size_t, std::optional<std::uint32_t>> {
    if (boundary[s] == 0) return {SIZE_MAX, std::nullopt};
    const ReadAt& r = reads[s][boundary[s] - 1];
    if (mode == PredictMode::Relaxed) return {r.index, std::nullopt};
    return {r.index, r.op};
  };
  // A writer a read may take: T0, or a transaction before its session's
  // boundary transaction (which may not commit once its read changes; a
  // transaction that read from it would take no part, as IsoPredict's
  // tx_in_boundary has it).
  auto complete = [&](TxnId w) {
    if (w == kInitTxn) return true;
    const auto [s, j] = place[w];
    const auto [last, op] = cut(s);
    return last == SIZE_MAX || j < last;
  };
  // A read is free when it is a boundary read (strict) or in the boundary
  // transaction (relaxed); the free reads of the current boundaries, in
  // order, with their options.
  std::vector<Prediction> out;
  std::set<std::string> seen;
  auto emit = [&](const std::vector<std::pair<std::pair<TxnId, std::uint32_t>, TxnId>>& free) {
    auto choice_of = [&](TxnId t, std::uint32_t i) -> std::optional<TxnId> {
      for (const auto& [at, w] : free)
        if (at.first == t && at.second == i) return w;
      return std::nullopt;
    };
    History p = h.without_transactions();
    std::vector<ChangedRead> changed;
    for (std::size_t s = 0; s < sessions.size(); ++s) {
      const auto [last, op] = cut(s);
      const SessionId sid = p.add_session();
      for (std::size_t j = 0; j < sessions[s].size() && (last == SIZE_MAX || j <= last); ++j) {
        const TxnId t = sessions[s][j];
        const TxnId id = p.add_txn(sid, h.txn(t).name, TxnStatus::Committed);
        const auto& ops = h.txn(t).ops;
        for (std::uint32_t i = 0; i < ops.size() && !(j == last && op && i > *op); ++i) {
          const Op& o = ops[i];
          if (o.kind == OpKind::Write) {
            p.add_write(id, o.key, o.value);
            continue;
          }
          const TxnId w = choice_of(t, i).value_or(observed(t, i));
          if (w != t && !complete(w)) return;  // reads a dropped write
          ValueId v = o.value;
          if (w != observed(t, i)) {
            v = w == kInitTxn ? h.init_value(o.key) : h.txn(w).ops[*last_write(h, w, o.key)].value;
            changed.push_back(ChangedRead{t, i, w});
          }
          p.add_read(id, o.key, v);
        }
      }
    }
    // A cut at a read that keeps its writer may leave what another
    // boundary leaves: each history once.
    if (!seen.insert(format_history(p)).second) return;
    const AbstractHistory a = abstract_history(p);
    if (allows(a, level) && !allows(a, "biswas.SER")) out.push_back(Prediction{std::move(p), std::move(changed)});
  };
  while (out.size() < limit) {
    // The free reads of these boundaries, and every choice of their writers.
    std::vector<std::pair<TxnId, std::uint32_t>> free;
    for (std::size_t s = 0; s < sessions.size(); ++s) {
      if (boundary[s] == 0) continue;
      const ReadAt& b = reads[s][boundary[s] - 1];
      for (const ReadAt& r : reads[s])
        if (r.index == b.index && (mode == PredictMode::Relaxed || r.op == b.op))
          free.emplace_back(sessions[s][r.index], r.op);
    }
    std::vector<std::vector<TxnId>> options;
    for (const auto& [t, i] : free) options.push_back(writers(t, i));
    std::vector<std::size_t> pick(free.size(), 0);
    while (out.size() < limit) {
      std::vector<std::pair<std::pair<TxnId, std::uint32_t>, TxnId>> chosen;
      for (std::size_t f = 0; f < free.size(); ++f) chosen.push_back({free[f], options[f][pick[f]]});
      emit(chosen);
      std::size_t f = 0;
      while (f < pick.size() && ++pick[f] == options[f].size()) pick[f++] = 0;
      if (f == pick.size()) break;
    }
    std::size_t s = 0;
    while (s < boundary.size() && ++boundary[s] == reads[s].size() + 1) boundary[s++] = 0;
    if (s == boundary.size()) break;
  }
  return out;
}

}  // namespace iso::brute
