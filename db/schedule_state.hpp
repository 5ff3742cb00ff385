// The state of a schedule being run on the model of schedule.hpp: which
// transactions have begun and ended, the versions each key has been written
// in schedule order, and what a read returns under a read model. Shared by
// the schedule search, which places and unplaces steps on it, and by
// expected_reads(), which runs a whole schedule on it.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "db/schedule.hpp"
#include "engine/history/history.hpp"
#include "engine/history/predicate.hpp"

namespace iso::db {

enum class Phase : std::uint8_t { Waiting, Running, Committed, Aborted };

class Execution {
 public:
  // Throws std::invalid_argument when a predicate of the history does not
  // parse (the readers refuse such histories first).
  Execution(const History& h, ReadModel model);

  Phase phase(TxnId t) const { return phase_[t]; }
  // The transaction's first step: under Snapshot, its snapshot is the
  // transactions committed now.
  void begin(TxnId t);
  void unbegin(TxnId t) { phase_[t] = Phase::Waiting; }
  // COMMIT, or ROLLBACK (which removes the transaction's writes from every
  // read's view: they stay in the key's versions, seen by no one).
  void end(TxnId t, bool commit);
  void unend(TxnId t);

  void write(TxnId t, KeyId k, ValueId v) { versions_[k].push_back(Version{t, v}); }
  void unwrite(KeyId k) { versions_[k].pop_back(); }
  // Would a write of k by t land on the write of a transaction that has
  // not ended (a dirty write, which products block)?
  bool blocked(TxnId t, KeyId k) const;
  // The keys a write operation of t writes if placed now: its key, or for
  // a predicate write every covered key whose value, as t sees it, holds.
  std::vector<KeyId> written_keys(TxnId t, const Op& op) const;

  // What t reads now under the model; nullopt: the key has no row for t
  // (unborn: T0 does not write it and t sees no write of it).
  std::optional<ValueId> value(TxnId t, KeyId k) const;
  std::optional<std::vector<ValueId>> list(TxnId t, KeyId k) const;
  // The (key, value) pairs a predicate read returns now, by key id.
  std::vector<std::pair<KeyId, ValueId>> predicate_result(TxnId t, std::uint32_t predicate) const;
  // Does the read (register, list or predicate) return what the history
  // says, if placed now?
  bool read_holds(TxnId t, const Op& op) const;
  // Under Snapshot, just after begin(t): does every read of t return what
  // the history says? (They are all fixed by now: the snapshot, and t's own
  // earlier writes, which every order the search allows keeps before them.)
  bool snapshot_reads_hold(TxnId t);

  // May the two operations of one transaction not swap: the same key, or
  // either a predicate operation?
  bool conflict(const Op& a, const Op& b) const;
  // Does every value a read returns have a write of its key, or the initial
  // value? (Otherwise no interleaving returns it.)
  bool values_written(const History& h) const;

  // The state as words, equal for states from which the same schedules
  // complete: phases, the operations done of the running transactions
  // (`done`, per transaction and op), their snapshots, and each key's
  // versions as reads and the dirty-write rule can still see them.
  void encode(const std::vector<std::vector<char>>& done, std::vector<std::uint32_t>& words) const;

 private:
  struct Version {
    TxnId txn;
    ValueId value;
  };
  // May reader r see the writes of another transaction w?
  bool sees(TxnId r, TxnId w) const;
  bool born_initially(KeyId k) const { return h_.t0_writes(k); }

  const History& h_;
  ReadModel model_;
  std::vector<char> list_key_;                 // keys some read reads as a list
  std::vector<Predicate> predicates_;          // per History::predicate_reads() index
  std::vector<std::vector<KeyId>> covered_;    // the keys each covers
  std::vector<std::vector<std::pair<KeyId, ValueId>>> results_;  // each read's result, by key
  std::vector<Phase> phase_;
  std::vector<std::uint32_t> snapshot_;    // per transaction: commits before its first step
  std::vector<std::uint32_t> commit_seq_;  // per committed transaction: its place among commits
  std::uint32_t commits_ = 0;
  std::vector<std::vector<Version>> versions_;  // per key, in schedule order
};

}  // namespace iso::db
