// Decisions as text and JSON (render.hpp), for check, synth and compare.
#include "cli/render.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/check_render.hpp"
#include "cli/json_fields.hpp"
#include "engine/history/printer.hpp"
#include "engine/model/schema.hpp"

namespace iso::cli {

namespace {

using Tuple = std::vector<std::uint32_t>;

bool is_per_key(const WitnessRelation& rel) {
  return rel.type == logic::Type{model::kObj, model::kTxn, model::kTxn};
}
bool is_txn_pairs(const WitnessRelation& rel) {
  return rel.type == logic::Type{model::kTxn, model::kTxn};
}

std::string id_text(const History& h, logic::SortId sort, std::uint32_t id) {
  if (sort == model::kTxn) return h.txn_name(id);
  if (sort == model::kObj) return h.key_text(id);
  return h.value_text(id);
}

std::string raw_id(const History& h, logic::SortId sort, std::uint32_t id) {
  if (sort == model::kTxn) return h.txn(id).name;
  if (sort == model::kObj) return h.keys()[id].text;
  return h.value_text(id);
}

// "T0 < T1 < T2".
std::string sequence_text(const History& h, const std::vector<TxnId>& seq, std::string_view sep = " < ") {
  std::string out;
  for (TxnId t : seq) out += (out.empty() ? "" : std::string(sep)) + h.txn_name(t);
  return out;
}

// The last transaction whose commit each transaction's begin follows.
std::vector<std::pair<TxnId, TxnId>> snapshot_points(const Witness& w) {
  std::vector<std::pair<TxnId, TxnId>> out;
  TxnId last = kInitTxn;
  for (const ScheduleEvent& e : w.schedule) {
    if (e.commit)
      last = e.txn;
    else
      out.emplace_back(e.txn, last);
  }
  return out;
}

}  // namespace

std::string witness_text(const History& h, const Witness& w) {
  using Form = WitnessRelation::Form;
  std::string s;
  for (const auto& rel : w.relations) {
    if (rel.order && !rel.sequence.empty()) {
      s += fmt::format("  {}: {}\n", rel.name, sequence_text(h, rel.sequence));
    } else if (rel.form == Form::Order) {
      s += fmt::format("  {}: every transaction before it in that order\n", rel.name);
    } else if (rel.form == Form::Snapshots) {
      s += fmt::format("  {}: every transaction in its snapshot\n", rel.name);
    } else if (rel.form == Form::PerKey || is_per_key(rel)) {
      for (const auto& [k, order] : key_sequences(rel))
        s += fmt::format("  {}({}): {}\n", rel.name, h.key_text(k), sequence_text(h, order));
    } else if (is_txn_pairs(rel)) {
      // T0's edges are forced by every framework; show the rest.
      std::string pairs;
      for (const Tuple& t : rel.tuples)
        if (t[0] != kInitTxn)
          pairs += fmt::format("{}{}->{}", pairs.empty() ? "" : " ", h.txn_name(t[0]),
                               h.txn_name(t[1]));
      s += fmt::format("  {}: {}\n", rel.name, pairs.empty() ? "(only T0's edges)" : pairs);
    } else {
      std::string tuples;
      for (const Tuple& t : rel.tuples) {
        std::string one;
        for (std::size_t c = 0; c < t.size(); ++c)
          one += (c ? ", " : "") + id_text(h, rel.type[c], t[c]);
        tuples += fmt::format("{}({})", tuples.empty() ? "" : " ", one);
      }
      s += fmt::format("  {}: {}\n", rel.name, tuples.empty() ? "(empty)" : tuples);
    }
  }
  if (!w.schedule.empty()) {
    std::string points;
    for (auto [t, after] : snapshot_points(w))
      points += fmt::format("{}{} sees up to {}", points.empty() ? "" : ", ", h.txn_name(t),
                            h.txn_name(after));
    s += fmt::format("  snapshots: {}\n", points);
  }
  for (const poly::ChosenRead& c : w.chosen_reads)
    s += fmt::format("  wr: {}'s {} (operation {}) reads from {}\n", h.txn_name(c.reader),
                     format_op(h, h.txn(c.reader).ops[c.op]), c.op + 1, h.txn_name(c.writer));
  for (TxnId t : w.committed_unknown)
    s += fmt::format("  {} (status unknown) taken as committed\n", h.txn_name(t));
  return s;
}

nlohmann::json witness_json(const History& h, const Witness& w) {
  using Form = WitnessRelation::Form;
  auto name = [&](TxnId t) { return h.txn(t).name; };
  auto sequence_json = [&](const std::vector<TxnId>& seq) {
    nlohmann::json out = nlohmann::json::array();
    for (TxnId t : seq) out.push_back(name(t));
    return out;
  };
  nlohmann::json j = nlohmann::json::object();
  for (const auto& rel : w.relations) {
    if (rel.order && !rel.sequence.empty()) {
      j[rel.name] = sequence_json(rel.sequence);
    } else if (rel.form == Form::Order) {
      j[rel.name] = {{"every_earlier_in", sequence_json(rel.sequence)}};
    } else if (rel.form == Form::Snapshots) {
      j[rel.name] = {{"snapshots_of", "schedule"}};
    } else if (rel.form == Form::PerKey || is_per_key(rel)) {
      nlohmann::json keys = nlohmann::json::object();
      for (const auto& [k, order] : key_sequences(rel)) keys[h.keys()[k].text] = sequence_json(order);
      j[rel.name] = keys;
    } else {
      nlohmann::json tuples = nlohmann::json::array();
      for (const Tuple& t : rel.tuples) {
        nlohmann::json one = nlohmann::json::array();
        for (std::size_t c = 0; c < t.size(); ++c) one.push_back(raw_id(h, rel.type[c], t[c]));
        tuples.push_back(one);
      }
      j[rel.name] = tuples;
    }
  }
  if (!w.schedule.empty()) {
    nlohmann::json sched = nlohmann::json::array();
    for (const ScheduleEvent& e : w.schedule)
      sched.push_back({{e.commit ? "commit" : "begin", name(e.txn)}});
    j["schedule"] = sched;
  }
  if (!w.chosen_reads.empty()) {
    nlohmann::json wr = nlohmann::json::array();
    for (const poly::ChosenRead& c : w.chosen_reads)
      wr.push_back({{"writer", name(c.writer)},
                    {"key", h.keys()[c.key].text},
                    {"reader", name(c.reader)},
                    {"op", c.op + 1},
                    {"read", operation_json(h, c.reader, c.op)}});
    j["wr"] = wr;
  }
  if (!w.committed_unknown.empty()) {
    nlohmann::json c = nlohmann::json::array();
    for (TxnId t : w.committed_unknown) c.push_back(name(t));
    j["committed"] = c;
  }
  return j;
}

namespace {

nlohmann::json failing_json(const History& h, const FailingInstances& f) {
  nlohmann::json instances = nlohmann::json::array();
  for (const FailingInstance& i : f.instances) {
    nlohmann::json at = nlohmann::json::array();
    for (const auto& [var, value] : i.at) at.push_back({{"variable", var}, {"value", value}});
    nlohmann::json j{{"of", i.of}, {"at", at}, {"formula", i.formula}, {"forbids", i.forbids}};
    if (!i.needs.empty()) j["needs"] = i.needs;
    if (!i.given.empty()) j["given_the_above"] = i.given;
    if (!i.cycle.empty()) {
      nlohmann::json cycle = nlohmann::json::array();
      for (TxnId t : i.cycle) cycle.push_back(h.txn_name(t));
      j["cycle"] = cycle;
    }
    if (!i.dependencies.empty()) {
      // The cycle typed with Adya's edge kinds (FailingInstance::dependencies).
      nlohmann::json deps = nlohmann::json::array();
      for (std::size_t k = 0; k < i.dependencies.size(); ++k) {
        const DepEdge& e = i.dependencies[k];
        nlohmann::json one{{"from", h.txn(e.from).name}, {"to", h.txn(e.to).name},
                           {"type", std::string(edge_type_name(e))}};
        if (keyed(e.type)) one["key"] = h.keys()[e.key].text;
        if (e.type == Dep::RW) one["anti_dependency"] = i.item[k] ? "item" : "predicate";
        if (!i.forced_by[k].empty()) one["forced_by"] = i.forced_by[k];
        deps.push_back(std::move(one));
      }
      j["dependencies"] = deps;
    }
    instances.push_back(std::move(j));
  }
  nlohmann::json j{{"instances", instances}};
  if (!f.cycle.empty()) {
    nlohmann::json cycle = nlohmann::json::array();
    for (TxnId t : f.cycle) cycle.push_back(h.txn_name(t));
    j["cycle"] = {{"order", f.order}, {"transactions", cycle}};
  }
  return j;
}

}  // namespace

std::string decision_text(const History& h, const Level& level, const Decision& d, bool witness) {
  std::string head = fmt::format("{}: {}", escape_text(level.name), verdict_word(d.verdict));
  if (d.anomaly) head += ": " + anomaly_title(*d.anomaly);
  if (d.sessions_ignored) head += " (without session order)";
  std::string s = head + "\n";
  if (d.anomaly) s += anomaly_text(h, *d.anomaly);
  // The generic oracle's reason stays beside the cycle it names.
  if (!d.reason.empty() && (!d.anomaly || d.checker == Checker::Generic))
    s += fmt::format("  {}\n", d.reason);
  if (!d.core.empty()) {
    std::vector<std::string> names;
    for (TxnId t : d.core) names.push_back(h.txn_name(t));
    s += fmt::format("  the violation needs {}: without any one of them (and the reads of its writes) "
                     "{} allows the rest\n",
                     fmt::join(names, ", "), level.name);
    // A named cycle has listed its transactions already.
    if (!d.anomaly)
      for (TxnId t : d.core) s += fmt::format("    {}\n", format_txn(h, t));
  }
  if (d.failing) {
    std::vector<std::string> names;
    for (const auto& w : level.framework->witness) names.push_back(w.name);
    s += failing_text(h, fmt::format("{}", fmt::join(names, " and ")), *d.failing);
  }
  if (d.verdict == Verdict::Allowed && witness) {
    if (d.witness) {
      s += witness_text(h, *d.witness);
    } else if (!d.commit_order.empty()) {
      s += fmt::format("  commit order: {}\n", sequence_text(h, d.commit_order));
    }
  }
  for (const auto& note : d.notes) s += fmt::format("  note: {}\n", note);
  return s;
}

nlohmann::json decision_json(const History& h, const Level& level, const Decision& d, bool witness) {
  nlohmann::json j{{"level", level.name},
                   {"verdict", std::string(verdict_word(d.verdict))},
                   {"checker", std::string(checker_name(d.checker))},
                   {"sessions", d.sessions_ignored ? "ignored" : "kept"}};
  if (d.anomaly) j["anomaly"] = anomaly_json(h, *d.anomaly);
  if (!d.reason.empty()) j["reason"] = d.reason;
  if (!d.core.empty()) {
    nlohmann::json core = nlohmann::json::array();
    for (TxnId t : d.core) core.push_back(h.txn_name(t));
    j["core"] = core;
  }
  if (d.failing) j["failing"] = failing_json(h, *d.failing);
  if (d.verdict == Verdict::Allowed && witness) {
    if (d.witness) j["witness"] = witness_json(h, *d.witness);
    if (!d.commit_order.empty()) {
      nlohmann::json co = nlohmann::json::array();
      for (TxnId t : d.commit_order) co.push_back(h.txn(t).name);
      j["commit_order"] = co;
    }
  }
  if (!d.notes.empty()) j["notes"] = d.notes;
  return j;
}

std::string dump_json(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace iso::cli
