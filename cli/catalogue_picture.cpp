// The catalogue's pictures (catalogue_picture.hpp): a G0 drawn as its
// revealed ww cycle, every other pattern as the cycle of the weakest level
// that forbids its example, each named as the catalogue names it.
#include "cli/catalogue_picture.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "cli/dot.hpp"
#include "engine/history/abstract.hpp"

namespace iso::cli {

namespace {

// The ww edges the known version orders give: each writer of the chain
// before the next, the chain's last before every other writer of the key.
std::vector<DepEdge> revealed_ww(const History& h, const AbstractHistory& ah) {
  std::vector<DepEdge> edges;
  for (const KnownOrder& o : ah.known_orders) {
    if (o.condition != kNoTxn || o.chain.empty()) continue;
    for (std::size_t i = 1; i < o.chain.size(); ++i) edges.push_back({o.chain[i - 1], o.chain[i], Dep::WW, o.key});
    for (TxnId t : ah.txns)
      if (t != kInitTxn && h.txn(t).status == TxnStatus::Committed && ah.writes(t, o.key) && !o.places(t))
        edges.push_back({o.chain.back(), t, Dep::WW, o.key});
  }
  return edges;
}

// A cycle of `edges` (depth-first from each transaction in turn), or empty.
std::vector<DepEdge> find_cycle(const std::vector<DepEdge>& edges) {
  std::vector<DepEdge> path;
  std::vector<TxnId> on_path;
  // Extends `path` from `t` until it returns to its first transaction.
  auto extend = [&](auto&& self, TxnId t) -> bool {
    for (const DepEdge& e : edges) {
      if (e.from != t) continue;
      path.push_back(e);
      if (e.to == path.front().from) return true;
      if (std::find(on_path.begin(), on_path.end(), e.to) == on_path.end()) {
        on_path.push_back(e.to);
        if (self(self, e.to)) return true;
        on_path.pop_back();
      }
      path.pop_back();
    }
    return false;
  };
  for (const DepEdge& start : edges) {
    path.clear();
    on_path = {start.from};
    if (extend(extend, start.from)) return path;
  }
  return {};
}

}  // namespace

std::vector<DepEdge> revealed_ww_cycle(const History& h) { return find_cycle(revealed_ww(h, abstract_history(h))); }

std::string catalogue_dot(const History& h, const std::string& name, const std::vector<const Level*>& forbidding) {
  PictureOptions options;
  options.pattern = name;
  const std::string title = fmt::format("{}: its pattern, in red", name);
  if (forbidding.empty()) return history_dot(h, {}, {}, title, options);
  // G0: no checker needs the ww cycle when a wr edge closes one too; the
  // pattern is the ww cycle itself, which every level forbids.
  if (std::vector<DepEdge> ww = revealed_ww_cycle(h); !ww.empty()) {
    Decision d;
    d.verdict = Verdict::Violated;
    Anomaly a;
    a.name = "G0";
    a.description = "a cycle of write dependencies (ww), revealed by the list reads";
    a.cycle = std::move(ww);
    d.anomaly = std::move(a);
    options.pattern = name == "G0" ? name : name + " (G0)";
    return history_dot(h, {}, {{forbidding.front()->name, &d}}, title, options);
  }
  // The first cycle among the transactions of the history, else the first
  // through T0, else the first level's reason.
  std::optional<Decision> first, through_t0;  // of first_level, t0_level
  std::string first_level, t0_level;
  for (const Level* l : forbidding) {
    try {
      Decision d = decide(h, *l);
      const bool cycle = d.anomaly && !d.anomaly->cycle.empty();
      const auto on_t0 = [](const DepEdge& e) { return e.from == kInitTxn || e.to == kInitTxn; };
      if (cycle && std::none_of(d.anomaly->cycle.begin(), d.anomaly->cycle.end(), on_t0))
        return history_dot(h, {}, {{l->name, &d}}, title, options);
      if (cycle && !through_t0) {
        through_t0 = std::move(d);
        t0_level = l->name;
      } else if (!cycle && !first) {
        first = std::move(d);
        first_level = l->name;
      }
    } catch (const DecideRefused&) {
      // This level cannot say why; a weaker or stronger one will.
    }
  }
  if (through_t0) return history_dot(h, {}, {{t0_level, &*through_t0}}, title, options);
  if (!first) return history_dot(h, {}, {}, title, options);
  return history_dot(h, {}, {{first_level, &*first}}, title, options);
}

}  // namespace iso::cli
