// Small views of a History that several tests need.
#pragma once

#include <optional>
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

// decide(), or nothing when the level permits aborted or intermediate reads
// and the history has one in a list read (Level::Permits: Adya's PL-1
// refuses such histories rather than guess). A refusal by a level that
// permits nothing is an error of the test's input, rethrown.
inline std::optional<Decision> decide_unless_permitted(const History& h, const Level& level,
                                                       const DecideOptions& opt = {}) {
  try {
    return decide(h, level, opt);
  } catch (const DecideRefused&) {
    const Level::Permits& p = level.permits;
    if (p.aborted_reads || p.intermediate_reads) return std::nullopt;
    throw;
  }
}

}  // namespace iso
