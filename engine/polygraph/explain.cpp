// Names, descriptions and per-edge explanations of anomalies (explain.hpp):
// what each edge of a cycle rests on, as a database engineer checks it.
#include "engine/polygraph/explain.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "engine/history/predicate.hpp"
#include "engine/history/printer.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly {

namespace {

// Does t's operation i, a predicate read or write, cover k?
bool covers(const History& h, const Op& op, KeyId k) {
  const auto p = parse_predicate(h.predicate_reads()[op.predicate].predicate);
  return p && p->covers(h.keys()[k]);
}

// t's last write of k: an item write, or a predicate write that covers k
// (which wrote k, if the version is t's).
std::optional<std::uint32_t> last_write_of(const History& h, TxnId t, KeyId k) {
  const auto& ops = h.txn(t).ops;
  for (std::uint32_t i = static_cast<std::uint32_t>(ops.size()); i-- > 0;) {
    if (ops[i].kind == OpKind::Write && ops[i].key == k) return i;
    if (ops[i].kind == OpKind::PredicateWrite && covers(h, ops[i], k)) return i;
  }
  return std::nullopt;
}

// The value of the version of k that `writer` installed: its last write, or
// T0's initial value.
std::optional<ValueId> version_value(const History& h, TxnId writer, KeyId k) {
  if (writer == kInitTxn) return h.init_value(k);
  auto w = last_write_of(h, writer, k);
  if (!w) return std::nullopt;
  return h.txn(writer).ops[*w].value;
}

// t's read event of k (a read before t's own write of k) that returns the
// version of `writer` (`returns`), or one that does not (`!returns`): an
// operation-level history may read k several times. Else t's first read
// of k.
std::optional<std::uint32_t> read_of(const History& h, TxnId t, KeyId k, TxnId writer,
                                     bool returns) {
  const auto& ops = h.txn(t).ops;
  const std::optional<ValueId> v = version_value(h, writer, k);
  std::optional<std::uint32_t> first;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    if (ops[i].key != k || ops[i].kind == OpKind::PredicateRead ||
        ops[i].kind == OpKind::PredicateWrite)
      continue;
    if (ops[i].kind == OpKind::Write) break;
    if (!first) first = i;
    if (v && (ops[i].value == *v) == returns) return i;
  }
  if (first) return first;
  for (std::uint32_t i = 0; i < ops.size(); ++i)
    if (ops[i].kind == OpKind::Read && ops[i].key == k) return i;
  // A predicate read or write that covers k (its read event of k).
  for (std::uint32_t i = 0; i < ops.size(); ++i)
    if ((ops[i].kind == OpKind::PredicateRead || ops[i].kind == OpKind::PredicateWrite) &&
        covers(h, ops[i], k))
      return i;
  return std::nullopt;
}


// "T2's r(x,3) (line 14)".
std::string op_text(const History& h, TxnId t, std::uint32_t i) {
  const Op& op = h.txn(t).ops[i];
  std::string s = fmt::format("{}'s {}", h.txn_name(t), format_op(h, op));
  if (op.line > 0) s += fmt::format(" (line {})", op.line);
  return s;
}

// The version of k that t wrote: its last write, or T0's initial value.
std::string version_text(const History& h, TxnId t, KeyId k) {
  if (t == kInitTxn)
    return h.t0_writes(k) ? fmt::format("the initial {} = {}", h.key_text(k), h.value_text(h.init_value(k)))
                          : fmt::format("{} before it was inserted", h.key_text(k));
  auto w = last_write_of(h, t, k);
  return w ? op_text(h, t, *w) : fmt::format("{}'s write of {}", h.txn_name(t), h.key_text(k));
}

// t's read of k that returns (or, `!returns`, does not return) writer's version.
std::string read_text(const History& h, TxnId t, KeyId k, TxnId writer, bool returns) {
  auto r = read_of(h, t, k, writer, returns);
  return r ? op_text(h, t, *r) : fmt::format("{}'s read of {}", h.txn_name(t), h.key_text(k));
}

// The position of t's last element of key k in `list`, if t appended one.
std::optional<std::size_t> element_of(const History& h, TxnId t, KeyId k,
                                      const std::vector<ValueId>& list) {
  std::optional<std::size_t> at;
  for (const Op& op : h.txn(t).ops) {
    if (op.kind != OpKind::Write || op.key != k) continue;
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i] == op.value) at = i;
  }
  return at;
}

// Why a known edge is certain, or empty when its fact says it all.
std::string known_why(const Polygraph& pg, std::size_t id, int depth);

// An anti-dependency a -rw(x)-> b: a read a version that b overwrote; the
// write-write order behind it, and why.
std::string derived_why(const Polygraph& pg, const DepEdge& e, int depth) {
  const History& h = pg.history();
  const auto& known = pg.known();
  for (std::size_t i = 0; i < known.size(); ++i) {
    const DepEdge& wr = known[i];
    if (wr.type != Dep::WR || wr.to != e.from || wr.key != e.key) continue;
    auto ww = pg.known_id(DepEdge{wr.from, e.to, Dep::WW, e.key});
    if (!ww) continue;
    const bool unborn = wr.from == kInitTxn && !h.t0_writes(e.key);
    std::string s = fmt::format(
        "{} read {}, and {} is later", h.txn_name(e.from),
        unborn                ? fmt::format("{} before it was inserted", h.key_text(e.key))
        : wr.from == kInitTxn ? std::string("the initial version")
                              : h.txn_name(wr.from) + "'s version",
        version_text(h, e.to, e.key));
    std::string more = known_why(pg, *ww, depth + 1);
    if (!more.empty()) s += fmt::format(" ({})", more);
    return s;
  }
  return {};
}

std::string known_why(const Polygraph& pg, std::size_t id, int depth) {
  const EdgeWhy why = pg.known_why(id);
  const DepEdge& e = pg.known()[id];
  switch (why.kind) {
    case EdgeWhy::Kind::Observed:
      return e.type == Dep::WR ? "no other transaction wrote that value" : std::string();
    case EdgeWhy::Kind::Initial:
      return {};
    case EdgeWhy::Kind::ListOrder:
      return list_order_text(pg.history(), pg.abstract().known_orders[why.ref], e);
    case EdgeWhy::Kind::Pruned: {
      const auto cycle = pg.alternative_cycle(id);
      const std::string other = e.type == Dep::WW ? "the other order" : "any other writer of that value";
      if (cycle.empty()) return fmt::format("{} closes a cycle with certain edges", other);
      return fmt::format("{} would close the cycle {}", other, format_cycle(pg.history(), cycle));
    }
    case EdgeWhy::Kind::ReadModifyWrite:
      return fmt::format("{} read {} before writing {}: a version between them would be a lost update",
                         pg.history().txn_name(e.to),
                         e.from == kInitTxn ? std::string("the initial version") : version_text(pg.history(), e.from, e.key),
                         pg.history().key_text(e.key));
    case EdgeWhy::Kind::RealTime:
      if (e.from == kInitTxn) return {};
      return fmt::format("{} committed before {} began", pg.history().txn_name(e.from), pg.history().txn_name(e.to));
    case EdgeWhy::Kind::Derived:
      return depth > 1 ? std::string() : derived_why(pg, e, depth);
  }
  return {};
}

}  // namespace

std::string list_order_text(const History& h, const KnownOrder& ko, const DepEdge& e) {
  const Op& op = h.txn(ko.reader).ops[ko.op];
  const auto& list = h.lists()[op.list];
  const auto from = element_of(h, e.from, e.key, list);
  const auto to = element_of(h, e.to, e.key, list);
  const std::string reader = op_text(h, ko.reader, ko.op);
  if (from && to)
    return fmt::format("{} lists {}'s {} before {}'s {}", reader, h.txn_name(e.from),
                       h.value_text(list[*from]), h.txn_name(e.to), h.value_text(list[*to]));
  return fmt::format("{} ends with {}'s appends and lacks {}'s, which came later", reader,
                     h.txn_name(e.from), h.txn_name(e.to));
}

std::string format_cycle(const History& h, const std::vector<DepEdge>& cycle) {
  if (cycle.empty()) return "";
  std::string out = h.txn_name(cycle.front().from);
  for (const DepEdge& e : cycle) {
    if (!keyed(e.type))
      out += fmt::format(" -{}-> {}", edge_type_name(e), h.txn_name(e.to));
    else
      out += fmt::format(" -{}({})-> {}", dep_name(e.type), h.key_text(e.key), h.txn_name(e.to));
  }
  return out;
}

std::string edge_fact(const History& h, const DepEdge& e) {
  switch (e.type) {
    case Dep::SO:
      if (e.from == kInitTxn) return "T0, the initial state, precedes every transaction";
      return fmt::format("{} precedes {} in their session", h.txn_name(e.from), h.txn_name(e.to));
    case Dep::WR:
      return fmt::format("{} reads {}", read_text(h, e.to, e.key, e.from, true),
                         version_text(h, e.from, e.key));
    case Dep::WW:
      return fmt::format("{} overwrites {}", version_text(h, e.to, e.key),
                         version_text(h, e.from, e.key));
    case Dep::RW: {
      // A key a predicate read left out: it read a version that fails the
      // predicate, and the later write may be what made it match (a
      // predicate anti-dependency). A key it returned: an item read of it
      // follows, so the overwrite is an item anti-dependency, whether or
      // not the new version still matches.
      const auto r = read_of(h, e.from, e.key, e.to, false);
      if (r && h.txn(e.from).ops[*r].kind == OpKind::PredicateRead) {
        const PredicateRead& pr = h.predicate_reads()[h.txn(e.from).ops[*r].predicate];
        const auto returned = std::find_if(pr.result.begin(), pr.result.end(),
                                           [&](const auto& kv) { return kv.first == e.key; });
        if (returned == pr.result.end())
          return fmt::format("{} leaves out {}: it read a version of {} that fails {}, which {} "
                             "overwrites (a predicate anti-dependency)",
                             op_text(h, e.from, *r), h.key_text(e.key), h.key_text(e.key),
                             pr.predicate, version_text(h, e.to, e.key));
        return fmt::format("{} returns {} = {}, an item read of a version that {} overwrites (an "
                           "item anti-dependency)",
                           op_text(h, e.from, *r), h.key_text(e.key), h.value_text(returned->second),
                           version_text(h, e.to, e.key));
      }
      return fmt::format("{} reads a version that {} overwrites",
                         read_text(h, e.from, e.key, e.to, false), version_text(h, e.to, e.key));
    }
    case Dep::RT:
    case Dep::RTCC:
    case Dep::RTBC: {
      // The latest the first event can have been, the earliest the second
      // (History::time_before).
      using Event = History::Event;
      const ScheduleArc arc = schedule_arc(e.type);
      const auto x = h.latest(e.from, arc.from_commit ? Event::Commit : Event::Begin);
      const auto y = h.earliest(e.to, arc.to_commit ? Event::Commit : Event::Begin);
      if (e.from == kInitTxn || !x || !y) return "T0, the initial state, precedes every transaction";
      std::string s = fmt::format("{} {} at {} before {} {} at {}", h.txn_name(e.from),
                                  arc.from_commit ? "committed" : "began", *x, h.txn_name(e.to),
                                  arc.to_commit ? "committed" : "began", *y);
      if (h.clock_skew() > 0)
        s += fmt::format(", more than twice the clock skew {} apart", h.clock_skew());
      return s;
    }
  }
  return {};
}

std::vector<std::pair<TxnId, std::uint32_t>> edge_operations(const History& h, const DepEdge& e) {
  std::vector<std::pair<TxnId, std::uint32_t>> out;
  auto add = [&](TxnId t, std::optional<std::uint32_t> i) {
    if (t != kInitTxn && i) out.emplace_back(t, *i);
  };
  switch (e.type) {
    case Dep::WR:
      add(e.from, last_write_of(h, e.from, e.key));
      add(e.to, read_of(h, e.to, e.key, e.from, true));
      break;
    case Dep::WW:
      add(e.from, last_write_of(h, e.from, e.key));
      add(e.to, last_write_of(h, e.to, e.key));
      break;
    case Dep::RW:
      add(e.from, read_of(h, e.from, e.key, e.to, false));
      add(e.to, last_write_of(h, e.to, e.key));
      break;
    default:
      break;
  }
  return out;
}

namespace {

OtherName plume_name(PlumePattern p) {
  return OtherName{"Plume", std::string(p.code), std::string(p.name)};
}

}  // namespace

Anomaly read_anomaly(const UnjustifiedRead& r) {
  Anomaly a;
  a.name = std::string(read_anomaly_name(r.kind));
  if (auto p = plume_pattern(r.kind)) a.also_known_as.push_back(plume_name(*p));
  a.description = r.message;
  a.txns = {r.txn};
  if (r.writer != kNoTxn && r.writer != r.txn) a.txns.push_back(r.writer);
  if (r.other_txn != kNoTxn && r.other_txn != r.txn) a.txns.push_back(r.other_txn);
  return a;
}

Anomaly int_anomaly(const IntViolation& v) {
  Anomaly a;
  a.name = "INT";
  a.also_known_as.push_back(plume_name(plume_pattern(v.pattern)));
  a.description = v.message;
  a.txns = {v.txn};
  return a;
}

Anomaly cycle_anomaly(const History& h, std::vector<DepEdge> cycle, GraphLevel level) {
  auto first_rw = std::find_if(cycle.begin(), cycle.end(),
                               [](const DepEdge& e) { return e.type == Dep::RW; });
  if (first_rw != cycle.end()) std::rotate(cycle.begin(), first_rw, cycle.end());
  std::size_t rw = 0, wr = 0;
  for (const DepEdge& e : cycle) {
    rw += e.type == Dep::RW;
    wr += e.type == Dep::WR;
  }
  const bool two = cycle.size() == 2;
  Anomaly a;
  if (rw == 0) {
    a.name = wr == 0 ? "G0" : "G1c";
  } else if (rw == 1) {
    a.name = "G-single";
    if (two && cycle[1].type == Dep::WW && cycle[1].key == cycle[0].key) a.name = "lost update";
    // t reads x, t' overwrites that version, and t reads x again from t':
    // one transaction saw two versions of x (Adya's fuzzy read).
    if (two && cycle[1].type == Dep::WR && cycle[1].key == cycle[0].key)
      a.name = "non-repeatable read";
  } else if (level == GraphLevel::Si) {
    // No two rw edges are adjacent in an SI cycle.
    a.name = "G-nonadjacent";
    if (cycle.size() == 4 && rw == 2 && wr == 2 && cycle[1].type == Dep::WR &&
        cycle[3].type == Dep::WR)
      a.name = "long fork";
  } else {
    a.name = "G2-item";
    // Two transactions reading the same version: of one key, each
    // overwriting it (lost update); of two keys, each writing the key the
    // other read (write skew).
    if (two && rw == 2) a.name = cycle[0].key == cycle[1].key ? "lost update" : "write skew";
  }
  // A cycle that real time closes, else one through session order: Elle's
  // names (G-single-realtime, G1c-process, ...).
  if (std::any_of(cycle.begin(), cycle.end(), [](const DepEdge& e) { return real_time(e.type); }))
    a.name += "-realtime";
  else if (std::any_of(cycle.begin(), cycle.end(), [](const DepEdge& e) { return e.type == Dep::SO; }))
    a.name += "-process";
  for (const DepEdge& e : cycle) a.txns.push_back(e.from);
  a.description = format_cycle(h, cycle);
  if (level == GraphLevel::Si && a.name == "G-single")
    a.description += " (Adya's G-SIb, missed effects: one anti-dependency)";
  if (a.name == "non-repeatable read")
    a.description += fmt::format(" ({} reads {} twice and sees two versions; Adya's G-single)",
                                 h.txn_name(cycle[0].from),
                                 h.key_text(cycle[0].key));
  a.cycle = std::move(cycle);
  return a;
}

void explain_edges(const Polygraph& pg, Anomaly& a,
                   const std::vector<std::vector<DepEdge>>& others) {
  const History& h = pg.history();
  a.why.clear();
  bool others_used = false;
  for (const DepEdge& e : a.cycle) {
    std::string s = edge_fact(h, e);
    if (auto id = pg.known_id(e)) {
      std::string why = known_why(pg, *id, 0);
      if (!why.empty()) s += ": " + why;
    } else if (!others.empty() && !others_used) {
      others_used = true;
      s += fmt::format(": one choice; the other{} close{} the cycle{} {}",
                       others.size() > 1 ? "s" : "", others.size() > 1 ? "" : "s",
                       others.size() > 1 ? "s" : "", format_cycle(h, others.front()));
      for (std::size_t i = 1; i < others.size(); ++i) s += ", " + format_cycle(h, others[i]);
    } else {
      s += ": one choice of a compatible graph; every choice has a cycle";
    }
    a.why.push_back(std::move(s));
  }
}

}  // namespace iso::poly
