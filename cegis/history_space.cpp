// The history space's construction and its scope (cegis/history_space.hpp):
// the constructor is a sequence of named steps, each in the file of the kind
// of history it spans:
//   history_space_registers.cpp   reads, final writes, sessions, read-from by value
//   history_space_symmetry.cpp    symmetry breaking (values, keys, empty transactions)
//   history_space_dirty.cpp       aborted transactions and intermediate writes
//   history_space_operations.cpp  read slots in program order (the operation form)
//   history_space_read_from.cpp   read-from as a choice (repeated values)
//   history_space_lists.cpp       list-append keys and their version order
//   history_space_time.cpp        begin and commit events in real time
//   history_space_decode.cpp      the history of a model
// The steps run in a fixed order: the circuit numbers its inputs and gates
// in the order they are made, and the solver's search follows that order.
#include "cegis/history_space.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

std::string Scope::text() const {
  return ops > 0 ? fmt::format("{},{},{},{}", txns, objects, values, ops)
                 : fmt::format("{},{},{}", txns, objects, values);
}

Scope parse_scope(const std::string& text) {
  std::vector<std::uint32_t> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument(fmt::format(
          "malformed scope '{}': expected positive integers T,O,V[,P] (transactions, objects, "
          "values with the initial value counted, and optionally operations per transaction), "
          "e.g. 4,3,3 or 3,2,2,3", text));
    if (part.size() > 4) throw std::invalid_argument(fmt::format("scope '{}': {} is too large", text, part));
    parts.push_back(static_cast<std::uint32_t>(std::stoul(part)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts.size() != 3 && parts.size() != 4)
    throw std::invalid_argument(fmt::format(
        "malformed scope '{}': expected three or four numbers T,O,V[,P], got {}", text, parts.size()));
  const char* names[] = {"transactions", "objects", "values", "operations per transaction"};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] == 0)
      throw std::invalid_argument(fmt::format("scope '{}': the number of {} must be at least 1", text, names[i]));
    if (parts[i] > 30) throw std::invalid_argument(fmt::format("scope '{}': each dimension is at most 30", text));
  }
  return Scope{parts[0], parts[1], parts[2], parts.size() == 4 ? parts[3] : 0};
}

std::string SpaceOptions::text() const {
  return fmt::format("blind_writes={} operations={} sessions={} index_ordered={} duplicates={} dirty_reads={} "
                     "key_order={} lists={} real_time={} predicates={}",
                     blind_writes, operations, sessions, index_ordered, duplicates, dirty_reads, key_order, lists,
                     real_time, predicates);
}

std::string key_name(std::uint32_t k) {
  static const char* names[] = {"x", "y", "z"};
  return k < 3 ? names[k] : fmt::format("k{}", k);
}

namespace {

std::uint32_t slots_of(const Scope& s, const SpaceOptions& opt) {
  if (s.ops > 0) return s.ops;
  return opt.operations ? 2 * s.objects : 0;
}

// Read atoms are named as a concrete history's read events: "T3.2" is T3's
// second operation (the reads come first).
Universe make_universe(const Scope& s, std::uint32_t slots) {
  std::vector<std::string> txns, objs, vals, reads;
  for (std::uint32_t t = 0; t <= s.txns; ++t) txns.push_back(fmt::format("T{}", t));
  for (std::uint32_t x = 0; x < s.objects; ++x) objs.push_back(key_name(x));
  for (std::uint32_t v = 0; v < s.values; ++v) vals.push_back(std::to_string(v));
  if (slots == 0) return Universe({txns, objs, vals});
  for (std::uint32_t t = 1; t <= s.txns; ++t)
    for (std::uint32_t i = 0; i < slots; ++i) reads.push_back(fmt::format("T{}.{}", t, i + 1));
  return Universe({txns, objs, vals, reads});
}

// at_least[j]: at least j + 1 of `lits` hold (a unary counter; the sizes
}  // namespace

Index HistorySpace::idx3(std::uint32_t t, std::uint32_t x, std::uint32_t v) const {
  const Universe& u = universe_;
  return tuple_index(u.size(), {u.atom(model::kTxn, t), u.atom(model::kObj, x), u.atom(model::kVal, v)});
}

BLit HistorySpace::read_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const {
  return reads_.at(idx3(t, x, v));
}
BLit HistorySpace::slot_var(std::uint32_t t, std::uint32_t i, std::uint32_t x, std::uint32_t v) const {
  const std::uint32_t K = scope_.objects, V = scope_.values;
  return slot_.at((static_cast<std::size_t>(t - 1) * slots_ + i) * K * V + x * V + v);
}
BLit HistorySpace::write_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const {
  return writes_.at(idx3(t, x, v));
}
BLit HistorySpace::so_var(std::uint32_t i, std::uint32_t j) const {
  return so_.at(Index{i} * universe_.size() + j);
}

BLit HistorySpace::list_order_var(std::uint32_t x, std::uint32_t a, std::uint32_t b) const {
  if (!lists_) return kFalse;
  const std::size_t n1 = scope_.txns + 1;
  return list_order_.at((x * n1 + a) * n1 + b);
}

BLit HistorySpace::intermediate_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const {
  if (!dirty_) return kFalse;
  return intermediate_.at((static_cast<std::size_t>(t) * scope_.objects + x) * scope_.values + v);
}

HistorySpace::HistorySpace(const Scope& scope, const SpaceOptions& opt, Circuit& c)
    : scope_(scope), index_ordered_(opt.index_ordered), duplicates_(opt.duplicates), slots_(slots_of(scope, opt)),
      universe_(make_universe(scope, slots_)) {
  check_options(opt);
  // The variables. T0 writes value 0 everywhere and reads nothing.
  make_predicate_variables(c, opt);
  make_dirty_variables(c);
  make_slot_variables(c);
  const BaseCells cells = make_register_variables(c, opt);
  const CommittedPart part = bind_dirty_reads(c, cells);
  make_index_order(c);
  // The constraints.
  std::vector<BLit> k;
  register_constraints(c, opt, k);
  aborted_constraints(c, k);
  session_constraints(c, k);
  value_order(c, k);
  key_and_empty_order(c, opt, k);
  if (slots_ > 0) build_read_slots(c, k);
  if (lists_) build_lists(c, k);
  real_time_ = opt.real_time;
  if (real_time_) build_real_time(c, k);
  constraints_ = c.and_(k);
  bind_base_relations(c, part);
  if (duplicates_) build_read_events(c);
  else bind_value_read_from(c);
}

void HistorySpace::check_options(const SpaceOptions& opt) {
  const bool dup = opt.duplicates;
  dirty_ = opt.dirty_reads;
  if (dup && dirty_)
    throw std::invalid_argument(
        "dirty reads (aborted transactions and intermediate writes) need unique written values: "
        "they are not available with repeated values (--duplicates)");
  lists_ = opt.lists;
  if (lists_ && (dup || dirty_ || slots_ > 0))
    throw std::invalid_argument(
        "list-append keys (--lists) are searched in the transaction form with unique values and without "
        "aborted transactions: not with --duplicates, --dirty-reads, a fourth scope number, or a level "
        "over read events");
  if (opt.predicates && (dup || dirty_ || lists_ || slots_ > 0))
    throw std::invalid_argument(
        "predicate reads are searched in the transaction form with unique values, without lists and "
        "aborted transactions: not with --duplicates, --dirty-reads, --lists, a fourth scope number, or a "
        "level over read events");
}

void HistorySpace::make_index_order(Circuit& c) {
  const std::uint32_t n = scope_.txns, N = universe_.size();
  std::vector<std::pair<Index, BLit>> cells;
  for (std::uint32_t i = 0; i <= n; ++i)
    for (std::uint32_t j = i + 1; j <= n; ++j)
      cells.emplace_back(Index{txn_atom(i)} * N + txn_atom(j), c.and_(!aborted_[i], !aborted_[j]));
  index_order_ = make_matrix(c, 2, std::move(cells));
}

void HistorySpace::bind_base_relations(Circuit& c, const CommittedPart& part) {
  const std::uint32_t n = scope_.txns, N = universe_.size();
  const model::HistorySchema& s = model::history_schema();
  bindings_.bind(s.reads, part.clean_reads);
  bindings_.bind(s.writes, part.committed_writes);
  if (dirty_) {
    // The sort Txn is the committed transactions, as in a checked history.
    std::vector<std::pair<Index, BLit>> extent;
    for (std::uint32_t t = 0; t <= n; ++t) extent.emplace_back(txn_atom(t), !aborted_[t]);
    bindings_.bind_extent(model::kTxn, make_matrix(c, 1, std::move(extent)));
  }
  bindings_.bind(s.so, so_);
  bindings_.bind(s.t0, constant_matrix(N, 1, {{txn_atom(0)}}));
  if (!lists_) bindings_.bind(s.vo, constant_matrix(N, 3, {}));  // register reads reveal no version order
}

}  // namespace iso::cegis
