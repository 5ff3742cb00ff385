// --prove in the commands that search (synth, compare, hierarchy): each
// implication the scope does not refute sent to prove/, with its progress
// on stderr, and its outcome as text and JSON ($defs/proof of the schema).
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "prove/implication.hpp"

namespace iso::cli {

// Each implication (a, b) proved in turn, within what remains of --timeout
// (counted from `start`) when one is given; one not begun for lack of time
// is "not proved", out of time.
std::vector<prove::ImplicationProof> prove_each(const std::vector<std::pair<const Level*, const Level*>>& claims,
                                                const ProveArgs& pa, const SearchArgs& sa,
                                                std::chrono::steady_clock::time_point start);

bool any_out_of_time(const std::vector<prove::ImplicationProof>& ps);

// "proved for all histories: A => B" with the witness map and the provers'
// times, or "not proved: A => B" and why; each line ends in a newline.
std::string proof_text(const prove::ImplicationProof& p);

nlohmann::json proof_json(const prove::ImplicationProof& p);
// The "proofs" array of a command's JSON: proof_json of each, in order.
nlohmann::json proofs_json(const std::vector<prove::ImplicationProof>& ps);

}  // namespace iso::cli
