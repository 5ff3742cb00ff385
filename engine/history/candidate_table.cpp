// CandidateTable (candidate_table.hpp): building rows, and dropping reads
// set aside after the table was built.
#include "engine/history/candidate_table.hpp"

#include <algorithm>

namespace iso {

void CandidateTable::reset(std::size_t txns) {
  first_.assign(txns, 0);
  count_.assign(txns, 0);
  read_start_.assign(1, 0);
  writers_.clear();
  open_ = kNoTxn;
}

void CandidateTable::begin_row(TxnId t) {
  open_ = t;
  first_[t] = static_cast<std::uint32_t>(read_start_.size() - 1);
  count_[t] = 0;
}

void CandidateTable::end_read() {
  read_start_.push_back(writers_.size());
  ++count_[open_];
}

bool CandidateTable::unique() const {
  for (std::size_t r = 0; r + 1 < read_start_.size(); ++r)
    if (read_start_[r + 1] - read_start_[r] > 1) return false;
  return true;
}

void CandidateTable::remove(std::vector<std::pair<TxnId, std::uint32_t>> removed) {
  if (removed.empty()) return;
  std::sort(removed.begin(), removed.end());
  CandidateTable kept;
  kept.reset(first_.size());
  auto next = removed.begin();
  for (TxnId t = 0; t < first_.size(); ++t) {
    if (count_[t] == 0) continue;
    kept.begin_row(t);
    for (std::uint32_t i = 0; i < count_[t]; ++i) {
      if (next != removed.end() && *next == std::pair{t, i}) {
        ++next;
        continue;
      }
      for (TxnId w : (*this)[t][i]) kept.add(w);
      kept.end_read();
    }
  }
  *this = std::move(kept);
}

}  // namespace iso
