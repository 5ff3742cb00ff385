// The reports of proof_report.hpp.
#include "cli/proof_report.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

namespace {

// A proof attempt, announced on stderr: it may take a while (every witness
// map is a prover run).
prove::ImplicationProof prove_with_progress(const Level& a, const Level& b, prove::ProofOptions po) {
  fmt::print(stderr, "proving {} => {} for every history\n", a.name, b.name);
  po.progress = [](const std::string& line) { fmt::print(stderr, "  {}\n", line); };
  return prove::prove_implication(a, b, po);
}

std::string provers_text(const prove::ImplicationProof& p) {
  std::vector<std::string> runs;
  for (const auto& r : p.runs) runs.push_back(fmt::format("{} {} in {:.2f} s", r.prover, r.answer, r.seconds));
  return fmt::format("{}", fmt::join(runs, ", "));
}

}  // namespace

std::string proof_text(const prove::ImplicationProof& p) {
  if (p.proved) {
    const std::string scripts =
        p.files.empty() ? ""
                        : fmt::format("\n  scripts: {} in {}", p.files.size(),
                                      std::filesystem::path(p.files[0]).parent_path().string());
    return fmt::format("proved for all histories: {} => {}\n  witness map: {}\n  provers: {}{}\n", p.a, p.b, p.map,
                       provers_text(p), scripts);
  }
  if (p.counterexample)
    return fmt::format("refuted: {} =/=> {}: a history {} allows and {} forbids, beyond the scope (from {}; "
                       "confirmed by check):\n  {}\n",
                       p.a, p.b, p.a, p.b, p.counterexample_from, history_one_line(*p.counterexample));
  return fmt::format("not proved: {} => {} (checked only within the scope)\n  why: {}\n", p.a, p.b, p.why_not);
}

nlohmann::json proof_json(const prove::ImplicationProof& p) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : p.runs) runs.push_back({{"prover", r.prover}, {"answer", r.answer}, {"seconds", r.seconds}});
  nlohmann::json j{{"from", p.a}, {"to", p.b}, {"proved", p.proved}, {"maps_tried", p.maps_tried},
                   {"provers", runs}, {"seconds", p.seconds}};
  j["witness_map"] = p.proved ? nlohmann::json(p.map) : nlohmann::json(nullptr);
  j["why_not"] = p.proved ? nlohmann::json(nullptr) : nlohmann::json(p.why_not);
  j["scripts"] = p.files;
  j["counterexample"] = p.counterexample ? write_native_json(*p.counterexample) : nlohmann::json(nullptr);
  return j;
}

nlohmann::json proofs_json(const std::vector<prove::ImplicationProof>& ps) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : ps) out.push_back(proof_json(p));
  return out;
}

std::vector<prove::ImplicationProof> prove_each(const std::vector<std::pair<const Level*, const Level*>>& claims,
                                                const ProveArgs& pa, const SearchArgs& sa,
                                                std::chrono::steady_clock::time_point start) {
  std::vector<prove::ImplicationProof> out;
  for (const auto& [a, b] : claims) {
    prove::ProofOptions po;
    po.session_free = sa.no_sessions;
    po.seconds = pa.seconds;
    po.dir = pa.dir;
    if (sa.timeout > 0) {
      po.budget = sa.timeout - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (po.budget < 0.1) {
        prove::ImplicationProof none;
        none.a = a->name;
        none.b = b->name;
        none.out_of_time = true;
        none.why_not = "--timeout ran out before this implication was tried";
        out.push_back(none);
        continue;
      }
    }
    out.push_back(prove_with_progress(*a, *b, po));
  }
  return out;
}

bool any_out_of_time(const std::vector<prove::ImplicationProof>& ps) {
  return std::any_of(ps.begin(), ps.end(), [](const auto& p) { return p.out_of_time; });
}

}  // namespace iso::cli
