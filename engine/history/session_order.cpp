// The session order stage (session_order.hpp): where each session's members
// start in the member list, and from that each member's rank and session end.
#include "engine/history/session_order.hpp"

namespace iso {

SessionOrder::SessionOrder(const History& h, std::vector<TxnId> members)
    : members_(std::move(members)),
      rank_(h.num_txns(), kNotMember),
      end_(h.num_txns(), 0) {
  const auto count = static_cast<std::uint32_t>(members_.size());
  // Sessions are laid out in History::sessions() order, each one's members
  // contiguous after T0: session s starts after the members of those before.
  session_start_.assign(h.sessions().size() + 1, 0);
  for (std::uint32_t i = 1; i < count; ++i) ++session_start_[h.txn(members_[i]).session + 1];
  session_start_[0] = count > 0 ? 1 : 0;
  for (std::size_t s = 0; s < h.sessions().size(); ++s) session_start_[s + 1] += session_start_[s];
  for (std::uint32_t i = 1; i < count; ++i) {
    rank_[members_[i]] = i;
    end_[members_[i]] = session_start_[h.txn(members_[i]).session + 1];
  }
  if (count > 0) {
    rank_[kInitTxn] = 0;
    end_[kInitTxn] = count;
  }
}

}  // namespace iso
