// Proofs beyond the scope (prove/): theorems of the literature it must
// prove, pairs it must never prove because synthesis separates them, and
// mutations of the translation that this check catches.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "cegis/synthesizer.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/printer.hpp"
#include "prove/countermodel.hpp"
#include "prove/implication.hpp"
#include "prove/smt_problem.hpp"
#include "tests/brute/enumerate.hpp"
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

// Of `pairs`, those synthesis separates within 4,2,3 that the provers
// nevertheless prove at 0.5 s per goal ("A => B"), up to the first with
// `first_only`; each pair's outcome is reported as it comes. A pair
// synthesis does not separate is skipped (reported), or, with
// `require_separated`, a failure.
std::vector<std::string> proved_though_separated(const std::vector<std::pair<std::string, std::string>>& pairs,
                                                 bool require_separated, bool first_only = false) {
  std::vector<std::string> out;
  for (const auto& [a, b] : pairs) {
    if (first_only && !out.empty()) break;
    const bool sep = separated(a, b);
    if (require_separated) REQUIRE_MESSAGE(sep, a, " => ", b, " is not separated within 4,2,3");
    if (!sep) {
      MESSAGE(a, " => ", b, ": not separated within 4,2,3, not tried");
      continue;
    }
    const auto p = proof(a, b, 0.5);
    const std::string outcome = p.proved           ? "PROVED with " + p.map
                                : p.counterexample ? "refuted by " + history_one_line(*p.counterexample)
                                                   : "not proved";
    MESSAGE(a, " => ", b, ": ", outcome, " (", p.maps_tried, " rounds, ", p.seconds, " s)");
    if (p.proved) out.push_back(a + " => " + b);
  }
  return out;
}

// Every ordered pair of distinct shipped levels, aliases once.
std::vector<std::pair<std::string, std::string>> all_ordered_pairs() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& a : brute::all_levels())
    for (const auto& b : brute::all_levels())
      if (a != b) out.emplace_back(a, b);
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

TEST_CASE("prove: no pair that synthesis separates is proved") {
  CHECK(proved_though_separated(kSeparated, true).empty());
}

// The same over every ordered pair of shipped levels: about 1,300 pairs,
// hours, so not part of the suite; bench/proofs/separated.sh runs it
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
