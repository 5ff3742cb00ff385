// The pictures of the catalogue's examples (isosynth anomalies --html and
// --dot): each example drawn as the pattern its catalogue entry names, under
// that entry's name, not as the reason the strongest level rejects it. G0
// is its cycle of ww edges, from the version orders the list reads reveal;
// every other pattern is the cycle of the weakest level that forbids the
// example and names a cycle (its edges keyed and typed: rw, wr, ww, so, rt),
// with what a cycle alone does not show: the timestamps of each transaction
// and the real-time edge of a stale read, a predicate read's keys and the
// write it misses (history_dot draws those).
#pragma once

#include <string>
#include <vector>

#include "engine/decide/decide.hpp"
#include "engine/history/history.hpp"

namespace iso::cli {

// The DOT text of the example `h` of the catalogue entry called `name`.
// `forbidding`: the levels that forbid `h`, weakest first (the first whose
// decision has a cycle draws it; none: the first's reason, in a note).
std::string catalogue_dot(const History& h, const std::string& name, const std::vector<const Level*>& forbidding);

// The cycle of ww edges that the version orders revealed by `h`'s list
// reads alone force (Adya's G0), or empty.
std::vector<DepEdge> revealed_ww_cycle(const History& h);

}  // namespace iso::cli
