// Proofs beyond the scope (prove/): theorems of the literature it must
// prove, pairs it must never prove because synthesis separates them, and
// mutations of the translation that this check catches.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cegis/synthesizer.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"
#include "engine/logic/cnf.hpp"
#include "engine/logic/translator.hpp"
#include "engine/model/concrete.hpp"
#include "engine/sat/solver.hpp"
#include "prove/countermodel.hpp"
#include "prove/history_facts.hpp"
#include "prove/implication.hpp"
#include "prove/smt_problem.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/synth_helpers.hpp"

namespace iso {

namespace {

prove::ImplicationProof proof(const std::string& a, const std::string& b, double seconds = 20,
                              bool session_free = false) {
  prove::ProofOptions o;
  o.seconds = seconds;
  o.session_free = session_free;
  return prove::prove_implication(library().level(a), library().level(b), o);
}

// Synthesis finds a history A allows and B forbids, within 4,2,3.
bool separated(const std::string& a, const std::string& b) {
  cegis::Problem p = cegis::problem({a}, {b}, "4,2,3");
  cegis::SynthOptions o;
  return cegis::synthesize(p, o).outcome == cegis::Outcome::Found;
}

// Ordered pairs across frameworks and strengths, each separated within
// 4,2,3: a proof of any is a proof of a falsehood. The first two are those
// the mutations below make provable.
// (adya.SER => biswas.SER with sessions: the sessions are what separates.)
const std::vector<std::pair<std::string, std::string>> kSeparated = {
    {"biswas.RA", "biswas.CC"}, {"cerone.SI", "biswas.SER"}, {"biswas.PC", "biswas.SI"},
    {"viper.AdyaSI", "viper.GSI"}, {"adya.SER", "biswas.SER"},
};

// One line: proved (with the map), refuted (by the history), or neither,
// with the rounds and seconds it took.
std::string outcome(const prove::ImplicationProof& p) {
  const std::string what = p.proved           ? "PROVED with " + p.map
                           : p.counterexample ? "refuted by " + history_one_line(*p.counterexample)
                                              : "not proved";
  return what + " (" + std::to_string(p.maps_tried) + " rounds, " + std::to_string(p.seconds) + " s)";
}

// Of `pairs`, those synthesis separates within 4,2,3 that the provers
// nevertheless prove at 0.5 s per goal ("A => B"), up to the first with
// `first_only`; each pair's outcome is reported as it comes. A pair
// synthesis does not separate is a failure with `require_separated`, and
// otherwise tried all the same, its outcome reported.
std::vector<std::string> proved_though_separated(const std::vector<std::pair<std::string, std::string>>& pairs,
                                                 bool require_separated, bool first_only = false) {
  std::vector<std::string> out;
  for (const auto& [a, b] : pairs) {
    if (first_only && !out.empty()) break;
    if (library().level(a).uses_db_timestamps() || library().level(b).uses_db_timestamps()) {
      // Synthesized histories carry no database timestamps: such a pair is
      // not decided within the scope, and its outcome is only reported.
      MESSAGE(a, " => ", b, ": not synthesized (database timestamps); ", outcome(proof(a, b, 0.5)));
      continue;
    }
    const bool sep = separated(a, b);
    if (require_separated) REQUIRE_MESSAGE(sep, a, " => ", b, " is not separated within 4,2,3");
    if (!sep) {
      // Not a falsehood within the scope: the proof is tried only when the
      // whole run is (for its report), not in the suite.
      if (!require_separated) MESSAGE(a, " => ", b, ": not separated within 4,2,3; ", outcome(proof(a, b, 0.5)));
      continue;
    }
    const auto p = proof(a, b, 0.5);
    MESSAGE(a, " => ", b, ": ", outcome(p));
    if (p.proved) out.push_back(a + " => " + b);
  }
  return out;
}

// Every ordered pair of distinct shipped levels, real time and timestamps
// included, aliases once (adya.SI and adya.SER are adya.PL-SI and adya.PL-3
// under a second name). With ISOSYNTH_PAIRS_SHARD=I/N in the environment,
// only the pairs whose index is I modulo N, so that N processes share the
// run.
std::vector<std::pair<std::string, std::string>> all_ordered_pairs() {
  std::size_t shard = 0, shards = 1;
  if (const char* env = std::getenv("ISOSYNTH_PAIRS_SHARD")) {
    const std::string text = env;
    REQUIRE_MESSAGE(std::sscanf(env, "%zu/%zu", &shard, &shards) == 2, "ISOSYNTH_PAIRS_SHARD is not I/N: ", text);
    REQUIRE_MESSAGE(shard < shards, "ISOSYNTH_PAIRS_SHARD is not I/N with I < N: ", text);
  }
  std::vector<std::string> names;
  for (const Level* l : library().levels())
    if (l->name != "adya.SI" && l->name != "adya.SER") names.push_back(l->name);
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t index = 0;
  for (const auto& a : names)
    for (const auto& b : names)
      if (a != b && index++ % shards == shard) out.emplace_back(a, b);
  MESSAGE("pairs: ", out.size(), " of ", index, " (shard ", shard, " of ", shards, ")");
  return out;
}

// Runs `body` with the translation mutated, then restores it.
template <typename F>
void with_mutation(prove::Mutation m, F body) {
  struct Reset {
    ~Reset() { prove::set_mutation(prove::Mutation::None); }
  } reset;
  prove::set_mutation(m);
  body();
}

}  // namespace

TEST_CASE("prove: biswas.SER and cerone.SER imply each other for every history") {
  auto ab = proof("biswas.SER", "cerone.SER");
  INFO(ab.why_not);
  CHECK(ab.proved);
  CHECK(ab.map == "ar := co, vis := co");
  auto ba = proof("cerone.SER", "biswas.SER");
  INFO(ba.why_not);
  CHECK(ba.proved);
  // Where written values repeat, Cerone's latest visible writer may be
  // another writer of the value read: read-from must be chosen again.
  CHECK(ba.map == "co := ar, wr := each read's ar-latest vis-visible writer");
  for (const auto& r : ab.runs) CHECK(r.answer == "unsat");
  CHECK(ab.runs.size() == 2);
}

TEST_CASE("prove: adya.SER and biswas.SER without sessions, through a linearization") {
  auto ab = proof("adya.SER", "biswas.SER", 20, true);
  INFO(ab.why_not);
  CHECK(ab.proved);
  CHECK(ab.map.find("linearization") != std::string::npos);
  auto ba = proof("biswas.SER", "adya.SER", 20, true);
  INFO(ba.why_not);
  CHECK(ba.proved);
  CHECK(ba.map.starts_with("ww := co on each key's writers"));
}

TEST_CASE("prove: Crooks' chain of Viper's SI variants, step by step") {
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
           {"viper.StrongSI", "viper.StrongSessionSI"},
           {"viper.StrongSessionSI", "viper.GSI"},
           {"viper.GSI", "viper.AdyaSI"}}) {
    auto p = proof(a, b);
    INFO(a, " => ", b, ": ", p.why_not);
    CHECK(p.proved);
    CHECK(p.map == "ar := ar, vis := vis");
  }
}

TEST_CASE("prove: closures bounded by what the hypotheses make transitive") {
  // PC => CC needs hb ⊆ co (co is an order A asserts); cerone.CC => biswas.CC
  // needs hb ⊆ vis (vis;vis ⊆ vis is TRANSVIS). Neither holds of every
  // transitive relation made of so ∪ wr steps: only of the least.
  auto pc = proof("biswas.PC", "biswas.CC");
  INFO(pc.why_not);
  CHECK(pc.proved);
  auto cc = proof("cerone.CC", "biswas.CC");
  INFO(cc.why_not);
  CHECK(cc.proved);
  CHECK(cc.map == "co := ar, wr := each read's ar-latest vis-visible writer");
}

TEST_CASE("prove: a false implication beyond the scope is refuted by a history both levels are decided on") {
  // PC => SI fails on a lost update, which needs three values: within
  // 3,2,2 the two are equivalent, and the provers' model shows the rest.
  REQUIRE_FALSE(cegis::synthesize(cegis::problem({"biswas.PC"}, {"biswas.SI"}, "3,2,2"), {}).outcome ==
                cegis::Outcome::Found);
  const auto p = proof("biswas.PC", "biswas.SI", 2);
  CHECK_FALSE(p.proved);
  REQUIRE(p.counterexample);
  CHECK(decide(*p.counterexample, library().level("biswas.PC")).verdict == Verdict::Allowed);
  CHECK(decide(*p.counterexample, library().level("biswas.SI")).verdict == Verdict::Violated);
  CHECK(p.why_not.starts_with("false:"));
}

TEST_CASE("prove: a model with read events is read in program order") {
  // T1 writes x; T2 reads x twice, first from T1 (event @U_6, first in
  // po), then from T0 (@U_5): a non-monotonic read that PL-2 allows and
  // Biswas-Enea's RC, over read events, forbids.
  const std::string model = R"(sat
(
; cardinality of U is 7
(define-fun is_Txn (($x1 U)) Bool (or (= (as @U_0 U) $x1) (= (as @U_1 U) $x1) (= (as @U_2 U) $x1)))
(define-fun is_Obj (($x1 U)) Bool (= (as @U_3 U) $x1))
(define-fun is_Val (($x1 U)) Bool (= (as @U_4 U) $x1))
(define-fun is_Read (($x1 U)) Bool (or (= (as @U_5 U) $x1) (= (as @U_6 U) $x1)))
(define-fun reads_0 (($x1 U) ($x2 U) ($x3 U)) Bool (and (= (as @U_2 U) $x1) (= (as @U_3 U) $x2) (= (as @U_4 U) $x3)))
(define-fun writes_1 (($x1 U) ($x2 U) ($x3 U)) Bool (and (or (= (as @U_0 U) $x1) (= (as @U_1 U) $x1)) (= (as @U_3 U) $x2) (= (as @U_4 U) $x3)))
(define-fun so_4 (($x1 U) ($x2 U)) Bool (and (= (as @U_0 U) $x1) (not (= (as @U_0 U) $x2))))
(define-fun wrx_10 (($x1 U) ($x2 U) ($x3 U)) Bool (and (or (= (as @U_0 U) $x1) (= (as @U_1 U) $x1)) (= (as @U_3 U) $x2) (= (as @U_2 U) $x3)))
(define-fun T0_12 (($x1 U)) Bool (= (as @U_0 U) $x1))
(define-fun rtxn_14 (($x1 U) ($x2 U)) Bool (and (or (= (as @U_5 U) $x1) (= (as @U_6 U) $x1)) (= (as @U_2 U) $x2)))
(define-fun rkey_15 (($x1 U) ($x2 U)) Bool (and (or (= (as @U_5 U) $x1) (= (as @U_6 U) $x1)) (= (as @U_3 U) $x2)))
(define-fun rval_16 (($x1 U) ($x2 U)) Bool (and (or (= (as @U_5 U) $x1) (= (as @U_6 U) $x1)) (= (as @U_4 U) $x2)))
(define-fun po_17 (($x1 U) ($x2 U)) Bool (and (= (as @U_6 U) $x1) (= (as @U_5 U) $x2)))
(define-fun rf_18 (($x1 U) ($x2 U)) Bool (or (and (= (as @U_1 U) $x1) (= (as @U_6 U) $x2)) (and (= (as @U_0 U) $x1) (= (as @U_5 U) $x2))))
)
)";
  const prove::ModelHistory mh = prove::model_history(model, false);
  INFO(mh.why_not);
  REQUIRE(mh.history);
  CHECK(history_one_line(*mh.history) == "T1: w(x,1) | T2: r(x,1) r(x,0)");
  CHECK(decide(*mh.history, library().level("adya.PL-2")).verdict == Verdict::Allowed);
  CHECK(decide(*mh.history, library().level("biswas.RC")).verdict == Verdict::Violated);
  // Two events with no order between them are no program order.
  std::string unordered = model;
  const std::string po = "(and (= (as @U_6 U) $x1) (= (as @U_5 U) $x2))";
  unordered.replace(unordered.find(po), po.size(), "false");
  CHECK(prove::model_history(unordered, false).why_not == "a transaction's read events are not in one order");
}

TEST_CASE("prove: a prover's model is read as the history it describes, or refused") {
  // cvc5's model of a negation: T0 (@U_4) and two transactions that both
  // read x from T0 and write it, one value for all: each write gets its own.
  const std::string model = R"(sat
(
; cardinality of U is 5
(define-fun is_Txn (($x1 U)) Bool (or (= (as @U_4 U) $x1) (= (as @U_0 U) $x1) (= (as @U_1 U) $x1)))
(define-fun is_Obj (($x1 U)) Bool (= (as @U_3 U) $x1))
(define-fun is_Val (($x1 U)) Bool (= (as @U_2 U) $x1))
(define-fun is_Read (($x1 U)) Bool false)
(define-fun reads_0 (($x1 U) ($x2 U) ($x3 U)) Bool (and (or (= (as @U_0 U) $x1) (= (as @U_1 U) $x1)) (= (as @U_3 U) $x2) (= (as @U_2 U) $x3)))
(define-fun writes_1 (($x1 U) ($x2 U) ($x3 U)) Bool (and (= (as @U_3 U) $x2) (= (as @U_2 U) $x3) (not (= (as @U_2 U) $x1)) (not (= (as @U_3 U) $x1))))
(define-fun so_4 (($x1 U) ($x2 U)) Bool (and (= (as @U_4 U) $x1) (not (= (as @U_4 U) $x2))))
(define-fun wrx_10 (($x1 U) ($x2 U) ($x3 U)) Bool (and (= (as @U_4 U) $x1) (= (as @U_3 U) $x2) (or (= (as @U_0 U) $x3) (= (as @U_1 U) $x3))))
(define-fun T0_12 (($x1 U)) Bool (= (as @U_4 U) $x1))
)
)";
  const prove::ModelHistory mh = prove::model_history(model, false);
  INFO(mh.why_not);
  REQUIRE(mh.history);
  CHECK(history_one_line(*mh.history) == "T1: r(x,0) w(x,1) | T2: r(x,0) w(x,2)");
  // Cut short, or with a construct the reader does not know: refused, with why.
  CHECK_FALSE(prove::model_history(model.substr(0, model.size() / 2), false).history);
  std::string odd = model;
  odd.replace(odd.find("(or (= (as @U_4"), 3, "(xor");
  const prove::ModelHistory refused = prove::model_history(odd, false);
  CHECK_FALSE(refused.history);
  CHECK(refused.why_not.find("xor") != std::string::npos);
  CHECK(prove::model_history("unknown\n", false).why_not == "the prover printed no model");
}

TEST_CASE("prove: every fact assumed of histories holds of random histories, for every read-from choice") {
  // The facts are hypotheses of every proof: one false of some history
  // would make proofs of falsehoods. Each is evaluated on histories of
  // register reads (values repeating, re-reads, reads of own writes) and of
  // list reads (known version orders), under every legal read-from.
  std::mt19937_64 rng(11);
  brute::RandomHistoryOptions registers;
  registers.thin_air = registers.int_violation = 0;
  registers.unique_values = false;
  registers.reread = registers.read_own_write = 0.3;
  brute::RandomListOptions lists;
  const auto facts = prove::history_facts({.read_events = true, .session_free = false});
  std::size_t histories = 0, choices = 0;
  for (int round = 0; round < 400; ++round) {
    const History h = round % 4 == 3 ? brute::random_list_history(rng, lists) : brute::random_history(rng, registers);
    const AbstractHistory ah = abstract_history(h);
    if (!ah.int_violations.empty() || !ah.unjustified_reads.empty()) continue;
    ++histories;
    logic::Circuit c;
    const model::ConcreteInstance inst = model::concrete_instance(ah, c);
    logic::Translator tr(inst.universe, c, inst.bindings);
    choices += inst.wellformed != logic::kTrue;
    for (const prove::HistoryFact& fact : facts) {
      INFO(fact.name, " on ", format_history(h));
      sat::Solver solver;
      logic::CnfEncoder cnf(c, solver);
      cnf.assert_true(c.and_(inst.wellformed, !tr.formula(fact.formula)));
      CHECK(solver.solve() == sat::Result::Unsat);
    }
  }
  CHECK(histories >= 300);
  CHECK(choices >= 20);  // read-from was a choice on some
}

TEST_CASE("prove: no pair that synthesis separates is proved") {
  CHECK(proved_though_separated(kSeparated, true).empty());
}

// The same over every ordered pair of shipped levels: 1,260 pairs,
// two hours on two cores, so not part of the suite; bench/proofs/separated.sh runs it
// and keeps its report in bench/results/.
TEST_CASE("prove: no ordered pair of shipped levels that synthesis separates is proved" * doctest::skip()) {
  CHECK(proved_though_separated(all_ordered_pairs(), false).empty());
}

TEST_CASE("prove: a closure taken for one step breaks the check above") {
  // Under the mutation, hb = so ∪ wr, so CC's axiom is RA's and RA would
  // "imply" CC.
  with_mutation(prove::Mutation::ClosureIsStep, [] {
    CHECK(proved_though_separated(kSeparated, true, true) == std::vector<std::string>{"biswas.RA => biswas.CC"});
  });
}

TEST_CASE("prove: an order not required total breaks the check above") {
  // Under the mutation, biswas.SER's co may be cerone.SI's vis (with T0
  // first), which is transitive but not total: write skew, which SI allows
  // and SER forbids, would be "proved" serializable.
  with_mutation(prove::Mutation::OrderNotTotal, [] {
    CHECK(proved_though_separated(kSeparated, true, true) == std::vector<std::string>{"cerone.SI => biswas.SER"});
  });
}

}  // namespace iso
