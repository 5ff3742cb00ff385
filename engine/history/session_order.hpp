// Stage "session order" of the history front end (docs/design.md §4.1).
//
// Input: the members, in the order AbstractHistory::txns lists them (T0,
// then by session, then by position in the session), with each member's
// session. Output: the session order over those members, with ONE meaning,
// the closed relation:
//   T0 before every other member; a before b when a and b are members of
//   the same session and a comes earlier in it (non-members skipped).
// It is held in linear space (a rank and a session end per transaction),
// not as the quadratic closure: before() in O(1), the immediate successor
// next() (the transitive reduction, without T0's pairs), and the successors
// of a member as a contiguous range of the member list, as are each
// session's members (session(s)), which checkers that choose commits
// restrict to a model's members. Only a relation
// matrix (engine/model/concrete.cpp binds the logic relation `so`) ever
// materializes the pairs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/history/read_anomaly.hpp"  // kNoTxn

namespace iso {

class SessionOrder {
 public:
  SessionOrder() = default;
  // `members`: T0 first, then the members of each session in session order
  // (the order AbstractHistory::txns has); `h` gives their sessions.
  SessionOrder(const History& h, std::vector<TxnId> members);

  // (a, b) in the session order: T0 before every other member, or the same
  // session and a earlier. False when either is not a member.
  bool before(TxnId a, TxnId b) const {
    if (!member(a) || !member(b) || a == b) return false;
    if (a == kInitTxn) return true;
    return end_[a] == end_[b] && rank_[a] < rank_[b];  // a session's members share its end
  }
  // The next member of t's session, or kNoTxn (for T0 and non-members too).
  TxnId next(TxnId t) const {
    if (!member(t) || t == kInitTxn || rank_[t] + 1 == end_[t]) return kNoTxn;
    return members_[rank_[t] + 1];
  }
  // Every b with before(t, b), in session order (for T0: every other member,
  // in member order). Empty for a non-member.
  std::span<const TxnId> after(TxnId t) const {
    if (!member(t)) return {};
    return std::span<const TxnId>(members_).subspan(rank_[t] + 1, end_[t] - rank_[t] - 1);
  }
  bool member(TxnId t) const { return t < rank_.size() && rank_[t] != kNotMember; }
  // The members of session s (an index into History::sessions()), in
  // session order; empty when none of its transactions is a member. A
  // checker that chooses which members commit walks these, keeping a
  // model's members: its session order is this one restricted to them.
  std::span<const TxnId> session(SessionId s) const {
    return std::span<const TxnId>(members_).subspan(session_start_[s], session_start_[s + 1] - session_start_[s]);
  }
  std::size_t num_sessions() const { return session_start_.empty() ? 0 : session_start_.size() - 1; }

 private:
  static constexpr std::uint32_t kNotMember = UINT32_MAX;
  std::vector<TxnId> members_;
  // Per TxnId: the index in members_ (kNotMember for a non-member), and the
  // index just past the last member of its session (for T0: members_.size()).
  std::vector<std::uint32_t> rank_, end_;
  // Per session of the history: where its members start in members_, and
  // one entry past the last session.
  std::vector<std::uint32_t> session_start_;
};

}  // namespace iso
