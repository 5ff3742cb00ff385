// `--eval` of synth, check and show (cli/evaluations.hpp): parsing each
// expression once, evaluating it per level, printing the values.
#include "cli/evaluations.hpp"

#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace iso::cli {

void add_eval_option(CLI::App* app, std::vector<std::string>& expressions, const char* about) {
  app->add_option("--eval", expressions,
                  fmt::format("Evaluate an expression of the spec language on {} and print it: a relation as "
                              "its tuples, a formula as true or false (repeatable; Alloy's evaluator), e.g. "
                              "--eval 'h.wr .. h.so', --eval 'h.wrx', --eval 'some(h.wr & ~h.so)'{}",
                              about, std::string(about).find("witness") != std::string::npos ? ", --eval 'e.co'" : ""));
}

Evaluations::Evaluations(const lua::SpecLibrary& lib, const std::vector<std::string>& expressions,
                         const std::vector<const lua::Level*>& levels) {
  for (const std::string& text : expressions) {
    Parsed p{text, std::nullopt, {}};
    try {
      p.plain = lib.expression(text, nullptr);
    } catch (const lua::SpecError& alone) {
      // It reads e: over each framework of the levels, once.
      std::optional<lua::SpecError> first;
      std::vector<const lua::Framework*> tried;
      for (const lua::Level* l : levels) {
        if (std::find(tried.begin(), tried.end(), l->framework) != tried.end()) continue;
        tried.push_back(l->framework);
        try {
          p.per_level.emplace_back(l, lib.expression(text, l->framework));
        } catch (const lua::SpecError& e) {
          if (!first) first = e;
        }
      }
      if (p.per_level.empty()) throw first ? *first : alone;
      // Every other level of a framework that has it.
      std::vector<std::pair<const lua::Level*, lua::SpecLibrary::Expression>> all;
      for (const lua::Level* l : levels)
        for (const auto& [parsed_for, x] : p.per_level)
          if (parsed_for->framework == l->framework) all.emplace_back(l, x);
      p.per_level = std::move(all);
    }
    parsed_.push_back(std::move(p));
  }
}

std::vector<EvalLine> Evaluations::evaluate(const History& h, const std::vector<LevelWitness>& levels) const {
  std::vector<EvalLine> out;
  // The history's view: that of the first level with a witness (the reads
  // it sets aside, and its read-from where values repeat), or the plain one.
  const LevelWitness* view = nullptr;
  for (const LevelWitness& lw : levels)
    if (lw.witness && !view) view = &lw;
  for (const Parsed& p : parsed_) {
    if (p.plain) {
      out.push_back({p.text, nullptr,
                   lua::evaluate(*p.plain, h, view ? view->level : nullptr, view ? view->witness : nullptr), ""});
      continue;
    }
    for (const auto& [level, x] : p.per_level) {
      const auto it = std::find_if(levels.begin(), levels.end(), [&](const LevelWitness& lw) { return lw.level == level; });
      if (it == levels.end()) continue;
      EvalLine line{p.text, level, std::nullopt, it->none};
      if (it->witness) line.value = lua::evaluate(x, h, level, it->witness);
      out.push_back(std::move(line));
    }
  }
  return out;
}

std::string eval_text(const std::vector<EvalLine>& lines) {
  std::string s;
  for (const EvalLine& l : lines) {
    const std::string under = l.level ? fmt::format(" under {}", l.level->name) : "";
    if (!l.value) {
      s += fmt::format("eval: {}{}: no witness ({})\n", escape_text(l.expression), under, l.none);
      continue;
    }
    s += fmt::format("eval: {}{} = {}{}\n", escape_text(l.expression), under, l.value->text(),
                     l.value->read_from_chosen ? "   (under one choice of read-from: values repeat)" : "");
  }
  return s;
}

nlohmann::json eval_json(const std::vector<EvalLine>& lines) {
  nlohmann::json out = nlohmann::json::array();
  for (const EvalLine& l : lines) {
    nlohmann::json j{{"expression", l.expression}, {"level", l.level ? nlohmann::json(l.level->name) : nullptr}};
    if (!l.value) {
      j["value"] = nullptr;
    } else if (l.value->is_formula) {
      j["value"] = l.value->truth;
    } else {
      j["value"] = l.value->tuples;
    }
    j["read_from_chosen"] = l.value && l.value->read_from_chosen;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace iso::cli
