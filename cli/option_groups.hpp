// The options several subcommands share, declared once with CLI11: the
// checks of a number of seconds, a memory size and a product level's name,
// and the groups of options that go together: the search's (synth, compare,
// hierarchy), the input's (every command that reads a history) and the
// database's (run, anomalies --db, hierarchy --db, predict --validate).
// Each group writes into the argument struct of cli/commands.hpp that names it.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

namespace iso::cli {

// A positive, finite number of seconds (--timeout: a huge one is as good as
// none, budget.hpp saturates it).
extern const CLI::Validator kPositiveSeconds;
// The same or 0 (--fewest-for).
extern const CLI::Validator kNonNegativeSeconds;
// A memory size (memory_limit.hpp), turned into bytes (--max-memory).
extern const CLI::Validator kMemorySize;
// A product isolation level's name, as db::parse_level reads it (--db-level).
extern const CLI::Validator kProductLevel;

// A number of threads: a whole number from 1 to kMaxJobs (--jobs).
inline constexpr std::size_t kMaxJobs = 1024;
extern const CLI::Validator kJobCount;

// --jobs N into `jobs`, set first to its default, the number of cores
// (engine/util/thread_pool.hpp); `what` says what runs at once.
void add_jobs_option(CLI::App* cmd, std::size_t& jobs, const char* what);

// --prove, --proof DIR and --prove-timeout (prove/implication.hpp).
void add_prove_options(CLI::App* cmd, ProveArgs& a);

// --scope, --spec, --minimize, --json (with `json_help`), --timeout and the
// options of the history space (--no-blind-writes ... --lists).
void add_search_options(CLI::App* cmd, SearchArgs& a, const char* json_help);
// The history a command reads: the required positional `file` (described
// by `file_help`), then --format, --init and --initial-value.
void add_history_input(CLI::App* cmd, std::string& file, InputArgs& in, const char* file_help);
// --db, --db-level, --statement-timeout, --blocked-after and --attempts.
void add_db_options(CLI::App* cmd, DbArgs& a);
// The same where no --db means no database (anomalies, hierarchy): a.db's
// default ("sqlite:") is cleared first.
void add_db_options_no_default(CLI::App* cmd, DbArgs& a);

}  // namespace iso::cli
