// abstract_history(), the front end's entry point: the stages of
// front_end.hpp in order, each output stored in the AbstractHistory the
// later stages and the checkers read; and the two first stages (members and
// initial state), with AbstractHistory's lookups.
#include "engine/history/abstract.hpp"

#include <algorithm>
#include <utility>

#include "engine/history/front_end.hpp"
#include "engine/history/pair_index.hpp"

namespace iso {

std::vector<bool> committed_members(const History& h) {
  std::vector<bool> member(h.num_txns(), false);
  for (TxnId t = 0; t < h.num_txns(); ++t) {
    member[t] = h.txn(t).status == TxnStatus::Committed;
  }
  member[kInitTxn] = true;
  return member;
}

namespace {

// t's final write of k, or nullptr.
const FinalWrite* final_write(const std::vector<AbstractTxn>& abs, TxnId t, KeyId k) {
  const auto& w = abs[t].writes;
  auto it = std::lower_bound(w.begin(), w.end(), k,
                             [](const FinalWrite& fw, KeyId key) { return fw.key < key; });
  return it != w.end() && it->key == k ? &*it : nullptr;
}

}  // namespace

bool AbstractHistory::writes(TxnId t, KeyId k) const { return final_write(abs, t, k) != nullptr; }

std::uint32_t AbstractHistory::guard_of(TxnId t, KeyId k) const {
  // Asked of every pair and edge by the checkers: nothing to search for
  // without predicate writes.
  if (guarded.empty()) return kNoGuard;
  const FinalWrite* w = final_write(abs, t, k);
  return w != nullptr ? w->guard : kNoGuard;
}

bool AbstractHistory::unique_values() const { return candidates.unique(); }

namespace front_end {

Members resolve_members(const History& h, std::vector<bool> member) {
  Members m;
  member.resize(h.num_txns(), false);
  member[kInitTxn] = true;
  m.member = std::move(member);
  m.txns.push_back(kInitTxn);
  for (const auto& session : h.sessions())
    for (TxnId t : session)
      if (m.member[t]) m.txns.push_back(t);
  return m;
}

std::vector<FinalWrite> initial_writes(const History& h, bool unborn) {
  std::vector<FinalWrite> writes;
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    if (h.t0_writes(k)) {
      writes.push_back(FinalWrite{k, h.init_value(k), 0});
    } else if (unborn) {
      writes.push_back(FinalWrite{k, kUnborn, 0});
    }
  }
  return writes;
}

}  // namespace front_end

namespace {

// The known-orders stage's output, stored.
void store_list_analysis(const History& h, const AbstractOptions& options, AbstractHistory& a) {
  ListReadAnalysis lists =
      analyse_list_reads(h, a.member, /*unknown_committed=*/!options.unknown_members_maybe,
                         ListReadPermits{options.set_aside_aborted_reads, options.set_aside_intermediate_reads});
  for (auto& v : lists.int_violations) a.int_violations.push_back(std::move(v));
  a.unjustified_reads = std::move(lists.anomalies);
  a.known_orders = std::move(lists.orders);
  a.forced_commits = std::move(lists.forced_commits);
  a.commit_implications = std::move(lists.commit_implications);
  a.notes = std::move(lists.notes);
}

// The reads reported so far, as pair_key(txn, op) sorted: the candidate
// stage does not report them again.
std::vector<std::uint64_t> reported_reads(const AbstractHistory& a) {
  std::vector<std::uint64_t> explained;
  for (const auto& u : a.unjustified_reads) explained.push_back(pair_key(u.txn, u.op));
  for (const auto& v : a.int_violations) explained.push_back(pair_key(v.txn, v.op));
  std::sort(explained.begin(), explained.end());
  return explained;
}

template <class T>
void append(std::vector<T>& to, std::vector<T>&& from) {
  for (T& x : from) to.push_back(std::move(x));
}

}  // namespace

AbstractHistory abstract_history(const History& h, std::vector<bool> member) {
  return abstract_history(h, std::move(member), AbstractOptions{});
}

AbstractHistory abstract_history(const History& h, std::vector<bool> member,
                                 const AbstractOptions& options) {
  using namespace front_end;
  AbstractHistory a;
  a.history = &h;
  Members members = resolve_members(h, std::move(member));
  a.member = std::move(members.member);
  a.txns = std::move(members.txns);

  ReadEvents events = read_events(h, a.txns, options.predicate_reads);
  a.abs = std::move(events.abs);
  a.abs[kInitTxn].writes = initial_writes(h, options.predicate_reads && t0_writes_unborn(h));
  a.int_violations = std::move(events.int_violations);
  a.guarded = std::move(events.guarded);
  a.forced_guards = std::move(events.forced_guards);
  a.has_predicate_reads = events.has_predicate_reads;

  store_list_analysis(h, options, a);
  append(a.unjustified_reads, std::move(events.predicate_mismatches));

  Candidates candidates = candidate_writers(h, a, reported_reads(a), options.real_time_cut);
  a.candidates = std::move(candidates.table);
  append(a.unjustified_reads, std::move(candidates.predicate_mismatches));
  guarded_write_truths(h, a);
  if (options.settle_sure_guards) settle_sure_guards(a);

  Unjustified unjustified = explain_unjustified(h, a, candidates.unexplained, options);
  append(a.unjustified_reads, std::move(unjustified.reported));
  a.set_aside = std::move(unjustified.set_aside);
  drop_set_aside(a);

  a.so = SessionOrder(h, a.txns);
  return a;
}

}  // namespace iso
