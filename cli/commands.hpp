// The subcommands of the isosynth executable. Each returns the process exit
// code: 0 = found / allowed, 1 = not found / violated, 2 = usage or input
// error, 3 = timeout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cli/classify.hpp"
#include "cli/level_choice.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitNo = 1;
inline constexpr int kExitError = 2;
inline constexpr int kExitTimeout = 3;

// `check` prints histories of at most this many transactions before the
// verdicts, and their witnesses without --witness.
inline constexpr std::size_t kSmallHistory = 12;

// How check and show read their input.
struct InputArgs {
  std::string format;          // empty: detect
  std::string init = "auto";   // auto | implicit | explicit | none
  std::optional<std::int64_t> initial_value;  // Chronos's --initial_value
};

struct CheckArgs {
  std::string file;
  // -l: level names, `all` for every level; empty: the default set
  // (cli/level_choice.hpp).
  std::vector<std::string> levels;
  std::vector<std::string> specs;
  InputArgs input;
  std::string sessions = "auto";  // auto (as each level defines) | ignore
  std::int64_t clock_skew = 0;    // Δ for the real-time order, in the timestamps' unit
  bool json = false;
  bool stats = false;
  bool witness = false;        // print each allowed level's witness, whatever the size
  bool no_prune = false;       // graph checker without 1-width pruning
  std::string acyclicity = "auto";  // auto | lazy | eager (SER and SI)
  std::string dot;             // picture of the first violation's cycle (--all: a folder, one per instance)
  std::string svg;             // the same picture rendered by Graphviz
  bool all = false;            // every anomaly class of each violated level (poly::AnomalyClass)
  std::size_t limit = 10;      // --all: instances shown per class
  double timeout = 0;
  std::vector<std::string> eval;  // spec-language expressions to evaluate (--eval)
  std::size_t jobs = 1;           // levels decided at once (--jobs; its default is the cores)
};
int run_check(const CheckArgs& a);
// What run_check does once it has read the history: decides `choice` on
// `loaded` (named a.file in the output), prints as check prints, returns
// check's exit code. With a.json and `json_out`, the JSON document goes to
// *json_out instead of standard output (for a command that wraps it in its
// own). `isosynth record --check` decides what it recorded through it.
int check_history(const CheckArgs& a, const lua::SpecLibrary& lib, LevelChoice choice, ReadResult& loaded,
                  double parse_seconds, nlohmann::json* json_out = nullptr);

// Reads a history as check and show do (progress on stderr for a long
// read); `seconds`: how long it took.
ReadResult load(const std::string& file, const InputArgs& in, double& seconds);

// How run, anomalies --db and predict --validate reach a database.
struct DbArgs {
  std::string db = "sqlite:";           // URL (db/connection.hpp); "sqlite:" a temporary file
  std::vector<std::string> db_levels;   // product levels; empty: every one it offers
  double statement_timeout = 5;         // seconds per statement, lock waits included
  double blocked_after = 0.25;          // seconds before a statement counts as blocked
  std::size_t attempts = 4;             // schedules tried per level at most
};

struct PredictArgs {
  std::string file;
  InputArgs input;
  std::string under = "CC";       // the weak level
  std::string mode = "strict";    // strict | relaxed
  std::vector<std::string> specs;
  bool json = false;
  double timeout = 0;
  std::size_t limit = 1;          // predictions, each changing reads no earlier one changed all of
  std::string dot;                // picture of the first prediction's cycle
  double fewest_for = 5;          // seconds to look for the prediction changing the fewest reads
  bool validate = false;          // replay each prediction on db (IsoPredict's validation)
  DbArgs db;
};
int run_predict(const PredictArgs& a);

// What synth and compare share: the scope, the space, and the output.
struct SearchArgs {
  std::vector<std::string> specs;
  std::string scope = "4,3,3";
  bool minimize = true;  // --no-minimize: the first history found
  bool json = false;
  // The history space (cegis::SpaceOptions) as the flags say it.
  bool no_blind_writes = false, no_sessions = false, duplicates = false, dirty_reads = false, lists = false;
  double timeout = 0;
};

// --prove: what a search that found no separating history then tries to
// prove for every history size (prove/implication.hpp).
struct ProveArgs {
  bool prove = false;
  std::string dir;          // --proof DIR: keep the provers' scripts there
  double seconds = 20;      // --prove-timeout: per prover and goal
};

struct SynthArgs {
  std::vector<std::string> allow, deny;
  std::vector<std::string> exhibit;  // catalogue anomalies the history must exhibit
  SearchArgs search;
  bool stats = false;
  std::string dot;
  std::string svg;  // --dot rendered by Graphviz
  std::size_t count = 1;  // histories different up to renaming
  std::vector<std::string> eval;  // spec-language expressions to evaluate (--eval)
  std::size_t jobs = 1;  // threads naming a solution (--jobs)
  ProveArgs prove;       // with one --allow and one --deny: the implication, where none is found
};
int run_synth(const SynthArgs& a);

struct CompareArgs {
  std::string a, b;
  SearchArgs search;
  std::size_t jobs = 1;  // both directions at once with 2 (--jobs)
  ProveArgs prove;
};
int run_compare(const CompareArgs& a);

struct HierarchyArgs {
  std::vector<std::string> levels;
  SearchArgs search;
  std::string dot, svg;
  std::string html;  // a folder: index.html, self-contained
  DbArgs db;         // with db.db set: run each separating history on that database
  std::size_t jobs = 1;  // pairs searched at once (--jobs)
  ProveArgs prove;       // each cover and each class's equivalence, for every size
};
int run_hierarchy(const HierarchyArgs& a);

struct AnomaliesArgs {
  std::vector<std::string> levels;  // empty: every level of the library
  std::vector<std::string> specs;
  std::string scope = "4,2,3";
  bool json = false;
  double timeout = 0;
  std::string html;  // a folder: index.html, self-contained
  std::string dot;   // a folder: one Graphviz picture per anomaly, NAME.dot
  DbArgs db;         // with db.db set: run every example on that database (Hermitage's table)
  std::size_t jobs = 1;  // anomalies synthesized at once (--jobs)
};
int run_anomalies(const AnomaliesArgs& a);
// The levels of `levels` (or anomalies: they are levels that forbid their
// pattern) that `h` violates, decided without explanations or witnesses.
std::vector<const Level*> violated_levels(const History& h, const std::vector<const Level*>& levels);
// anomaly_display_name: cli/classify.hpp.

struct RunArgs : DbArgs {
  std::string file;
  InputArgs input;
  std::vector<std::string> specs;
  std::vector<std::string> exhibit;  // anomalies a recorded run must exhibit
  std::vector<std::string> deny;     // levels it must violate
  std::string schedule;              // the user's: transaction names, one per statement
  bool json = false;
  std::string dot, svg;              // the last recorded run's picture
  double timeout = 0;
};
int run_run(const RunArgs& a);

// `isosynth record`: a random workload run on a database, recorded.
struct RecordArgs {
  std::string db = "sqlite:";  // connect()'s URL; "sqlite:" a temporary file
  std::string level;           // read-committed, ... (db::parse_level)
  std::string workload = "rw-register";  // db::parse_workload
  std::size_t sessions = 4;
  std::size_t txns = 1000;
  std::size_t keys = 10;
  std::uint64_t seed = 0;
  std::size_t ops = 4;         // operations per transaction, at most
  double skew = 0;             // Zipf exponent over the keys
  double statement_timeout = 10;
  std::string output = "record.json";
  bool check = false;          // --check given (with no level: check's default set)
  std::vector<std::string> levels;  // --check's levels
  bool json = false;
  double timeout = 0;
};
int run_record(const RecordArgs& a);

struct LevelsArgs {
  std::vector<std::string> specs;
  bool json = false;
};
int run_levels(const LevelsArgs& a);

struct ShowArgs {
  std::string file;
  InputArgs input;
  bool json = false;
  double timeout = 0;  // bounds reading too: a named pipe nobody writes to
  std::vector<std::string> eval;  // spec-language expressions to evaluate (--eval)
};
int run_show(const ShowArgs& a);

}  // namespace iso::cli
