// Choices and their encoding (steps 1 and 2 of saturation_impl.hpp); the
// contract is in saturation_choices.hpp.
#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/polygraph/saturation_choices.hpp"
#include "engine/sat/cardinality.hpp"
#include "engine/util/budget.hpp"

namespace iso::poly::saturation {

std::optional<Anomaly> Choices::prepare(const std::vector<TxnId>& forced_aborts) {
  dead_.assign(n_, 0);
  dead_why_.assign(n_, kNone);
  for (TxnId t : forced_aborts) dead_[t] = 1;
  if (auto unjustified = drop_unjustified()) return unjustified;
  collect_reads();
  alive_.assign(cands_.size(), kAlive);
  cvar_.assign(n_, kNone);
  return std::nullopt;
}

std::optional<Anomaly> Choices::drop_unjustified() {
  // Dropping a transaction can leave another's read without a candidate:
  // repeat to a fixpoint.
  for (bool changed = true; changed;) {
    changed = false;
    for (TxnId t : a_.txns) {
      budget::poll();
      if (dead_[t]) continue;
      const auto& rs = a_.abs[t].reads;
      for (std::size_t i = 0; i < rs.size(); ++i) {
        const auto& writers = a_.candidates[t][i];
        if (std::any_of(writers.begin(), writers.end(), [&](TxnId w) { return !dead_[w]; }))
          continue;
        if (unknown(t)) {
          dead_[t] = 1;
          changed = true;
          break;
        }
        const Transaction& txn = h_.txn(t);
        std::vector<std::string> names;
        for (TxnId w : writers) names.push_back(h_.txn_name(w));
        Anomaly an;
        an.name = "read of an unknown-status write";
        an.description = fmt::format(
            "{}: {} reads a value only {} wrote, whose commit status is unknown and which cannot "
            "have committed",
            h_.txn_name(t), format_op(h_, txn.ops[rs[i].op]), fmt::join(names, ", "));
        an.txns.push_back(t);
        an.txns.insert(an.txns.end(), writers.begin(), writers.end());
        return an;
      }
    }
  }
  return std::nullopt;
}

// The reads of the transactions that may commit, each with its candidates
// that may have committed; fixed when the reader and its only candidate are
// committed.
void Choices::collect_reads() {
  read_begin_.assign(n_, 0);
  read_end_.assign(n_, 0);
  std::size_t total = 0;
  for (TxnId t : a_.txns)
    if (!dead_[t]) total += a_.abs[t].reads.size();
  reads_.reserve(total);
  cands_.reserve(total);  // one candidate per read when values are unique
  for (TxnId t : a_.txns) {
    read_begin_[t] = static_cast<std::uint32_t>(reads_.size());
    if (!dead_[t]) {
      const auto& rs = a_.abs[t].reads;
      for (std::size_t i = 0; i < rs.size(); ++i) {
        Read r{t, rs[i].key, rs[i].op, static_cast<std::uint32_t>(cands_.size()), 0, kNone,
               kNoTxn, 0};
        for (TxnId w : a_.candidates[t][i])
          if (!dead_[w]) cands_.push_back(w);
        r.count = static_cast<std::uint32_t>(cands_.size() - r.first);
        if (!unknown(t) && r.count == 1 && !unknown(cands_[r.first])) r.known = cands_[r.first];
        reads_.push_back(r);
      }
    }
    read_end_[t] = static_cast<std::uint32_t>(reads_.size());
  }
}

bool Choices::open() const {
  return std::any_of(reads_.begin(), reads_.end(),
                     [](const Read& r) { return r.known == kNoTxn; }) ||
         std::any_of(a_.txns.begin(), a_.txns.end(),
                     [&](TxnId t) { return !dead_[t] && unknown(t); });
}

void Choices::drop(TxnId t, std::uint32_t r) {
  dead_[t] = 1;
  dead_why_[t] = r;
  for (std::size_t i = 0; i < cands_.size(); ++i)
    if (cands_[i] == t && alive_[i] == kAlive) alive_[i] = kDropped;
}

// A guess at when each transaction ran, for the preferred candidates: the
// commit timestamps when every member has one; otherwise the position in its
// session scaled to [0, 1] (sessions taken to run at a steady pace). T0: -1.
std::vector<double> Choices::pseudo_times() const {
  std::vector<double> tau(n_, 0);
  bool stamped = true;
  for (TxnId t : a_.txns)
    if (t != kInitTxn && !dead_[t] && !h_.txn(t).commit) stamped = false;
  for (SessionId s = 0; s < a_.so.num_sessions(); ++s) {
    const auto session = a_.so.session(s);
    std::size_t len = 0, i = 0;
    for (TxnId t : session) len += !dead_[t];
    for (TxnId t : session) {
      if (dead_[t]) continue;
      tau[t] = stamped ? static_cast<double>(*h_.txn(t).commit)
                       : static_cast<double>(++i) / static_cast<double>(len + 1);
    }
  }
  tau[kInitTxn] = -1;
  if (stamped)
    for (TxnId t : a_.txns) tau[kInitTxn] = std::min(tau[kInitTxn], tau[t] - 1);
  return tau;
}

// The preferred candidate of each open read, from a simulated execution: the
// transactions are placed one at a time, each session in order, choosing
// among those whose every read has a placed candidate the earliest by
// pseudo_times() (or, when there is none, the earliest next transaction of a
// session); each read prefers the candidate placed last before its reader.
// The preferred read-from thus keeps so ∪ WR acyclic where it can, and reads
// the latest write it can.
void Choices::choose_preferences() {
  const std::vector<double> tau = pseudo_times();
  std::vector<std::uint32_t> placed_at(n_, kNone), missing(n_, 0);
  const std::vector<std::vector<std::uint32_t>> waiting = waiting_reads(missing);
  std::vector<char> served(reads_.size(), 0);
  // Each session's members, and the index of the next one to place.
  std::vector<std::vector<TxnId>> sessions;
  std::vector<std::uint32_t> session_of(n_, kNone);
  for (SessionId s = 0; s < a_.so.num_sessions(); ++s) {
    sessions.emplace_back();
    for (TxnId t : a_.so.session(s))
      if (!dead_[t]) {
        session_of[t] = static_cast<std::uint32_t>(sessions.size() - 1);
        sessions.back().push_back(t);
      }
  }
  std::vector<std::uint32_t> next(sessions.size(), 0);
  using Entry = std::pair<double, TxnId>;
  std::vector<Entry> heap;  // ready session heads, earliest first
  auto push_if_ready = [&](TxnId t) {
    if (missing[t] == 0) {
      heap.emplace_back(tau[t], t);
      std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
  };
  std::uint32_t count = 0;
  auto place = [&](TxnId t) {
    placed_at[t] = count++;
    for (std::uint32_t r : waiting[t])
      if (!served[r]) {
        served[r] = 1;
        const TxnId reader = reads_[r].txn;
        // Ready once served, if it is the next of its session (a session
        // already placed in full has no next).
        const auto& session = sessions[session_of[reader]];
        const std::uint32_t at = next[session_of[reader]];
        if (--missing[reader] == 0 && at < session.size() && session[at] == reader)
          push_if_ready(reader);
      }
    if (t == kInitTxn) return;
    const std::uint32_t s = session_of[t];
    if (++next[s] < sessions[s].size()) push_if_ready(sessions[s][next[s]]);
  };
  place(kInitTxn);
  for (std::size_t s = 0; s < sessions.size(); ++s)
    if (!sessions[s].empty()) push_if_ready(sessions[s][0]);
  for (std::size_t left = a_.txns.size() - 1; left > 0;) {
    TxnId t = kNoTxn;
    while (!heap.empty() && t == kNoTxn) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      TxnId c = heap.back().second;
      heap.pop_back();
      if (placed_at[c] == kNone) t = c;
    }
    if (t == kNoTxn) {  // nothing ready: the earliest next transaction of a session
      for (std::size_t s = 0; s < sessions.size(); ++s)
        if (next[s] < sessions[s].size()) {
          TxnId c = sessions[s][next[s]];
          if (t == kNoTxn || tau[c] < tau[t]) t = c;
        }
      if (t == kNoTxn) break;  // dead transactions only
    }
    prefer_candidates(t, placed_at, tau);  // before placing it
    place(t);
    --left;
  }
}

// Per writer, the reads it may serve (a fixed read's writer, an open read's
// live candidates); `missing` counts each reader's reads.
std::vector<std::vector<std::uint32_t>> Choices::waiting_reads(
    std::vector<std::uint32_t>& missing) const {
  std::vector<std::vector<std::uint32_t>> waiting(n_);
  for (std::uint32_t r = 0; r < reads_.size(); ++r) {
    const Read& rd = reads_[r];
    if (dead_[rd.txn]) continue;
    ++missing[rd.txn];
    if (rd.known != kNoTxn) {
      waiting[rd.known].push_back(r);
      continue;
    }
    const auto cs = cands(rd);
    const auto al = alive(rd);
    for (std::uint32_t i = 0; i < cs.size(); ++i)
      if (al[i] == kAlive) waiting[cs[i]].push_back(r);
  }
  return waiting;
}

// The preferred candidate of each open read of t, about to be placed: placed
// beats unplaced; among placed, the last; among unplaced, the earliest by
// pseudo-time.
void Choices::prefer_candidates(TxnId t, const std::vector<std::uint32_t>& placed_at,
                                const std::vector<double>& tau) {
  for (std::uint32_t r = read_begin_[t]; r < read_end_[t]; ++r) {
    Read& rd = reads_[r];
    if (rd.known != kNoTxn) continue;
    std::uint32_t best = kNone;
    const auto cs = cands(rd);
    const auto al = alive(rd);
    for (std::uint32_t i = 0; i < cs.size(); ++i) {
      if (al[i] != kAlive) continue;
      const TxnId w = cs[i];
      if (best == kNone) {
        best = i;
        continue;
      }
      const TxnId b = cs[best];
      const bool w_placed = placed_at[w] != kNone, b_placed = placed_at[b] != kNone;
      if (w_placed != b_placed ? w_placed
                               : w_placed ? placed_at[w] > placed_at[b] : tau[w] < tau[b])
        best = i;
    }
    rd.pref = best == kNone ? 0 : best;
  }
}

// Variables: a commit variable per unknown-status transaction that may have
// committed; per open read, one per candidate. The solver's default polarity
// is `false`, and each read's preferred candidate (choose_preferences()) has
// its variable negated (true: not chosen), so the first model commits no
// unknown-status transaction and reads from the preferred candidates.
void Choices::encode(CheckStats& stats) {
  solver_.set_default_polarity(false);
  for (TxnId t : a_.txns)
    if (!dead_[t] && unknown(t)) cvar_[t] = solver_.new_var();
  // Preferences only steer open choices: with every read fixed and every
  // member committed (the common case of unique values) there are none, and
  // the simulated execution would cost a pass over the whole history.
  const bool open = solver_.num_vars() > 0 ||
                    std::any_of(reads_.begin(), reads_.end(), [&](const Read& r) {
                      return r.known == kNoTxn && !dead_[r.txn];
                    });
  if (open) choose_preferences();
  std::vector<Lit> clause;
  for (std::uint32_t ri = 0; ri < reads_.size(); ++ri) {
    const Read& r = reads_[ri];
    if (r.known != kNoTxn || dead_[r.txn]) continue;  // fixed, or never read
    encode_read(ri, clause);
  }
  encode_commit_implications();
  has_vars_ = solver_.num_vars() > 0;
  stats.vars = solver_.num_vars();
  stats.clauses = solver_.stats().clauses;
}

// The variables of open read ri, one per candidate, and its clauses.
void Choices::encode_read(std::uint32_t ri, std::vector<Lit>& clause) {
  Read& r = reads_[ri];
  const auto k = r.count;
  const auto cs = cands(r);
  const auto al = alive(r);
  r.var = solver_.new_vars(k);
  // The reader committed => one of the candidates; a candidate => the
  // reader and the writer committed; pruned candidates never.
  clause.clear();
  if (cvar_[r.txn] != kNone) clause.push_back(Lit::neg(cvar_[r.txn]));
  for (std::uint32_t i = 0; i < k; ++i)
    if (al[i] == kAlive) clause.push_back(cand_lit(ri, i));
  solver_.add_clause(clause);
  for (std::uint32_t i = 0; i < k; ++i) {
    const Lit c = cand_lit(ri, i);
    if (al[i] != kAlive) {
      solver_.add_clause({~c});
      continue;
    }
    if (cvar_[r.txn] != kNone) solver_.add_clause({~c, Lit::pos(cvar_[r.txn])});
    if (cvar_[cs[i]] != kNone) solver_.add_clause({~c, Lit::pos(cvar_[cs[i]])});
  }
  // At most one candidate; the counter's auxiliary variables negated from
  // the preferred candidate on, like the candidates, so that `false` agrees.
  std::vector<Lit> lits;
  for (std::uint32_t i = 0; i < k; ++i) lits.push_back(cand_lit(ri, i));
  sat::at_most_one(solver_, lits, {.negate_aux_from = r.pref});
}

// Unknown-status transactions a committed list read shows committed, and
// those an unknown-status one's list shows, if it committed.
void Choices::encode_commit_implications() {
  for (TxnId t : a_.forced_commits)
    if (cvar_[t] != kNone) solver_.add_clause({Lit::pos(cvar_[t])});
  for (auto [r, w] : a_.commit_implications) {
    if (cvar_[r] == kNone) continue;
    if (cvar_[w] != kNone)
      solver_.add_clause({Lit::neg(cvar_[r]), Lit::pos(cvar_[w])});
    else if (dead_[w])
      solver_.add_clause({Lit::neg(cvar_[r])});
  }
}

void Choices::read_model(Model& m) const {
  m.committed_writers_only = false;
  m.member.assign(n_, 0);
  for (TxnId t : a_.txns)
    m.member[t] = !dead_[t] && (cvar_[t] == kNone || solver_.model_value(cvar_[t]));
  m.chosen.assign(reads_.size(), kNoTxn);
  m.chosen_i.assign(reads_.size(), kNone);
  for (std::uint32_t r = 0; r < reads_.size(); ++r) {
    const Read& rd = reads_[r];
    if (!m.member[rd.txn]) continue;
    if (rd.var == kNone) {  // fixed
      m.chosen[r] = rd.known;
      m.chosen_i[r] = kNone;
      continue;
    }
    for (std::uint32_t i = 0; i < rd.count; ++i) {
      if (solver_.model_value(cand_lit(r, i))) {
        m.chosen[r] = cands_[rd.first + i];
        m.chosen_i[r] = i;
        break;
      }
    }
  }
}

}  // namespace iso::poly::saturation
