// How the readers apply an initial-state mode (formats.hpp, InitMode) and
// say what they used, so that every format words it the same way.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/history/formats/formats.hpp"

namespace iso::initial {

// Throws InputError "SOURCE: --init MODE is not supported for FORMAT: WHY
// (use ...)", naming the modes the format does support.
[[noreturn]] void refuse(const std::string& source, InitMode mode, std::string_view format,
                         std::string_view why, std::string_view supported);

// For formats that have no initial transaction (Elle, dbcop, Cobra): refuses
// --init explicit, saying so ("... for FORMAT: WHY").
void refuse_explicit(const std::string& source, InitMode mode, std::string_view format,
                     std::string_view why);

// For the same formats: records None for --init none, else Implicit (with
// `every_key` as every key's initial value when given; see record()).
void record_implicit_or_none(ReadResult& result, InitMode mode, std::string_view implicit,
                             std::string_view none,
                             std::optional<ValueId> every_key = std::nullopt);

// Records `state` in `result` and in its history (InitialWrites::EveryKey
// for Implicit, ExplicitOnly otherwise) and adds the note "initial state:
// STATE (--init MODE): DETAIL". With Implicit and `every_key`, every key
// gets `every_key` as its initial value (the format's own, e.g. Elle's nil);
// call it after the last key is interned.
void record(ReadResult& result, InitMode mode, InitialState state, std::string_view detail,
            std::optional<ValueId> every_key = std::nullopt);

// "--init explicit: the first transaction NAME cannot be the initial state
// because WHY": what the formats whose first transaction may be T0 (text,
// dbcop, native JSON) say when it cannot be.
std::string not_initial_state(std::string_view name, std::string_view why);

// "s" when n != 1: for "{} key{}".
inline std::string_view plural(std::size_t n) { return n == 1 ? "" : "s"; }

}  // namespace iso::initial
