// The subcommands of subcommands.hpp: each one's options, help text and
// examples, and what runs it (cli/commands.hpp); the options several share
// are cli/option_groups.hpp's.
#include "cli/subcommands.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/evaluations.hpp"
#include "cli/option_groups.hpp"
#include "engine/util/budget.hpp"

namespace iso::cli {

namespace {

// What each subcommand's --help says before its options (its description,
// also in isosynth --help) and after them (examples, what its answers mean,
// its exit codes).
struct HelpText {
  std::string_view name;
  const char* description;
  const char* footer = "";  // empty: the application's footer
};

constexpr HelpText kHelp[] = {
    {"synth",
     "Synthesize a history allowed by some levels and violating others",
     "Examples:\n"
     "  isosynth synth --allow SI --deny SER --scope 4,3,3\n"
     "  isosynth synth --allow SI --allow UpdateSer --deny SER --scope 3,2,2   # Fekete's anomaly\n"
     "  isosynth synth --allow plume.TapRA --deny RA\n"
     "  isosynth synth --allow cerone.NLU --deny cerone.UA --scope 3,2,4 --json > h.json\n"
     "  isosynth synth --allow biswas.RC --deny biswas.RA --scope 3,2,2,2   # 2 operations per transaction\n"
     "  isosynth synth --allow adya.PL-2 --deny adya.PL-2.99\n"
     "  isosynth synth --allow SI --deny SER --scope 20,5,5 --no-minimize   # the first history found\n"
     "  isosynth synth --allow SI --deny SER --exhibit ReadOnlyAnomaly   # not the smallest: Fekete's\n"
     "  isosynth synth --allow SI --deny SER --count 3   # three histories, different up to renaming\n"
     "  isosynth synth --allow cerone.SI --deny SER --eval e.vis --eval 'h.wr .. h.so'   # Alloy's evaluator\n"
     "  isosynth synth --allow SER --deny SI --prove     # none within the scope, and proved at every size\n"
     "Exit code: 0 found, 1 none within the scope (proved or not), 2 usage or input error, 3 timeout."},
    {"compare",
     "Compare two levels within a scope: equivalent, stronger, weaker or incomparable",
     "Examples:\n"
     "  isosynth compare RA plume.TapRA --scope 4,3,3     # stronger: TapRA misses a pattern\n"
     "  isosynth compare SI cerone.SI                     # equivalent within 4,3,3\n"
     "  isosynth compare SI cerone.SI --prove             # and proved for every history size (cvc5, z3)\n"
     "  isosynth compare adya.SER SER --no-sessions --prove --proof out/   # keep the provers' scripts\n"
     "'stronger' means A allows strictly fewer histories than B within the scope; --prove tries to\n"
     "prove each implication the scope does not refute for every size (docs/proofs.md)."},
    {"anomalies",
     "The catalogue of named anomalies: the smallest example of each, "
     "synthesized, and the table of levels allowing or forbidding it",
     "Examples:\n"
     "  isosynth anomalies\n"
     "  isosynth anomalies --db sqlite:   # run every example on SQLite: Hermitage's table\n"
     "  isosynth anomalies --db 'postgresql:///isosynth?host=/tmp/pg' -l adya.PL-2 -l SI -l SER --html out/\n"
     "  isosynth anomalies -l adya.PL-2 -l adya.PL-2.99 -l SI -l SER\n"
     "  isosynth anomalies -l RC -l RA -l CC -l PC -l SI -l SER --html out/   # a page for a lecture\n"
     "  isosynth anomalies --dot pictures/   # pictures/G0.dot, pictures/StaleRead.dot, ...\n"
     "An anomaly is exhibited by a history when every execution has its pattern (specs/anomalies.lua).\n"
     "Exit code: 0 every example and cell found, 2 usage or input error, 3 time limit (some ?)."},
    {"hierarchy",
     "Place levels in a hierarchy within a scope: every ordered pair decided, "
     "equivalence classes, Hasse diagram, a minimal separating history each",
     "Examples:\n"
     "  isosynth hierarchy biswas.RA biswas.CC biswas.PC biswas.SI biswas.SER --scope 4,2,2\n"
     "  isosynth hierarchy RC SI SER --scope 4,2,3 --db 'postgresql:///isosynth?host=/tmp/pg' --db-level "
     "repeatable-read   # where the product level sits\n"
     "  isosynth hierarchy biswas.SI cerone.SI cerone.PSI cerone.UA --scope 3,2,2 --svg h.svg\n"
     "  isosynth hierarchy RA CC PC SI SER --scope 4,2,3 --html out/   # a page to open in a browser\n"
     "  isosynth hierarchy SER SI cerone.SI PC --scope 3,2,2 --prove   # each cover and class proved or bounded\n"
     "A => B: every history A allows within the scope, B allows (A is at least as strong).\n"
     "Exit code: 0 every pair decided, 2 usage or input error, 3 time limit (some pairs undecided)."},
    {"check",
     "Decide whether a history is allowed by isolation levels",
     "Examples:\n"
     "  isosynth check examples/histories/write-skew.json --level SER\n"
     "  isosynth check examples/histories/fekete-read-only.json -l SI -l UpdateSer -l SER\n"
     "  isosynth check h.json --spec my-levels.lua --level my.UpdateSer --json\n"
     "  isosynth check ../shared/data/histories/dbcop/dgraph-si-violation -l SER -l SI\n"
     "  isosynth check run.edn --level SER --witness --stats --dot cycle.dot\n"
     "  isosynth check run.edn -l all --json   # every level, each with its verdict or why not\n"
     "  isosynth check run.edn -l SER --all --limit 3   # every anomaly class, 3 instances each\n"
     "  isosynth check run.edn -l SER --all --svg pictures/   # one picture per instance\n"
     "  isosynth check examples/histories/write-skew.json -l SI --eval e.co --eval 'h.wr .. h.so'\n"
     "A level that cannot be decided on this history (cerone.TimestampSI without the database's\n"
     "timestamps, a level of the generic oracle above 48 transactions) is not-applicable, with its\n"
     "reason, and every other level still gets its verdict.\n"
     "Exit code, from the levels decided: 1 when one is violated, else 3 when --timeout left one\n"
     "unknown, else 0 (every decided level allows the history); 2 for a usage or input error, or\n"
     "when no level can be decided on the history (one line: why)."},
    {"predict",
     "From an observed run, predict a run a weak level allows and serializability "
     "forbids, reads taking other writers (IsoPredict)",
     "Examples:\n"
     "  isosynth predict trace.txt --under CC\n"
     "  isosynth predict run.json --under RC --validate --db 'mysql://root@localhost/isosynth?socket=/tmp/m.sock' "
     "--db-level read-committed\n"
     "  isosynth predict trace.txt --under CC --dot predicted.dot\n"
     "  isosynth predict trace.txt --under RC --mode relaxed --json\n"
     "  isosynth predict trace.txt --under CC --limit 10   # every way it could go wrong, up to 10\n"
     "Exit code: 0 a prediction was found, 1 none exists, 2 usage or input error, 3 time limit. The\n"
     "observed run need not be allowed by the level (IsoPredict asks nothing of it): when it is not, the\n"
     "output says so first (JSON: \"observed\"), and the exit code is still the prediction's."},
    {"run",
     "Run a history on a real database by a schedule that should produce its reads, "
     "record what happened, and say whether the database exhibited its anomaly",
     "Examples:\n"
     "  isosynth run examples/histories/write-skew.json --db sqlite:\n"
     "  isosynth run examples/histories/write-skew.json --db 'postgresql:///isosynth?host=/tmp/pg' "
     "--db-level repeatable-read\n"
     "  isosynth synth --allow SI --deny SER --json > ws.json; isosynth run ws.json --db \"$URL\" --json\n"
     "Each level's verdict: exhibited (a recorded run exhibits the anomaly), prevented by abort (the database\n"
     "aborted a transaction), prevented by blocking (a statement waited on a lock), diverged (other values),\n"
     "or no schedule (no interleaving of the statements returns the history's reads).\n"
     "Exit code: 0 exhibited at every level run, 1 otherwise, 2 usage, input or database error, 3 time limit."},
    {"record",
     "Run random transactions concurrently on a database and record what it "
     "returned as a history, optionally checking it",
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
     "input or database error, 3 time limit."},
    {"show",
     "Print a history in the papers' notation, or convert it to native JSON",
     "Examples:\n"
     "  isosynth show examples/histories/long-fork.json\n"
     "  isosynth show run.edn --json > run.json      # any format to native JSON\n"
     "  isosynth show examples/histories/long-fork.json --eval h.wrx --eval 'some(h.wr & ~h.so)'\n"
     "Exit code: 0 shown, 2 usage or input error, 3 time limit."},
    {"levels",
     "List every known level with its documentation"},
};

const HelpText& help_of(std::string_view subcommand) {
  return *std::find_if(std::begin(kHelp), std::end(kHelp), [&](const HelpText& h) { return h.name == subcommand; });
}

// `isosynth synth`: its options, into `synth`.
void declare_synth(CLI::App* sy, SynthArgs& synth) {
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
  sy->add_option("--count", synth.count,
                 "Find up to this many histories, different up to renaming of transactions, sessions, keys "
                 "and values, smallest first; fewer when no other exists within the scope (said so)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}))
      ->capture_default_str();
  add_eval_option(sy, synth.eval, "each history found and each --allow level's witness (e: its vis, ar, co or ww)");
  add_prove_options(sy, synth.prove);
  add_jobs_option(sy, synth.jobs, "of the catalogue's anomalies, deciding which a history found exhibits,");
}

// `isosynth anomalies`: its options, into `anomalies`.
void declare_anomalies(CLI::App* an, AnomaliesArgs& anomalies) {
  an->add_option("--level,-l", anomalies.levels, "A level for the table (repeatable; default: every level)");
  an->add_option("--scope", anomalies.scope, "T,O,V[,P]: the scope the examples are searched in")
      ->capture_default_str();
  an->add_option("--spec", anomalies.specs, "Load levels or anomalies from a Lua spec file (repeatable)");
  an->add_flag("--json", anomalies.json, "Print each anomaly with its example and its verdict per level as JSON");
  an->add_option("--html", anomalies.html,
                 "Write a self-contained page to this folder (index.html): the table, each anomaly with its "
                 "example and picture; no script, no network");
  an->add_option("--dot", anomalies.dot,
                 "Write each anomaly's picture to this folder as NAME.dot (Graphviz): its example with the "
                 "anomaly's own pattern in red, e.g. --dot out/ writes out/LongFork.dot");
  an->add_option("--timeout", anomalies.timeout,
                 "Give up after this many seconds in all (exit code 3; the anomalies not synthesized "
                 "by then, and the cells not decided, are shown as ?)")
      ->check(kPositiveSeconds);
  add_jobs_option(an, anomalies.jobs, "anomalies' examples");
  add_db_options_no_default(an, anomalies.db);  // no --db: the formal table only
}

// `isosynth hierarchy`: its options, into `hier`.
void declare_hierarchy(CLI::App* hi, HierarchyArgs& hier) {
  hi->add_option("levels", hier.levels, "Levels (at least two)")->required();
  add_search_options(hi, hier.search, "Print levels, classes, Hasse diagram and every pair as JSON");
  hi->add_option("--dot", hier.dot, "Write the Hasse diagram as a Graphviz picture to this file");
  hi->add_option("--svg", hier.svg, "Write the Hasse diagram as SVG (needs Graphviz's dot program)");
  hi->add_option("--html", hier.html,
                 "Write a self-contained page to this folder (index.html): the diagram, the table of every "
                 "pair, each separating history with its picture; no script, no network");
  add_jobs_option(hi, hier.jobs, "searches (pairs of levels)");
  add_db_options_no_default(hi, hier.db);  // no --db: the formal hierarchy only
  add_prove_options(hi, hier.prove);
}

// `isosynth check`: its options, into `check`.
void declare_check(CLI::App* c, CheckArgs& check) {
  add_history_input(c, check.file, check.input,
                    "History file or folder (format detected; see --format)");
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
  c->add_option("--dot", check.dot, "Write a Graphviz picture of the first violation: its cycle, or the history with the reason in red; with --all a folder, one picture per instance (LEVEL-CLASS-N.dot)");
  c->add_option("--svg", check.svg, "Write that picture as SVG (needs Graphviz's dot program); with --all a folder, as --dot");
  auto* all = c->add_flag("--all", check.all,
                          "For each level a graph checker finds violated: every anomaly class "
                          "found (read anomalies, and the classes of the cycles of certain edges, "
                          "as Elle names them), with its count and instances, each cycle explained "
                          "edge by edge");
  c->add_option("--limit", check.limit, "With --all: at most this many instances per class (default 10)")
      ->check(CLI::PositiveNumber)
      ->needs(all);
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
  add_eval_option(c, check.eval,
                  "the history and the witness of each level that allows it (e: its vis, ar, co or ww)");
  c->add_flag("--json", check.json, "Print the verdicts and witnesses as JSON");
  c->add_flag("--stats", check.stats,
              "Print time per phase (parse, construct, prune, encode, solve) and sizes on stderr; "
              "after a timeout, the phases that completed and the sizes measured");
  c->add_option("--timeout", check.timeout,
                "Give up after this many seconds in all (exit code 3; levels not decided by "
                "then are unknown)")
      ->check(kPositiveSeconds);
  add_jobs_option(c, check.jobs, "levels, and then of the catalogue's anomalies naming a violating history,");
}

// `isosynth predict`: its options, into `predict`.
void declare_predict(CLI::App* pr, PredictArgs& predict) {
  add_history_input(pr, predict.file, predict.input,
                    "The observed run, in any format check reads (IsoPredict traces too)");
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
  add_db_options(pr, predict.db);
  pr->callback([&predict] {  // as --timeout saturates
    predict.fewest_for = std::min(predict.fewest_for, iso::budget::kMaxSeconds);
  });
}

// `isosynth run`: its options, into `run`.
void declare_run(CLI::App* r, RunArgs& run) {
  add_history_input(r, run.file, run.input,
                    "The history, in any format check reads (synth --json's output, a catalogue "
                    "example, a prediction, ...)");
  add_db_options(r, run);
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
}

// `isosynth record`: its options, into `record`.
void declare_record(CLI::App* r, RecordArgs& record) {
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
  r->callback([&record, r] { record.check = r->count("--check") > 0; });  // --check alone: check's default set
  r->add_flag("--json", record.json, "Print the summary (and the check's verdicts) as JSON");
  r->add_option("--timeout", record.timeout, "Give up after this many seconds in all, recording and checking (exit code 3; a "
                "recording cut short writes no history)")
      ->check(kPositiveSeconds);
}

// `isosynth levels`: its options, into `levels`.
void declare_levels(CLI::App* l, LevelsArgs& levels) {
  l->add_option("--spec", levels.specs, "Also load levels from a Lua spec file (repeatable)");
  l->add_flag("--json", levels.json, "Print as JSON");
}

// `isosynth compare`: its options, into `compare`.
void declare_compare(CLI::App* co, CompareArgs& compare) {
  co->add_option("a", compare.a, "First level")->required();
  co->add_option("b", compare.b, "Second level")->required();
  add_search_options(co, compare.search, "Print {verdict, a_not_b, b_not_a} as JSON");
  add_jobs_option(co, compare.jobs, "searches (the two directions), and then of the catalogue's anomalies naming each history found,");
  add_prove_options(co, compare.prove);
}

// `isosynth show`: its options, into `show`.
void declare_show(CLI::App* s, ShowArgs& show) {
  add_history_input(s, show.file, show.input,
                    "History file or folder, in any format check reads ('-': standard input)");
  s->add_flag("--json", show.json, "Print the history in the native JSON format");
  add_eval_option(s, show.eval, "the history (h: its relations)");
  s->add_option("--timeout", show.timeout,
                "Give up after this many seconds, reading included: a named pipe nobody writes to "
                "(exit code 3)")
      ->check(kPositiveSeconds);
}

// A subcommand named `name` on `app`, with its help text, its options
// declared by `declare` into arguments of its own, run by `run`, its --timeout read by `timeout`.
template <class Args, class Timeout>
Subcommand subcommand(CLI::App& app, const char* name, void (*declare)(CLI::App*, Args&),
                      int (*run)(const Args&), Timeout timeout) {
  auto args = std::make_shared<Args>();
  const HelpText& help = help_of(name);
  CLI::App* cmd = app.add_subcommand(name, help.description);
  if (*help.footer) cmd->footer(help.footer);  // else the application's, as CLI11 gives it
  declare(cmd, *args);
  return {cmd, [args, run] { return run(*args); }, [args, timeout] { return timeout(*args); }};
}

// Where each subcommand's --timeout is: in its search options, its own, none.
constexpr auto search_timeout = [](const auto& a) { return a.search.timeout; };
constexpr auto own_timeout = [](const auto& a) { return a.timeout; };
constexpr auto no_timeout = [](const auto&) { return 0.0; };

}  // namespace

std::vector<Subcommand> declare_subcommands(CLI::App& app) {
  return {
      subcommand(app, "synth", declare_synth, run_synth, search_timeout),
      subcommand(app, "compare", declare_compare, run_compare, search_timeout),
      subcommand(app, "anomalies", declare_anomalies, run_anomalies, own_timeout),
      subcommand(app, "hierarchy", declare_hierarchy, run_hierarchy, search_timeout),
      subcommand(app, "check", declare_check, run_check, own_timeout),
      subcommand(app, "predict", declare_predict, run_predict, own_timeout),
      subcommand(app, "levels", declare_levels, run_levels, no_timeout),
      subcommand(app, "show", declare_show, run_show, own_timeout),
      subcommand(app, "run", declare_run, run_run, own_timeout),
      subcommand(app, "record", declare_record, run_record, own_timeout),
  };
}

}  // namespace iso::cli
