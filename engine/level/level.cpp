// Levels (level.hpp): the constraint a level puts on an execution, and what
// its formula mentions (sessions, read events, dirty reads, item reads, real
// time), which decide() routes by.

#include "engine/level/level.hpp"

#include "engine/model/schema.hpp"

namespace iso {

logic::FormulaPtr Level::constraint() const {
  std::vector<logic::FormulaPtr> parts;
  for (const auto& w : framework->witness)
    if (w.order) parts.push_back(logic::total_order(logic::rel(w.rel), logic::sort(w.order_sort)));
  parts.push_back(framework->wf);
  parts.push_back(axiom);
  return logic::and_(std::move(parts));
}

bool Level::uses_sessions() const {
  return logic::mentions(constraint(), *model::history_schema().so);
}

bool Level::uses_read_events() const { return model::mentions_read_events(constraint()); }

bool Level::uses_dirty_reads() const { return model::mentions_dirty_reads(constraint()); }

bool Level::uses_item_reads() const {
  return logic::mentions(constraint(), *model::history_schema().iwrx);
}

bool Level::uses_real_time() const { return model::mentions_real_time(constraint()); }

model::RealTimeUse Level::real_time() const { return model::real_time_use(constraint()); }

bool Level::uses_db_timestamps() const { return model::mentions_db_timestamps(constraint()); }

bool Level::uses_known_orders() const {
  return logic::mentions(constraint(), *model::history_schema().vo);
}

}  // namespace iso
