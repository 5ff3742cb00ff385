// Every anomaly class of a history (all_anomalies.hpp): the read anomalies by
// kind, and the classes of the certain graph's cycles, searched per strongly
// connected component with the edge kinds each class allows.
#include "engine/polygraph/all_anomalies.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>

#include "engine/graph/digraph.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/polygraph/polygraph.hpp"

namespace iso::poly {

namespace {

constexpr unsigned bit(Dep d) { return 1u << static_cast<unsigned>(d); }
constexpr unsigned kRealTime = bit(Dep::RT) | bit(Dep::RTCC) | bit(Dep::RTBC);

// What a class allows and needs: the edge kinds on it, how many
// anti-dependencies (rw_max 2: two or more), and the kinds it must hold.
struct Spec {
  std::string name;
  unsigned allowed = 0;
  int rw_min = 0, rw_max = 0;
  bool need_wr = false, need_so = false, need_rt = false;
};

std::vector<Spec> specs(GraphLevel level) {
  const std::string g2 = level == GraphLevel::Si ? "G-nonadjacent" : "G2-item";
  const std::array<Spec, 4> bases{
      Spec{"G0", bit(Dep::WW), 0, 0, false, false, false},
      Spec{"G1c", bit(Dep::WW) | bit(Dep::WR), 0, 0, true, false, false},
      Spec{"G-single", bit(Dep::WW) | bit(Dep::WR) | bit(Dep::RW), 1, 1, false, false, false},
      Spec{g2, bit(Dep::WW) | bit(Dep::WR) | bit(Dep::RW), 2, 2, false, false, false}};
  std::vector<Spec> out;
  for (int suffix = 0; suffix < 3; ++suffix)
    for (Spec s : bases) {
      if (suffix == 1) {
        s.name += "-process";
        s.allowed |= bit(Dep::SO);
        s.need_so = true;
      } else if (suffix == 2) {
        s.name += "-realtime";
        s.allowed |= bit(Dep::SO) | kRealTime;
        s.need_rt = true;
      }
      out.push_back(std::move(s));
    }
  return out;
}

// The search state of a node: anti-dependencies met (0, 1, 2 or more), wr,
// so and real-time edges met, and whether the last edge entered the node's
// commit (under SI no edge leaving its begin may follow).
using Flags = std::uint8_t;
constexpr Flags kWr = 4, kSo = 8, kRt = 16, kCommit = 32;
constexpr std::size_t kStates = 64;
int rw_of(Flags f) { return f & 3; }

// The flags after edge e, or nullopt when the spec forbids going on.
std::optional<Flags> step(Flags f, const DepEdge& e, const Spec& s, bool si) {
  if (!(s.allowed & bit(e.type))) return std::nullopt;
  if (si && (f & kCommit) && !schedule_arc(e.type).from_commit) return std::nullopt;
  int rw = rw_of(f) + (e.type == Dep::RW);
  if (rw > s.rw_max) {
    if (s.rw_max < 2) return std::nullopt;
    rw = 2;
  }
  Flags g = static_cast<Flags>((f & (kWr | kSo | kRt)) | rw);
  if (e.type == Dep::WR) g |= kWr;
  if (e.type == Dep::SO) g |= kSo;
  if (real_time(e.type)) g |= kRt;
  if (si && schedule_arc(e.type).to_commit) g |= kCommit;
  return g;
}

bool closes(Flags f, const DepEdge& seed, const Spec& s, bool si) {
  if (rw_of(f) < s.rw_min) return false;
  if ((s.need_wr && !(f & kWr)) || (s.need_so && !(f & kSo)) || (s.need_rt && !(f & kRt))) return false;
  return !(si && (f & kCommit) && !schedule_arc(seed.type).from_commit);
}

bool seed_kind(const DepEdge& e, const Spec& s) {
  if (!(s.allowed & bit(e.type))) return false;
  if (s.need_rt) return real_time(e.type);
  if (s.rw_min > 0) return e.type == Dep::RW;
  if (s.need_so) return e.type == Dep::SO;
  if (s.need_wr) return e.type == Dep::WR;
  return e.type == Dep::WW;
}

// Strongly connected components of the edges `keep` accepts: a component
// id per node.
template <class Keep>
std::vector<std::uint32_t> components(std::size_t n, const std::vector<DepEdge>& edges, Keep keep) {
  graph::Digraph g(static_cast<std::uint32_t>(n));
  for (std::uint32_t i = 0; i < edges.size(); ++i)
    if (keep(edges[i])) g.add_edge(edges[i].from, edges[i].to, i);
  std::uint32_t count = 0;
  return graph::components(g, count);
}

// The search of one class in the graph, with its budget.
class ClassSearch {
 public:
  ClassSearch(std::size_t n, const std::vector<std::vector<std::uint32_t>>& out,
              const std::vector<DepEdge>& edges, const Spec& spec, bool si, std::size_t budget)
      : out_(out), edges_(edges), spec_(spec), si_(si), budget_(budget),
        stamp_(n * kStates, 0), parent_(n * kStates), on_path_(n, false) {}

  // A breadth-first walk from seed.to back to seed.from: the cycle (seed
  // first), or empty. `walk` is set when one was found, simple or not.
  std::vector<DepEdge> bfs(std::uint32_t seed, bool& walk);
  // A simple cycle through the seed, depth first.
  std::vector<DepEdge> dfs(std::uint32_t seed);
  bool exhausted() const { return steps_ > budget_; }
  void new_component() { steps_ = 0; }

 private:
  bool dfs_from(std::uint32_t v, Flags f, const DepEdge& seed, std::vector<std::uint32_t>& path);

  const std::vector<std::vector<std::uint32_t>>& out_;
  const std::vector<DepEdge>& edges_;
  const Spec& spec_;
  bool si_;
  std::size_t budget_, steps_ = 0;
  std::uint32_t round_ = 0;
  std::vector<std::uint32_t> stamp_;
  std::vector<std::pair<std::size_t, std::uint32_t>> parent_;  // (state, edge)
  std::vector<bool> on_path_;
};

std::vector<DepEdge> ClassSearch::bfs(std::uint32_t seed_id, bool& walk) {
  const DepEdge& seed = edges_[seed_id];
  auto first = step(0, seed, spec_, si_);
  if (!first) return {};
  ++round_;
  const std::size_t start = seed.to * kStates + *first;
  stamp_[start] = round_;
  std::vector<std::size_t> queue{start};
  std::optional<std::size_t> end;
  for (std::size_t qi = 0; qi < queue.size() && !end; ++qi) {
    const std::size_t s = queue[qi];
    const std::uint32_t v = static_cast<std::uint32_t>(s / kStates);
    if (v == seed.from) {
      if (closes(static_cast<Flags>(s % kStates), seed, spec_, si_)) end = s;
      continue;  // a walk through the seed's start again is no simple cycle
    }
    for (std::uint32_t id : out_[v]) {
      if (++steps_ > budget_) return {};
      auto g = step(static_cast<Flags>(s % kStates), edges_[id], spec_, si_);
      if (!g) continue;
      const std::size_t t = edges_[id].to * kStates + *g;
      if (stamp_[t] == round_) continue;
      stamp_[t] = round_;
      parent_[t] = {s, id};
      queue.push_back(t);
    }
  }
  if (!end) return {};
  walk = true;
  std::vector<DepEdge> back;
  for (std::size_t s = *end; s != start; s = parent_[s].first) back.push_back(edges_[parent_[s].second]);
  std::vector<DepEdge> cycle{seed};
  cycle.insert(cycle.end(), back.rbegin(), back.rend());
  std::vector<TxnId> nodes;
  for (const DepEdge& e : cycle) nodes.push_back(e.from);
  std::sort(nodes.begin(), nodes.end());
  if (std::adjacent_find(nodes.begin(), nodes.end()) != nodes.end()) return {};
  return cycle;
}

bool ClassSearch::dfs_from(std::uint32_t v, Flags f, const DepEdge& seed, std::vector<std::uint32_t>& path) {
  if (v == seed.from) return closes(f, seed, spec_, si_);
  on_path_[v] = true;
  for (std::uint32_t id : out_[v]) {
    if (++steps_ > budget_) break;
    const DepEdge& e = edges_[id];
    if (on_path_[e.to]) continue;
    auto g = step(f, e, spec_, si_);
    if (!g) continue;
    path.push_back(id);
    if (dfs_from(e.to, *g, seed, path)) {
      on_path_[v] = false;
      return true;
    }
    path.pop_back();
  }
  on_path_[v] = false;
  return false;
}

std::vector<DepEdge> ClassSearch::dfs(std::uint32_t seed_id) {
  const DepEdge& seed = edges_[seed_id];
  auto first = step(0, seed, spec_, si_);
  if (!first) return {};
  std::vector<std::uint32_t> path;
  on_path_[seed.from] = false;
  if (!dfs_from(seed.to, *first, seed, path)) return {};
  std::vector<DepEdge> cycle{seed};
  for (std::uint32_t id : path) cycle.push_back(edges_[id]);
  return cycle;
}

// One class in one component: its shortest cycle found, if any.
std::vector<DepEdge> search_component(ClassSearch& search, const std::vector<std::uint32_t>& seeds,
                                      bool& incomplete) {
  std::vector<DepEdge> best;
  std::size_t found = 0;
  bool any_walk = false;
  for (std::uint32_t seed : seeds) {
    bool walk = false;
    auto cycle = search.bfs(seed, walk);
    if (search.exhausted()) break;
    any_walk |= walk;
    if (!cycle.empty() && (best.empty() || cycle.size() < best.size())) best = std::move(cycle);
    if (walk && ++found >= kSeedsTried) break;
  }
  // Only walks that repeat a transaction: look for a simple cycle itself.
  if (best.empty() && any_walk)
    for (std::uint32_t seed : seeds) {
      best = search.dfs(seed);
      if (!best.empty() || search.exhausted()) break;
    }
  if (best.empty() && search.exhausted()) incomplete = true;
  return best;
}

}  // namespace

std::string cycle_class(const std::vector<DepEdge>& cycle, GraphLevel level) {
  std::size_t rw = 0;
  bool wr = false, so = false, rt = false;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const DepEdge& e = cycle[i];
    rw += e.type == Dep::RW;
    wr |= e.type == Dep::WR;
    so |= e.type == Dep::SO;
    rt |= real_time(e.type);
    const DepEdge& next = cycle[(i + 1) % cycle.size()];
    if (level == GraphLevel::Si && schedule_arc(e.type).to_commit && !schedule_arc(next.type).from_commit)
      return {};
  }
  std::string name = rw == 0   ? (wr ? "G1c" : "G0")
                     : rw == 1 ? "G-single"
                               : (level == GraphLevel::Si ? "G-nonadjacent" : "G2-item");
  if (rt) return name + "-realtime";
  if (so) return name + "-process";
  return name;
}

std::size_t class_rank(const std::string& name) {
  static const std::array<std::string_view, 5> bases{"G0", "G1c", "G-single", "G2-item", "G-nonadjacent"};
  std::size_t suffix = 0;
  std::string_view base = name;
  for (std::string_view s : {std::string_view("-process"), std::string_view("-realtime")}) {
    if (base.size() > s.size() && base.substr(base.size() - s.size()) == s) {
      suffix = s == "-process" ? 1 : 2;
      base = base.substr(0, base.size() - s.size());
    }
  }
  for (std::size_t i = 0; i < bases.size(); ++i)
    if (bases[i] == base) return 1 + suffix * bases.size() + i;
  return 0;  // read anomalies first
}

std::vector<ClassCycles> certain_cycles(std::size_t n, const std::vector<DepEdge>& edges, GraphLevel level,
                                        std::size_t limit, std::size_t budget) {
  std::vector<std::vector<std::uint32_t>> out(n);
  for (std::uint32_t i = 0; i < edges.size(); ++i) out[edges[i].from].push_back(i);
  const auto whole = components(n, edges, [](const DepEdge&) { return true; });
  const bool si = level == GraphLevel::Si;
  std::vector<ClassCycles> result;
  for (const Spec& spec : specs(level)) {
    // Seeds by component of the edges the class allows: a cycle of it lies
    // in one.
    const auto comp = components(n, edges, [&](const DepEdge& e) { return (spec.allowed & bit(e.type)) != 0; });
    std::map<std::uint32_t, std::vector<std::uint32_t>> seeds;  // by component of the whole graph
    for (std::uint32_t i = 0; i < edges.size(); ++i)
      if (seed_kind(edges[i], spec) && comp[edges[i].from] == comp[edges[i].to])
        seeds[whole[edges[i].from]].push_back(i);
    if (seeds.empty()) continue;
    ClassCycles c{spec.name, 0, {}, false};
    ClassSearch search(n, out, edges, spec, si, budget);
    for (auto& [component, ids] : seeds) {
      search.new_component();
      auto cycle = search_component(search, ids, c.incomplete);
      if (cycle.empty()) continue;
      ++c.count;
      c.cycles.push_back(std::move(cycle));
    }
    if (c.count == 0 && !c.incomplete) continue;
    std::stable_sort(c.cycles.begin(), c.cycles.end(),
                     [](const auto& a, const auto& b) { return a.size() < b.size(); });
    if (c.cycles.size() > limit) c.cycles.resize(limit);
    result.push_back(std::move(c));
  }
  return result;
}

std::string_view source_name(AnomalyClass::Source s) {
  switch (s) {
    case AnomalyClass::Source::Reads: return "reads";
    case AnomalyClass::Source::Certain: return "certain-graph";
    case AnomalyClass::Source::Checker: return "checker";
  }
  return "?";
}

std::vector<AnomalyClass> read_classes(const History& h, const AbstractHistory& a, std::size_t limit) {
  std::vector<AnomalyClass> out;
  auto add = [&](Anomaly an) {
    auto it = std::find_if(out.begin(), out.end(), [&](const AnomalyClass& c) { return c.name == an.name; });
    if (it == out.end()) it = out.insert(out.end(), AnomalyClass{an.name, AnomalyClass::Source::Reads, 0, {}, false});
    ++it->count;
    if (it->instances.size() < limit) it->instances.push_back(std::move(an));
  };
  for (const IntViolation& v : a.int_violations)
    if (h.txn(v.txn).status != TxnStatus::Unknown) add(int_anomaly(v));
  for (const UnjustifiedRead& r : a.unjustified_reads)
    if (h.txn(r.txn).status != TxnStatus::Unknown) add(read_anomaly(r));
  return out;
}

std::vector<AnomalyClass> cycle_classes(const Polygraph& pg, GraphLevel level, std::size_t limit) {
  const History& h = pg.history();
  std::vector<AnomalyClass> out;
  for (ClassCycles& c : certain_cycles(h.num_txns(), pg.known(), level, limit)) {
    AnomalyClass ac{c.name, AnomalyClass::Source::Certain, c.count, {}, c.incomplete};
    for (auto& cycle : c.cycles) {
      Anomaly an = cycle_anomaly(h, std::move(cycle), level);
      explain_edges(pg, an);
      ac.instances.push_back(std::move(an));
    }
    out.push_back(std::move(ac));
  }
  return out;
}

}  // namespace iso::poly
