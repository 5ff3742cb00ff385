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
  void unbegin(TxnId t);
  // COMMIT, or ROLLBACK (which removes the transaction's writes from every
  // read's view: they stay in the key's versions, seen by no one).
  void end(TxnId t, bool commit);
  void unend(TxnId t);

  void write(TxnId t, KeyId k, ValueId v);
  // Undoes the last write of k (writes are undone last first).
  void unwrite(KeyId k);
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

  // Under Snapshot and Committed, just after t committed: is some read not
  // placed yet (`done`: per transaction and op) lost for good? A register
  // read of k that its transaction's own writes do not answer returns the
  // latest committed version of k when placed (Committed) or when its
  // transaction begins (Snapshot); a version once overwritten by a commit
  // never comes back, so the read needs the latest committed value now, or
  // a transaction yet to commit whose last write of k is that value. (Not
  // decided with predicate writes, which may write any key.)
  bool read_lost_after_commit(TxnId t, const std::vector<std::vector<char>>& done) const;

  // Under Uncommitted, just after t wrote k: is some read of k not placed
  // yet lost for good? It needs the latest version not rolled back now, one
  // that rollbacks still to come (of transactions that abort) uncover, or
  // a write of its value not placed yet. (Not decided with predicate
  // writes.)
  bool read_lost_after_write(TxnId t, KeyId k, const std::vector<std::vector<char>>& done) const;

  // May the two operations of one transaction not swap: the same key, or
  // either a predicate operation?
  bool conflict(const Op& a, const Op& b) const;
  // Does every value a read returns have a write of its key, or the initial
  // value? (Otherwise no interleaving returns it.)
  bool values_written(const History& h) const;

  // A fingerprint of the state, kept up to date by every change: equal for
  // states from which the same schedules complete (the transactions'
  // phases, the running ones' snapshots, each key's versions as reads and
  // the dirty-write rule can still see them, and the operations the caller
  // marks done with toggle_done()), and, 128 bits wide, different otherwise but for a random
  // collision. Each part is hashed and added by XOR, so that a step and its
  // undo cost the parts they change, not the history's size.
  using Fingerprint = std::pair<std::uint64_t, std::uint64_t>;
  Fingerprint fingerprint() const { return print_; }
  // Marks op `op` of t done in the fingerprint, or not done when it is.
  void toggle_done(TxnId t, std::uint32_t op);

 private:
  struct Version {
    TxnId txn;
    ValueId value;
  };
  // May reader r see the writes of another transaction w?
  bool sees(TxnId r, TxnId w) const;
  bool born_initially(KeyId k) const { return h_.t0_writes(k); }
  // Adds a part to the fingerprint, or removes it when it is in.
  void toggle(std::uint64_t part);
  void set_phase(TxnId t, Phase p);
  void toggle_snapshot(TxnId t);
  // Recomputes k's part of the fingerprint: its versions, without those
  // rolled back and, for a register, without a transaction's writes before
  // its last (the latest of nothing any more).
  void rehash(KeyId k);

  const History& h_;
  ReadModel model_;
  std::vector<char> list_key_;                 // keys some read reads as a list
  std::vector<Predicate> predicates_;          // per History::predicate_reads() index
  std::vector<std::vector<KeyId>> covered_;    // the keys each covers
  std::vector<std::vector<std::pair<KeyId, ValueId>>> results_;  // each read's result, by key
  // Per key: the reads no own write answers ("external"), and per value
  // the transactions whose last write of the key writes it.
  struct ExternalRead {
    TxnId txn;
    std::uint32_t op;
    ValueId value;
  };
  std::vector<std::vector<ExternalRead>> external_;
  std::vector<std::vector<std::pair<ValueId, TxnId>>> last_writers_;  // sorted
  // Per key, every write as (value, (transaction, op)), sorted.
  std::vector<std::vector<std::pair<ValueId, std::pair<TxnId, std::uint32_t>>>> writes_;
  bool lookahead_ = false;
  std::vector<Phase> phase_;
  std::vector<std::uint32_t> snapshot_;    // per transaction: commits before its first step
  std::vector<std::uint32_t> commit_seq_;  // per committed transaction: its place among commits
  std::uint32_t commits_ = 0;
  std::vector<std::vector<Version>> versions_;  // per key, in schedule order
  std::vector<std::vector<KeyId>> wrote_;       // per transaction, the keys of its writes in order
  Fingerprint print_{0, 0};
  std::uint64_t committed_ = 0;                 // the committed set's hash
  std::vector<std::uint64_t> snapshot_hash_;    // per transaction: committed_ at its first step
  std::vector<std::uint64_t> key_hash_;         // per key: its versions' hash
  std::vector<std::uint32_t> mark_;             // per transaction: rehash()'s visits
  std::uint32_t stamp_ = 0;
  std::vector<const Version*> kept_;            // rehash()'s scratch
};

}  // namespace iso::db
