// isosynth synth and isosynth compare: find a history allowed by some levels
// and violating others, or show that none exists within the scope.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cegis/synthesizer.hpp"
#include "cli/classify.hpp"
#include "cli/commands.hpp"
#include "cli/dot.hpp"
#include "cli/evaluations.hpp"
#include "cli/render.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "engine/util/thread_pool.hpp"
#include "cli/proof_report.hpp"

namespace iso::cli {

namespace {

std::string names(const std::vector<const lua::Level*>& ls) {
  std::string s;
  for (std::size_t i = 0; i < ls.size(); ++i) s += (i ? ", " : "") + ls[i]->name;
  return s;
}

std::vector<const lua::Level*> resolve(const lua::SpecLibrary& lib, const std::vector<std::string>& ns) {
  std::vector<const lua::Level*> out;
  for (const auto& n : ns) out.push_back(&lib.level(n));
  return out;
}

cegis::SynthOptions synth_options(double timeout) {
  cegis::SynthOptions o;
  o.timeout_seconds = timeout;
  const bool tty = isatty(fileno(stderr));
  o.on_progress = [tty](const cegis::Progress& p) {
    fmt::print(stderr, "{}synth: {}, {} gates, {} candidates, {} lemmas, {:.1f} s{}", tty ? "\r" : "", p.phase,
               p.gates, p.candidates, p.lemmas, p.elapsed_seconds, tty ? "   " : "\n");
    std::fflush(stderr);
  };
  return o;
}

void end_progress_line(const cegis::SynthResult& r) {
  if (isatty(fileno(stderr)) && r.stats.total_seconds >= 1.0) fmt::print(stderr, "\n");
}

void print_stats(const std::string& what, const cegis::SynthStats& s) {
  fmt::print(stderr,
             "{}: {} candidates, {} lemmas, {} gates, {} SAT variables, {} clauses, {} conflicts; "
             "translate {:.3f} s, candidate search {:.3f} s, oracle {:.3f} s, total {:.3f} s; "
             "transactions numbered along {}{}\n",
             what, s.candidates, s.lemmas, s.gates, s.sat_vars, s.sat_clauses, s.conflicts, s.translate_seconds,
             s.solve_seconds, s.oracle_seconds, s.total_seconds, s.index_ordered ? "so and wr" : "so",
             s.implied_facts > 0 ? fmt::format("; {} implied facts added ({:.3f} s)", s.implied_facts, s.facts_seconds)
                                 : std::string());
}

// Is `l` one of the catalogue's anomalies? (As a deny level it means "the
// history exhibits it": synth --exhibit.)
bool is_anomaly(const lua::SpecLibrary& lib, const lua::Level* l) { return lib.is_anomaly(l); }

// Why each deny level that is not an anomaly rejects a solution (decided
// once more on it), and what the catalogue (specs/anomalies.lua) calls it.
struct Explanation {
  std::vector<std::pair<const lua::Level*, Decision>> denied;
  std::vector<const lua::Level*> exhibits;  // cli/classify.hpp
  std::string cycle;                        // the first denying level's cycle, when the catalogue names nothing
};

Explanation explain(const lua::SpecLibrary& lib, const cegis::Problem& p, const History& h, std::size_t jobs) {
  Explanation e;
  for (const auto* level : p.deny)
    if (!is_anomaly(lib, level)) e.denied.emplace_back(level, decide(h, *level));
  e.exhibits = classify(lib, h, jobs);
  for (const auto& [level, d] : e.denied)
    if (d.anomaly && !d.anomaly->cycle.empty() && e.cycle.empty()) e.cycle = d.anomaly->name;
  return e;
}

nlohmann::json solution_json(const cegis::Problem& p, const cegis::SynthResult& r, const Explanation& e) {
  nlohmann::json j = write_native_json(*r.history);
  nlohmann::json ws = nlohmann::json::object();
  for (std::size_t i = 0; i < p.allow.size(); ++i) ws[p.allow[i]->name] = witness_json(*r.history, r.allow_witnesses[i]);
  j["witnesses"] = ws;
  j["scope"] = p.scope.text();
  nlohmann::json allow = nlohmann::json::array(), deny = nlohmann::json::array();
  for (const auto* l : p.allow) allow.push_back(l->name);
  for (const auto* l : p.deny) deny.push_back(l->name);
  j["allow"] = allow;
  j["deny"] = deny;
  nlohmann::json why = nlohmann::json::array();
  for (const auto& [level, d] : e.denied) why.push_back(decision_json(*r.history, *level, d, false));
  j["denied"] = why;
  j["exhibits"] = exhibits_json(e.exhibits);
  return j;
}

std::string solution_text(const cegis::Problem& p, const cegis::SynthResult& r, const Explanation& e) {
  const History& h = *r.history;
  std::string s = format_history(h) + "\n";
  // What the catalogue (specs/anomalies.lua) calls it.
  s += escape_text(exhibits_line(e.exhibits, e.cycle)) + "\n\n";
  for (std::size_t i = 0; i < p.allow.size(); ++i) {
    Decision d;
    d.verdict = Verdict::Allowed;
    d.witness = r.allow_witnesses[i];
    d.sessions_ignored = decided_without_sessions(h, *p.allow[i], SessionMode::Auto);
    s += decision_text(h, *p.allow[i], d, true);
  }
  for (const auto& [level, d] : e.denied) s += decision_text(h, *level, d, false);
  for (const auto& note : r.notes) s += fmt::format("note: {}\n", note);
  return s;
}

// Resolves the scope and the levels (a bad scope is reported before an
// unknown level).
cegis::Problem make_problem(const lua::SpecLibrary& lib, const std::vector<std::string>& allow,
                            const std::vector<std::string>& deny, const SearchArgs& a) {
  cegis::Problem p;
  p.scope = cegis::parse_scope(a.scope);
  p.allow = resolve(lib, allow);
  p.deny = resolve(lib, deny);
  p.space.blind_writes = !a.no_blind_writes;
  p.space.sessions = !a.no_sessions;
  p.space.duplicates = a.duplicates;
  p.space.dirty_reads = a.dirty_reads;
  p.space.lists = a.lists;
  return p;
}

// --dot and --svg: the picture of a solution.
void write_pictures(const SynthArgs& a, const cegis::Problem& p, const cegis::SynthResult& r, const Explanation& why,
                    const std::string& what) {
  if (a.dot.empty() && a.svg.empty()) return;
  std::vector<LabelledWitness> ws;
  for (std::size_t i = 0; i < p.allow.size(); ++i) ws.push_back({p.allow[i]->name, &r.allow_witnesses[i]});
  std::vector<Denial> ds;
  for (const auto& [level, d] : why.denied) ds.push_back({level->name, &d});
  const std::string picture = history_dot(*r.history, ws, ds, fmt::format("a history {}: {}", what, history_name(why.exhibits, why.cycle)));
  if (!a.dot.empty()) write_text_file(a.dot, picture);
  if (!a.svg.empty()) write_svg(a.svg, picture);
}

// --eval on a solution: on its history and its allow levels' witnesses.
std::vector<EvalLine> solution_evals(const Evaluations& ev, const cegis::Problem& p, const cegis::SynthResult& r) {
  std::vector<LevelWitness> lw;
  for (std::size_t i = 0; i < p.allow.size(); ++i) lw.push_back({p.allow[i], &r.allow_witnesses[i], ""});
  return ev.evaluate(*r.history, lw);
}

// "allowed by {..} and violating {..}[ that exhibits ..]": what synth looks for.
std::string synth_what(const lua::SpecLibrary& lib, const cegis::Problem& p, const std::vector<std::string>& exhibit) {
  std::vector<const lua::Level*> levels_denied;
  for (const auto* l : p.deny)
    if (!is_anomaly(lib, l)) levels_denied.push_back(l);
  std::string what = fmt::format("allowed by {{{}}} and violating {{{}}}", names(p.allow), names(levels_denied));
  if (!exhibit.empty()) what += fmt::format(" that exhibits {}", fmt::join(exhibit, " and "));
  return what;
}

// synth --count N, N > 1: histories one after another, each search
// excluding the histories before it up to renaming (cegis::Problem::excluded),
// each minimized as a single one is. Fewer than N when the scope has no
// other (the search says none: exactly that many exist) or time runs out.
struct Found {
  std::vector<cegis::SynthResult> results;
  cegis::Outcome last = cegis::Outcome::Found;  // None: no other exists; Timeout
};

Found synthesize_many(cegis::Problem p, std::size_t count, bool minimize, const cegis::SynthOptions& opt) {
  Found f;
  while (f.results.size() < count) {
    cegis::SynthResult r = cegis::synthesize(p, opt);
    if (minimize && r.outcome == cegis::Outcome::Found) r = cegis::minimize(p, std::move(r), opt);
    f.last = r.outcome;
    if (r.outcome != cegis::Outcome::Found) break;
    p.excluded.push_back(*r.history);
    f.results.push_back(std::move(r));
  }
  return f;
}

int print_many(const lua::SpecLibrary& lib, const cegis::Problem& p, const SynthArgs& a, const Found& f,
               const std::string& what, const Evaluations& ev) {
  const std::size_t k = f.results.size();
  if (k > 0) write_pictures(a, p, f.results[0], explain(lib, p, *f.results[0].history, a.jobs), what);
  const char* outcome = k > 0 ? "found" : f.last == cegis::Outcome::Timeout ? "timeout" : "none";
  if (a.search.json) {
    nlohmann::json hs = nlohmann::json::array();
    for (const auto& r : f.results) {
      hs.push_back(solution_json(p, r, explain(lib, p, *r.history, a.jobs)));
      if (!ev.empty()) hs.back()["eval"] = eval_json(solution_evals(ev, p, r));
    }
    fmt::print("{}\n", dump_json(nlohmann::json{{"outcome", outcome},
                                                 {"scope", p.scope.text()},
                                                 {"requested", a.count},
                                                 {"exhausted", f.last == cegis::Outcome::None},
                                                 {"histories", hs}}));
  } else {
    std::string tail;
    if (f.last == cegis::Outcome::None)
      tail = fmt::format("; {} asked for, and no other exists within the scope", a.count);
    if (f.last == cegis::Outcome::Timeout) tail = fmt::format("; {} asked for, and time ran out", a.count);
    fmt::print("{}: {} histor{} {} (scope {}), different up to renaming{}\n", outcome, k, k == 1 ? "y" : "ies",
               what, p.scope.text(), tail);
    fmt::print("{}\n", notation_legend());
    for (std::size_t i = 0; i < k; ++i)
      fmt::print("\nhistory {} of {}:\n{}{}", i + 1, k,
                 solution_text(p, f.results[i], explain(lib, p, *f.results[i].history, a.jobs)),
                 eval_text(solution_evals(ev, p, f.results[i])));
  }
  if (k > 0) return kExitOk;
  return f.last == cegis::Outcome::Timeout ? kExitTimeout : kExitNo;
}


}  // namespace

int run_synth(const SynthArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  // Only the spec files the named levels need (the catalogue, for naming a
  // solution, loads the rest).
  lua::SpecLibrary lib(lua::Limits{}, lua::SpecLibrary::OnDemand{});
  for (const auto& spec : a.search.specs) lib.load_file(spec);
  cegis::Problem p = make_problem(lib, a.allow, a.deny, a.search);
  // An anomaly to exhibit is a deny level (specs/anomalies.lua: its level
  // forbids its pattern), after the levels: the first deny level stays the
  // one the search breaks symmetry by.
  std::vector<std::string> exhibit;
  for (const auto& n : a.exhibit) {
    const lua::Level& an = lib.anomaly(n);
    p.deny.push_back(&an);
    exhibit.push_back(anomaly_display_name(an));
  }
  if (p.allow.empty() && p.deny.empty())
    throw std::invalid_argument("nothing to synthesize: give at least one --allow, --deny or --exhibit");
  if (a.prove.prove && (p.allow.size() != 1 || p.deny.size() != 1 || a.count > 1))
    throw std::invalid_argument(
        "--prove proves that one level implies another: give one --allow, one --deny, no --exhibit and no --count");
  const Evaluations ev(lib, a.eval, p.allow);  // a malformed expression before any search
  cegis::SynthOptions opt = synth_options(a.search.timeout);
  if (a.count > 1) {
    const Found f = synthesize_many(p, a.count, a.search.minimize, opt);
    if (!f.results.empty()) end_progress_line(f.results.back());
    if (a.stats)
      for (const auto& r : f.results) print_stats("synth", r.stats);
    return print_many(lib, p, a, f, synth_what(lib, p, exhibit), ev);
  }
  cegis::SynthResult r = cegis::synthesize(p, opt);
  if (a.search.minimize && r.outcome == cegis::Outcome::Found) r = cegis::minimize(p, std::move(r), opt);
  end_progress_line(r);
  if (a.stats) print_stats("synth", r.stats);

  const std::string what = synth_what(lib, p, exhibit);
  if (r.outcome == cegis::Outcome::Timeout) {
    if (a.search.json) {
      fmt::print("{}\n", dump_json(nlohmann::json{{"outcome", "timeout"}, {"scope", p.scope.text()}}));
    } else {
      fmt::print("timeout: no history {} found in {:.1f} s (scope {})\n", what, r.stats.total_seconds, p.scope.text());
    }
    return kExitTimeout;
  }
  if (r.outcome == cegis::Outcome::None) {
    // --prove: that the allowed level implies the denied one at every size.
    std::vector<prove::ImplicationProof> proofs;
    if (a.prove.prove) proofs = prove_each({{p.allow[0], p.deny[0]}}, a.prove, a.search, start);
    if (a.search.json) {
      nlohmann::json j{{"outcome", "none"}, {"scope", p.scope.text()}};
      if (!r.notes.empty()) j["notes"] = r.notes;
      if (a.prove.prove) j["proofs"] = proofs_json(proofs);
      fmt::print("{}\n", dump_json(j));
    } else {
      fmt::print("none: no history {} exists within scope {} (transactions, objects, values{})\n", what,
                 p.scope.text(), p.scope.ops > 0 ? ", operations per transaction" : "");
      for (const auto& note : r.notes) fmt::print("note: {}\n", note);
      for (const auto& pr : proofs) fmt::print("{}", proof_text(pr));
    }
    return any_out_of_time(proofs) ? kExitTimeout : kExitNo;
  }
  const Explanation why = explain(lib, p, *r.history, a.jobs);
  write_pictures(a, p, r, why, what);
  if (a.search.json) {
    nlohmann::json j = solution_json(p, r, why);
    if (!ev.empty()) j["eval"] = eval_json(solution_evals(ev, p, r));
    fmt::print("{}\n", dump_json(j));
  } else {
    fmt::print("found: a history {} (scope {})\n{}\n\n{}{}", what, p.scope.text(), notation_legend(),
               solution_text(p, r, why), eval_text(solution_evals(ev, p, r)));
  }
  return kExitOk;
}

int run_compare(const CompareArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  lua::SpecLibrary lib(lua::Limits{}, lua::SpecLibrary::OnDemand{});
  for (const auto& spec : a.search.specs) lib.load_file(spec);
  cegis::Problem ab = make_problem(lib, {a.a}, {a.b}, a.search);
  cegis::Problem ba = make_problem(lib, {a.b}, {a.a}, a.search);
  const std::string A = ab.allow[0]->name, B = ba.allow[0]->name;
  cegis::SynthOptions opt = synth_options(a.search.timeout);
  // The two directions are independent searches: at once with --jobs 2 or more.
  cegis::SynthResult r1, r2;
  for_each_ordered(2, a.jobs, [&](std::size_t k) {
    const cegis::Problem& p = k == 0 ? ab : ba;
    cegis::SynthResult& r = k == 0 ? r1 : r2;
    r = cegis::synthesize(p, opt);
    if (a.search.minimize) r = cegis::minimize(p, std::move(r), opt);
  });
  end_progress_line(r2);
  const bool timeout = r1.outcome == cegis::Outcome::Timeout || r2.outcome == cegis::Outcome::Timeout;
  const bool a_not_b = r1.outcome == cegis::Outcome::Found, b_not_a = r2.outcome == cegis::Outcome::Found;
  std::string verdict = timeout                ? "unknown"
                        : a_not_b && b_not_a   ? "incomparable"
                        : a_not_b              ? "weaker"
                        : b_not_a              ? "stronger"
                                               : "equivalent";
  // --prove: each implication no history within the scope refutes.
  std::vector<prove::ImplicationProof> proofs;
  if (a.prove.prove && !timeout) {
    std::vector<std::pair<const Level*, const Level*>> claims;
    if (!a_not_b) claims.emplace_back(ab.allow[0], ba.allow[0]);
    if (!b_not_a) claims.emplace_back(ba.allow[0], ab.allow[0]);
    proofs = prove_each(claims, a.prove, a.search, start);
  }
  const int code = timeout || any_out_of_time(proofs) ? kExitTimeout : kExitOk;
  if (a.search.json) {
    nlohmann::json j{{"a", A}, {"b", B}, {"scope", ab.scope.text()}, {"verdict", verdict}};
    j["a_not_b"] = a_not_b ? solution_json(ab, r1, explain(lib, ab, *r1.history, a.jobs)) : nlohmann::json(nullptr);
    j["b_not_a"] = b_not_a ? solution_json(ba, r2, explain(lib, ba, *r2.history, a.jobs)) : nlohmann::json(nullptr);
    if (a.prove.prove) j["proofs"] = proofs_json(proofs);
    fmt::print("{}\n", dump_json(j));
    return code;
  }
  const std::map<std::string, std::string> meaning = {
      {"equivalent", fmt::format("{} and {} allow the same histories", A, B)},
      {"stronger", fmt::format("{} allows strictly fewer histories than {}", A, B)},
      {"weaker", fmt::format("{} allows strictly more histories than {}", A, B)},
      {"incomparable", fmt::format("each of {} and {} allows a history the other denies", A, B)},
      {"unknown", "a search ran out of time"}};
  fmt::print("{}: {} within scope {}\n", verdict, meaning.at(verdict), ab.scope.text());
  for (const auto& p : proofs) fmt::print("{}", proof_text(p));
  if (a_not_b || b_not_a) fmt::print("{}\n", notation_legend());
  if (a_not_b)
    fmt::print("\nallowed by {}, violating {}:\n{}", A, B,
               solution_text(ab, r1, explain(lib, ab, *r1.history, a.jobs)));
  if (b_not_a)
    fmt::print("\nallowed by {}, violating {}:\n{}", B, A,
               solution_text(ba, r2, explain(lib, ba, *r2.history, a.jobs)));
  return code;
}

}  // namespace iso::cli
