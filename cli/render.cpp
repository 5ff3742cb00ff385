#include "cli/render.hpp"

#include <fmt/format.h>

namespace iso::cli {

std::string verdict_word(cegis::Verdict v) {
  switch (v) {
    case cegis::Verdict::Allowed: return "allowed";
    case cegis::Verdict::Denied: return "violated";
    case cegis::Verdict::Unknown: return "unknown";
  }
  return "unknown";
}

static std::string name(const History& h, TxnId t) { return h.txn(t).name; }

std::string check_result_text(const History& h, const lua::Level& level, const cegis::CheckResult& r) {
  std::string s = fmt::format("{}: {}\n", level.name, verdict_word(r.verdict));
  if (r.verdict != cegis::Verdict::Allowed) {
    s += fmt::format("  {}\n", r.reason);
    return s;
  }
  const cegis::Witness& w = *r.witness;
  for (const auto& rel : w.relations) {
    if (rel.order) {
      std::string seq;
      for (TxnId t : rel.sequence) seq += (seq.empty() ? "" : " < ") + name(h, t);
      s += fmt::format("  {}: {}\n", rel.name, seq);
    } else {
      // T0's edges are forced by every framework; show the rest.
      std::string pairs;
      for (const auto& [a, b] : rel.pairs)
        if (a != kInitTxn) pairs += fmt::format("{}{}->{}", pairs.empty() ? "" : " ", name(h, a), name(h, b));
      s += fmt::format("  {}: {}\n", rel.name, pairs.empty() ? "(only T0's edges)" : pairs);
    }
  }
  for (const auto& [writer, key, reader] : w.chosen_reads)
    s += fmt::format("  wr: {} reads {} from {}\n", name(h, reader), h.key_text(key), name(h, writer));
  for (TxnId t : w.committed_unknown) s += fmt::format("  {} (status unknown) taken as committed\n", name(h, t));
  return s;
}

nlohmann::json witness_json(const History& h, const cegis::Witness& w) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& rel : w.relations) {
    if (rel.order) {
      nlohmann::json seq = nlohmann::json::array();
      for (TxnId t : rel.sequence) seq.push_back(name(h, t));
      j[rel.name] = seq;
    } else {
      nlohmann::json pairs = nlohmann::json::array();
      for (const auto& [a, b] : rel.pairs) pairs.push_back({name(h, a), name(h, b)});
      j[rel.name] = pairs;
    }
  }
  if (!w.chosen_reads.empty()) {
    nlohmann::json wr = nlohmann::json::array();
    for (const auto& [writer, key, reader] : w.chosen_reads)
      wr.push_back({name(h, writer), h.key_text(key), name(h, reader)});
    j["wr"] = wr;
  }
  if (!w.committed_unknown.empty()) {
    nlohmann::json c = nlohmann::json::array();
    for (TxnId t : w.committed_unknown) c.push_back(name(h, t));
    j["committed"] = c;
  }
  return j;
}

nlohmann::json check_result_json(const History& h, const lua::Level& level, const cegis::CheckResult& r) {
  nlohmann::json j{{"level", level.name}, {"verdict", verdict_word(r.verdict)}};
  if (r.verdict == cegis::Verdict::Allowed) {
    j["witness"] = witness_json(h, *r.witness);
  } else {
    j["reason"] = r.reason;
  }
  return j;
}

}  // namespace iso::cli
