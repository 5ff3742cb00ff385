// Prediction (cegis/predictor.hpp): the observed run decided first, then
// one SAT instance over the trace's prediction space, candidates fewest
// changed reads first, each held to the weak level (lazily by its cycles,
// or by its formula) and to serializability (a lemma from each commit
// order that serializes one).
#include "cegis/predictor.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "cegis/causal_pasts.hpp"
#include "engine/logic/cnf.hpp"
#include "engine/logic/translator.hpp"
#include "engine/model/concrete.hpp"
#include "engine/model/schema.hpp"
#include "engine/sat/solver.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/timing.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::cegis {

using namespace logic;

namespace {

// The reads CausalPasts::rule_out_joined examines at most (its clauses
// strengthen the search; the cycles keep it exact without them).
constexpr std::size_t kJoinedBudget = 4'000'000;

// A weak level decided by saturation (RC, RA, CC) is held to lazily: each
// candidate is decided, and a violation's cycle becomes a clause. Its
// edges are monotone in the run: a run that has every read-from and every
// write the cycle and its forcing reads rest on has the cycle too
// (saturation.hpp: each edge is a read-from, session order, or forced by a
// read-from and a writer that so ∪ wr makes visible). Any other level's
// formula is asserted over the space, its witness free: exact for every
// level, but its quantifiers unroll over the trace.
bool held_lazily(const Level& under) { return under.graph && saturated(*under.graph); }

// What the cycle of a saturation violation rests on, as literals of the
// space: the read-froms (every read of the key by the reader that took the
// writer in this candidate) and the writes its forced edges need. nullopt
// when an edge is of no kind saturation makes.
std::optional<std::vector<BLit>> cycle_facts(const Anomaly& a, const Candidate& cand,
                                             const ObservedTrace& tr, const PredictionSpace& space) {
  std::vector<BLit> facts;
  auto add = [&](const DepEdge& e) {
    switch (e.type) {
      case Dep::SO: return true;  // session order is the trace's
      case Dep::WR: {
        bool found = false;
        const auto [first, last] = tr.reads_of(e.to);
        for (std::size_t r = first; r < last; ++r)
          if (tr.reads[r].key == e.key && tr.reads[r].event && cand.chosen[r] == e.from) {
            facts.push_back(space.reads_from(r, e.from));
            found = true;
          }
        return found;
      }
      case Dep::WW: facts.push_back(space.writes(e.from, e.key)); return true;
      default: return false;
    }
  };
  for (const auto* edges : {&a.cycle, &a.context})
    for (const DepEdge& e : *edges)
      if (!add(e)) return std::nullopt;
  if (a.cycle.empty()) return std::nullopt;
  return facts;
}

// Serializability's lemma for a commit order `co` (T0 first, every
// transaction) that serializes `cand`: ¬SER(h', co) for the runs h' of the
// space that change no read `cand` leaves unchanged (Biswas & Enea's axiom
// with co fixed), written out directly. A run breaks co when a kept read
// takes a writer co puts after its reader, or one after which co puts
// another writer of the key before the reader. co contains session order,
// so the writers of a key in one session come in co in session order, and
// of those after a given writer the first is the one to ask about: a later
// one writes only if it does. The reads `cand` changed may take any writer;
// every other read either keeps its observed writer or changes, which the
// lemma lets escape (a run changing other reads is not excluded). So a
// lemma costs a gate per read and per writer of a changed read, not per
// read and writer.
// "Some read of a session changed", as chains along each session's reads
// (a ladder: "one at place p or later", "one before place p"), built once
// for every lemma. A lemma's escape through a session is then its chains
// before and after the reads the candidate changed there: its clause rests
// on a few chain literals, and what the solver learns from it stays short,
// where one OR over a session's every read made clauses as long as the
// session.
class Escapes {
 public:
  Escapes(const ObservedTrace& tr, const PredictionSpace& space, Circuit& c) : tr_(tr), space_(space), c_(c) {
    if (space.mode() == PredictMode::Strict) return;
    for (const auto& sess : tr.by_session) {
      std::vector<BLit> before(sess.size() + 1, kFalse), after(sess.size() + 1, kFalse);
      for (std::size_t p = 0; p < sess.size(); ++p) before[p + 1] = c.or_(before[p], space.changed(sess[p]));
      for (std::size_t p = sess.size(); p-- > 0;) after[p] = c.or_(after[p + 1], space.changed(sess[p]));
      before_.push_back(std::move(before));
      after_.push_back(std::move(after));
    }
  }
  // "Some read of session s changed, other than those at `kept_out`
  // (places in the session, ascending)".
  // (Strict: one OR over the session's other reads, as measured faster
  // there, where a lemma's clause rests on one boundary read per session.)
  BLit operator()(std::size_t s, const std::vector<std::size_t>& kept_out) const {
    if (space_.mode() == PredictMode::Strict) {
      std::vector<BLit> any;
      for (std::size_t p = 0; p < tr_.by_session[s].size(); ++p)
        if (!std::binary_search(kept_out.begin(), kept_out.end(), p) && tr_.reads[tr_.by_session[s][p]].event)
          any.push_back(space_.changed(tr_.by_session[s][p]));
      return c_.or_(any);
    }
    if (kept_out.empty()) return after_[s][0];
    std::vector<BLit> any{before_[s][kept_out.front()], after_[s][kept_out.back() + 1]};
    for (std::size_t p = kept_out.front() + 1; p < kept_out.back(); ++p)
      if (!std::binary_search(kept_out.begin(), kept_out.end(), p)) any.push_back(space_.changed(tr_.by_session[s][p]));
    return c_.or_(any);
  }

 private:
  const ObservedTrace& tr_;
  const PredictionSpace& space_;
  Circuit& c_;
  std::vector<std::vector<BLit>> before_, after_;
};

BLit serializability_lemma(const ObservedTrace& tr, const PredictionSpace& space, Circuit& c,
                           const std::vector<TxnId>& co, const Candidate& cand, const Escapes& escapes) {
  const History& h = tr.h;
  std::vector<std::size_t> pos(h.num_txns(), SIZE_MAX);
  for (std::size_t i = 0; i < co.size(); ++i) pos[co[i]] = i;
  for (TxnId t = 0; t < h.num_txns(); ++t)
    if (pos[t] == SIZE_MAX) throw std::logic_error("predict: a commit order without every transaction");
  // Per key and writer: the first writer after it in each session, in co
  // order, with "one of these up to here writes the key" as a chain.
  struct After {
    std::size_t pos;
    BLit any;
  };
  std::vector<std::vector<std::vector<After>>> after(h.keys().size());
  for (KeyId x = 0; x < h.keys().size(); ++x) {
    const auto& ws = tr.writers_of(x);
    after[x].resize(ws.size());
    // The writers from the last in co to the first, each session's next one
    // kept as they go.
    std::vector<std::size_t> by_co(ws.size());
    for (std::size_t i = 0; i < ws.size(); ++i) by_co[i] = i;
    std::sort(by_co.begin(), by_co.end(), [&](std::size_t a, std::size_t b) { return pos[ws[a]] > pos[ws[b]]; });
    std::vector<std::pair<std::size_t, TxnId>> next(h.sessions().size(), {SIZE_MAX, kNoTxn});
    for (std::size_t i : by_co) {
      std::vector<std::pair<std::size_t, TxnId>> first = next;
      if (ws[i] != kInitTxn) next[tr.place[ws[i]].first] = {pos[ws[i]], ws[i]};
      std::sort(first.begin(), first.end());
      BLit any = kFalse;
      for (const auto& [p, w2] : first) {
        if (w2 == kNoTxn) break;
        any = c.or_(any, space.writes(w2, x));
        after[x][i].push_back(After{p, any});
      }
    }
  }
  // "Reading w's version of x breaks co for a reader t".
  auto breaks = [&](KeyId x, TxnId w, TxnId t) {
    if (pos[w] > pos[t]) return kTrue;
    const auto& a = after[x][*tr.writer_index(x, w)];
    const auto it = std::partition_point(a.begin(), a.end(), [&](const After& e) { return e.pos < pos[t]; });
    return it == a.begin() ? kFalse : std::prev(it)->any;
  };
  std::vector<BLit> broken;
  std::vector<std::vector<std::size_t>> changed_at(tr.by_session.size());  // per session: places cand changed
  for (std::size_t s = 0; s < tr.by_session.size(); ++s)
    for (std::size_t p = 0; p < tr.by_session[s].size(); ++p) {
      const std::size_t r = tr.by_session[s][p];
      const auto& rd = tr.reads[r];
      if (!rd.event) continue;
      if (cand.chosen[r] != kNoTxn && cand.chosen[r] != rd.observed) {
        changed_at[s].push_back(p);
        for (TxnId w : tr.writers_of(rd.key))
          if (const BLit bad = w == rd.txn ? kFalse : breaks(rd.key, w, rd.txn); bad != kFalse)
            broken.push_back(c.and_(space.reads_from(r, w), bad));
      } else if (const BLit bad = breaks(rd.key, rd.observed, rd.txn); bad != kFalse) {
        broken.push_back(c.and_(space.reads_from(r, rd.observed), bad));
      }
    }
  // The escapes, by the shared chains: every other read of a session.
  for (std::size_t s = 0; s < tr.by_session.size(); ++s) broken.push_back(escapes(s, changed_at[s]));
  return c.or_(broken);
}

// "At least j of the literals", as a sequential counter built a column at
// a time: the search asks for at most K changed reads, K = 1, 2, ...
class AtLeast {
 public:
  AtLeast(Circuit& c, std::vector<BLit> lits) : c_(c), lits_(std::move(lits)) {
    cols_.emplace_back(lits_.size() + 1, kTrue);
  }
  BLit operator()(std::size_t j) {
    while (cols_.size() <= j) {
      const auto& prev = cols_.back();
      std::vector<BLit> col(lits_.size() + 1, kFalse);
      for (std::size_t i = 1; i <= lits_.size(); ++i) col[i] = c_.or_(col[i - 1], c_.and_(prev[i - 1], lits_[i - 1]));
      cols_.push_back(std::move(col));
    }
    return cols_[j].back();
  }

 private:
  Circuit& c_;
  std::vector<BLit> lits_;
  std::vector<std::vector<BLit>> cols_;
};

// Refuses levels a trace cannot be predicted under (std::invalid_argument):
// either reading time, or `ser` not serializability with session order.
void check_levels(const History& observed, const lua::Level& under, const lua::Level& ser) {
  for (const lua::Level* l : {&under, &ser})
    if (l->uses_real_time() || l->uses_db_timestamps())
      throw std::invalid_argument(fmt::format("{} reads time, which a trace has none of", l->name));
  if (ser.graph != GraphLevel::Ser || decided_without_sessions(observed, ser, SessionMode::Auto))
    throw std::invalid_argument(fmt::format("{} is not serializability with session order", ser.name));
}

// The observed run first. One the level allows and serializability forbids
// is its own answer: nothing needs to change (IsoPredict's constraints hold
// with every boundary at its session's end); then `result` says so and
// this returns true. One the level does not allow is predicted from all the
// same: IsoPredict puts no condition on it, and every candidate is held to
// the level.
bool observed_is_prediction(const History& observed, const lua::Level& under, const lua::Level& ser,
                            PredictResult& result) {
  DecideOptions first;
  first.explain = false;
  result.observed_under = decide(observed, under, first).verdict;
  result.observed_ser = decide(observed, ser, first).verdict;
  if (result.observed_under == Verdict::Unknown || result.observed_ser == Verdict::Unknown) throw TimeoutError();
  if (result.observed_under != Verdict::Allowed || result.observed_ser != Verdict::Violated) return false;
  result.outcome = Outcome::Found;
  result.fewest = true;  // no prediction changes fewer than none
  result.runs.push_back(PredictedRun{observed, {}});
  return true;
}

Clock::duration as_duration(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// One prediction search: the SAT instance over the trace's prediction
// space, and the candidates drawn from it, fewest changed reads first.
// Fills the PredictResult it is given.
class Prediction {
 public:
  Prediction(const ObservedTrace& trace, const lua::Level& under, const lua::Level& ser,
             const PredictOptions& options, Clock::time_point start, PredictResult& result)
      : trace_(trace), under_(under), ser_(ser), options_(options), start_(start), result_(result),
        lazy_(held_lazily(under)), space_(trace, options.mode, c_, !lazy_) {
    solver_.set_many_calls();
    solver_.set_default_polarity(false);
    cnf_.assert_true(space_.constraints());
    if (under.graph == GraphLevel::Cc) rule_out_stale_reads();
    if (!lazy_) hold_by_formula();
    at_least_.emplace(c_, count_changes());
  }

  // Fewest changed reads first: at most K, K = 1, 2, ..., for as long as
  // the options allow; then any number. Lemmas learnt under one bound
  // hold under every bound. (With a relaxed boundary, causal consistency
  // can need many reads of a transaction to change together, and ruling
  // out fewer can take longer than finding one.)
  void run() {
    // No prediction changes fewer reads than `below`. One that changes none
    // is a prefix of the observed run. When the level allows the observed
    // run, that run is serializable here (or it was the answer), and so is
    // every prefix of it; a prefix of a run the level does not allow may be
    // a prediction.
    std::size_t below = result_.observed_under == Verdict::Allowed ? 1 : 0;
    std::optional<Candidate> best = fewest_first(below);
    if (!best) best = doubling(below);
    if (best) collect(std::move(*best), below);
    result_.sat = solver_.stats();
  }

 private:
  // Clauses ruling out stale reads before the search (causal consistency).
  void rule_out_stale_reads() {
    const CausalPasts pasts(trace_, options_.mode);
    const std::vector<BLit> stale = pasts.rule_out_all(space_, c_);
    for (BLit clause : stale) cnf_.assert_true(clause);
    const std::vector<BLit> joined = pasts.rule_out_joined(space_, c_, kJoinedBudget);
    for (BLit clause : joined) cnf_.assert_true(clause);
    result_.ruled_out = stale.size() + joined.size();
  }

  // The weak level's witness: free relations, its constraint asserted.
  void hold_by_formula() {
    const Universe& u = space_.universe();
    Bindings allow = space_.bindings();
    for (const auto& w : under_.framework->witness)
      allow.bind(w.rel, variable_matrix(c_, u.size(), static_cast<std::uint32_t>(w.rel->type.size()), {},
                                        model::all_tuples(u, w.rel->type)));
    try {
      Translator t(u, c_, allow);
      cnf_.assert_true(t.formula(under_.constraint()));
    } catch (const TranslationError& e) {
      throw std::invalid_argument(fmt::format(
          "{} is held to by its formula over the whole trace ({} transactions), which is too large: {}; "
          "the levels decided by saturation (biswas.RC, biswas.RA, biswas.CC) scale",
          under_.name, trace_.h.num_txns() - 1, e.what()));
    }
  }

  // The changed reads, to be counted, and the most a boundary can free
  // (most_; strict: one read per session; relaxed: the reads of one
  // transaction per session).
  std::vector<BLit> count_changes() {
    std::vector<BLit> changes;
    for (std::size_t s = 0; s < trace_.by_session.size(); ++s) {
      std::map<TxnId, std::size_t> per_txn;
      for (std::size_t r : trace_.by_session[s])
        if (trace_.reads[r].event) {
          changes.push_back(space_.changed(r));
          ++per_txn[trace_.reads[r].txn];
        }
      std::size_t widest = 0;
      for (const auto& [t, n] : per_txn) widest = std::max(widest, n);
      most_ += options_.mode == PredictMode::Strict ? std::min<std::size_t>(widest, 1) : widest;
    }
    return changes;
  }

  // At most K changed reads, K = below, below + 1, ..., within
  // PredictOptions::fewest_seconds; raises `below` past every K shown to
  // have no prediction.
  std::optional<Candidate> fewest_first(std::size_t& below) {
    std::optional<Candidate> best;
    const auto until = Clock::now() + as_duration(options_.fewest_seconds);
    for (std::size_t k = below; k < most_ && !best && !gave_up_; ++k) {
      best = next(k, until);
      if (!best && !gave_up_) below = k + 1;
    }
    return best;
  }

  // With none found, any number of changes and a bound that doubles in
  // turn, each search capped, the caps doubling too: a bound makes a
  // prediction changing few reads quick to find where one changing any
  // number is not, and the other way round. The search without a bound
  // ends it when it shows there is none.
  std::optional<Candidate> doubling(std::size_t& below) {
    std::optional<Candidate> best;
    auto cap = std::max<Clock::duration>(as_duration(options_.fewest_seconds), std::chrono::seconds(1));
    for (std::size_t k = std::max<std::size_t>(2 * below, 2); !best;
         k *= 2, cap = std::min<Clock::duration>(2 * cap, std::chrono::hours(24))) {
      gave_up_ = false;
      best = next(std::nullopt, Clock::now() + cap);
      if (best || !gave_up_) break;
      if (k >= most_) continue;
      gave_up_ = false;
      best = next(k, Clock::now() + cap);
      if (!best && !gave_up_) below = k + 1;
    }
    return best;
  }

  // The first prediction, then as many more as the options ask, each
  // changing other reads than those before it.
  void collect(Candidate best, std::size_t below) {
    result_.outcome = Outcome::Found;
    result_.first_seconds = seconds_since(start_);
    result_.fewest_below = below;
    result_.fewest = result_.fewest_below >= best.changed.size();
    elsewhere(best);
    result_.runs.push_back(PredictedRun{std::move(best.history), std::move(best.changed)});
    while (result_.runs.size() < std::max<std::size_t>(1, options_.limit)) {
      std::optional<Candidate> another = next(std::nullopt);
      if (!another) break;
      elsewhere(*another);
      result_.runs.push_back(PredictedRun{std::move(another->history), std::move(another->changed)});
    }
  }

  // A prediction that changes other reads than `cand` did (all of them).
  void elsewhere(const Candidate& cand) {
    std::vector<BLit> same;
    for (const ChangedRead& ch : cand.changed) same.push_back(space_.reads_from(trace_.read_at(ch.reader, ch.op), ch.writer));
    cnf_.assert_true(!c_.and_(same));
  }

  // The next candidate that the weak level allows and serializability
  // forbids, changing at most `at_most` reads (none: any number); nullopt
  // when there is none or the search gave up. Learns the lemmas on the way.
  std::optional<Candidate> next(std::optional<std::size_t> at_most,
                                std::optional<Clock::time_point> until = std::nullopt) {
    while (true) {
      const std::optional<sat::Result> r = solve(at_most, until);
      if (!r || *r == sat::Result::Unsat) return std::nullopt;
      ++result_.candidates;
      const std::vector<bool> inputs = cnf_.input_values();
      Candidate cand = space_.decode(inputs);
      if (is_prediction(cand, inputs)) return cand;
    }
  }

  // One solver call for a candidate changing at most `at_most` reads.
  // `until`: a soft limit, checked between candidates and stopping the
  // solver too, where the search gives up (nullopt, gave_up_) without
  // leaving a lemma half asserted. Throws TimeoutError at the run's deadline.
  std::optional<sat::Result> solve(std::optional<std::size_t> at_most, std::optional<Clock::time_point> until) {
    budget::poll();
    if (until && Clock::now() >= *until) {
      gave_up_ = true;
      return std::nullopt;
    }
    if (options_.on_progress && seconds_since(start_) >= reported_ + 1) {
      reported_ = seconds_since(start_);
      options_.on_progress(PredictProgress{at_most.value_or(most_), result_.candidates, result_.cycles,
                                           result_.lemmas, reported_});
    }
    std::vector<sat::Lit> assume;
    if (at_most && *at_most < most_) assume.push_back(cnf_.literal(!(*at_least_)(*at_most + 1)));
    sat::Result r = sat::Result::Unknown;
    try {
      const double left = until ? std::chrono::duration<double>(*until - Clock::now()).count() : 0;
      budget::ScopedDeadline cap(until ? std::max(left, 1e-6) : 0);
      r = solver_.solve(assume);
    } catch (const TimeoutError&) {
    }
    if (r != sat::Result::Unknown) return r;
    if (!until || budget::expired()) throw TimeoutError();
    gave_up_ = true;
    return std::nullopt;
  }

  // Does the weak level allow `cand` and serializability forbid it? When
  // not, a clause excluding it (a cycle's facts, or a lemma from the commit
  // order that serializes it) has been asserted.
  bool is_prediction(const Candidate& cand, const std::vector<bool>& inputs) {
    if (lazy_ && !allowed_lazily(cand, inputs)) return false;
    DecideOptions strong;
    strong.explain = false;
    strong.witness = false;
    const auto checked = Clock::now();
    const Decision d = decide(cand.history, ser_, strong);
    result_.check_seconds += seconds_since(checked);
    if (d.verdict == Verdict::Unknown) throw TimeoutError();
    if (d.verdict == Verdict::Violated) return true;
    // Every candidate this commit order explains is serializable.
    const auto built = Clock::now();
    if (!escapes_) escapes_.emplace(trace_, space_, c_);
    exclude(serializability_lemma(trace_, space_, c_, d.commit_order, cand, *escapes_), inputs);
    result_.lemma_seconds += seconds_since(built);
    ++result_.lemmas;
    return false;
  }

  // The weak level, decided by saturation: a violation's cycle excluded.
  bool allowed_lazily(const Candidate& cand, const std::vector<bool>& inputs) {
    DecideOptions weak;
    weak.witness = false;
    const auto checked = Clock::now();
    const Decision d = decide(cand.history, under_, weak);
    result_.check_seconds += seconds_since(checked);
    if (d.verdict == Verdict::Unknown) throw TimeoutError();
    if (d.verdict != Verdict::Violated) return true;
    const auto facts = d.anomaly ? cycle_facts(*d.anomaly, cand, trace_, space_) : std::nullopt;
    if (!facts) throw std::logic_error("predict: a saturation violation without a cycle of its edges");
    const auto built = Clock::now();
    exclude(!c_.and_(*facts), inputs);
    result_.lemma_seconds += seconds_since(built);
    ++result_.cycles;
    return false;
  }

  // Each clause must exclude the candidate it comes from, or the search
  // would draw it again.
  void exclude(BLit clause, const std::vector<bool>& inputs) {
    if (c_.eval(clause, inputs)) throw std::logic_error("predict: a clause that keeps its own candidate");
    cnf_.assert_true(clause);
  }

  const ObservedTrace& trace_;
  const lua::Level& under_;
  const lua::Level& ser_;
  const PredictOptions& options_;
  Clock::time_point start_;
  PredictResult& result_;
  const bool lazy_;
  Circuit c_;
  sat::Solver solver_;
  CnfEncoder cnf_{c_, solver_};
  const PredictionSpace space_;
  std::optional<AtLeast> at_least_;  // of the changed reads
  std::optional<Escapes> escapes_;   // built with the first lemma
  std::size_t most_ = 0;             // the most changed reads a prediction can have
  double reported_ = 0;              // when progress was last reported
  bool gave_up_ = false;             // the last search met its soft limit
};

}  // namespace

PredictResult predict(const History& observed, const lua::Level& under, const lua::Level& ser,
                      const PredictOptions& options) {
  return predict(ObservedTrace(observed), under, ser, options);
}

PredictResult predict(const ObservedTrace& trace, const lua::Level& under, const lua::Level& ser,
                      const PredictOptions& options) {
  const auto start = Clock::now();
  PredictResult result;
  check_levels(trace.h, under, ser);
  budget::ScopedDeadline deadline(options.timeout_seconds);
  try {
    if (observed_is_prediction(trace.h, under, ser, result)) {
      result.seconds = seconds_since(start);
      return result;
    }
    Prediction prediction(trace, under, ser, options, start, result);
    prediction.run();
  } catch (const TimeoutError&) {
    // The predictions found so far stand; without one, the time ran out.
    if (result.runs.empty()) result.outcome = Outcome::Timeout;
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace iso::cegis
