// The schedule of a synthesis run: settings and budgets of the CEGIS search
// (cegis/schedule.hpp).
#include "cegis/schedule.hpp"

#include <algorithm>
#include <vector>

#include "cegis/implied_facts.hpp"

namespace iso::cegis {

namespace {

class Schedule {
 public:
  Schedule(Search& search, const Problem& p, std::optional<std::size_t> ordering, const SynthOptions& opt)
      : search_(search),
        opt_(opt),
        by_first_use_(search.first_use_selector()),
        turn_budget_(std::max<std::uint64_t>(opt.template_conflicts, 1)),
        facts_exec_(ordering.value_or(0)),
        facts_pending_(opt.implied_facts && opt.fixed_order && ordering &&
                       free_slot(*p.allow[facts_exec_]->framework)),
        transitive_pending_(opt.implied_facts && search.has_hb_transitivity()) {}

  // The settings of the next search.
  SearchLimits limits() const {
    SearchLimits out;
    if (facts_pending_ || transitive_pending_) out.until = opt_.implied_facts_after;
    if (by_first_use_) {
      out.per_call = opt_.first_use_conflicts;
      out.assumptions.push_back(*by_first_use_);
    } else if (!selectors_.empty()) {
      if (selectors_.size() > 1) out.per_call = turn_budget_;
      out.assumptions.push_back(selectors_[turn_]);
    }
    return out;
  }

  // A search stopped at its limits: add the facts when their time has come,
  // else leave keys numbered by first use for the restricted templates, else
  // take the next template (doubling the budget every round).
  void advance() {
    if ((facts_pending_ || transitive_pending_) && search_.conflicts() >= opt_.implied_facts_after) {
      search_.add_facts(transitive_pending_, facts_pending_ ? std::optional<std::size_t>(facts_exec_) : std::nullopt);
      transitive_pending_ = facts_pending_ = false;
    } else if (by_first_use_) {
      by_first_use_.reset();
      selectors_ = search_.restrict_first_templates();
    } else if (!selectors_.empty()) {
      turn_ = (turn_ + 1) % selectors_.size();
      if (turn_ == 0) turn_budget_ *= 2;
    }
  }

 private:
  Search& search_;
  const SynthOptions& opt_;
  std::optional<sat::Lit> by_first_use_;
  std::vector<sat::Lit> selectors_;  // the restricted templates'
  std::size_t turn_ = 0;             // the template whose selector is assumed
  std::uint64_t turn_budget_;
  std::size_t facts_exec_;
  bool facts_pending_;
  bool transitive_pending_;
};

}  // namespace

void run_schedule(Search& search, const Problem& p, std::optional<std::size_t> ordering, const SynthOptions& opt,
                  SynthResult& result) {
  Schedule schedule(search, p, ordering, opt);
  while (true) {
    if (std::optional<Outcome> o = search.run(schedule.limits(), result)) {
      result.outcome = *o;
      return;
    }
    schedule.advance();
  }
}

}  // namespace iso::cegis
