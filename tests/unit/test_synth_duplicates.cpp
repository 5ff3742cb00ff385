// Synthesis with repeated written values (`synth --duplicates`): several
// transactions may write the same value to a key, the initial value included
// (ABA), and read-from is a choice of each execution. Completeness is checked
// against an exhaustive enumeration independent of the synthesizer's
// encoding: every value written by every transaction, every interleaving of
// reads and writes, every session structure, each history decided by the
// brute force (which chooses read-from among the candidate writers itself).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cegis/synthesizer.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"
#include "tests/unit/synth_helpers.hpp"

using namespace iso;
using namespace iso::cegis;

namespace {

Problem dup_problem(std::vector<std::string> allow, std::vector<std::string> deny, const std::string& scope) {
  Problem p = problem(std::move(allow), std::move(deny), scope);
  p.space.duplicates = true;
  return p;
}

// With ops = 0, the transaction form: the levels over read events (which
// imply the operation form) are left out.
void check_against_enumeration(int txns, int keys, int values, int ops) {
  EnumeratedSpace space{txns, keys, values, ops, true, true, false};
  cegis::check_against_enumeration(space, 1000);
}

}  // namespace

TEST_CASE("synth duplicates: complete over operations (scopes 2/2/2/2 and 3/1/3/2)") {
  check_against_enumeration(2, 2, 2, 2);
  check_against_enumeration(3, 1, 3, 2);
}

TEST_CASE("synth duplicates: complete over transactions (scopes 2/2/2 and 3/1/3)") {
  check_against_enumeration(2, 2, 2, 0);
  check_against_enumeration(3, 1, 3, 0);
}

// Some key has a value written by two transactions, or the initial value
// written again (ABA).
bool repeats_a_value(const History& h) {
  std::vector<std::vector<int>> writers(h.keys().size(), std::vector<int>(h.values().size(), 0));
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops)
      if (op.kind == OpKind::Write) ++writers[op.key][op.value];
  for (std::size_t k = 0; k < writers.size(); ++k)
    for (std::size_t v = 0; v < writers[k].size(); ++v)
      if (writers[k][v] > (h.value_text(static_cast<ValueId>(v)) == "0" ? 0 : 1)) return true;
  return false;
}

TEST_CASE("synth duplicates: what they break with few values (separations that need a value written twice)") {
  // At 2,1,2 a key has one value besides the initial one, so without
  // duplicates two transactions cannot both write x: biswas.CC and
  // biswas.SI are equivalent there, and a lost update separates them with
  // duplicates.
  Problem cc_si = dup_problem({"biswas.CC"}, {"biswas.SI"}, "2,1,2");
  SynthResult lost = synthesize(cc_si);
  REQUIRE(lost.outcome == Outcome::Found);
  verify_solution(cc_si, lost);
  CHECK(format_history(*lost.history).find("T1: r(x,0) w(x,1)") != std::string::npos);
  CHECK(format_history(*lost.history).find("T2: r(x,0) w(x,1)") != std::string::npos);
  CHECK(synthesize(problem({"biswas.CC"}, {"biswas.SI"}, "2,1,2")).outcome == Outcome::None);
  CHECK(synthesize(problem({"biswas.SI"}, {"biswas.CC"}, "2,1,2")).outcome == Outcome::None);

  // Every pair at 3,1,2: the space with duplicates contains the unique one;
  // what only it separates needs a repeated value, and is separated without
  // duplicates given more values (one allow level: rename every write to a
  // fresh value and every read to its writer's under the allow witness's
  // read-from; the deny level is violated under that read-from too).
  const std::vector<std::string> levels = all_levels();
  std::size_t only_with = 0, both = 0;
  for (std::size_t a = 0; a < levels.size(); ++a)
    for (std::size_t b = 0; b < levels.size(); ++b) {
      if (a == b) continue;
      INFO(levels[a], " but not ", levels[b]);
      const bool unique = synthesize(problem({levels[a]}, {levels[b]}, "3,1,2")).outcome == Outcome::Found;
      Problem p = dup_problem({levels[a]}, {levels[b]}, "3,1,2");
      SynthResult r = synthesize(p);
      if (unique) {
        CHECK(r.outcome == Outcome::Found);
        ++both;
        continue;
      }
      if (r.outcome != Outcome::Found) continue;
      ++only_with;
      verify_solution(p, r);
      INFO(format_history(*r.history));
      CHECK(repeats_a_value(*r.history));
      CHECK(synthesize(problem({levels[a]}, {levels[b]}, "3,1,4")).outcome == Outcome::Found);
    }
  MESSAGE("3,1,2: ", both, " ordered pairs separated with unique values, ", only_with, " more with duplicates");
  CHECK(only_with > 0);
}

TEST_CASE("synth duplicates: ABA (a read of the initial value from a transaction that wrote it again)") {
  // A level that holds when some read returns T0's value of its key but reads
  // it from another transaction (its witness's read-from says which): only
  // a write of the initial value, which the unique-value space does not
  // have, can give that, and only a read-from chosen per execution (not the
  // lowest-indexed writer, T0) reads from it.
  lua::SpecLibrary lib;
  lib.load_string(R"(
library "t"
framework "none" { witness = {} }
level "RestoredRead" { framework = "none", axiom = function(h, e)
  return exists(Obj, Val, function(x, n)
    return exists(h.T0, h.Tplus, Txn, function(t0, t1, t3)
      return h.writes(t0, x, n) & h.wrx(t1, x, t3) & h.reads(t3, x, n) end) end) end }
)",
                  "aba.lua");
  const lua::Level& restored = lib.level("t.RestoredRead");
  const lua::Level& ser = library().level("biswas.SER");
  Problem p;
  p.allow = {&restored, &ser};
  p.scope = parse_scope("3,1,2");
  CHECK(synthesize(p).outcome == Outcome::None);
  p.scope = parse_scope("3,2,3");
  CHECK(synthesize(p).outcome == Outcome::None);
  p.space.duplicates = true;
  p.scope = parse_scope("3,1,2");
  SynthResult r = synthesize(p);
  REQUIRE(r.outcome == Outcome::Found);
  const History& h = *r.history;
  INFO(format_history(h));
  CHECK(is_solution(h, p));
  // Some transaction writes x = 0 and another reads x = 0 from it, in the
  // witness of the restored read (the read has two candidates, T0 and it).
  REQUIRE(r.allow_witnesses.size() == 2);
  bool from_rewriter = false;
  for (const poly::ChosenRead& c : r.allow_witnesses[0].chosen_reads) {
    CHECK(c.reader != c.writer);
    const Op& read = h.txn(c.reader).ops.at(c.op);
    CHECK(read.kind == OpKind::Read);
    CHECK(read.key == c.key);
    if (c.writer != kInitTxn && h.value_text(read.value) == "0") from_rewriter = true;
  }
  CHECK(from_rewriter);
  // SER's witness is checked with its own read-from.
  std::string why;
  CHECK_MESSAGE(satisfies(h, ser, r.allow_witnesses[1], &why), why);
  CHECK_MESSAGE(satisfies(h, restored, r.allow_witnesses[0], &why), why);
}
