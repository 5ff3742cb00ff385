// The native JSON history format (FORMATS.md §1): read and write.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/history/history.hpp"

namespace iso {

// A malformed input. what() is one line: "FILE:LINE:COL: message" (or
// "FILE: message" when no position applies).
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Inputs larger than this are rejected before parsing.
inline constexpr std::size_t kMaxNativeJsonBytes = std::size_t{1} << 30;  // 1 GiB

// Parses a native JSON history. `source_name` is used in error messages.
// Throws InputError naming the line and column of the offending element.
History read_native_json(std::string_view text, const std::string& source_name);
History read_native_json_file(const std::string& path);

// Serializes a history (format, version, init, sessions). Callers may add
// fields (e.g. "witnesses", "scope") to the returned object.
nlohmann::json write_native_json(const History& h);
}  // namespace iso
