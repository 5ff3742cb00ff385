// What every reader promises about a history it returns, checked by the fuzz
// targets after each successful read: a note on the initial state, an
// InitialWrites that agrees with ReadResult::initial_state, a source line on
// every operation of a text format, and, where asked, that the history
// round-trips through the native format unchanged.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/history/abstract.hpp"
#include "engine/history/formats/formats.hpp"

namespace fuzzcheck {

// The mode a target reads with, from any number the input supplies.
inline iso::InitMode mode(std::size_t n) {
  switch (n % 4) {
    case 0: return iso::InitMode::Auto;
    case 1: return iso::InitMode::Implicit;
    case 2: return iso::InitMode::Explicit;
    default: return iso::InitMode::None;
  }
}

inline void require(bool ok) {
  if (!ok) std::abort();
}

// `lines`: every operation must name its input line.
inline void check(const iso::ReadResult& r, bool lines) {
  std::size_t init_notes = 0;
  for (const auto& n : r.notes) init_notes += n.starts_with("initial state: ") ? 1 : 0;
  // A native file read as it says states its initial state itself.
  const bool plain_native = r.format == iso::Format::Native && init_notes == 0;
  require(init_notes == 1 || plain_native);
  const bool every_key = r.history.initial_writes() == iso::InitialWrites::EveryKey;
  require(every_key == (r.initial_state == iso::InitialState::Implicit));
  require(!r.explicit_init || r.initial_state == iso::InitialState::Explicit);
  if (lines)
    for (const auto& t : r.history.txns())
      for (const auto& op : t.ops) require(op.line > 0);
}

// Written, read back and written again, a history must not change. Every
// reader keeps only UTF-8 text, so writing never throws; reading back never
// fails.
inline void round_trip(const iso::History& h) {
  const std::string once = iso::write_native_json(h).dump();
  try {
    iso::ReadResult back = iso::read_native(once, "round-trip", iso::ReadOptions{});
    require(iso::write_native_json(back.history).dump() == once);
  } catch (const iso::InputError&) {
    std::abort();
  }
}

// The abstraction every checker starts from, with predicate reads and
// writes expanded, runs on anything a reader accepts (small histories: the
// fuzzer's inputs are).
inline void abstract(const iso::History& h) {
  if (h.num_txns() > 256) return;
  (void)iso::predicate_write_gap(h);
  iso::AbstractOptions o;
  o.predicate_reads = true;
  (void)iso::abstract_history(h, iso::committed_members(h), o);
}

// All three: what a target does with every history a reader accepts.
inline void verify(const iso::ReadResult& r, bool lines) {
  check(r, lines);
  round_trip(r.history);
  abstract(r.history);
}

}  // namespace fuzzcheck
