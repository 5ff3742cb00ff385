// The one history schema (schema.hpp): its base relations created once, in a
// fixed order, and the derived expressions specs use; the tests of which
// relations a formula mentions.
#include "engine/model/schema.hpp"

#include <utility>
#include <vector>

namespace iso::model {

using namespace logic;

// The base relations (schema.hpp) by column sorts, with their names. (Their
// ids are identities only: nothing depends on the order they are made in.)
namespace {
using Field = RelationPtr HistorySchema::*;
struct Signature {
  Type type;
  std::vector<std::pair<Field, const char*>> relations;
};

const std::vector<Signature>& base_relations() {
  using S = HistorySchema;
  static const std::vector<Signature> table = {
      {{kTxn, kObj, kVal}, {{&S::reads, "reads"}, {&S::writes, "writes"}, {&S::abr, "abr"}, {&S::irr, "irr"}}},
      {{kTxn, kTxn},
       {{&S::so, "so"}, {&S::rt, "rt"}, {&S::rt_cc, "rt_cc"}, {&S::rt_bc, "rt_bc"}, {&S::ts_vis, "ts_vis"},
        {&S::ts_ar, "ts_ar"}}},
      {{kTxn, kObj, kTxn}, {{&S::wrx, "wrx"}, {&S::iwrx, "iwrx"}}},
      {{kTxn}, {{&S::t0, "T0"}}},
      {{kObj, kTxn, kTxn}, {{&S::vo, "vo"}}},
      {{kRead, kTxn}, {{&S::rtxn, "rtxn"}}},
      {{kRead, kObj}, {{&S::rkey, "rkey"}}},
      {{kRead, kVal}, {{&S::rval, "rval"}}},
      {{kRead, kRead}, {{&S::po, "po"}}},
      {{kTxn, kRead}, {{&S::rf, "rf"}}},
  };
  return table;
}
}  // namespace

const HistorySchema& history_schema() {
  static const HistorySchema schema = [] {
    set_sort_names({"Txn", "Obj", "Val", "Read"});
    HistorySchema s;
    for (const auto& [type, relations] : base_relations())
      for (const auto& [field, name] : relations) s.*field = make_relation(name, type);
    s.T0 = rel(s.t0);
    s.Tplus = diff(sort(kTxn), s.T0);
    s.wr = named(project(rel(s.wrx), {0, 2}), "wr");
    s.writer = named(project(rel(s.writes), {0, 1}), "writer");
    s.reader = named(project(rel(s.reads), {0, 1}), "reader");
    s.U = named(project(rel(s.writes), {0}), "U");
    s.hb = closure(union_(rel(s.so), s.wr));
    return s;
  }();
  return schema;
}

bool mentions_read_events(const FormulaPtr& f) { return mentions_sort(f, kRead); }

RealTimeUse real_time_use(const FormulaPtr& f) {
  const HistorySchema& s = history_schema();
  return {mentions(f, *s.rt), mentions(f, *s.rt_cc), mentions(f, *s.rt_bc)};
}

bool mentions_real_time(const FormulaPtr& f) { return real_time_use(f).any(); }

bool mentions_db_timestamps(const FormulaPtr& f) {
  const HistorySchema& s = history_schema();
  return mentions(f, *s.ts_vis) || mentions(f, *s.ts_ar);
}

bool mentions_dirty_reads(const FormulaPtr& f) {
  const HistorySchema& s = history_schema();
  return mentions(f, *s.abr) || mentions(f, *s.irr);
}

}  // namespace iso::model
