// Names for anomalies (Adya 1999, Adya–Liskov–O'Neil 2000; Berenson et al.
// 1995 for lost update and write skew) and one-line descriptions of cycles.
#pragma once

#include <string>
#include <vector>

#include "engine/history/read_anomaly.hpp"
#include "engine/polygraph/checker.hpp"

namespace iso::poly {

// Names a dependency cycle by its edge types: G0 (write cycle: ww and so
// only), G1c (circular information flow: no rw), G-single (exactly one rw;
// "lost update" when it is a two-transaction rw/ww cycle on one key), G2-item
// (two or more rw; for two transactions and two rw edges, "lost update" when
// both are on one key and "write skew" when on two).
// The cycle is rotated to start at its first rw edge, if any.
Anomaly cycle_anomaly(const History& h, std::vector<DepEdge> cycle);

// A read nothing justifies, or an INT violation, as an anomaly named by its
// type (read_anomaly_name(); "INT").
Anomaly read_anomaly(const UnjustifiedRead& r);
Anomaly int_anomaly(const IntViolation& v);

// "T1 -rw(x)-> T2 -ww(x)-> T1".
std::string format_cycle(const History& h, const std::vector<DepEdge>& cycle);

}  // namespace iso::poly
