// What prediction asks of an observed run (cegis/prediction_space.hpp,
// ObservedTrace): each read with a writer it can change, and nothing else.
// An input it cannot read is refused with the input line of the operation
// at fault (the command line names it with its file); a run the weak level
// does not allow is read like any other.
#include <doctest/doctest.h>

#include <string>

#include "cegis/prediction_space.hpp"
#include "engine/history/formats/formats.hpp"

using namespace iso;

namespace {

History native(const std::string& text) { return read_native(text, "run.json", {}).history; }

// The line ObservedTrace names when it refuses `h`, and its message.
std::pair<std::uint32_t, std::string> refusal(const History& h) {
  try {
    const cegis::ObservedTrace trace(h);
  } catch (const cegis::TraceError& e) {
    return {e.line(), e.what()};
  }
  FAIL("the trace was read");
  return {};
}

}  // namespace

TEST_CASE("predict trace: a read no last write leaves, at its line") {
  const auto [line, what] = refusal(native(
      "{\"sessions\": [\n"
      "  [{\"id\": \"T1\", \"ops\": [[\"w\", \"x\", 1], [\"w\", \"x\", 2]]}],\n"
      "  [{\"id\": \"T2\", \"ops\": [[\"w\", \"y\", 1],\n"
      "                          [\"r\", \"x\", 1]]}]]}\n"));
  CHECK(line == 4);
  CHECK(what.find("T2's r(x,1): no other transaction's last write of x") != std::string::npos);
}

TEST_CASE("predict trace: two versions of one value, at the later writer's last write") {
  const auto [line, what] = refusal(native(
      "{\"sessions\": [\n"
      "  [{\"id\": \"T1\", \"ops\": [[\"w\", \"x\", 5]]}],\n"
      "  [{\"id\": \"T2\", \"ops\": [[\"w\", \"x\", 4],\n"
      "                          [\"w\", \"x\", 5]]}]]}\n"));
  CHECK(line == 4);
  CHECK(what.find("T1 and T2 both leave x = 5") != std::string::npos);
}

TEST_CASE("predict trace: a read after the transaction's own write returns it") {
  // Its writer is its own transaction; another value has none to change.
  const auto [line, what] = refusal(native(
      "{\"sessions\": [\n"
      "  [{\"id\": \"T1\", \"ops\": [[\"w\", \"x\", 1],\n"
      "                          [\"r\", \"x\", 0]]}]]}\n"));
  CHECK(line == 3);
  CHECK(what.find("T1's r(x,0) follows w(x,1)") != std::string::npos);
}

TEST_CASE("predict trace: aborted transactions and predicate reads, at their lines") {
  const auto aborted = refusal(native(
      "{\"sessions\": [\n"
      "  [{\"id\": \"T1\", \"status\": \"aborted\",\n"
      "    \"ops\": [[\"w\", \"x\", 1]]}]]}\n"));
  CHECK(aborted.first == 3);
  CHECK(aborted.second.find("T1 is not committed") != std::string::npos);
  const auto predicate = refusal(native(
      "{\"sessions\": [\n"
      "  [{\"id\": \"T1\", \"ops\": [[\"w\", \"1\", 1],\n"
      "                          [\"pr\", \"[0,5]\", [[\"1\", 1]]]]}]]}\n"));
  CHECK(predicate.first == 3);
  CHECK(predicate.second.find("item reads and writes only") != std::string::npos);
}

TEST_CASE("predict trace: a run no weak level allows is read") {
  // T1 and T2 each read the other's write (not even read committed): each
  // read has its writer, which is all prediction asks.
  const History h = native(
      "{\"sessions\": [[{\"id\": \"T1\", \"ops\": [[\"w\", \"x\", 1], [\"r\", \"y\", 1]]}],\n"
      "                [{\"id\": \"T2\", \"ops\": [[\"w\", \"y\", 1], [\"r\", \"x\", 1]]}]]}\n");
  const cegis::ObservedTrace trace(h);
  REQUIRE(trace.reads.size() == 2);
  CHECK(h.txn_name(trace.reads[0].observed) == "T2");
  CHECK(h.txn_name(trace.reads[1].observed) == "T1");
}
