// How the readers apply and report an initial-state mode (initial_state.hpp):
// the refusals and the "initial state: ..." note, worded alike for every format.
#include "engine/history/formats/initial_state.hpp"

#include <fmt/format.h>

namespace iso::initial {

void refuse(const std::string& source, InitMode mode, std::string_view format,
            std::string_view why, std::string_view supported) {
  throw InputError(fmt::format("{}: --init {} is not supported for {}: {} (use {})", source,
                               init_mode_name(mode), format, why, supported));
}

void record(ReadResult& result, InitMode mode, InitialState state, std::string_view detail,
            std::optional<ValueId> every_key) {
  History& h = result.history;
  result.initial_state = state;
  h.set_initial_writes(state == InitialState::Implicit ? InitialWrites::EveryKey
                                                       : InitialWrites::ExplicitOnly);
  if (state == InitialState::Implicit && every_key)
    for (KeyId k = 0; k < h.keys().size(); ++k) h.set_init(k, *every_key);
  result.notes.push_back(fmt::format("initial state: {} (--init {}): {}",
                                     initial_state_name(state), init_mode_name(mode), detail));
}

void refuse_explicit(const std::string& source, InitMode mode, std::string_view format,
                     std::string_view why) {
  if (mode == InitMode::Explicit) refuse(source, mode, format, why, "auto, implicit or none");
}

void record_implicit_or_none(ReadResult& result, InitMode mode, std::string_view implicit,
                             std::string_view none, std::optional<ValueId> every_key) {
  if (mode == InitMode::None)
    record(result, mode, InitialState::None, none);
  else
    record(result, mode, InitialState::Implicit, implicit, every_key);
}

std::string not_initial_state(std::string_view name, std::string_view why) {
  return fmt::format(
      "--init explicit: the first transaction {} cannot be the initial state because {}", name,
      why);
}

}  // namespace iso::initial
