#include "tests/brute/enumerate.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "tests/brute/brute.hpp"

namespace iso::brute {

void record_separations(const AbstractHistory& ah, const std::vector<std::string>& levels,
                        std::vector<std::vector<bool>>& separated) {
  std::vector<bool> allowed(levels.size());
  for (std::size_t i = 0; i < levels.size(); ++i) allowed[i] = allows(ah, levels[i]);
  for (std::size_t a = 0; a < levels.size(); ++a)
    if (allowed[a])
      for (std::size_t b = 0; b < levels.size(); ++b)
        if (!allowed[b]) separated[a][b] = true;
}

std::vector<std::string> all_levels() {
  std::vector<std::string> out;
  for (const auto* list : {&levels(), &adya_levels()})
    for (const std::string& l : *list)
      if (l != "adya.SI" && l != "adya.SER" && std::find(out.begin(), out.end(), l) == out.end())
        out.push_back(l);
  return out;
}

namespace {

// Calls f on `h` with each strict weak order of its transactions' begin and
// commit events as exact times: event e of transaction t (0: begin, 1:
// commit) at 10 * (rank + 1), the ranks an ordered partition (every rank
// below the largest used), each begin at most its commit, and a session's
// transactions one after another (`sm`: each transaction's session).
template <class F>
void for_each_event_order(const History& h, const std::vector<int>& sm, const F& f) {
  const int n = static_cast<int>(h.num_txns()) - 1, e = 2 * n;
  std::vector<int> rank(static_cast<std::size_t>(e), 0);
  while (true) {
    int top = *std::max_element(rank.begin(), rank.end());
    bool ok = true;
    for (int r = 0; r <= top && ok; ++r) ok = std::find(rank.begin(), rank.end(), r) != rank.end();
    for (int t = 0; t < n && ok; ++t) ok = rank[2 * t] <= rank[2 * t + 1];
    for (int a = 0; a < n && ok; ++a)
      for (int b = a + 1; b < n && ok; ++b)
        if (sm[static_cast<std::size_t>(a)] == sm[static_cast<std::size_t>(b)]) ok = rank[2 * a + 1] < rank[2 * b];
    if (ok) {
      History timed = h;
      for (int t = 0; t < n; ++t) {
        Transaction& tx = timed.txn(static_cast<TxnId>(t + 1));
        tx.begin = tx.begin_end = 10 * (rank[2 * t] + 1);
        tx.commit = tx.commit_start = 10 * (rank[2 * t + 1] + 1);
      }
      f(timed);
    }
    int i = 0;
    while (i < e && ++rank[static_cast<std::size_t>(i)] == e) rank[static_cast<std::size_t>(i++)] = 0;
    if (i == e) break;
  }
}

}  // namespace

std::vector<std::vector<bool>> enumerate_separations(const EnumeratedSpace& space,
                                                     const std::vector<std::string>& levels,
                                                     std::size_t& histories) {
  struct Letter {  // read key k returning v, or write v to k
    bool write;
    int key;
    int value;
    bool predicate = false;  // a read by the transaction's predicate read
  };
  const int first_written = space.duplicates ? 0 : 1;
  std::vector<std::vector<Letter>> programs{{}};
  if (space.ops > 0) {
    std::vector<Letter> alphabet;
    for (int k = 0; k < space.keys; ++k)
      for (int v = 0; v < space.values; ++v) {
        alphabet.push_back({false, k, v});
        if (v >= first_written) alphabet.push_back({true, k, v});
      }
    for (std::size_t i = 0; i < programs.size(); ++i) {
      if (static_cast<int>(programs[i].size()) == space.ops) continue;
      for (const Letter& l : alphabet) {
        // One write per key, or two with dirty reads (the first an
        // intermediate one).
        if (l.write && std::count_if(programs[i].begin(), programs[i].end(), [&](const Letter& o) {
              return o.write && o.key == l.key;
            }) >= (space.dirty_reads ? 2 : 1))
          continue;
        auto next = programs[i];
        next.push_back(l);
        programs.push_back(std::move(next));
      }
    }
  } else {
    // Per key: no read or a read of one value, and no write or a write of one.
    for (int k = 0; k < space.keys; ++k) {
      std::vector<std::vector<Letter>> next;
      for (const auto& prog : programs)
        for (int r = -1; r < space.values; ++r)
          for (int w = -1; w < space.values; ++w) {
            if (w >= 0 && w < first_written) continue;
            auto p = prog;
            if (r >= 0) p.insert(p.begin(), Letter{false, k, r});  // reads before every write
            if (w >= 0) p.push_back({true, k, w});
            next.push_back(p);
            // With dirty reads, an intermediate write of another value first.
            for (int i = first_written; space.dirty_reads && w >= 0 && i < space.values; ++i) {
              if (i == w) continue;
              auto q = p;
              q.insert(q.end() - 1, Letter{true, k, i});
              next.push_back(std::move(q));
            }
          }
      programs = std::move(next);
    }
    // With predicates: a program that reads every key, its reads one
    // predicate read.
    for (std::size_t i = 0, n = programs.size(); space.predicates && i < n; ++i) {
      auto reads = std::count_if(programs[i].begin(), programs[i].end(), [](const Letter& l) { return !l.write; });
      if (reads != space.keys) continue;
      auto p = programs[i];
      for (Letter& l : p) l.predicate = !l.write;
      programs.push_back(std::move(p));
    }
  }
  // Sessions as restricted growth strings (chains in index order).
  std::vector<std::vector<int>> session_maps{{0}};
  for (int t = 1; t < space.txns; ++t) {
    std::vector<std::vector<int>> next;
    for (const auto& m : session_maps) {
      const int used = space.sessions ? *std::max_element(m.begin(), m.end()) + 1 : t;
      for (int s = space.sessions ? 0 : t; s <= used; ++s) {
        auto m2 = m;
        m2.push_back(s);
        next.push_back(m2);
      }
    }
    session_maps = next;
  }
  const std::size_t L = levels.size(), P = programs.size();
  std::vector<std::vector<bool>> separated(L, std::vector<bool>(L, false));
  histories = 0;
  std::vector<std::size_t> pick(static_cast<std::size_t>(space.txns), 0);
  // With dirty reads the reads of aborted and intermediate writes stay.
  AbstractOptions dirty;
  dirty.set_aside_aborted_reads = dirty.set_aside_intermediate_reads = space.dirty_reads;
  dirty.predicate_reads = space.predicates;  // a predicate read of a value nobody wrote is thin air too
  const unsigned statuses = space.dirty_reads ? 1u << space.txns : 1u;  // bit t: T(t+1) aborts
  // The history of the current programs (pick) in sessions `sm`, with the
  // transactions in `aborted` (a bit each) aborted and, with lists, the
  // appenders of each key in `orders`; nullopt when a list read cannot be
  // the prefix the space allows (it would hold the reader's own append, or
  // an element nobody appends).
  auto build = [&](const std::vector<int>& sm, unsigned aborted,
                   const std::vector<std::vector<int>>& orders) -> std::optional<History> {
    History h;
    for (int k = 0; k < space.keys; ++k) h.intern_key(std::string(1, static_cast<char>('x' + k)));  // x, y, z as synthesis names them
    for (int v = 0; v < space.values; ++v) h.intern_value(Value{std::int64_t{v}});
    std::vector<SessionId> sids;
    for (int s = 0; s < space.txns; ++s) sids.push_back(h.add_session());
    for (int t = 0; t < space.txns; ++t) {
      TxnId id = h.add_txn(sids[static_cast<std::size_t>(sm[static_cast<std::size_t>(t)])], fmt::format("T{}", t + 1),
                           (aborted >> t & 1u) ? TxnStatus::Aborted : TxnStatus::Committed);
      const auto& prog = programs[pick[static_cast<std::size_t>(t)]];
      if (std::any_of(prog.begin(), prog.end(), [](const Letter& l) { return l.predicate; })) {
        PredicateRead pr{"v!=0", {}};
        for (const Letter& l : prog)
          if (l.predicate && l.value != 0) pr.result.emplace_back(static_cast<KeyId>(l.key), static_cast<ValueId>(l.value));
        h.add_predicate_read(id, std::move(pr));
      }
      for (const Letter& l : prog) {
        if (l.predicate) continue;
        if (l.write) {
          h.add_write(id, l.key, static_cast<ValueId>(l.value));
          continue;
        }
        if (!space.lists) {
          h.add_read(id, l.key, static_cast<ValueId>(l.value));
          continue;
        }
        // The appends up to the one of l.value, without the reader's.
        std::vector<ValueId> list;
        bool found = l.value == 0;
        for (int w : orders[static_cast<std::size_t>(l.key)]) {
          if (found) break;
          if (w == t) return std::nullopt;
          for (const Letter& o : programs[pick[static_cast<std::size_t>(w)]])
            if (o.write && o.key == l.key) {
              list.push_back(static_cast<ValueId>(o.value));
              found = o.value == l.value;
            }
        }
        if (!found) return std::nullopt;  // nobody appends it: thin air
        h.add_list_read(id, l.key, std::move(list), 0);
      }
    }
    return h;
  };
  while (true) {
    // Without duplicates, each (key, value) written once (by one write of
    // one transaction).
    bool unique = true;
    if (!space.duplicates) {
      std::vector<int> writers(static_cast<std::size_t>(space.keys * space.values), 0);
      for (int t = 0; t < space.txns; ++t)
        for (const Letter& l : programs[pick[t]])
          if (l.write && ++writers[static_cast<std::size_t>(l.key * space.values + l.value)] > 1) unique = false;
    }
    for (std::size_t ms = 0; unique && ms < session_maps.size() * statuses; ++ms) {
      const std::size_t m = ms % session_maps.size();
      const unsigned aborted = static_cast<unsigned>(ms / session_maps.size());
      const auto& sm = session_maps[m];
      // With lists: orders[k] is an order of k's appenders (transactions
      // 0-based), each key's tried in turn.
      std::vector<std::vector<int>> orders(static_cast<std::size_t>(space.keys));
      for (int t = 0; t < space.txns && space.lists; ++t)
        for (const Letter& l : programs[pick[t]])
          if (l.write) orders[static_cast<std::size_t>(l.key)].push_back(t);
      while (true) {
        if (std::optional<History> h = build(sm, aborted, orders)) {
          const AbstractHistory kept = abstract_history(*h, committed_members(*h), dirty);
          if (kept.unjustified_reads.empty() && kept.int_violations.empty()) {
            if (!space.real_time) {
              ++histories;
              record_separations(abstract_history(*h), levels, separated);
            } else {
              for_each_event_order(*h, sm, [&](const History& timed) {
                ++histories;
                record_separations(abstract_history(timed), levels, separated);
              });
            }
          }
        }
        // The next combination of orders (each key's in lexicographic turn).
        std::size_t k = 0;
        while (k < orders.size() && !std::next_permutation(orders[k].begin(), orders[k].end())) ++k;
        if (k == orders.size()) break;
      }
    }
    int t = 0;
    while (t < space.txns && ++pick[t] == P) pick[t++] = 0;
    if (t == space.txns) break;
  }
  return separated;
}

}  // namespace iso::brute
