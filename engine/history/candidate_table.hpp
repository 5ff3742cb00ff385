// The candidate writers of every read event, in flat arrays (the output of
// the front end's "candidate writers" stage, engine/history/front_end.hpp):
// large histories have tens of millions of reads, and a vector per read would
// cost an allocation and some 50 bytes each. Built one transaction's row at
// a time; read by row and read index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/history/read_anomaly.hpp"  // kNoTxn

namespace iso {

// table[t] is the row of transaction t (as many entries as abs[t].reads),
// table[t][i] the candidates of its read i.
class CandidateTable {
 public:
  class Row {
   public:
    std::size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    std::span<const TxnId> operator[](std::size_t i) const {
      const std::size_t b = table_->read_start_[first_ + i], e = table_->read_start_[first_ + i + 1];
      return {table_->writers_.data() + b, e - b};
    }

   private:
    friend class CandidateTable;
    Row(const CandidateTable* table, std::uint32_t first, std::uint32_t count)
        : table_(table), first_(first), count_(count) {}
    const CandidateTable* table_;
    std::uint32_t first_, count_;
  };

  Row operator[](TxnId t) const { return Row(this, first_[t], count_[t]); }
  std::size_t size() const { return first_.size(); }
  // At most one candidate for every read.
  bool unique() const;

  // Building: reset(n) makes every row empty; then rows are appended one
  // transaction at a time, each at most once, in any order: begin_row(t),
  // then for each of its reads add() per candidate and end_read().
  void reset(std::size_t txns);
  void begin_row(TxnId t);
  void add(TxnId writer) { writers_.push_back(writer); }
  void end_read();
  // Drops the reads `removed`, pairs (t, i) of a transaction and an index
  // into its row; the later reads of the row move up.
  void remove(std::vector<std::pair<TxnId, std::uint32_t>> removed);

 private:
  std::vector<std::uint32_t> first_, count_;  // per transaction: its reads in read_start_
  // Read r's candidates are writers_[read_start_[r] ..< read_start_[r + 1]];
  // the entry after a row's last read is where the next row's reads start.
  std::vector<std::size_t> read_start_{0};
  std::vector<TxnId> writers_;
  TxnId open_ = kNoTxn;  // the row being appended
};

}  // namespace iso
