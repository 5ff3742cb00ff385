// isosynth: synthesize, compare and check database histories against
// isolation levels written as Lua predicates. main parses the command line
// (the subcommands are cli/subcommands.hpp's), runs the chosen one under
// --timeout and --max-memory, and turns what escapes it into a one-line
// message and an exit code (cli/commands.hpp).
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/memory_limit.hpp"
#include "cli/option_groups.hpp"
#include "cli/subcommands.hpp"
#include "engine/util/budget.hpp"

using namespace iso::cli;

namespace {

// The application's own options and text; --max-memory into `max_memory`.
void declare_application(CLI::App& app, std::uint64_t& max_memory) {
  app.require_subcommand(1);
  app.fallthrough();  // --max-memory after the subcommand too
  app.add_option("--max-memory", max_memory,
                 "End the run with a one-line message (exit code 2) rather than use more memory "
                 "than this: 8G, 512M, ... (default: three quarters of the machine's memory; none or 0: "
                 "no limit)")
      ->transform(kMemorySize);
  app.set_version_flag("--version", "isosynth 0.1.0");
  app.footer(
      "Examples:\n"
      "  isosynth synth --allow SI --deny SER --scope 4,3,3\n"
      "  isosynth compare RA plume.TapRA --scope 4,3,3\n"
      "  isosynth check examples/histories/write-skew.json --level SER\n"
      "  isosynth levels\n"
      "  isosynth show examples/histories/long-fork.json\n"
      "Exit codes: 0 found / allowed, 1 none / violated, 2 usage or input error, 3 timeout.");
}

// Parses the command line; the exit code when that ends the run (help,
// version, a usage error), nullopt when a subcommand is to run.
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
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
  return std::nullopt;
}

// Runs `chosen` (none: a usage error) and returns its exit code; what it
// throws becomes one line on stderr and the exit code that says it. Output
// that did not reach its file (a full disk, a closed pipe) is a failed run,
// whatever the verdict.
int run_reporting_errors(const Subcommand* chosen, double timeout) {
  try {
    const int code = chosen ? chosen->run() : kExitError;
    // The buffered rest of the output is written now.
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0)
      throw std::runtime_error(fmt::format("cannot write the output: {}", std::strerror(errno)));
    return code;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "{}\n", out_of_memory_message());
    return kExitError;
  } catch (const iso::TimeoutError&) {
    fmt::print(stderr, "isosynth: time limit reached (--timeout {})\n", timeout);
    return kExitTimeout;
  } catch (const std::system_error& e) {
    // fmt reports a failed write to stdout as a system error of its own words.
    if (std::ferror(stdout) != 0)
      fmt::print(stderr, "isosynth: error: cannot write the output: {}\n", std::strerror(e.code().value()));
    else
      fmt::print(stderr, "isosynth: error: {}\n", e.what());
    return kExitError;
  } catch (const std::exception& e) {
    fmt::print(stderr, "isosynth: error: {}\n", e.what());
    return kExitError;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "isosynth: reason about database isolation levels.\n"
      "Levels are Lua predicates over abstract executions (specs/*.lua, or your own with --spec)."};
  std::uint64_t max_memory = default_memory_limit();
  declare_application(app, max_memory);
  const std::vector<Subcommand> subcommands = declare_subcommands(app);
  if (const std::optional<int> code = parse(app, argc, argv)) return *code;

  const auto chosen = std::find_if(subcommands.begin(), subcommands.end(),
                                   [](const Subcommand& s) { return s.app->parsed(); });
  const Subcommand* run = chosen == subcommands.end() ? nullptr : &*chosen;
  // --timeout bounds the whole run: reading, deciding, synthesizing,
  // minimizing, explaining (engine/util/budget.hpp).
  const double timeout = run ? run->timeout() : 0;
  iso::budget::ScopedDeadline deadline(timeout);
  arm_memory_limit(max_memory);
  return run_reporting_errors(run, timeout);
}
