#include "engine/model/schema.hpp"

namespace iso::model {

using namespace logic;

const HistorySchema& history_schema() {
  static const HistorySchema schema = [] {
    set_sort_names({"Txn", "Obj", "Val", "Read"});
    HistorySchema s;
    s.reads = make_relation("reads", {kTxn, kObj, kVal});
    s.writes = make_relation("writes", {kTxn, kObj, kVal});
    s.so = make_relation("so", {kTxn, kTxn});
    s.wrx = make_relation("wrx", {kTxn, kObj, kTxn});
    s.iwrx = make_relation("iwrx", {kTxn, kObj, kTxn});
    s.t0 = make_relation("T0", {kTxn});
    s.vo = make_relation("vo", {kObj, kTxn, kTxn});
    s.rt = make_relation("rt", {kTxn, kTxn});
    s.rt_cc = make_relation("rt_cc", {kTxn, kTxn});
    s.rt_bc = make_relation("rt_bc", {kTxn, kTxn});
    s.ts_vis = make_relation("ts_vis", {kTxn, kTxn});
    s.ts_ar = make_relation("ts_ar", {kTxn, kTxn});
    s.abr = make_relation("abr", {kTxn, kObj, kVal});
    s.irr = make_relation("irr", {kTxn, kObj, kVal});
    s.rtxn = make_relation("rtxn", {kRead, kTxn});
    s.rkey = make_relation("rkey", {kRead, kObj});
    s.rval = make_relation("rval", {kRead, kVal});
    s.po = make_relation("po", {kRead, kRead});
    s.rf = make_relation("rf", {kTxn, kRead});
    s.T0 = rel(s.t0);
    s.Tplus = diff(sort(kTxn), s.T0);
    s.wr = project(rel(s.wrx), {0, 2});
    s.writer = project(rel(s.writes), {0, 1});
    s.reader = project(rel(s.reads), {0, 1});
    s.U = project(rel(s.writes), {0});
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
