// Fuzz target of the spec loader: the input is a spec file, run in a fresh
// sandbox under tight limits. A SpecError is how a bad spec ends; anything
// else (a crash, a sanitizer report, a hang, an allocation past the caps,
// which libFuzzer's -malloc_limit_mb and -rss_limit_mb catch) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/logic/ast.hpp"
#include "lua/spec_library.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  iso::lua::Limits limits;
  limits.memory_bytes = 16u << 20;
  limits.instructions = 4'000'000;  // each standard spec needs under 500 000
  limits.seconds = 5;
  limits.formulas.max_live_bytes = 8u << 20;
  limits.formulas.max_built_bytes = 64u << 20;
  // The standard library (most of the time an input takes) only for inputs
  // that build on its frameworks rather than declare their own.
  const bool standard = text.find("framework \"") == std::string_view::npos;
  try {
    iso::lua::SpecLibrary lib(limits, standard);
    lib.load_string(text, "fuzz.lua");
    for (const iso::lua::Level* level : lib.levels()) (void)iso::logic::to_string(level->constraint());
  } catch (const iso::lua::SpecError&) {
  }
  return 0;
}
