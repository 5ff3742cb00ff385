// The subcommands of isosynth as main runs them: each declared once on the
// application with its options (their help texts are what `isosynth --help`
// and `isosynth SUBCOMMAND --help` print), its arguments held until it runs.
#pragma once

#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

namespace iso::cli {

struct Subcommand {
  CLI::App* app = nullptr;          // parsed() when the command line chose it
  std::function<int()> run;         // runs it on what was parsed: the exit code
  std::function<double()> timeout;  // its --timeout once parsed (0: none)
};

// Declares every subcommand on `app`, in the order --help lists them.
std::vector<Subcommand> declare_subcommands(CLI::App& app);

}  // namespace iso::cli
