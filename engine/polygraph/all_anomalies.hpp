// Every anomaly class of a history, as Elle reports them (check --all): the
// reads nothing justifies, grouped by kind, and the cycles of the certain
// graph (the known edges after pruning: what every compatible graph has, or
// what pruning proved), grouped by class, with counts and instances.
//
// Contract of certain_cycles(): the graph is split into its strongly
// connected components; in each, for each class (cycle_class()), a search
// looks for a simple cycle of that class: breadth first from each edge of
// the class's rarest required kind, over the edge kinds the class allows,
// tracking the kinds met, then, if the shortest walks it finds all repeat a
// transaction, depth first over simple paths. A class has a cycle in a
// component iff the search finds one, unless `budget` steps run out first
// (the class is then marked incomplete). The count of a class is the number
// of components with a cycle of it; each such component gives one instance,
// the shortest cycle found from up to kSeedsTried start edges; instances are
// listed shortest first, at most `limit` of them. Cycles that close only
// through the solver's choices (uncertain edges) are not enumerated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/verdict/anomaly.hpp"
#include "engine/verdict/dependency.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly {

class Polygraph;

// The class of a cycle at a level: its base by anti-dependencies and reads,
// G0 (ww only), G1c (ww and wr), G-single (exactly one rw), G2-item (SER)
// or G-nonadjacent (SI) for two or more; with "-realtime" when a real-time
// edge is on it, else "-process" when a session-order edge is (Elle's
// names). Empty when the cycle is no violation of the level: under SI, two
// adjacent anti-dependencies (or the real-time edges that act as them).
std::string cycle_class(const std::vector<DepEdge>& cycle, GraphLevel level);

// The classes in the order they are reported: read anomalies, then G0,
// G1c, G-single, G2-item/G-nonadjacent, each plain, -process, -realtime.
std::size_t class_rank(const std::string& name);

struct ClassCycles {
  std::string name;
  std::size_t count = 0;                       // components with a cycle of the class
  std::vector<std::vector<DepEdge>> cycles;    // one per component, shortest first, at most the limit
  bool incomplete = false;                     // the budget ran out in some component
};

inline constexpr std::size_t kSeedsTried = 8;
inline constexpr std::size_t kDefaultBudget = 4'000'000;

// The classes of the cycles of the graph (`nodes` transactions, `edges`),
// in class_rank() order; `budget`: search steps per class and component.
std::vector<ClassCycles> certain_cycles(std::size_t nodes, const std::vector<DepEdge>& edges,
                                        GraphLevel level, std::size_t limit,
                                        std::size_t budget = kDefaultBudget);

// A class with its instances, named and explained.
struct AnomalyClass {
  enum class Source : std::uint8_t {
    Reads,     // reads nothing justifies, INT violations: count = how many
    Certain,   // cycles of the certain graph: count = components
    Checker,   // the one anomaly the checker found (no certain cycle shows it)
  };
  std::string name;
  Source source = Source::Certain;
  std::size_t count = 0;
  std::vector<Anomaly> instances;
  bool incomplete = false;
};

std::string_view source_name(AnomalyClass::Source s);

// The read anomalies of `a` (committed readers only), by kind.
std::vector<AnomalyClass> read_classes(const History& h, const AbstractHistory& a, std::size_t limit);

// The cycle classes of the polygraph's known graph, each instance named
// (cycle_anomaly) and explained (explain_edges).
std::vector<AnomalyClass> cycle_classes(const Polygraph& pg, GraphLevel level, std::size_t limit);

}  // namespace iso::poly
