// The native JSON history format (FORMATS.md §1): read and write. The reader
// is formats/native.cpp (on the JSON reading base, formats/json_reader.hpp),
// the writer json_format.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/history/history.hpp"
#include "engine/history/input_error.hpp"

namespace iso {

// Inputs larger than this are rejected before parsing.
inline constexpr std::size_t kMaxNativeJsonBytes = std::size_t{1} << 30;  // 1 GiB

// Parses a native JSON history. `source_name` is used in error messages.
// Throws InputError naming the line and column (1-based, columns in bytes) of
// the offending element, and its JSON path when there is one:
//   h.json:7:14: sessions[0][1].ops[2]: unknown operation kind "x" (expected ...)
//   h.json:3:5: syntax error while parsing value - invalid literal; ...
// Errors inside an operation name the operation's path and the position of
// the offending element; a missing field names the position of its object.
// Keys are interned in order of first use in the operations; keys that only
// `init` mentions come after, in byte order of their text. Each operation's
// Op::line and Op::column are the position of its array's '['. A list read
// ["r", key, [v1, ...]] is a list-append read (History::add_list_read); the
// empty list reads the key's initial version (its init value, or null when
// T0 does not write the key).
// "initial_state": "explicit-only" makes T0 write only the keys of `init`.
// This is read_native (formats/formats.hpp) with --init auto.
History read_native_json(std::string_view text, const std::string& source_name);

// The file at `path`, read with read_native_json (at most
// kMaxNativeJsonBytes; InputError when it cannot be opened or read).
History read_native_json_file(const std::string& path);

// Serializes a history (format, version, init, sessions, and initial_state
// when T0 writes only some keys) so that read_native_json gives it back with
// the same meaning. Callers may add fields (e.g. "witnesses", "scope") to
// the returned object.
nlohmann::json write_native_json(const History& h);

// A value as the native format writes it: an integer, a string, or null
// (null too for a delete's tombstone, which the format writes as ["d", key]).
nlohmann::json value_json(const History& h, ValueId v);
}  // namespace iso
