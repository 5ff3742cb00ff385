// The history of a model of the history space (HistorySpace::decode,
// cegis/history_space.hpp): transactions Ti with TxnId i in sessions read
// off the session order, their reads (item, list or predicate reads in the
// transaction form, slots in program order in the operation form) and
// writes, and, with real time, event times read off the event order.
#include "cegis/history_space.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace iso::cegis {

using namespace logic;

// With lists: the list of x whose last element is v (v = 0: the empty
// list), the appends up to v's in x's list order.
std::vector<ValueId> HistorySpace::decoded_list(const Circuit& c, const std::vector<bool>& inputs, std::uint32_t x,
                                                std::uint32_t v) const {
  const std::uint32_t n = scope_.txns, V = scope_.values;
  auto val = [&](BLit l) { return c.eval(l, inputs); };
  std::vector<ValueId> out;
  if (v == 0) return out;
  std::uint32_t last = 0;
  std::vector<std::pair<std::uint32_t, ValueId>> appends;  // (writer, element)
  for (std::uint32_t w = 1; w <= n; ++w)
    for (std::uint32_t e = 1; e < V; ++e)
      if (val(write_var(w, x, e))) {
        appends.emplace_back(w, e);
        if (e == v) last = w;
      }
  std::sort(appends.begin(), appends.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first && val(list_order_var(x, a.first, b.first));
  });
  for (const auto& [w, e] : appends) {
    out.push_back(e);
    if (w == last) break;
  }
  return out;
}

History HistorySpace::decode(const Circuit& c, const std::vector<bool>& inputs) const {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  auto val = [&](BLit l) { return c.eval(l, inputs); };
  History h;
  for (std::uint32_t x = 0; x < K; ++x) h.intern_key(key_name(x));
  for (std::uint32_t v = 0; v < V; ++v) h.intern_value(Value{std::int64_t{v}});
  // Each transaction's session predecessor is the latest so-predecessor.
  std::vector<SessionId> session(n + 1, kNoSession);
  std::vector<std::vector<std::uint32_t>> members;
  for (std::uint32_t t = 1; t <= n; ++t) {
    std::uint32_t pred = 0;
    for (std::uint32_t i = 1; i < t; ++i)
      if (val(so_var(i, t))) pred = i;
    if (pred == 0) {
      session[t] = static_cast<SessionId>(members.size());
      members.push_back({});
    } else {
      session[t] = session[pred];
    }
    members[session[t]].push_back(t);
  }
  // Transactions are added in index order so that TxnId = index; sessions are
  // created in order of their first transaction, which keeps that true.
  std::vector<SessionId> sid(members.size());
  for (std::size_t s = 0; s < members.size(); ++s) sid[s] = h.add_session();
  for (std::uint32_t t = 1; t <= n; ++t) {
    TxnId id = h.add_txn(sid[session[t]], fmt::format("T{}", t),
                         val(aborted_var(t)) ? TxnStatus::Aborted : TxnStatus::Committed);
    if (real_time_) {
      // An event's time: 10 for each event before it (ties share it).
      auto time = [&](std::uint32_t x) {
        std::int64_t before = 0;
        for (std::uint32_t y = 0; y < 2 * n; ++y) before += val(event_before(y, x)) ? 1 : 0;
        return 10 * (before + 1);
      };
      // Exact events: each known to the tick.
      h.txn(id).begin = h.txn(id).begin_end = time(2 * (t - 1));
      h.txn(id).commit = h.txn(id).commit_start = time(2 * (t - 1) + 1);
    }
    if (slots_ == 0 && val(predicate_var(t))) {
      // One predicate read: the keys with a non-initial value, with it.
      PredicateRead pr{"v!=0", {}};
      for (std::uint32_t x = 0; x < K; ++x)
        for (std::uint32_t v = 1; v < V; ++v)
          if (val(read_var(t, x, v))) pr.result.emplace_back(x, v);
      h.add_predicate_read(id, std::move(pr));
    } else if (slots_ == 0) {
      for (std::uint32_t x = 0; x < K; ++x)
        for (std::uint32_t v = 0; v < V; ++v) {
          if (!val(read_var(t, x, v))) continue;
          if (lists_) h.add_list_read(id, x, decoded_list(c, inputs, x, v), 0);
          else h.add_read(id, x, v);
        }
    }
    for (std::uint32_t i = 0; i < slots_; ++i)  // reads in program order
      for (std::uint32_t x = 0; x < K; ++x)
        for (std::uint32_t v = 0; v < V; ++v)
          if (val(slot_var(t, i, x, v))) h.add_read(id, x, v);
    for (std::uint32_t x = 0; x < K; ++x) {
      for (std::uint32_t v = 1; v < V && dirty_; ++v)  // an intermediate write, then the final one
        if (val(intermediate_var(t, x, v))) h.add_write(id, x, v);
      for (std::uint32_t v = duplicates_ ? 0 : 1; v < V; ++v)
        if (val(write_var(t, x, v))) h.add_write(id, x, v);
    }
  }
  return h;
}

}  // namespace iso::cegis
