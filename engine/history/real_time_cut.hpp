// The candidate writers real time rules out, before they are built (Vbox
// §3.2: a read can see only versions within its time window), for a level
// whose commit order contains real time (commit before begin: strict
// serializability). A reader t cannot read w's version of k when
//  (a) t committed before w began (t -rt-> w -wr-> t), or
//  (b) some writer w2 of k that surely committed, with a write of k that
//      surely exists (not a predicate write's guarded one), began after w
//      committed and committed before t began: w2 overwrites w (w -rt-> w2
//      orders their versions), so t reading w closes t -rw-> w2 -rt-> t.
//      T0's version is overwritten by any such w2 that committed before t
//      began (T0 is first).
// Every edge of those cycles is one the polygraph has whatever it chooses,
// so the cut changes no verdict; a read whose candidates it would all
// remove keeps them (the polygraph then finds the cycle and names it).
// Applied to invisible reads (predicate reads, predicate writes' reads),
// whose candidates are every version of the key that fits: a predicate
// write's read has every writer of the key, which real time cuts to the
// few around the reader.
//
// Per key, the sure writers sorted by their latest commit, with the
// largest earliest begin over each prefix: one binary search per read gives
// M, the latest begin of a writer that committed before t began, and w is
// cut by (b) when it committed before M. Each check is then O(1) over flat
// per-transaction times.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/history/abstract.hpp"

namespace iso::front_end {

class RealTimeCut {
 public:
  // `a`: the members (member, txns) and their final writes (abs, with guards).
  RealTimeCut(const History& h, const AbstractHistory& a);

  // A read's window: which candidates time excludes.
  class Window {
   public:
    bool excludes(TxnId w) const;

   private:
    friend class RealTimeCut;
    const RealTimeCut* cut_ = nullptr;
    bool active_ = false;                     // the reader has sound times
    std::optional<std::int64_t> reader_commit_;  // latest commit of the reader
    bool t0_overwritten_ = false;             // (b) for T0's version
    std::optional<std::int64_t> m_;           // (b): the largest earliest begin M
  };
  Window window(TxnId reader, KeyId k) const;

 private:
  struct Times {
    std::optional<std::int64_t> begin;   // earliest begin
    std::optional<std::int64_t> commit;  // latest commit
  };
  struct SureWriter {
    std::int64_t commit;                 // latest commit
    std::optional<std::int64_t> begin;   // largest earliest begin over the prefix up to it
  };
  const History& h_;
  std::vector<Times> times_;                         // per TxnId; unset: no sound interval
  std::vector<std::vector<SureWriter>> sure_;        // per key, by commit
};

}  // namespace iso::front_end
