// `--eval EXPR` of synth, check and show: each expression parsed once, up
// front (a malformed or hostile one is an error before any output), then
// evaluated on the history (lua/evaluator.hpp) and printed as a relation or
// a truth value. An expression over the history alone (h.wr .. h.so) is
// evaluated once, under the first level's witness where that matters (the
// reads it sets aside; its read-from when values repeat); one over a witness (e.vis) once per level that gives one
// (check: each level that allows the history; synth: each --allow level)
// and whose framework has the relations it reads, labelled with the level.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/decide/witness.hpp"
#include "engine/history/history.hpp"
#include "lua/evaluator.hpp"
#include "lua/spec_library.hpp"

namespace CLI {
class App;
}

namespace iso::cli {

// Declares --eval (repeatable) on `app`, into `expressions`; `about` says
// what the expression is evaluated on.
void add_eval_option(CLI::App* app, std::vector<std::string>& expressions, const char* about);

// One expression's value: on the history alone (level null), or under a
// level's witness; no value when that level gave none (`none` says why).
struct EvalLine {
  std::string expression;
  const lua::Level* level = nullptr;
  std::optional<lua::EvalValue> value;
  std::string none;
};

// A level with the witness under which it allows the history, or why
// there is none ("biswas.SER does not allow the history").
struct LevelWitness {
  const lua::Level* level = nullptr;
  const Witness* witness = nullptr;
  std::string none;
};

class Evaluations {
 public:
  // Parses every expression, on the history alone or over the witness of
  // `levels` (the first level of each framework that has what it reads).
  // Throws the first expression's error when none parses it.
  Evaluations(const lua::SpecLibrary& lib, const std::vector<std::string>& expressions,
              const std::vector<const lua::Level*>& levels);

  bool empty() const { return parsed_.empty(); }
  std::vector<EvalLine> evaluate(const History& h, const std::vector<LevelWitness>& levels) const;

 private:
  struct Parsed {
    std::string text;
    std::optional<lua::SpecLibrary::Expression> plain;  // over h alone
    std::vector<std::pair<const lua::Level*, lua::SpecLibrary::Expression>> per_level;
  };
  std::vector<Parsed> parsed_;
};

// "eval: EXPR = {T1->T2}", "eval: EXPR under LEVEL = true", one a line.
std::string eval_text(const std::vector<EvalLine>& lines);
// [{"expression", "level" (or null), "value": true/false, or the tuples as
// arrays of names, or null without a witness, "read_from_chosen"}]
nlohmann::json eval_json(const std::vector<EvalLine>& lines);

}  // namespace iso::cli
