// Small views of a History that several tests need.
#pragma once

#include <utility>
#include <vector>

#include "engine/decide/decide.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso {

// Every non-empty list read of the history, as (key, list), in transaction
// order.
inline std::vector<std::pair<KeyId, std::vector<ValueId>>> list_reads(const History& h) {
  std::vector<std::pair<KeyId, std::vector<ValueId>>> out;
  for (const auto& t : h.txns())
    for (const auto& op : t.ops)
      if (op.list != kNoList && !h.lists()[op.list].empty())
        out.emplace_back(op.key, h.lists()[op.list]);
  return out;
}

// The standard spec library, loaded once for all tests.
inline const lua::SpecLibrary& library() {
  static const lua::SpecLibrary lib;
  return lib;
}

// The generic oracle's decision: decide() forced past any graph
// characterization, so tests can compare the two.
inline Decision generic_decision(const History& h, const Level& level) {
  DecideOptions opt;
  opt.force_generic = true;
  return decide(h, level, opt);
}

}  // namespace iso
