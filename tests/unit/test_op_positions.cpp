// Where each operation is in its input (Op::line, Op::column), as the JSON
// output reports it: every text reader that knows the column records it, a
// column past what Op holds is unknown (0), and an edge's operations
// (poly::edge_operations) are the ones its explanation names.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "engine/history/formats/formats.hpp"
#include "engine/polygraph/explain.hpp"

namespace iso {

namespace {

using Position = std::pair<std::uint32_t, std::uint32_t>;

std::vector<Position> positions(const History& h) {
  std::vector<Position> out;
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops) out.emplace_back(op.line, op.column);
  return out;
}

ReadResult read(BytesReader* reader, const std::string& text) { return reader(text, "in", ReadOptions{}); }

}  // namespace

TEST_CASE("Op keeps its column without growing") { CHECK(sizeof(Op) == 24); }

TEST_CASE("native JSON: each operation at the line and column of its opening bracket") {
  const std::string text =
      "{\"format\": \"isosynth-history\", \"version\": 1, \"sessions\": [\n"
      "  [{\"id\": \"T1\", \"ops\": [[\"w\", \"x\", 1],\n"
      "                       [\"r\", \"y\", 0]]}],\n"
      "  [{\"id\": \"T2\", \"ops\": [[\"r\", \"x\", [1]]]}]]}\n";
  CHECK(positions(read(read_native, text).history) == std::vector<Position>{{2, 25}, {3, 24}, {4, 25}});
}

TEST_CASE("native JSON: a column beyond what Op holds is unknown, the line still known") {
  std::string text = "{\"format\": \"isosynth-history\", \"version\": 1, \"sessions\": [[{\"id\": \"T1\", \"ops\": [";
  text += std::string(kMaxOpColumn, ' ');
  text += "[\"w\", \"x\", 1]]}]]}";
  const auto p = positions(read(read_native, text).history);
  REQUIRE(p.size() == 1);
  CHECK(p[0] == Position{1, 0});
}

TEST_CASE("text formats: the column where the operation starts on its line") {
  // Text r/w (PolySI, Plume): one operation per line, blanks before it.
  CHECK(positions(read(read_text_rw, "w(1,1,0,0)\n  r(1,1,1,1)\n").history) ==
        std::vector<Position>{{1, 1}, {2, 3}});
  // AWDIT.
  CHECK(positions(read(read_awdit, "r 1 0\n\tw 2 1\n=====\n r 2 1\n").history) ==
        std::vector<Position>{{1, 1}, {2, 2}, {4, 2}});
  // dbcop's text history: several events on a line.
  CHECK(positions(read(read_dbcop_hist, "[x:=1 y:=1]\n  [x==1]\n").history) ==
        std::vector<Position>{{1, 2}, {1, 7}, {2, 4}});
}

TEST_CASE("Elle EDN: the position of the operation map holding the micro-operation") {
  const std::string edn =
      "{:type :invoke, :f :txn, :value [[:w :x 1]], :process 0, :index 0}\n"
      "  {:type :ok, :f :txn, :value [[:w :x 1] [:r :y nil]], :process 0, :index 1}\n";
  CHECK(positions(read(read_elle_edn, edn).history) == std::vector<Position>{{2, 3}, {2, 3}});
}

TEST_CASE("the operations of an edge are those its explanation names") {
  // Write skew: T1 r(x,0) r(y,0) w(x,1); T2 r(x,0) r(y,0) w(y,1).
  History h;
  const KeyId x = h.intern_key("x"), y = h.intern_key("y");
  const ValueId v0 = h.intern_value(Value{std::int64_t{0}}), v1 = h.intern_value(Value{std::int64_t{1}});
  const TxnId t1 = h.add_txn(h.add_session(), "T1"), t2 = h.add_txn(h.add_session(), "T2");
  h.add_read(t1, x, v0);
  h.add_read(t1, y, v0);
  h.add_write(t1, x, v1);
  h.add_read(t2, x, v0);
  h.add_read(t2, y, v0);
  h.add_write(t2, y, v1);
  using Ops = std::vector<std::pair<TxnId, std::uint32_t>>;
  CHECK(poly::edge_operations(h, DepEdge{t1, t2, Dep::RW, y}) == Ops{{t1, 1}, {t2, 2}});
  CHECK(poly::edge_operations(h, DepEdge{t2, t1, Dep::RW, x}) == Ops{{t2, 0}, {t1, 2}});
  CHECK(poly::edge_operations(h, DepEdge{t1, t2, Dep::WW, x}) == Ops{{t1, 2}});  // t2 writes no x
  CHECK(poly::edge_operations(h, DepEdge{kInitTxn, t1, Dep::WR, x}) == Ops{{t1, 0}});  // T0 has no operation
  CHECK(poly::edge_operations(h, DepEdge{t1, t2, Dep::SO, 0}).empty());
}

}  // namespace iso
