// The relational vocabulary of histories: the sorts Txn, Obj, Val and the base
// relations every framework's formulas are written over. This is the bridge
// between engine/history (transactions) and engine/logic (atoms and
// relations); neither of those knows about the other.
//
// Base relations (bound from a concrete history, or left variable by the
// synthesizer):
//   reads  : Txn->Obj->Val   external reads   R(t, x, n)
//   writes : Txn->Obj->Val   final writes     W(t, x, n); T0 writes every key
//   so     : Txn->Txn        session order, transitive, T0 before all
//   wrx    : Txn->Obj->Txn   read-from: wrx(t1, x, t3) iff t3's external read
//                            of x returns t1's final write (a choice among
//                            candidate writers when written values repeat)
//   t0     : Txn             the initial transaction
//   vo     : Obj->Txn->Txn   known version order: vo(x, t1, t2) iff the history
//                            itself shows that t1's version of x precedes
//                            t2's (list-append reads; engine/history/
//                            known_order.hpp); transitively closed. Every
//                            framework's wf makes its version or commit
//                            order contain it.
// Derived expressions are what specs use; see lua/ for their Lua names.
#pragma once

#include "engine/logic/ast.hpp"

namespace iso::model {

inline constexpr logic::SortId kTxn = 0;
inline constexpr logic::SortId kObj = 1;
inline constexpr logic::SortId kVal = 2;

struct HistorySchema {
  logic::RelationPtr reads, writes, so, wrx, t0, vo;

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

}  // namespace iso::model
