// The claim of implication.hpp, built once per witness map and sent to the
// provers in turn.
#include "prove/implication.hpp"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/decide/decide.hpp"
#include "engine/model/schema.hpp"
#include "prove/countermodel.hpp"
#include "prove/history_facts.hpp"
#include "prove/smt_problem.hpp"
#include "prove/witness_maps.hpp"

namespace iso::prove {

using namespace logic;

namespace {

// The permits of a level (level.hpp): reads it does not permit make every
// history that has them a violation.
std::vector<HistoryFact> permits(const Level& l) {
  const auto& s = model::history_schema();
  std::vector<HistoryFact> out;
  if (!l.permits.aborted_reads) out.push_back({l.name + " permits no aborted read", no(rel(s.abr))});
  if (!l.permits.intermediate_reads) out.push_back({l.name + " permits no intermediate read", no(rel(s.irr))});
  return out;
}

// The folder of a claim's scripts: "biswas.SER-implies-cerone.SER".
std::string claim_name(const Level& a, const Level& b) {
  std::string s = a.name + "-implies-" + b.name;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  return s;
}

// A goal's script: "goal-1-of-9.smt2".
std::string script_name(std::size_t k, std::size_t goals) { return fmt::format("goal-{}-of-{}.smt2", k + 1, goals); }

struct Folder {
  std::filesystem::path path;
  bool temporary = false;
  ~Folder() {
    std::error_code ec;
    if (temporary) std::filesystem::remove_all(path, ec);
  }
};

Folder make_folder(const std::string& dir) {
  if (!dir.empty()) {
    std::filesystem::create_directories(dir);
    return {dir, false};
  }
  std::string tmpl = (std::filesystem::temp_directory_path() / "isosynth-proof-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary folder for the proof");
  return {tmpl, true};
}

// How far a map got: whether a prover found a model of a goal's negation
// (no longer limit helps), and the share of goals proved before one was not.
struct Attempt {
  bool proved = false;
  bool refuted = false;
  double reached = 0;
  std::string model;     // refuted with a model printed: the model
  std::string model_of;  // and the script whose goal's negation it satisfies
};

// A history read from a prover's model of a goal's negation that A allows
// and B forbids, as decide() finds: a counterexample to A => B.
std::optional<History> counterexample(const Level& a, const Level& b, const std::string& model, bool session_free) {
  const ModelHistory mh = model_history(model, session_free);
  if (!mh.history) return std::nullopt;
  try {
    if (decide(*mh.history, a).verdict != Verdict::Allowed) return std::nullopt;
    if (decide(*mh.history, b).verdict != Verdict::Violated) return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;  // a level refuses the history (too large for its checker): not confirmed
  }
  return mh.history;
}

// Prover answers already known, by prover and goal: "z3|rf|<read-from>|<fact>|<j>"
// for the facts of a re-chosen read-from, which are the same script whatever
// else the map chooses, and "z3|map|<i>|<k>" for the map's own goals. An
// answer is reused where it holds at the limit asked: unsat and sat always,
// anything else only at a limit no longer than it was given.
struct Known {
  ProverRun run;
  double limit = 0;  // the limit it was given
};
using Answers = std::map<std::string, Known>;

ProverRun ask(const Prover& p, const std::string& file, const std::string& key, double seconds, Answers& known) {
  const auto it = known.find(p.name + "|" + key);
  if (it != known.end() &&
      (it->second.run.answer == "unsat" || it->second.run.answer == "sat" || seconds <= it->second.limit))
    return it->second.run;
  ProverRun r = run_prover(p, file, seconds);
  known[p.name + "|" + key] = {r, seconds};
  return r;
}

using Clock = std::chrono::steady_clock;

// The limit of one prover run: `seconds`, or less where the deadline is nearer.
double limit_before(double seconds, std::optional<Clock::time_point> deadline) {
  if (!deadline) return seconds;
  return std::min(seconds, std::max(0.05, std::chrono::duration<double>(*deadline - Clock::now()).count()));
}

// One witness map's claim: its goal scripts written to `folder`, each sent
// to every prover until one is not proved, none past `deadline`. Fills
// out.files and out.runs.
Attempt try_map(const Level& b, const SmtProblem& hyp, const WitnessMap& m, std::size_t index,
                const std::filesystem::path& folder, double seconds, std::optional<Clock::time_point> deadline,
                Answers& known, ImplicationProof& out) {
  SmtProblem claim = hyp;
  for (const auto& [d, t] : m.witness) claim.substitute(*d->rel, t.expr);
  std::vector<std::string> keys;
  if (m.read_from) {
    claim.substitute(*model::history_schema().wrx, m.read_from->expr);
    for (const auto& f : read_from(m.read_from->expr, true)) {
      const std::size_t from = claim.goals();
      claim.require(f.formula, "the new read-from: " + f.name);
      for (std::size_t j = from; j < claim.goals(); ++j)
        keys.push_back(fmt::format("rf|{}|{}|{}", m.read_from->text, f.name, j - from));
    }
  }
  for (const auto& f : permits(b)) claim.require(f.formula, f.name);
  claim.require(b.constraint(), b.name + " allows h with witness " + m.text());
  for (std::size_t k = keys.size(); k < claim.goals(); ++k) keys.push_back(fmt::format("map|{}|{}", index, k));
  out.files.clear();
  for (std::size_t k = 0; k < claim.goals(); ++k) {
    out.files.push_back((folder / script_name(k, claim.goals())).string());
    std::ofstream file(out.files.back());
    file << claim.text(k);
    if (!file) throw std::runtime_error(fmt::format("{}: cannot write the proof script", out.files.back()));
  }
  out.runs.clear();
  Attempt at;
  for (std::size_t pi = 0; pi < provers().size(); ++pi) {
    const Prover& p = provers()[pi];
    ProverRun total{p.name, "unsat", 0, ""};
    for (std::size_t k = 0; k < out.files.size(); ++k) {
      ProverRun r = ask(p, out.files[k], keys[k], limit_before(seconds, deadline), known);
      total.seconds += r.seconds;
      if (r.answer != "unsat") {
        at.refuted = r.answer == "sat";
        at.model = r.model;
        at.model_of = out.files[k];
        at.reached = (static_cast<double>(pi) + static_cast<double>(k) / static_cast<double>(out.files.size())) /
                     static_cast<double>(provers().size());
        total.answer = fmt::format("{} on goal {} of {} ({})", r.answer, k + 1, out.files.size(), claim.goal_reason(k));
        out.runs.push_back(total);
        return at;
      }
    }
    out.runs.push_back(total);
  }
  at.proved = true;
  return at;
}

}  // namespace

ImplicationProof prove_implication(const Level& a, const Level& b, const ProofOptions& options) {
  const auto start = Clock::now();
  std::optional<Clock::time_point> deadline;
  if (options.budget > 0) deadline = start + std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(options.budget));
  ImplicationProof out;
  out.a = a.name;
  out.b = b.name;
  const bool read_events = a.uses_read_events() || b.uses_read_events();
  SmtProblem hyp;
  for (const auto& f : history_facts({read_events, options.session_free})) hyp.assume(f.formula, f.name);
  for (const auto& f : permits(a)) hyp.assume(f.formula, f.name);
  // The orders first: the closures of the hypotheses are then bounded by them too.
  for (const auto& w : a.framework->witness)
    if (w.order) hyp.add_order(rel(w.rel));
  hyp.assume(a.constraint(), a.name + " allows h with witness w");
  // Re-choosing read-from is sound only where wrx is all there is of it.
  const bool rechoose = !read_events && !a.uses_item_reads() && !b.uses_item_reads();
  const auto maps = witness_maps(a, b, hyp.linearizations(), rechoose, options.max_maps);
  if (maps.empty()) {
    out.why_not = fmt::format("no witness map builds {}'s witness from {}'s", b.framework->name, a.framework->name);
    return out;
  }
  Folder folder = make_folder(options.dir);
  // Two passes: every map with a short limit, then those that ran out of
  // time (not those with a model of a goal's negation) with the whole one,
  // the maps that got furthest first. Each prover tries each of its
  // configurations in both: one may take 20 s where another takes 0.05.
  const double first = std::min(options.seconds, 2.0);
  std::vector<std::pair<double, std::size_t>> again;
  Answers known;
  bool out_of_time = false;
  for (int pass = 0; pass < 2 && !out.proved && !out.counterexample && !out_of_time; ++pass) {
    std::vector<std::size_t> order;
    if (pass == 0) {
      for (std::size_t i = 0; i < maps.size(); ++i) order.push_back(i);
    } else {
      if (again.empty() || options.seconds <= first) break;
      std::stable_sort(again.begin(), again.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
      for (const auto& [reached, i] : again) order.push_back(i);
    }
    again.clear();
    for (std::size_t i : order) {
      if (deadline && Clock::now() >= *deadline) {
        out_of_time = out.out_of_time = true;
        break;
      }
      ++out.maps_tried;
      // With a folder of the user's, each map's scripts in a folder of their own.
      std::filesystem::path where = folder.path;
      if (!folder.temporary) {
        where /= std::filesystem::path(claim_name(a, b)) / fmt::format("map-{}", i + 1);
        std::filesystem::create_directories(where);
      }
      const Attempt at = try_map(b, hyp, maps[i], i, where, pass == 0 ? first : options.seconds, deadline, known, out);
      if (options.progress)
        options.progress(fmt::format("map {} of {}{}: {}: {}", i + 1, maps.size(), pass == 0 ? "" : " (longer)",
                                     maps[i].text(),
                                     at.proved ? "proved" : out.runs.back().prover + " " + out.runs.back().answer));
      if (at.proved) {
        out.proved = true;
        out.map = maps[i].text();
        break;
      }
      if (!at.model.empty()) {
        out.counterexample = counterexample(a, b, at.model, options.session_free);
        if (out.counterexample) {
          out.counterexample_from = fmt::format("{}'s finite model of the negation of {}, map {} ({})",
                                                out.runs.back().prover,
                                                std::filesystem::path(at.model_of).filename().string(), i + 1,
                                                maps[i].text());
          if (options.progress) options.progress("a counterexample: " + out.counterexample_from);
          break;
        }
      }
      if (!at.refuted) again.emplace_back(at.reached, i);
    }
  }
  if (folder.temporary) out.files.clear();
  if (!out.proved && out.runs.empty()) {
    out.why_not = fmt::format("the time given ({:.1f} s) ran out before any witness map was tried", options.budget);
    out.out_of_time = true;
  } else if (out.counterexample) {
    out.why_not = fmt::format("false: a history {} allows and {} forbids, read from {}, confirmed by check", a.name,
                              b.name, out.counterexample_from);
  } else if (!out.proved) {
    const ProverRun& last = out.runs.back();
    const std::string tried = fmt::format("(the last tried: {} answered {})", last.prover, last.answer);
    out.why_not =
        out_of_time
            ? fmt::format("the time given ({:.1f} s) ran out after {} prover rounds over {} witness maps {}",
                          options.budget, out.maps_tried, maps.size(), tried)
            : fmt::format("no witness map of {} was proved by both provers {}", maps.size(), tried);
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

}  // namespace iso::prove
