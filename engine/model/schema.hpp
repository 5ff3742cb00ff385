// The relational vocabulary of histories: the sorts Txn, Obj, Val and the base
// relations every framework's formulas are written over. This is the bridge
// between engine/history (transactions) and engine/logic (atoms and
// relations); neither of those knows about the other.
//
// Base relations (bound from a concrete history, or left variable by the
// synthesizer):
//   reads  : Txn->Obj->Val   external reads   R(t, x, n): some read of x by t
//                            not preceded by t's own write of x returns n
//   writes : Txn->Obj->Val   final writes     W(t, x, n); T0 writes every key
//   so     : Txn->Txn        session order, transitive, T0 before all
//   wrx    : Txn->Obj->Txn   read-from: wrx(t1, x, t3) iff an external read
//                            of x by t3 returns t1's final write (a choice
//                            among candidate writers when written values
//                            repeat); the projection of rf below
//   iwrx   : Txn->Obj->Txn   item read-from: wrx restricted to the read events
//                            of item reads (Adya's item read-dependencies,
//                            whose anti-dependencies G2-item counts): item
//                            reads and the keys a predicate read returned
//                            (engine/history/abstract.hpp, item_read), not
//                            the keys it left out nor predicate writes'
//                            reads; equal to wrx on histories without
//                            predicates
//   t0     : Txn             the initial transaction
//   vo     : Obj->Txn->Txn   known version order: vo(x, t1, t2) iff the history
//                            itself shows that t1's version of x precedes
//                            t2's (list-append reads; engine/history/
//                            known_order.hpp); transitively closed. Every
//                            framework's wf makes its version or commit
//                            order contain it.
//   rt     : Txn->Txn        real-time order: rt(t1, t2) iff t1 committed
//                            before t2 began, by more than the clock skew
//                            (History::real_time_before); T0 first. Empty
//                            but for T0's pairs without timestamps.
//   rt_cc  : Txn->Txn        t1 committed before t2 committed (the same way)
//   rt_bc  : Txn->Txn        t1 began before t2 committed (the same way)
//   ts_vis : Txn->Txn        the database's own snapshots (Chronos, FORMATS.md
//                            §9): ts_vis(t1, t2) iff t1 ≠ t2 and t1's commit
//                            timestamp is at most t2's start timestamp
//                            (History::ts_visible: of two transactions that
//                            start and commit at one timestamp, only the
//                            later sees the earlier); T0 first. Bound only
//                            when every transaction has
//                            both (decide() refuses a level that mentions
//                            ts_vis or ts_ar otherwise)
//   ts_ar  : Txn->Txn        t1's commit timestamp is below t2's; T0 first
//   abr    : Txn->Obj->Val   aborted reads (Adya's G1a): abr(t, x, n) iff a
//                            read of x by committed t returns n, a value only
//                            an aborted transaction wrote
//   irr    : Txn->Obj->Val   intermediate reads (Adya's G1b): irr(t, x, n)
//                            iff a read of x by t returns n, a value another
//                            transaction wrote to x and then overwrote
// Such reads are no reads of any version: they are in neither reads nor the
// read events below, and carry no dependency. A level that does not permit
// them (engine/level/level.hpp, Level::permits) rejects a history that has
// one before its formula is evaluated, so the formulas that see abr and irr
// non-empty are those of levels that permit them (Adya's PL-1, the
// catalogue's anomalies).
//
// The operation level (LEVELS.md, "Operation-level histories"): a fourth
// sort, Read, has one atom per external read event (a read not preceded by
// its transaction's own write of the key; a re-read is another event).
//   rtxn : Read->Txn         the transaction the read belongs to
//   rkey : Read->Obj         the key it reads
//   rval : Read->Val         the value it returns
//   po   : Read->Read        program order between the reads of one
//                            transaction (strict, transitive)
//   rf   : Txn->Read         rf(t, α): α returns t's final write of its key
//                            (exactly one t per read; a choice when written
//                            values repeat)
// so that reads(t, x, n) = ∃α. rtxn(α, t) ∧ rkey(α, x) ∧ rval(α, n) and
// wrx(t1, x, t3) = ∃α. rf(t1, α) ∧ rkey(α, x) ∧ rtxn(α, t3).
// Derived expressions are what specs use; see lua/ for their Lua names.
#pragma once

#include "engine/logic/ast.hpp"

namespace iso::model {

inline constexpr logic::SortId kTxn = 0;
inline constexpr logic::SortId kObj = 1;
inline constexpr logic::SortId kVal = 2;
inline constexpr logic::SortId kRead = 3;

struct HistorySchema {
  logic::RelationPtr reads, writes, so, wrx, iwrx, t0, vo, rt, rt_cc, rt_bc, ts_vis, ts_ar, abr, irr;
  logic::RelationPtr rtxn, rkey, rval, po, rf;

  logic::ExprPtr T0;      // {t0}
  logic::ExprPtr Tplus;   // Txn - t0
  logic::ExprPtr wr;      // Txn->Txn: the projection of wrx on its first and last column
  logic::ExprPtr writer;  // Txn->Obj: t has a final write of x (Wr(x) = writer..x)
  logic::ExprPtr reader;  // Txn->Obj: t has an external read of x (Rd(x) = reader..x)
  logic::ExprPtr U;       // Txn: update transactions (T0 included: it writes every key)
  logic::ExprPtr hb;      // Txn->Txn: (so + wr)^+
};

// The one schema (relations are created once; their ids are global).
const HistorySchema& history_schema();

// Does `f` mention the operation level (the sort Read or a relation over
// it)? Such a formula needs a history's read events, which the synthesizer's
// space of abstract transactions does not have.
bool mentions_read_events(const logic::FormulaPtr& f);
// Which real-time orders `f` mentions (h.rt, h.rt_cc, h.rt_bc).
struct RealTimeUse {
  bool commit_begin = false, commit_commit = false, begin_commit = false;
  bool any() const { return commit_begin || commit_commit || begin_commit; }
};
RealTimeUse real_time_use(const logic::FormulaPtr& f);
bool mentions_real_time(const logic::FormulaPtr& f);
// Does `f` mention the database's timestamps (h.ts_vis, h.ts_ar)?
bool mentions_db_timestamps(const logic::FormulaPtr& f);

// Does `f` mention the aborted or intermediate reads (abr, irr)? Such a
// formula needs the synthesis space that has them (SpaceOptions::dirty_reads).
bool mentions_dirty_reads(const logic::FormulaPtr& f);

}  // namespace iso::model
