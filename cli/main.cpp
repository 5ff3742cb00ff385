// isosynth: synthesize, compare and check database histories against
// isolation levels written as Lua predicates.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/memory_limit.hpp"
#include "db/connection.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/util/budget.hpp"

using namespace iso::cli;

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
const CLI::Validator kPositiveSeconds = seconds_validator(false);
const CLI::Validator kNonNegativeSeconds = seconds_validator(true);

// --max-memory: a size (memory_limit.hpp), turned into bytes for CLI11.
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

// --format and --init: how check and show read their input.
void add_input_options(CLI::App* cmd, iso::cli::InputArgs& in) {
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

// A product isolation level's name, as db::parse_level reads it.
const CLI::Validator kProductLevel(
    [](std::string& text) -> std::string {
      if (iso::db::parse_level(text)) return "";
      return fmt::format("{} is not an isolation level: read-uncommitted, read-committed, repeatable-read "
                         "or serializable",
                         text);
    },
    "LEVEL", "product isolation level");

// --db and what goes with it: run, anomalies --db, predict --validate.
void add_db_options(CLI::App* cmd, DbArgs& a, bool url_required) {
  auto* db = cmd->add_option("--db", a.db,
                             "The database: sqlite:FILE (embedded; sqlite: alone, a temporary file), "
                             "postgresql:///DB?host=/socket/dir&user=U (libpq's URI), or "
                             "mysql://USER[:PASSWORD]@HOST[:PORT]/DB[?socket=/path] (MariaDB, MySQL)");
  if (url_required) db->required();
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

// `isosynth synth`: its options, into `synth`.
CLI::App* add_synth(CLI::App& app, SynthArgs& synth) {
  auto* sy = app.add_subcommand("synth", "Synthesize a history allowed by some levels and violating others");
  sy->add_option("--allow", synth.allow, "Level the history must be allowed by (repeatable)");
  sy->add_option("--deny", synth.deny, "Level the history must violate (repeatable)");
  sy->add_option("--exhibit", synth.exhibit,
                 "Anomaly of the catalogue the history must exhibit, e.g. ReadOnlyAnomaly (repeatable; "
                 "'isosynth anomalies' lists them)");
  add_search_options(sy, synth.search, "Print the history as native JSON with the witnesses");
  sy->add_option("--dot", synth.dot,
                 "Write a Graphviz picture of the history to this file: sessions, read-from, the allowed "
                 "levels' witnesses, and in red why each denied level rejects it");
  sy->add_option("--svg", synth.svg, "Write that picture as SVG (needs Graphviz's dot program)");
  sy->add_flag("--stats", synth.stats, "Print candidates, lemmas, clauses and times on stderr");
  sy->footer(
      "Examples:\n"
      "  isosynth synth --allow SI --deny SER --scope 4,3,3\n"
      "  isosynth synth --allow SI --allow UpdateSer --deny SER --scope 3,2,2   # Fekete's anomaly\n"
      "  isosynth synth --allow plume.TapRA --deny RA\n"
      "  isosynth synth --allow cerone.NLU --deny cerone.UA --scope 3,2,4 --json > h.json\n"
      "  isosynth synth --allow biswas.RC --deny biswas.RA --scope 3,2,2,2   # 2 operations per transaction\n"
      "  isosynth synth --allow adya.PL-2 --deny adya.PL-2.99\n"
      "  isosynth synth --allow SI --deny SER --scope 20,5,5 --no-minimize   # the first history found\n"
      "  isosynth synth --allow SI --deny SER --exhibit ReadOnlyAnomaly   # not the smallest: Fekete's\n"
      "Exit code: 0 found, 1 none within the scope, 2 usage or input error, 3 timeout.");
  return sy;
}

// `isosynth compare`: its options, into `compare`.
CLI::App* add_compare(CLI::App& app, CompareArgs& compare) {
  auto* co = app.add_subcommand("compare", "Compare two levels within a scope: equivalent, stronger, weaker or incomparable");
  co->add_option("a", compare.a, "First level")->required();
  co->add_option("b", compare.b, "Second level")->required();
  add_search_options(co, compare.search, "Print {verdict, a_not_b, b_not_a} as JSON");
  co->footer(
      "Examples:\n"
      "  isosynth compare RA plume.TapRA --scope 4,3,3     # stronger: TapRA misses a pattern\n"
      "  isosynth compare SI cerone.SI                     # equivalent within 4,3,3\n"
      "'stronger' means A allows strictly fewer histories than B within the scope.");
  return co;
}

// `isosynth anomalies`: its options, into `anomalies`.
CLI::App* add_anomalies(CLI::App& app, AnomaliesArgs& anomalies) {
  auto* an = app.add_subcommand("anomalies", "The catalogue of named anomalies: the smallest example of each, "
                                             "synthesized, and the table of levels allowing or forbidding it");
  an->add_option("--level,-l", anomalies.levels, "A level for the table (repeatable; default: every level)");
  an->add_option("--scope", anomalies.scope, "T,O,V[,P]: the scope the examples are searched in")
      ->capture_default_str();
  an->add_option("--spec", anomalies.specs, "Load levels or anomalies from a Lua spec file (repeatable)");
  an->add_flag("--json", anomalies.json, "Print each anomaly with its example and its verdict per level as JSON");
  an->add_option("--html", anomalies.html,
                 "Write a self-contained page to this folder (index.html): the table, each anomaly with its "
                 "example and picture; no script, no network");
  an->add_option("--timeout", anomalies.timeout,
                 "Give up after this many seconds in all (exit code 3; the anomalies not synthesized "
                 "by then, and the cells not decided, are shown as ?)")
      ->check(kPositiveSeconds);
  anomalies.db.db.clear();  // no --db: the formal table only
  add_db_options(an, anomalies.db, false);
  an->footer(
      "Examples:\n"
      "  isosynth anomalies\n"
      "  isosynth anomalies --db sqlite:   # run every example on SQLite: Hermitage's table\n"
      "  isosynth anomalies --db 'postgresql:///isosynth?host=/tmp/pg' -l adya.PL-2 -l SI -l SER --html out/\n"
      "  isosynth anomalies -l adya.PL-2 -l adya.PL-2.99 -l SI -l SER\n"
      "  isosynth anomalies -l RC -l RA -l CC -l PC -l SI -l SER --html out/   # a page for a lecture\n"
      "An anomaly is exhibited by a history when every execution has its pattern (specs/anomalies.lua).\n"
      "Exit code: 0 every example and cell found, 2 usage or input error, 3 time limit (some ?).");
  return an;
}

// `isosynth hierarchy`: its options, into `hier`.
CLI::App* add_hierarchy(CLI::App& app, HierarchyArgs& hier) {
  auto* hi = app.add_subcommand("hierarchy", "Place levels in a hierarchy within a scope: every ordered pair decided, "
                                             "equivalence classes, Hasse diagram, a minimal separating history each");
  hi->add_option("levels", hier.levels, "Levels (at least two)")->required();
  add_search_options(hi, hier.search, "Print levels, classes, Hasse diagram and every pair as JSON");
  hi->add_option("--dot", hier.dot, "Write the Hasse diagram as a Graphviz picture to this file");
  hi->add_option("--svg", hier.svg, "Write the Hasse diagram as SVG (needs Graphviz's dot program)");
  hi->add_option("--html", hier.html,
                 "Write a self-contained page to this folder (index.html): the diagram, the table of every "
                 "pair, each separating history with its picture; no script, no network");
  hier.db.db.clear();  // no --db: the formal hierarchy only
  add_db_options(hi, hier.db, false);
  hi->footer(
      "Examples:\n"
      "  isosynth hierarchy biswas.RA biswas.CC biswas.PC biswas.SI biswas.SER --scope 4,2,2\n"
      "  isosynth hierarchy RC SI SER --scope 4,2,3 --db 'postgresql:///isosynth?host=/tmp/pg' --db-level "
      "repeatable-read   # where the product level sits\n"
      "  isosynth hierarchy biswas.SI cerone.SI cerone.PSI cerone.UA --scope 3,2,2 --svg h.svg\n"
      "  isosynth hierarchy RA CC PC SI SER --scope 4,2,3 --html out/   # a page to open in a browser\n"
      "A => B: every history A allows within the scope, B allows (A is at least as strong).\n"
      "Exit code: 0 every pair decided, 2 usage or input error, 3 time limit (some pairs undecided).");
  return hi;
}

// `isosynth check`: its options, into `check`.
CLI::App* add_check(CLI::App& app, CheckArgs& check) {
  auto* c = app.add_subcommand("check", "Decide whether a history is allowed by isolation levels");
  c->add_option("file", check.file,
                "History file or folder (format detected; see --format)")
      ->required();
  add_input_options(c, check.input);
  c->add_option("--sessions", check.sessions,
                "Session order as each level defines it (auto: kept by the biswas and cerone "
                "levels, absent from Adya's), or ignored by every level (ignore: each "
                "transaction in its own session, as Elle's serializable)")
      ->check(CLI::IsMember({"auto", "ignore"}));
  c->add_option("--clock-skew", check.clock_skew,
                "The clock-skew bound Δ for levels that use real time (biswas.StrictSER), Vbox's: "
                "both ends are widened, T1 precedes T2 in real time only if commit(T1) + Δ < "
                "begin(T2) - Δ, in the timestamps' own unit (default 0)")
      ->check(CLI::NonNegativeNumber);
  c->add_flag("--witness", check.witness,
              fmt::format("Print each allowed level's witness (co, vis and ar, or ww per key; "
                          "for SI the snapshots) also for histories of more than {} transactions",
                          iso::cli::kSmallHistory));
  c->add_option("--dot", check.dot, "Write a Graphviz picture of the first violation: its cycle, or the history with the reason in red");
  c->add_option("--svg", check.svg, "Write that picture as SVG (needs Graphviz's dot program)");
  c->add_flag("--no-prune", check.no_prune, "Skip the graph checker's 1-width pruning");
  c->add_option("--acyclicity", check.acyclicity,
                "How SER and SI decide acyclicity: lazy cycle clauses (any size), eager order "
                "variables (small graphs: at most 255 transactions for SER, 127 for SI), or auto "
                "by size")
      ->check(CLI::IsMember({"auto", "lazy", "eager"}));
  c->add_option("-l,--level", check.levels,
                "Level to check (repeatable): SER, SI, cerone.PSI, plume.TapRA, ...; bare names "
                "mean the biswas definition; all: every level (those that do not apply to the "
                "history listed as not-applicable). Without -l: RC, RA, CC, SI and SER, and "
                "StrictSER when the history has real time (begin and commit timestamps)");
  c->add_option("--spec", check.specs, "Load levels from a Lua spec file (repeatable)");
  c->add_flag("--json", check.json, "Print the verdicts and witnesses as JSON");
  c->add_flag("--stats", check.stats,
              "Print time per phase (parse, construct, prune, encode, solve) and sizes on stderr; "
              "after a timeout, the phases that completed and the sizes measured");
  c->add_option("--timeout", check.timeout,
                "Give up after this many seconds in all (exit code 3; levels not decided by "
                "then are unknown)")
      ->check(kPositiveSeconds);
  c->footer(
      "Examples:\n"
      "  isosynth check examples/histories/write-skew.json --level SER\n"
      "  isosynth check examples/histories/fekete-read-only.json -l SI -l UpdateSer -l SER\n"
      "  isosynth check h.json --spec my-levels.lua --level my.UpdateSer --json\n"
      "  isosynth check ../shared/data/histories/dbcop/dgraph-si-violation -l SER -l SI\n"
      "  isosynth check run.edn --level SER --witness --stats --dot cycle.dot\n"
      "  isosynth check run.edn -l all --json   # every level, each with its verdict or why not\n"
      "A level that cannot be decided on this history (cerone.TimestampSI without the database's\n"
      "timestamps, a level of the generic oracle above 48 transactions) is not-applicable, with its\n"
      "reason, and every other level still gets its verdict.\n"
      "Exit code, from the levels decided: 1 when one is violated, else 3 when --timeout left one\n"
      "unknown, else 0 (every decided level allows the history); 2 for a usage or input error, or\n"
      "when no level can be decided on the history (one line: why).");
  return c;
}

// `isosynth predict`: its options, into `predict`.
CLI::App* add_predict(CLI::App& app, PredictArgs& predict) {
  auto* pr = app.add_subcommand("predict", "From an observed run, predict a run a weak level allows and serializability "
                                           "forbids, reads taking other writers (IsoPredict)");
  pr->add_option("file", predict.file, "The observed run, in any format check reads (IsoPredict traces too)")
      ->required();
  add_input_options(pr, predict.input);
  pr->add_option("--under", predict.under,
                 "The weak level the store provides: CC, RC, RA, PC, SI, cerone.PSI, ... (default CC)");
  pr->add_option("--mode", predict.mode,
                 "strict: a read that changes ends its session there (only what happened before it is "
                 "kept); relaxed: its whole transaction is kept, and its other reads may change too "
                 "(IsoPredict's prediction boundaries; default strict)")
      ->check(CLI::IsMember({"strict", "relaxed"}));
  pr->add_option("--spec", predict.specs, "Load levels from a Lua spec file (repeatable)");
  pr->add_flag("--json", predict.json, "Print the prediction as JSON");
  pr->add_option("--limit", predict.limit,
                 "Predict up to this many runs, each changing reads that no earlier one changed all of "
                 "(default 1)")
      ->check(CLI::PositiveNumber);
  pr->add_option("--timeout", predict.timeout, "Give up after this many seconds (exit code 3)")
      ->check(kPositiveSeconds);
  pr->add_option("--fewest-for", predict.fewest_for,
                 "Look this many seconds for the prediction changing the fewest reads, fewest first "
                 "(default 5; 0: any prediction)")
      ->check(kNonNegativeSeconds);
  pr->add_option("--dot", predict.dot,
                 "Write a Graphviz picture of the first prediction: the cycle that serializability forbids, "
                 "its changed reads named in the title");
  pr->add_flag("--validate", predict.validate,
               "Run each prediction on the database (--db, --db-level) by a schedule that should produce its "
               "reads, and say whether it did and whether the recorded run is unserializable");
  add_db_options(pr, predict.db, false);
  pr->footer(
      "Examples:\n"
      "  isosynth predict trace.txt --under CC\n"
      "  isosynth predict run.json --under RC --validate --db 'mysql://root@localhost/isosynth?socket=/tmp/m.sock' "
      "--db-level read-committed\n"
      "  isosynth predict trace.txt --under CC --dot predicted.dot\n"
      "  isosynth predict trace.txt --under RC --mode relaxed --json\n"
      "  isosynth predict trace.txt --under CC --limit 10   # every way it could go wrong, up to 10\n"
      "Exit code: 0 a prediction was found, 1 none exists, 2 usage or input error, 3 time limit. The\n"
      "observed run need not be allowed by the level (IsoPredict asks nothing of it): when it is not, the\n"
      "output says so first (JSON: \"observed\"), and the exit code is still the prediction's.");
  return pr;
}

// `isosynth run`: its options, into `run`.
CLI::App* add_run(CLI::App& app, RunArgs& run) {
  auto* r = app.add_subcommand("run", "Run a history on a real database by a schedule that should produce its reads, "
                                      "record what happened, and say whether the database exhibited its anomaly");
  r->add_option("file", run.file, "The history, in any format check reads (synth --json's output, a catalogue "
                                  "example, a prediction, ...)")
      ->required();
  add_input_options(r, run.input);
  add_db_options(r, run, false);
  r->add_option("--exhibit", run.exhibit,
                "A catalogue anomaly the recorded run must exhibit (repeatable); default: the anomalies the "
                "history exhibits");
  r->add_option("--deny", run.deny, "A level the recorded run must violate (repeatable)");
  r->add_option("--schedule", run.schedule,
                "The order of statements: transaction names, one per statement, \"T1 T2 T1 T2 T1 T2\" "
                "(each transaction's operations in order, then its commit); default: found from the history");
  r->add_option("--spec", run.specs, "Load levels or anomalies from a Lua spec file (repeatable)");
  r->add_flag("--json", run.json, "Print each level's attempts, recorded runs and verdict as JSON");
  r->add_option("--dot", run.dot, "Write a Graphviz picture of the last recorded run, with why it exhibits the anomaly");
  r->add_option("--svg", run.svg, "Write that picture as SVG (needs Graphviz's dot program)");
  r->add_option("--timeout", run.timeout, "Give up after this many seconds in all (exit code 3)")
      ->check(kPositiveSeconds);
  r->footer(
      "Examples:\n"
      "  isosynth run examples/histories/write-skew.json --db sqlite:\n"
      "  isosynth run examples/histories/write-skew.json --db 'postgresql:///isosynth?host=/tmp/pg' "
      "--db-level repeatable-read\n"
      "  isosynth synth --allow SI --deny SER --json > ws.json; isosynth run ws.json --db \"$URL\" --json\n"
      "Each level's verdict: exhibited (a recorded run exhibits the anomaly), prevented by abort (the database\n"
      "aborted a transaction), prevented by blocking (a statement waited on a lock), diverged (other values),\n"
      "or no schedule (no interleaving of the statements returns the history's reads).\n"
      "Exit code: 0 exhibited at every level run, 1 otherwise, 2 usage, input or database error, 3 time limit.");
  return r;
}

// `isosynth record`: its options, into `record`.
CLI::App* add_record(CLI::App& app, RecordArgs& record) {
  auto* r = app.add_subcommand("record", "Run random transactions concurrently on a database and record what it "
                                         "returned as a history, optionally checking it");
  r->add_option("--db", record.db,
                "The database: sqlite:FILE (sqlite: alone, a temporary file: the default), "
                "postgresql:///DB?host=/socket/dir&user=U, mysql://USER[:PASSWORD]@HOST[:PORT]/DB[?socket=/path]");
  r->add_option("--db-level", record.level, "The product's isolation level every transaction runs at")
      ->required()
      ->check(CLI::IsMember({"read-uncommitted", "read-committed", "repeatable-read", "serializable"}));
  r->add_option("--workload", record.workload,
                "rw-register: reads and writes of registers, many read-modify-writes; list-append: appends and "
                "list reads (Elle's); predicate: registers and reads of key ranges, some with a value condition")
      ->capture_default_str()
      ->check(CLI::IsMember({"rw-register", "list-append", "predicate"}));
  r->add_option("--sessions", record.sessions, "Concurrent sessions, each its own connection and thread")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  r->add_option("--txns", record.txns, "Transactions in all, shared among the sessions")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  r->add_option("--keys", record.keys, "Keys (rows): 0 .. KEYS-1; fewer keys, more conflicts")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  r->add_option("--seed", record.seed, "The workload's seed: one seed, one plan of transactions (what the "
                                        "database returns still depends on the interleaving)")
      ->capture_default_str();
  r->add_option("--ops", record.ops, "Operations per transaction, at most (1 .. OPS, uniformly)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  r->add_option("--skew", record.skew,
                "Hot keys: the Zipf exponent of key choice (0: uniform; 1: key 0 twice as often as key 1; 2: "
                "most accesses to the first few keys)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 10.0));
  r->add_option("--statement-timeout", record.statement_timeout,
                "Seconds one statement may take, lock waits included, before its transaction is aborted")
      ->capture_default_str()
      ->check(kPositiveSeconds);
  r->add_option("-o,--output", record.output, "Write the recorded history (native JSON) to this file")
      ->capture_default_str();
  r->add_option("--check", record.levels,
                "Check the recorded history at these levels, as check does (SER, SI, all, ...; with no level, "
                "check's default set)")
      ->expected(0, -1);
  r->add_flag("--json", record.json, "Print the summary (and the check's verdicts) as JSON");
  r->add_option("--timeout", record.timeout, "Give up after this many seconds in all, recording and checking (exit code 3; a "
                "recording cut short writes no history)")
      ->check(kPositiveSeconds);
  r->footer(
      "Examples:\n"
      "  isosynth record --db sqlite:/tmp/r.db --db-level serializable --txns 2000 --check SER\n"
      "  isosynth record --db 'postgresql:///postgres?host=/tmp/pg' --db-level repeatable-read \\\n"
      "      --sessions 8 --keys 4 --txns 5000 --seed 1 --check SI SER   # write skew: SI allowed, SER not\n"
      "  isosynth record --db 'mysql://root@localhost/test?socket=/tmp/my.sock' --db-level repeatable-read \\\n"
      "      --keys 3 --check SI -o lost.json   # lost updates\n"
      "  isosynth record --db sqlite:/tmp/r.db --db-level serializable --workload list-append --skew 1.5\n"
      "Each transaction runs once; one the database aborts (serialization failure, deadlock, statement\n"
      "timeout) is recorded as aborted, its SQLSTATE counted. The history has every transaction's client\n"
      "begin and commit times. A database that fails (unreachable, lost mid-run) ends the run with one line\n"
      "and no history.\n"
      "Exit code: 0 recorded (and every level checked allows it), 1 a level checked is violated, 2 usage,\n"
      "input or database error, 3 time limit.");
  return r;
}

// `isosynth levels`: its options, into `levels`.
CLI::App* add_levels(CLI::App& app, LevelsArgs& levels) {
  auto* l = app.add_subcommand("levels", "List every known level with its documentation");
  l->add_option("--spec", levels.specs, "Also load levels from a Lua spec file (repeatable)");
  l->add_flag("--json", levels.json, "Print as JSON");
  return l;
}

// `isosynth show`: its options, into `show`.
CLI::App* add_show(CLI::App& app, ShowArgs& show) {
  auto* s = app.add_subcommand("show", "Print a history in the papers' notation, or convert it to native JSON");
  s->add_option("file", show.file, "History file or folder, in any format check reads ('-': standard input)")
      ->required();
  add_input_options(s, show.input);
  s->add_flag("--json", show.json, "Print the history in the native JSON format");
  s->add_option("--timeout", show.timeout,
                "Give up after this many seconds, reading included: a named pipe nobody writes to "
                "(exit code 3)")
      ->check(kPositiveSeconds);
  s->footer(
      "Examples:\n"
      "  isosynth show examples/histories/long-fork.json\n"
      "  isosynth show run.edn --json > run.json      # any format to native JSON\n"
      "Exit code: 0 shown, 2 usage or input error, 3 time limit.");
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "isosynth: reason about database isolation levels.\n"
      "Levels are Lua predicates over abstract executions (specs/*.lua, or your own with --spec)."};
  app.require_subcommand(1);
  app.fallthrough();  // --max-memory after the subcommand too
  std::uint64_t max_memory = default_memory_limit();
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

  SynthArgs synth;
  CLI::App* sy = add_synth(app, synth);
  CompareArgs compare;
  CLI::App* co = add_compare(app, compare);
  AnomaliesArgs anomalies;
  CLI::App* an = add_anomalies(app, anomalies);
  HierarchyArgs hier;
  CLI::App* hi = add_hierarchy(app, hier);
  CheckArgs check;
  CLI::App* c = add_check(app, check);
  PredictArgs predict;
  CLI::App* pr = add_predict(app, predict);
  LevelsArgs levels;
  CLI::App* l = add_levels(app, levels);
  ShowArgs show;
  CLI::App* s = add_show(app, show);
  RunArgs run;
  CLI::App* ru = add_run(app, run);
  RecordArgs record;
  CLI::App* rec = add_record(app, record);

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

  // --timeout bounds the whole run: reading, deciding, synthesizing,
  // minimizing, explaining (engine/util/budget.hpp).
  const double timeout = *sy ? synth.search.timeout
                         : *co ? compare.search.timeout
                         : *hi ? hier.search.timeout
                         : *an ? anomalies.timeout
                         : *c  ? check.timeout
                         : *pr ? predict.timeout
                         : *s  ? show.timeout
                         : *ru ? run.timeout
                         : *rec ? record.timeout
                               : 0;
  record.check = rec->count("--check") > 0;  // --check alone: check's default set
  iso::budget::ScopedDeadline deadline(timeout);
  predict.fewest_for = std::min(predict.fewest_for, iso::budget::kMaxSeconds);  // as --timeout saturates
  arm_memory_limit(max_memory);
  try {
    const int code = *sy ? run_synth(synth)
                     : *co ? run_compare(compare)
                     : *hi ? run_hierarchy(hier)
                     : *an ? run_anomalies(anomalies)
                     : *c  ? run_check(check)
                     : *pr ? run_predict(predict)
                     : *l  ? run_levels(levels)
                     : *s  ? run_show(show)
                     : *ru ? run_run(run)
                     : *rec ? run_record(record)
                           : kExitError;
    // Output that did not reach its file (a full disk, a closed pipe) is a
    // failed run, whatever the verdict: the buffered rest is written now.
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
  return kExitError;
}
