// Isolation levels as the engine knows them: a framework (the witness
// relations an execution adds to a history, and their well-formedness
// axioms) and a level (a formula over a history and a witness), both built
// by the spec language (lua/) from a spec file. A history is allowed by a
// level iff some witness makes framework.wf ∧ level.axiom true; that is what
// engine/decide/decide.hpp decides.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/logic/ast.hpp"
#include "engine/model/schema.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso {

// A witness relation a framework declares: `co = order(Txn)` (a strict total
// order on a sort) or `ww = rel(Obj, Txn, Txn)` (any relation).
struct WitnessDecl {
  std::string name;            // "co", "vis", "ar", "ww"
  logic::RelationPtr rel;
  bool order = false;          // declared with order(S): a strict total order on S
  logic::SortId order_sort = logic::kAnySort;
};

struct Framework {
  std::string name;
  std::string doc;
  std::string location;        // "specs/biswas.lua:12"
  std::vector<WitnessDecl> witness;
  logic::FormulaPtr wf;        // the framework's axioms, conjoined with every level
};

struct Level {
  std::string name;            // "biswas.SER"
  std::string title;           // how people name it, when the name does not say ("non-repeatable read")
  std::string aka;             // an anomaly's names in the literature ("A5B, G2-item"), for people; may be empty
  std::string doc;
  std::string location;
  const Framework* framework = nullptr;
  logic::FormulaPtr axiom;
  // A graph characterization the level declares (`graph = "SER"`): the
  // hyper-polygraph (SER, SI) or saturation (RC, RA, CC) decides it, and must
  // agree with the formula (tests check that they do).
  std::optional<GraphLevel> graph;
  // Reads of writes that never became committed versions, which the level's
  // definition allows (Adya's PL-1: aborted reads, G1a, and intermediate
  // reads, G1b). They carry no dependency (Adya: only committed final
  // versions are read from), so decide() sets them aside, says so in a
  // note, and decides the rest. Every other level counts them as violations.
  struct Permits {
    bool aborted_reads = false;
    bool intermediate_reads = false;
  } permits;
  // Exhibited only by histories whose list-append reads reveal version
  // orders (the catalogue's G0): synthesis searches list-append histories
  // for it.
  bool list_reads = false;
  // An anomaly's example for running on a database (`isosynth anomalies
  // --db`), in the one-line notation (engine/history/one_line.hpp), where
  // no schedule realizes the smallest example synthesis finds, or only one
  // with dirty reads where a weaker interleaving shows it: its reads come
  // before its writes, as synthesized histories order them. Empty: none.
  std::string run_example;

  // The whole constraint on an execution: order witnesses, wf, and the axiom.
  logic::FormulaPtr constraint() const;
  // Does the constraint mention session order (h.so, or h.hb built from
  // it)? A level that does not is session-free (Adya's PL levels): every
  // path decides it on the history with each transaction in its own session.
  bool uses_sessions() const;
  // Does the constraint mention the known version orders (h.vo)? A level
  // that does not cannot see what list-append reads reveal.
  bool uses_known_orders() const;
  // Does the constraint talk about read events (the sort Read: h.po, h.rf,
  // ...)? Such a level needs operation-level histories.
  bool uses_read_events() const;
  // Does the constraint mention aborted or intermediate reads
  // (h.aborted_reads, h.intermediate_reads)? Synthesis then searches the
  // space that has them.
  bool uses_dirty_reads() const;
  // Does the constraint tell item reads from predicate reads (h.item_wrx:
  // Adya's PL-2.99)? Synthesis then searches the space with predicate
  // reads.
  bool uses_item_reads() const;
  // Does the constraint mention a real-time order (h.rt, h.rt_cc, h.rt_bc)?
  // Such a level reads the history's begin and commit timestamps; real_time()
  // says which orders, so that a graph path adds those edges.
  bool uses_real_time() const;
  model::RealTimeUse real_time() const;
  // Does the constraint mention the database's own timestamps (h.ts_vis,
  // h.ts_ar: Chronos's sts and cts)? Such a level is decided only on a
  // history whose every transaction has them.
  bool uses_db_timestamps() const;
};

}  // namespace iso
