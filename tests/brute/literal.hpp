// Internal to the brute force: literal evaluation of the definitions on one
// complete witness. Relations are n x n boolean matrices; quantifiers are
// loops over T and K. Each holds() can say, in one line, which instance of
// which axiom fails.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tests/brute/model.hpp"

namespace iso::brute::detail {

using Rel = std::vector<std::vector<char>>;

Rel empty_rel(int n);
Rel closure(Rel r);
// A shortest cycle of r as its nodes, the first repeated at the end; empty
// if r is acyclic.
std::vector<int> find_cycle(const Rel& r);

// Records why a check fails, when asked, and returns false.
template <class... A>
bool fail(std::string* why, fmt::format_string<A...> f, A&&... args) {
  if (why) *why = fmt::format(f, std::forward<A>(args)...);
  return false;
}

// May the read event r read from src, given the version order `seq` of
// r.key? src must be a candidate (its final write has the value read) and,
// for a list read, install the list.
bool may_read(const Model& m, const Read& r, int src, std::span<const int> seq);

// The reads of a complete witness: wrsrc[t][i] is the writer of
// m.reads[t][i]; seq_of(x) is the version order of x. Internal list reads
// are checked too.
template <class SeqOf>
bool reads_ok(const Model& m, SeqOf seq_of, const std::vector<std::vector<int>>& wrsrc,
              std::string* why) {
  for (int t = 1; t < m.n; ++t) {
    for (std::size_t i = 0; i < m.reads[t].size(); ++i) {
      const Read& r = m.reads[t][i];
      const int src = wrsrc[t][i];
      if (!may_read(m, r, src, seq_of(r.key))) {
        return fail(why, "{} cannot read {} from {}", m.name(t), m.key(r.key), m.name(src));
      }
    }
    for (const InternalListRead& r : m.internal_lists[t]) {
      if (!internal_read_ok(m, t, r, seq_of(r.key))) {
        return fail(why, "{}'s read of {} {} is not the versions before it and its own appends",
                    m.name(t), m.key(r.key), m.list_text(*r.list));
      }
    }
  }
  return true;
}

// Biswas–Enea axioms and Plume's patterns over a commit order and wr.
class BiswasLiteral {
 public:
  // pos[t]: t's position in co; src[t][i]: the writer of m.reads[t][i].
  BiswasLiteral(const Model& model, Level l, const std::vector<int>& p,
                const std::vector<std::vector<int>>& src);

  bool holds(std::string* why = nullptr) const;
  // Isolde's inconsistent-commit-order pattern (history only): two
  // session-ordered pairs t1 -so-> t2 and t3 -so-> t4 whose readers each read
  // x from the other pair's writer.
  bool inconsistent_commit_order(std::string* why = nullptr) const;

 private:
  bool co(int a, int b) const { return pos[a] < pos[b]; }
  // wr(t1, x, t3): some read event of x in t3 reads from t1.
  bool wr(int t1, int x, int t3) const;
  bool well_formed(std::string* why) const;
  bool in_D(int x, int t1, int t2, int t3) const;
  bool C(int t2, int t3) const;
  // Does f(x, t1, t2) hold for some key x and distinct writers t1, t2 of x?
  template <class F>
  bool some_write_pair(F f) const;
  bool axiom(std::string* why) const;  // Ax(C, D)
  bool conflict(std::string* why) const;
  // Read Committed over read events: a read α of x from t1 after a read β
  // (of any key) from t2 ≠ t1, t2 writing x, needs (t2, t1) in co.
  bool rc(std::string* why) const;
  // Plume's patterns; each returns true when the pattern occurs.
  // Over read events: TAP-j (a re-read of x from another writer, also
  // dbcop's RR), TAP-h/i (a read of y from t2, then of x from t1, t2 writing
  // x, t1 before t2 in co) and TAP-k/l (a read of x from t1, then of y from
  // t2, or t2 -so-> the reader; the same conditions on t1, t2).
  bool non_repeatable_read(std::string* why) const;
  bool non_monotonic_read(std::string* why) const;
  bool fractured_read(std::string* why) const;
  // Over transactions (Isolde's transcription).
  bool pattern_kl(bool use_co, std::string* why) const;
  bool pattern_mn(bool use_co, std::string* why) const;
  bool fails_to_see_so_predecessor(std::string* why) const;

  const Model& m;
  Level level;
  const std::vector<int>& pos;
  const std::vector<std::vector<int>>& wrsrc;
  std::vector<int> order;  // co as a sequence
  Rel SO, WR, HB;
};

// Cerone et al.'s axioms over ar and vis.
class CeroneLiteral {
 public:
  // pos[t]: t's position in ar; a in vis_pred[b] iff (a, b) in vis.
  CeroneLiteral(const Model& model, Level l, const std::vector<int>& p,
                const std::vector<Mask>& vis);

  bool holds(std::string* why = nullptr) const;

 private:
  bool ar(int a, int b) const { return pos[a] < pos[b]; }
  bool vis(int a, int b) const { return has(vis_pred[b], a); }
  bool well_formed(std::string* why) const;
  bool ext(std::string* why) const;
  bool session(std::string* why) const;
  // r ; vis ⊆ vis: TRANSVIS with r = vis, PREFIX with r = ar.
  template <class R>
  bool composed_with_vis_within_vis(R r, const char* axiom, std::string* why) const;
  bool noconflict_ok(std::string* why) const;
  bool timestamps_ok(std::string* why) const;
  bool real_time_ok(std::string* why) const;
  bool totalvis_ok(Mask among, std::string* why) const;  // TOTALVIS over `among`
  bool no_lost_update(std::string* why) const;

  const Model& m;
  Level level;
  const std::vector<int>& pos;
  const std::vector<Mask>& vis_pred;
  std::vector<int> order;  // ar as a sequence
};

// Adya's phenomena over a version order per key and wr (per read event).
class AdyaLiteral {
 public:
  // ww[x]: the writers of x in version order; src[t][i]: the writer of
  // m.reads[t][i].
  AdyaLiteral(const Model& model, Level l, const std::vector<std::vector<int>>& ww,
              const std::vector<std::vector<int>>& src)
      : m(model), level(l), ww_(ww), wrsrc(src) {}

  bool holds(std::string* why = nullptr) const;

 private:
  bool well_formed(std::string* why) const;

  const Model& m;
  Level level;
  const std::vector<std::vector<int>>& ww_;
  const std::vector<std::vector<int>>& wrsrc;
};

}  // namespace iso::brute::detail
