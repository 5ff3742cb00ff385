// Polygraph::time_chain (polygraph.hpp): a key whose writers real time
// orders one after another. Under a level whose commit order contains real
// time (strict serializability), a writer that committed before another
// began comes first in the commit order, hence in the key's version order;
// when real time so orders each writer with the next (by commit time), that
// is the key's version order in every compatible graph (Vbox's time
// dependencies W^t, §3.2). Such a key is a chain, as a read-modify-write key
// is: no write-write pair, and a read of a version only an anti-dependency
// to the next writer, so that memory stays linear in the reads where the
// pairs and the anti-dependencies to every later writer were quadratic in
// the writers of a key. Every writer must surely write (committed, not a
// predicate write's guarded write), with a begin and a commit time.
#include <algorithm>
#include <utility>

#include "engine/polygraph/polygraph.hpp"

namespace iso::poly {

std::optional<std::vector<TxnId>> Polygraph::time_chain(KeyId k) const {
  using Event = History::Event;
  if (!real_time_.commit_begin || theory_.level() != GraphLevel::Ser || !a_.writes(kInitTxn, k))
    return std::nullopt;
  std::vector<std::pair<std::int64_t, TxnId>> by_commit;
  for (TxnId w : writers_[k]) {
    const auto begin = h_.earliest(w, Event::Begin), commit = h_.latest(w, Event::Commit);
    if (uncertain(w, k) || !begin || !commit || *begin > *commit) return std::nullopt;
    by_commit.emplace_back(*commit, w);
  }
  std::sort(by_commit.begin(), by_commit.end());
  std::vector<TxnId> chain;
  for (std::size_t i = 0; i < by_commit.size(); ++i) {
    if (i > 0 && !h_.time_before(by_commit[i - 1].second, Event::Commit, by_commit[i].second, Event::Begin))
      return std::nullopt;
    chain.push_back(by_commit[i].second);
  }
  return chain;
}

}  // namespace iso::poly
