// isosynth: synthesize, compare and check database histories against
// isolation levels written as Lua predicates.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"

using namespace iso::cli;

int main(int argc, char** argv) {
  CLI::App app{
      "isosynth: reason about database isolation levels.\n"
      "Levels are Lua predicates over abstract executions (specs/*.lua, or your own with --spec)."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "isosynth 0.1.0");
  app.footer(
      "Examples:\n"
      "  isosynth check examples/histories/write-skew.json --level SER\n"
      "  isosynth check h.json --level SI --level cerone.PSI --json\n"
      "  isosynth levels\n"
      "  isosynth show examples/histories/long-fork.json\n"
      "Exit codes: 0 allowed, 1 denied, 2 usage or input error, 3 timeout.");

  CheckArgs check;
  auto* c = app.add_subcommand("check", "Decide whether a history is allowed by isolation levels");
  c->add_option("file", check.file, "History file (native JSON)")->required();
  c->add_option("-l,--level", check.levels,
                "Level to check (repeatable): SER, SI, cerone.PSI, plume.TapRA, ...; bare names "
                "mean the biswas definition")
      ->required();
  c->add_option("--spec", check.specs, "Load levels from a Lua spec file (repeatable)");
  c->add_flag("--json", check.json, "Print the verdicts and witnesses as JSON");
  c->add_flag("--stats", check.stats, "Print translation and solving statistics on stderr");
  c->add_option("--timeout", check.timeout, "Give up after this many seconds per solver call")
      ->check(CLI::NonNegativeNumber);
  c->footer(
      "Examples:\n"
      "  isosynth check examples/histories/write-skew.json --level SER\n"
      "  isosynth check examples/histories/fekete-read-only.json -l SI -l UpdateSer -l SER\n"
      "  isosynth check h.json --spec my-levels.lua --level my.UpdateSer --json\n"
      "Exit code: 0 when every level allows the history, 1 when some level denies it.");

  LevelsArgs levels;
  auto* l = app.add_subcommand("levels", "List every known level with its documentation");
  l->add_option("--spec", levels.specs, "Also load levels from a Lua spec file (repeatable)");
  l->add_flag("--json", levels.json, "Print as JSON");

  ShowArgs show;
  auto* s = app.add_subcommand("show", "Pretty-print a history in the papers' notation");
  s->add_option("file", show.file, "History file (native JSON)")->required();
  s->add_flag("--json", show.json, "Print the history in the native JSON format");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "isosynth: error: {}\n", e.what());
    return kExitError;
  }

  try {
    if (*c) return run_check(check);
    if (*l) return run_levels(levels);
    if (*s) return run_show(show);
  } catch (const std::exception& e) {
    fmt::print(stderr, "isosynth: error: {}\n", e.what());
    return kExitError;
  }
  return kExitError;
}
