// The standard spec library (specs/*.lua), compiled into the binary.
#pragma once

#include <string_view>
#include <vector>

namespace iso::lua {

struct EmbeddedSpec {
  std::string_view name;  // "specs/biswas.lua": the chunk name in error messages
  std::string_view text;
};

const std::vector<EmbeddedSpec>& embedded_specs();

}  // namespace iso::lua
