// The shared options of option_groups.hpp: the checks and the groups, with
// their help texts (docs/design.md quotes `isosynth --help`).
#include "cli/option_groups.hpp"

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "cli/memory_limit.hpp"
#include "db/connection.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/util/thread_pool.hpp"

namespace iso::cli {

namespace {

// A number of seconds: finite, and positive (--timeout: a huge one is as
// good as none, budget.hpp saturates it) or, with `zero_ok`, also 0
// (--fewest-for). NaN, infinities and negatives are refused rather than
// read as "stop at once" or "no limit".
CLI::Validator seconds_validator(bool zero_ok) {
  return CLI::Validator(
      [zero_ok](std::string& text) -> std::string {
        double v = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(v) && (v > 0 || (zero_ok && v == 0)))
          return "";
        return fmt::format("{} is not a {} number of seconds", text, zero_ok ? "finite, non-negative" : "positive, finite");
      },
      "SECONDS", "seconds");
}

}  // namespace

const CLI::Validator kPositiveSeconds = seconds_validator(false);
const CLI::Validator kNonNegativeSeconds = seconds_validator(true);

const CLI::Validator kMemorySize(
    [](std::string& text) -> std::string {
      const auto bytes = parse_memory_size(text);
      if (!bytes)
        return fmt::format("{} is not a memory size: a positive number of bytes with K, M, G or T "
                           "(8G, 512M), or none (or 0) for no limit",
                           text);
      text = std::to_string(*bytes);
      return "";
    },
    "SIZE", "memory size");

const CLI::Validator kProductLevel(
    [](std::string& text) -> std::string {
      if (iso::db::parse_level(text)) return "";
      return fmt::format("{} is not an isolation level: read-uncommitted, read-committed, repeatable-read "
                         "or serializable",
                         text);
    },
    "LEVEL", "product isolation level");

const CLI::Validator kJobCount(
    [](std::string& text) -> std::string {
      std::size_t n = 0;
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec == std::errc() && ptr == text.data() + text.size() && n >= 1 && n <= kMaxJobs) return "";
      return fmt::format("{} is not a number of jobs: a whole number from 1 to {}", text, kMaxJobs);
    },
    "", "number of jobs");

void add_jobs_option(CLI::App* cmd, std::size_t& jobs, const char* what) {
  jobs = default_jobs();
  cmd->add_option("--jobs,-j", jobs,
                  fmt::format("Run up to N {} at once, each on a thread of its own (default: the number of "
                              "cores; 1 runs them one after another). The output is the same whatever N",
                              what))
      ->check(kJobCount)
      ->type_name("N");
}

void add_prove_options(CLI::App* cmd, ProveArgs& a) {
  CLI::Option* prove =
      cmd->add_flag("--prove", a.prove,
                    "Where no history within the scope separates the levels, try to prove that none "
                    "does at any size: a witness map checked by the provers cvc5 and z3, both needed; "
                    "or show one beyond the scope, from a prover's model, confirmed by check "
                    "(docs/proofs.md)");
  cmd->add_option("--proof", a.dir, "With --prove, write the provers' scripts (SMT-LIB 2) to this folder")
      ->type_name("DIR")
      ->needs(prove);
  cmd->add_option("--prove-timeout", a.seconds, "With --prove, seconds per prover and goal")
      ->check(kPositiveSeconds)
      ->capture_default_str()
      ->needs(prove);
}

void add_search_options(CLI::App* cmd, SearchArgs& a, const char* json_help) {
  cmd->add_option("--scope", a.scope,
                  "T,O,V[,P]: at most T transactions, O objects, V values (the initial value "
                  "counted); with P, at most P operations per transaction, reads in program order "
                  "(a key may be read twice). Levels over read events (biswas.RC) imply it, with up "
                  "to 2*O reads per transaction when P is absent")
      ->capture_default_str();
  cmd->add_option("--spec", a.specs, "Load levels from a Lua spec file (repeatable)");
  cmd->add_flag("--minimize,!--no-minimize", a.minimize,
                "Return a locally minimal history (the default): shrink the scope, then drop "
                "operations, while the problem stays satisfiable, within --timeout. "
                "--no-minimize returns the first history found");
  cmd->add_flag("--json", a.json, json_help);
  cmd->add_option("--timeout", a.timeout, "Give up after this many seconds in all (exit code 3)")
      ->check(kPositiveSeconds);
  cmd->add_flag("--no-blind-writes", a.no_blind_writes,
                "Every written key must be read first (Isolde's history space)");
  cmd->add_flag("--no-sessions", a.no_sessions,
                "Every transaction in its own session (the session-free levels' view, e.g. Adya's)");
  cmd->add_flag("--duplicates", a.duplicates,
                "Written values may repeat (several writers of one value of a key, the initial "
                "value included: ABA); read-from is then chosen by each level's witness");
  cmd->add_flag("--dirty-reads", a.dirty_reads,
                "Transactions may abort and write a key twice, and reads may return an aborted "
                "write (G1a) or an intermediate one (G1b); on by itself for levels that mention them");
  cmd->add_flag("--lists", a.lists,
                "Every key a list: writes append, reads return the whole list, and the lists "
                "reveal version orders (Elle's list-append); on by itself for the G0 anomaly");
}

void add_history_input(CLI::App* cmd, std::string& file, InputArgs& in, const char* file_help) {
  cmd->add_option("file", file, file_help)->required();
  std::vector<std::string> formats;
  for (auto f : iso::format_names()) formats.emplace_back(f);
  cmd->add_option("--format", in.format,
                  "Read the input in this format instead of detecting it (docs/formats.md; dbcop "
                  "is dbcop's binary history, dbcop-json and dbcop-hist its text ones)")
      ->check(CLI::IsMember(formats));
  std::vector<std::string> init_modes;
  for (auto m : iso::init_mode_names()) init_modes.emplace_back(m);
  cmd->add_option("--init", in.init,
                  "The initial state: as the format's producer means it (auto), T0 writing every "
                  "key's initial value (implicit), the file's first transaction taken as T0 "
                  "(explicit), or none (a read of a value nobody wrote is thin-air); a format "
                  "refuses a mode it cannot honour")
      ->check(CLI::IsMember(init_modes));
  cmd->add_option("--initial-value", in.initial_value,
                  "Chronos JSON: every key's initial value (Chronos's --initial_value; without "
                  "it, null, as Chronos has it); other formats say their own")
      ->type_name("INT");
}

void add_db_options(CLI::App* cmd, DbArgs& a) {
  cmd->add_option("--db", a.db,
                  "The database: sqlite:FILE (embedded; sqlite: alone, a temporary file), "
                  "postgresql:///DB?host=/socket/dir&user=U (libpq's URI), or "
                  "mysql://USER[:PASSWORD]@HOST[:PORT]/DB[?socket=/path] (MariaDB, MySQL)");
  cmd->add_option("--db-level", a.db_levels,
                  "The database's isolation level (repeatable): read-uncommitted, read-committed, "
                  "repeatable-read, serializable; default: every level the database offers")
      ->check(kProductLevel);
  cmd->add_option("--statement-timeout", a.statement_timeout,
                  "Seconds any one statement may take, lock waits included (default 5)")
      ->check(kPositiveSeconds);
  cmd->add_option("--blocked-after", a.blocked_after,
                  "Seconds after which a statement that has not returned counts as blocked on a lock, and "
                  "the other sessions go on (default 0.25)")
      ->check(kPositiveSeconds);
  cmd->add_option("--attempts", a.attempts,
                  "Schedules to try per level before concluding (default 4)")
      ->check(CLI::Range(1, 64));
}

void add_db_options_no_default(CLI::App* cmd, DbArgs& a) {
  a.db.clear();
  add_db_options(cmd, a);
}

}  // namespace iso::cli
