// Explanations a database engineer can check by hand: names for anomalies
// (Adya 1999; Adya, Liskov & O'Neil 2000; Berenson et al. 1995 for lost
// update and write skew; Elle's names for snapshot isolation), one-line
// descriptions of cycles, and for every edge of a cycle what it rests on:
// the operations, with the input lines they come from, and for an edge that
// was inferred (a write-write order a list read shows, or that pruning
// proved because the other order closes a cycle; an anti-dependency derived
// from a read and such an order) why.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/history/read_anomaly.hpp"
#include "engine/polygraph/checker.hpp"
#include "engine/polygraph/polygraph.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly {

// Names a dependency cycle by its edge types.
// Serializability: G0 (ww and so only), G1c (no rw), G-single (one rw; "lost
// update" for a two-transaction rw/ww cycle on one key), G2-item (two or
// more; "lost update" or "write skew" for two transactions and two rw edges
// on one key or two).
// Snapshot isolation, whose cycles never hold two adjacent rw edges (G2-item
// with adjacent ones is allowed by SI): G0, G1c, G-single (Adya's G-SIb,
// missed effects; "lost update" as above), G-nonadjacent (several rw, none
// adjacent, as Elle names it; "long fork" for wr rw wr rw over four
// transactions).
// The cycle is rotated to start at its first rw edge, if any.
Anomaly cycle_anomaly(const History& h, std::vector<DepEdge> cycle, GraphLevel level);

// A read nothing justifies, or an INT violation, as an anomaly named by its
// type (read_anomaly_name(); "INT"), with Plume's pattern (TAP-a to TAP-f)
// among its other names.
Anomaly read_anomaly(const UnjustifiedRead& r);
Anomaly int_anomaly(const IntViolation& v);

// "T1 -rw(x)-> T2 -ww(x)-> T1"; session order from T0 (the initial state,
// before every transaction) is "-init->".
std::string format_cycle(const History& h, const std::vector<DepEdge>& cycle);

// What an edge is, from the operations alone: "T2's r(x,3) (line 14) reads
// T1's w(x,3) (line 9)".
std::string edge_fact(const History& h, const DepEdge& e);

// The operations an edge rests on, each as (transaction, index in its
// transaction), the source's first: for wr the write and the read that
// returns it, for ww the two writes, for rw the read and the overwriting
// write (the operations edge_fact() names). T0's initial versions are no
// operation; session and real-time edges rest on none.
std::vector<std::pair<TxnId, std::uint32_t>> edge_operations(const History& h, const DepEdge& e);

// Why the write-write order e (on e.key) is known from the list read of
// `ko`: "T5's r(x,[1 2]) (line 12) lists T1's 1 before T2's 2".
std::string list_order_text(const History& h, const KnownOrder& ko, const DepEdge& e);

// Fills a.why for a cycle of the polygraph `pg`: each edge's fact, and for
// the inferred ones why. An edge that is not certain is one choice of the
// compatible graph the cycle lies in; `others` are the cycles the other
// choices close (pruning proved every choice cyclic), if known.
void explain_edges(const Polygraph& pg, Anomaly& a,
                   const std::vector<std::vector<DepEdge>>& others = {});

}  // namespace iso::poly
