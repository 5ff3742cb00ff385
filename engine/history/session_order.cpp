// The session order stage (session_order.hpp): ranks and session ends from
// the member list, in one pass.
#include "engine/history/session_order.hpp"

namespace iso {

SessionOrder::SessionOrder(const History& h, std::vector<TxnId> members)
    : members_(std::move(members)),
      rank_(h.num_txns(), kNotMember),
      end_(h.num_txns(), 0) {
  const auto count = static_cast<std::uint32_t>(members_.size());
  // Each session's members are contiguous in members_: a run of one session
  // ends where the next member's session differs.
  std::uint32_t run = 1;
  for (std::uint32_t i = 1; i <= count; ++i) {
    if (i < count && h.txn(members_[i]).session == h.txn(members_[run]).session) continue;
    for (std::uint32_t j = run; j < i; ++j) {
      rank_[members_[j]] = j;
      end_[members_[j]] = i;
    }
    run = i;
  }
  if (count > 0) {
    rank_[kInitTxn] = 0;
    end_[kInitTxn] = count;
  }
  // Sessions are laid out in History::sessions() order: session s starts
  // after the members of the sessions before it.
  session_start_.assign(h.sessions().size() + 1, 0);
  for (std::uint32_t i = 1; i < count; ++i) ++session_start_[h.txn(members_[i]).session + 1];
  session_start_[0] = count > 0 ? 1 : 0;
  for (std::size_t s = 0; s < h.sessions().size(); ++s) session_start_[s + 1] += session_start_[s];
}

}  // namespace iso
