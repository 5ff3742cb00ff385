// A witness of decide() in the brute force's terms (tests/brute), so that
// the brute force can check it against the definitions.
#pragma once

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "engine/decide/witness.hpp"
#include "engine/model/schema.hpp"
#include "tests/brute/brute.hpp"

namespace iso {

inline brute::Witness to_brute(const History& h, const Witness& w) {
  brute::Witness b;
  b.wr.resize(h.num_txns());
  b.ww.resize(h.keys().size());
  for (const auto& rel : w.relations) {
    if (rel.order) b.order = rel.sequence;
    if (rel.name == "vis")
      for (const auto& t : tuples_of(w, rel)) b.vis.emplace_back(t[0], t[1]);
    if (rel.type == logic::Type{model::kObj, model::kTxn, model::kTxn}) {
      // Each key's writers by their number of predecessors.
      std::map<KeyId, std::map<TxnId, std::size_t>> preds;
      for (const auto& t : tuples_of(w, rel)) {
        preds[t[0]][t[1]] += 0;
        preds[t[0]][t[2]] += 1;
      }
      for (auto& [k, c] : preds) {
        std::vector<std::pair<std::size_t, TxnId>> v;
        for (auto [t, n] : c) v.emplace_back(n, t);
        std::sort(v.begin(), v.end());
        for (auto [n, t] : v) b.ww[k].push_back(t);
      }
    }
  }
  for (const poly::ChosenRead& c : w.chosen_reads)
    b.wr[c.reader].push_back(brute::ReadFrom{c.key, c.writer, c.op});
  b.committed = w.committed_unknown;
  return b;
}

}  // namespace iso
