// The one naming of histories (classify.hpp): the catalogue entries a
// history exhibits, their names for people and for machines.
#include "cli/classify.hpp"

#include <cctype>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "engine/decide/decide.hpp"
#include "engine/logic/translator.hpp"
#include "engine/util/thread_pool.hpp"

namespace iso::cli {

namespace {

// The literature's names of an anomaly, one per entry of its `aka`.
std::vector<std::string> aka_list(const lua::Level& anomaly) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : anomaly.aka + ",") {
    if (c != ',') {
      cur += c;
      continue;
    }
    const auto b = cur.find_first_not_of(' '), e = cur.find_last_not_of(' ');
    if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
    cur.clear();
  }
  return out;
}

}  // namespace

std::vector<const lua::Level*> classify(const lua::SpecLibrary& lib, const History& h, std::size_t jobs) {
  DecideOptions opt;
  opt.explain = false;
  opt.witness = false;
  const std::vector<const lua::Level*> catalogue = lib.anomalies();  // loaded before any thread runs
  std::vector<char> exhibited(catalogue.size(), 0);
  for_each_ordered(catalogue.size(), jobs, [&](std::size_t i) {
    try {
      // A read no execution explains (thin air, an incompatible order)
      // violates every level, the anomaly's too: that is no pattern.
      const Decision d = decide(h, *catalogue[i], opt);
      exhibited[i] = d.verdict == Verdict::Violated && !(d.anomaly && d.anomaly->cycle.empty());
    } catch (const DecideRefused&) {        // a kind of operation the pattern does not cover
    } catch (const logic::TranslationError&) {  // the pattern unrolls too far on this history
    } catch (const std::invalid_argument&) {    // an option this history does not allow
    }
  });
  std::vector<const lua::Level*> out;
  for (std::size_t i = 0; i < catalogue.size(); ++i)
    if (exhibited[i]) out.push_back(catalogue[i]);
  return out;
}

std::string anomaly_short_name(const lua::Level& anomaly) { return anomaly.name.substr(anomaly.name.find('.') + 1); }

std::string anomaly_display_name(const lua::Level& anomaly) {
  if (!anomaly.title.empty()) return anomaly.title;
  std::string out;
  for (char c : anomaly_short_name(anomaly)) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (!out.empty()) out += ' ';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

std::string anomaly_label(const lua::Level& anomaly) {
  const std::string name = anomaly_display_name(anomaly);
  std::vector<std::string> others;
  for (auto& a : aka_list(anomaly))
    if (a != name) others.push_back(std::move(a));
  return others.empty() ? name : fmt::format("{} ({})", name, fmt::join(others, ", "));
}

std::string anomaly_abbreviation(const lua::Level& anomaly) {
  const std::string name = anomaly_display_name(anomaly);
  if (name.size() <= 3 || name.find_first_of(" -") == std::string::npos) {
    const std::string s = anomaly_short_name(anomaly);  // "G0", or one word: "Phantom" -> "Ph"
    return s.size() <= 3 ? s : s.substr(0, 2);
  }
  std::string out;
  bool start = true;
  for (char c : name) {
    if (start && std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    start = c == ' ' || c == '-';
  }
  return out;
}

std::string history_name(const std::vector<const lua::Level*>& exhibited, std::string_view cycle) {
  if (exhibited.empty())
    return cycle.empty() ? std::string("no catalogue anomaly") : fmt::format("no catalogue anomaly; cycle: {}", cycle);
  std::string out;
  for (const lua::Level* an : exhibited) out += (out.empty() ? "" : ", ") + anomaly_label(*an);
  return out;
}

std::string exhibits_line(const std::vector<const lua::Level*>& exhibited, std::string_view cycle) {
  return "exhibits: " + history_name(exhibited, cycle);
}

nlohmann::json exhibits_json(const std::vector<const lua::Level*>& exhibited) {
  nlohmann::json out = nlohmann::json::array();
  for (const lua::Level* an : exhibited)
    out.push_back({{"anomaly", an->name}, {"name", anomaly_display_name(*an)}, {"aka", aka_list(*an)}});
  return out;
}

std::string_view notation_legend() {
  return "notation: `|` separates sessions, `;` the transactions of a session (in order); r(x,1) reads 1 from "
         "key x, w(x,1) writes 1; pr(P: {...}) is a predicate read; [aborted] marks an aborted transaction; T0 "
         "wrote the initial values (0)";
}

}  // namespace iso::cli
