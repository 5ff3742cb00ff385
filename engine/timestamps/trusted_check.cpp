// Deciding a level that trusts the database's timestamps (trusted_check.hpp):
// the witness read off the timestamps in one sort and one pass, and each
// violation named as Chronos names it.

#include "engine/timestamps/trusted_check.hpp"

#include <algorithm>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

namespace iso::timestamps {

std::string_view violation_kind_name(ViolationKind k) {
  switch (k) {
    case ViolationKind::Session: return "SESSION";
    case ViolationKind::Ext: return "EXT";
    case ViolationKind::NoConflict: return "NOCONFLICT";
    case ViolationKind::TotalVis: return "TRANSVIS";
    case ViolationKind::Order: return "ORDER";
  }
  return "?";
}

TimestampGaps timestamp_gaps(const History& h) {
  TimestampGaps gaps;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const Transaction& txn = h.txn(t);
    if (txn.status != TxnStatus::Committed) {
      gaps.not_committed.push_back(t);
    } else if (!txn.start_ts || !txn.commit_ts) {
      gaps.missing.push_back(t);
    } else if (*txn.start_ts > *txn.commit_ts) {
      gaps.inverted.push_back(t);
    }
  }
  return gaps;
}

namespace {

std::string ts_text(const DbTimestamp& t) { return fmt::format("{}.{}", t.physical, t.logical); }

struct Stamps {
  DbTimestamp sts, cts;
  // Zero-length: it starts when it commits, so it sees everything committed
  // at its commit timestamp, and a tie partner that is not zero-length is
  // visible to it (vis forces the order inside a tie).
  bool zero_length() const { return sts == cts; }
};

// The writes of one key, by writer, in the order the timestamps force on
// writers: by commit timestamp, and inside a tie the zero-length writers
// last (sts == cts is the largest sts a writer with that cts can have, so
// sorting by (cts, sts) does it). Each writer's writes of the key are
// contiguous in `elements`, in program order, so the writes of a prefix of
// the writers are a prefix of `elements`: a list read is compared to it
// without building anything.
struct KeyWrites {
  std::vector<TxnId> writer;
  std::vector<Stamps> stamp;       // writer i's timestamps, kept here for the binary searches
  std::vector<std::size_t> end;    // writer i's writes are elements[end[i-1], end[i])
  std::vector<ValueId> elements;

  std::size_t begin_of(std::size_t i) const { return i == 0 ? 0 : end[i - 1]; }
  std::span<const ValueId> writes_of(std::size_t i) const {
    return std::span<const ValueId>(elements).subspan(begin_of(i), end[i] - begin_of(i));
  }
  ValueId final_write(std::size_t i) const { return elements[end[i] - 1]; }
};

// Who wrote a value of a key, for explaining a bad read: built for a key the
// first time one of its reads is reported.
struct ValueWriters {
  std::unordered_map<ValueId, std::vector<std::size_t>> writers;  // indexes into KeyWrites::writer
};

// A list of values as printed in a description: long lists are elided in
// the middle so that a description stays one readable line.
std::string list_text(const History& h, std::span<const ValueId> l) {
  constexpr std::size_t kShow = 10, kEnds = 4;
  std::string out = "[";
  const auto put = [&](std::size_t i) {
    if (out.size() > 1) out += ", ";
    out += h.value_text(l[i]);
  };
  if (l.size() <= kShow) {
    for (std::size_t i = 0; i < l.size(); ++i) put(i);
    return out + "]";
  }
  for (std::size_t i = 0; i < kEnds; ++i) put(i);
  out += ", ...";
  for (std::size_t i = l.size() - kEnds; i < l.size(); ++i) put(i);
  return fmt::format("{}] ({} elements)", out, l.size());
}

class Checker {
 public:
  Checker(const History& h, TrustedLevel level, bool sessions, std::size_t max_violations)
      : h_(h), level_(level), sessions_(sessions), max_(max_violations) {}

  TrustedResult run() {
    index();
    // Each pass returns false once the report is full.
    (void)((!sessions_ || check_sessions()) &&
           (level_ == TrustedLevel::SER ? check_totalvis() : check_noconflict()) && check_reads());
    return std::move(result_);
  }

 private:
  const History& h_;
  TrustedLevel level_;
  bool sessions_;
  std::size_t max_;
  TrustedResult result_;

  std::vector<Stamps> stamps_;       // by TxnId; meaningful where included_
  std::vector<bool> included_;       // committed, with sts <= cts; T0 is not
  std::vector<TxnId> order_;         // the included transactions by (cts, sts, id)
  std::vector<KeyWrites> keys_;      // by KeyId
  std::unordered_map<KeyId, ValueWriters> value_writers_;

  // --- setup ------------------------------------------------------------------

  // Sorting once by (cts, sts) gives an order that extends both the strict
  // commit order and vis (zero-length members of a tie last, by
  // transaction: forced_before()), so every
  // later pass is a sweep or a binary search over it.
  void index() {
    const std::size_t n = h_.num_txns();
    stamps_.resize(n);
    included_.assign(n, false);
    for (TxnId t = 1; t < n; ++t) {
      const Transaction& txn = h_.txn(t);
      // Transactions outside the precondition (timestamp_gaps()) take no
      // part: there is nothing to place them by.
      if (txn.status != TxnStatus::Committed || !txn.start_ts || !txn.commit_ts ||
          *txn.start_ts > *txn.commit_ts) {
        continue;
      }
      stamps_[t] = Stamps{*txn.start_ts, *txn.commit_ts};
      included_[t] = true;
      order_.push_back(t);
    }
    std::sort(order_.begin(), order_.end(), [&](TxnId a, TxnId b) { return before(a, b); });

    keys_.resize(h_.keys().size());
    for (TxnId t : order_) {
      for (const Op& op : h_.txn(t).ops) {
        if (op.kind != OpKind::Write) continue;
        KeyWrites& kw = keys_[op.key];
        if (kw.writer.empty() || kw.writer.back() != t) {
          kw.writer.push_back(t);
          kw.stamp.push_back(stamps_[t]);
          kw.end.push_back(kw.elements.size());
        }
        kw.elements.push_back(op.value);
        kw.end.back() = kw.elements.size();
      }
    }
  }

  bool before(TxnId a, TxnId b) const {
    const Stamps &x = stamps_[a], &y = stamps_[b];
    if (x.cts != y.cts) return x.cts < y.cts;
    if (x.sts != y.sts) return x.sts < y.sts;
    return a < b;
  }

  // Must a precede b in every ar? (Both included and distinct.) By commit
  // timestamp, or inside a tie because b is zero-length and a is not
  // (vis(a, b) holds, vis(b, a) does not), or both are zero-length and a is
  // the earlier transaction (h.ts_vis keeps the earlier's visibility).
  bool forced_before(TxnId a, TxnId b) const {
    const Stamps &x = stamps_[a], &y = stamps_[b];
    if (x.cts != y.cts) return x.cts < y.cts;
    if (x.zero_length() && y.zero_length()) return a < b;
    return !x.zero_length() && y.zero_length();
  }

  // vis(w, r) for w, r included and distinct (h.ts_vis): w committed by r's
  // start, except that of two zero-length transactions at one timestamp,
  // which would see each other, only the later sees the earlier.
  bool visible(TxnId w, TxnId r) const {
    const Stamps &x = stamps_[w], &y = stamps_[r];
    if (x.cts != y.sts) return x.cts < y.sts;
    return !(x.zero_length() && y.zero_length()) || w < r;
  }

  // --- reporting --------------------------------------------------------------

  bool report(ViolationKind kind, std::vector<TxnId> txns, std::optional<KeyId> key,
              std::string description) {
    if (result_.violations.size() >= max_) {
      result_.truncated = true;
      return false;
    }
    result_.violations.push_back(Violation{kind, std::move(txns), key, std::move(description)});
    return true;
  }

  std::string name(TxnId t) const { return h_.txn_name(t); }
  std::string sts(TxnId t) const { return ts_text(stamps_[t].sts); }
  std::string cts(TxnId t) const { return ts_text(stamps_[t].cts); }

  // --- ORDER: vis ⊆ ar ---------------------------------------------------------

  // vis(a, b) needs cts(a) <= sts(b) <= cts(b), so it can only go against the
  // commit order inside a tie, where vis(a, b) holds when b is zero-length;
  // two zero-length transactions at one timestamp would see each other, and
  // h.ts_vis keeps only the later's view of the earlier (as Chronos keeps
  // file order in a tie). So the timestamps never order two transactions
  // both ways; ORDER is left to list reads that contradict them.

  // --- SESSION: so ⊆ vis -------------------------------------------------------

  // Consecutive pairs suffice: cts(a) <= sts(b) <= cts(b) <= sts(c).
  bool check_sessions() {
    for (const auto& session : h_.sessions()) {
      TxnId prev = kInitTxn;
      for (TxnId t : session) {
        if (!included_[t]) continue;
        if (prev != kInitTxn && stamps_[prev].cts > stamps_[t].sts &&
            !report(ViolationKind::Session, {prev, t}, std::nullopt,
                    fmt::format("{} starts at {}, before its session predecessor {} commits at {}",
                                name(t), sts(t), name(prev), cts(prev)))) {
          return false;
        }
        prev = t;
      }
    }
    return true;
  }

  // --- TOTALVIS and NOCONFLICT -------------------------------------------------

  // Every two transactions of `seq` (sorted by (cts, sts)) see one another
  // one way iff each starts no earlier than its predecessor in `seq`
  // commits: a later one can see an earlier one only then, and the earlier
  // one sees a later one only inside a tie, where the zero-length one (the
  // one that sees) sorts last. A failing consecutive pair is a real overlap.
  template <typename Report>
  bool sweep_overlaps(const std::vector<TxnId>& seq, Report overlap) {
    for (std::size_t i = 1; i < seq.size(); ++i) {
      const TxnId a = seq[i - 1], b = seq[i];
      if (stamps_[b].sts < stamps_[a].cts && !overlap(a, b)) return false;
    }
    return true;
  }

  bool check_totalvis() {
    return sweep_overlaps(order_, [&](TxnId a, TxnId b) {
      return report(ViolationKind::TotalVis, {a, b}, std::nullopt,
                    fmt::format("{} and {} overlap: {} starts at {}, before {} commits at {}",
                                name(a), name(b), name(b), sts(b), name(a), cts(a)));
    });
  }

  bool check_noconflict() {
    for (KeyId k = 0; k < keys_.size(); ++k) {
      const bool more = sweep_overlaps(keys_[k].writer, [&](TxnId a, TxnId b) {
        return report(ViolationKind::NoConflict, {a, b}, k,
                      fmt::format("{} and {} both write {} and overlap: {} starts at {}, before "
                                  "{} commits at {}",
                                  name(a), name(b), h_.key_text(k), name(b), sts(b), name(a),
                                  cts(a)));
      });
      if (!more) return false;
    }
    return true;
  }

  // --- EXT -----------------------------------------------------------------------

  // The writers of kw visible to r: a prefix [0, p) of them (visible()),
  // never r itself. Inside r's tie, when r is zero-length, the sort puts
  // the other members first, then the zero-length ones by transaction, so
  // the visible ones still form a prefix.
  std::size_t visible_prefix(const KeyWrites& kw, TxnId r) const {
    std::size_t lo = 0, hi = kw.writer.size();
    while (lo < hi) {  // the first writer not visible to r
      const std::size_t mid = lo + (hi - lo) / 2;
      const TxnId w = kw.writer[mid];
      if (w != r && visible(w, r)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // The writers that can be ar-greatest among the visible ones [0, p): the
  // last tie of them. In a tie ar is free except that the zero-length
  // members come after the others (they see them), in transaction order, so
  // the candidate is the last of them when there is one, otherwise every
  // member. Indexes into kw.writer; empty when no writer is visible.
  std::vector<std::size_t> latest_candidates(const KeyWrites& kw, std::size_t p, TxnId) const {
    std::vector<std::size_t> group;
    if (p == 0) return group;
    if (kw.stamp[p - 1].zero_length()) return {p - 1};
    const DbTimestamp c = kw.stamp[p - 1].cts;
    std::size_t q = p;
    while (q > 0 && kw.stamp[q - 1].cts == c) --q;
    for (std::size_t i = q; i < p; ++i) group.push_back(i);
    return group;
  }

  // Can the writes of kw.writer[b, e) (r left out), taken whole in some
  // order, continue `l` at pos? They are one part of a tie, unordered among
  // themselves. Greedy: exact when the members' writes start differently,
  // and a tie of two or more writers of one key in a part is a NOCONFLICT or
  // ORDER violation anyway, so the verdict never depends on the greedy
  // choice.
  bool match_part(const KeyWrites& kw, std::size_t b, std::size_t e, TxnId r,
                  std::span<const ValueId> l, std::size_t& pos) const {
    std::vector<std::size_t> left;
    for (std::size_t i = b; i < e; ++i) {
      if (kw.writer[i] != r) left.push_back(i);
    }
    while (!left.empty()) {
      const auto fits = std::find_if(left.begin(), left.end(), [&](std::size_t i) {
        const auto w = kw.writes_of(i);
        return pos + w.size() <= l.size() && std::equal(w.begin(), w.end(), l.begin() + static_cast<std::ptrdiff_t>(pos));
      });
      if (fits == left.end()) return false;
      pos += kw.writes_of(*fits).size();
      left.erase(fits);
    }
    return true;
  }

  // The writes of kw.writer[b, e) (r left out), in that order, continue `l`
  // at pos: the zero-length part of a tie, whose order ar fixes.
  bool match_fixed(const KeyWrites& kw, std::size_t b, std::size_t e, TxnId r,
                   std::span<const ValueId> l, std::size_t& pos) const {
    for (std::size_t i = b; i < e; ++i) {
      if (kw.writer[i] == r) continue;
      const auto w = kw.writes_of(i);
      if (pos + w.size() > l.size() ||
          !std::equal(w.begin(), w.end(), l.begin() + static_cast<std::ptrdiff_t>(pos)))
        return false;
      pos += w.size();
    }
    return true;
  }

  // Is `l` the concatenation, in some ar order, of the writes of the visible
  // writers [0, p) (r left out)? First in the order of the sort, which is ar
  // whenever the timestamps leave no choice (always, unless a NOCONFLICT,
  // TRANSVIS or ORDER violation is reported too): the writes of [0, p) are a
  // prefix of kw.elements. Only if that fails are ties tried in other
  // orders, split into their non-zero-length part and their zero-length
  // part, which ar keeps in that order.
  bool list_matches(const KeyWrites& kw, std::size_t p, TxnId r,
                    std::span<const ValueId> l) const {
    if (p == 0) return l.empty();
    const std::span<const ValueId> prefix = std::span<const ValueId>(kw.elements).first(kw.end[p - 1]);
    // r is never among its visible writers (visible_prefix()).
    if (prefix.size() != l.size()) return false;  // so what follows is O(|l|)
    if (std::equal(l.begin(), l.end(), prefix.begin())) return true;
    std::size_t pos = 0;
    for (std::size_t i = 0; i < p;) {
      const DbTimestamp c = kw.stamp[i].cts;
      std::size_t j = i;
      while (j < p && kw.stamp[j].cts == c) ++j;
      std::size_t m = i;
      while (m < j && !kw.stamp[m].zero_length()) ++m;
      if (!match_part(kw, i, m, r, l, pos) || !match_fixed(kw, m, j, r, l, pos)) return false;
      i = j;
    }
    return pos == l.size();
  }

  const ValueWriters& value_writers(KeyId k) {
    auto [it, fresh] = value_writers_.try_emplace(k);
    if (fresh) {
      const KeyWrites& kw = keys_[k];
      for (std::size_t i = 0; i < kw.writer.size(); ++i) {
        for (ValueId v : kw.writes_of(i)) {
          auto& ws = it->second.writers[v];
          if (ws.empty() || ws.back() != i) ws.push_back(i);
        }
      }
    }
    return it->second;
  }

  // Where else the value v of k could have come from, for the description:
  // the latest writer that wrote it (as its final write, for a register
  // read; any append, for a list element), visible (then overwritten) or not
  // (committed after r started); or a non-final write; or nobody.
  std::string source_of(KeyId k, ValueId v, TxnId r, bool list) {
    const KeyWrites& kw = keys_[k];
    const auto& ws = value_writers(k).writers;
    const auto it = ws.find(v);
    const std::string what =
        list ? h_.value_text(v) : fmt::format("{} = {}", h_.key_text(k), h_.value_text(v));
    const std::string verb = list ? "appended by" : "written by";
    std::optional<std::size_t> source, other;
    if (it != ws.end()) {
      for (std::size_t i : it->second) {
        if (kw.writer[i] == r) continue;
        if (list || kw.final_write(i) == v) source = i;  // ascending: keeps the latest
        else other = i;
      }
    }
    if (source) {
      const TxnId w = kw.writer[*source];
      return stamps_[w].cts <= stamps_[r].sts
                 ? fmt::format("{} is {} {}, committed earlier at {}", what, verb, name(w), cts(w))
                 : fmt::format("{} is {} {}, committed at {}, after {} started", what, verb,
                               name(w), cts(w), name(r));
    }
    if (other) return fmt::format("{} is an intermediate write of {}", what, name(kw.writer[*other]));
    if (!list && v == h_.init_value(k) && h_.t0_writes(k)) {
      return fmt::format("{} is the initial value, overwritten", what);
    }
    if (it != ws.end()) return fmt::format("{} is only {}'s own later write", what, name(r));
    return fmt::format("no transaction writes {}", what);
  }

  std::string candidates_text(const KeyWrites& kw, KeyId k, const std::vector<std::size_t>& c) const {
    std::string out;
    for (std::size_t n = 0; n < c.size(); ++n) {
      if (n > 0) out += n + 1 == c.size() ? " or " : ", ";
      out += fmt::format("{}'s {} = {}", name(kw.writer[c[n]]), h_.key_text(k),
                         h_.value_text(kw.final_write(c[n])));
    }
    const TxnId w = kw.writer[c.front()];
    return fmt::format("{} (committed at {}{})", out, cts(w), c.size() > 1 ? ", in either order" : "");
  }

  bool check_register_read(TxnId r, const Op& op) {
    const KeyWrites& kw = keys_[op.key];
    const std::size_t p = visible_prefix(kw, r);
    // The common case, without building the candidates: the latest visible
    // writer is alone in its tie and is not r.
    if (p > 0 && kw.writer[p - 1] != r && (p == 1 || kw.stamp[p - 2].cts != kw.stamp[p - 1].cts) &&
        kw.final_write(p - 1) == op.value) {
      return true;
    }
    const auto c = latest_candidates(kw, p, r);
    if (!c.empty() &&
        std::any_of(c.begin(), c.end(), [&](std::size_t i) { return kw.final_write(i) == op.value; })) {
      return true;
    }
    if (c.empty() && h_.t0_writes(op.key) && op.value == h_.init_value(op.key)) return true;
    const std::string key = h_.key_text(op.key);
    if (c.empty()) {
      if (h_.t0_writes(op.key)) {
        return report(ViolationKind::Ext, {r}, op.key,
                      fmt::format("{} reads {} = {} but no write of {} is visible at its start "
                                  "({}): it reads the initial {} = {}; {}",
                                  name(r), key, h_.value_text(op.value), key, sts(r), key,
                                  h_.value_text(h_.init_value(op.key)),
                                  source_of(op.key, op.value, r, false)));
      }
      return report(ViolationKind::Ext, {r}, op.key,
                    fmt::format("{} reads {} = {} but no write of {} is visible at its start ({}) "
                                "and {} has no initial value; {}",
                                name(r), key, h_.value_text(op.value), key, sts(r), key,
                                source_of(op.key, op.value, r, false)));
    }
    std::vector<TxnId> txns;
    for (std::size_t i : c) txns.push_back(kw.writer[i]);
    txns.push_back(r);
    return report(ViolationKind::Ext, std::move(txns), op.key,
                  fmt::format("{} reads {} = {} but the latest write of {} visible at its start "
                              "({}) is {}; {}",
                              name(r), key, h_.value_text(op.value), key, sts(r),
                              candidates_text(kw, op.key, c),
                              source_of(op.key, op.value, r, false)));
  }

  // A list read must be the visible writers' writes of the key, in ar
  // order. When it is not, an order among its elements' writers that the
  // timestamps forbid makes it an ORDER violation (a known version order
  // outside ar); otherwise it is EXT: elements missing, extra or foreign.
  bool check_list_read(TxnId r, const Op& op) {
    const KeyWrites& kw = keys_[op.key];
    const std::span<const ValueId> l = h_.lists()[op.list];
    const std::size_t p = visible_prefix(kw, r);
    const bool none_visible = p == 0 || (p == 1 && kw.writer[0] == r);
    if (none_visible ? l.empty() && h_.t0_writes(op.key) : list_matches(kw, p, r, l)) return true;
    const std::string key = h_.key_text(op.key);
    if (none_visible) {
      // No writer is visible: the initial empty list, if the key has one.
      if (l.empty()) {
        return report(ViolationKind::Ext, {r}, op.key,
                      fmt::format("{} reads {} = [] but no append to {} is visible at its start "
                                  "({}) and {} has no initial value",
                                  name(r), key, key, sts(r), key));
      }
    }

    // Explain: the writers of the elements, in the list's order, against the
    // order the timestamps force.
    const auto& ws = value_writers(op.key).writers;
    std::optional<TxnId> latest;  // the ar-greatest writer seen so far in l
    for (ValueId v : l) {
      const auto it = ws.find(v);
      if (it == ws.end() || it->second.size() != 1) continue;  // foreign or ambiguous
      const TxnId w = kw.writer[it->second.front()];
      if (w == r) continue;
      if (latest && *latest != w && forced_before(w, *latest)) {
        return report(ViolationKind::Order, {w, *latest, r}, op.key,
                      fmt::format("{} reads {} = {}, with {}'s append (committed at {}) before "
                                  "{}'s (committed at {}), against their timestamps",
                                  name(r), key, list_text(h_, l), name(*latest), cts(*latest),
                                  name(w), cts(w)));
      }
      if (!latest || forced_before(*latest, w)) latest = w;
    }

    // The expected list, in the order the sort gives (ar up to free ties).
    std::vector<ValueId> expected;
    std::vector<TxnId> txns;
    for (std::size_t i = 0; i < p; ++i) {
      if (kw.writer[i] == r) continue;
      const auto w = kw.writes_of(i);
      expected.insert(expected.end(), w.begin(), w.end());
    }
    std::size_t d = 0;
    while (d < l.size() && d < expected.size() && l[d] == expected[d]) ++d;
    std::string why;
    if (d < expected.size()) {
      // The first expected element the read lacks, and its writer.
      std::size_t i = 0;
      for (std::size_t seen = 0; i < p; ++i) {
        if (kw.writer[i] == r) continue;
        seen += kw.writes_of(i).size();
        if (seen > d) break;
      }
      const TxnId w = kw.writer[i];
      txns.push_back(w);
      why = fmt::format("{}'s append of {} (committed at {}) is visible but {}",
                        name(w), h_.value_text(expected[d]), cts(w),
                        d < l.size() ? fmt::format("element {} is {}", d + 1, h_.value_text(l[d]))
                                     : std::string("missing"));
      if (d < l.size()) why += fmt::format("; {}", source_of(op.key, l[d], r, true));
    } else if (d < l.size()) {
      why = source_of(op.key, l[d], r, true);  // l is longer: an element too many
    } else {
      why = "no order of the tied writers gives it";  // not reached: the sorted order is one
    }
    txns.push_back(r);
    return report(ViolationKind::Ext, std::move(txns), op.key,
                  fmt::format("{} reads {} = {} but the appends to {} visible at its start ({}) "
                              "make {}: {}",
                              name(r), key, list_text(h_, l), key, sts(r),
                              list_text(h_, expected), why));
  }

  // Every external read, in commit order of the readers. A read after the
  // reader's own write of the key is internal (INT, checked elsewhere).
  bool check_reads() {
    std::vector<TxnId> written(h_.keys().size(), kInitTxn);  // the last reader that wrote k
    for (TxnId r : order_) {
      for (const Op& op : h_.txn(r).ops) {
        if (op.kind == OpKind::Write) {
          written[op.key] = r;
        } else if (op.kind == OpKind::Read && written[op.key] != r) {
          // false only once the report is full
          if (!(op.list == kNoList ? check_register_read(r, op) : check_list_read(r, op))) return false;
        }
      }
    }
    return true;
  }
};

}  // namespace

TrustedResult check_trusted(const History& h, TrustedLevel level, bool sessions,
                            std::size_t max_violations) {
  return Checker(h, level, sessions, max_violations).run();
}

}  // namespace iso::timestamps
