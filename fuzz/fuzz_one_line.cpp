// Fuzz target of the one-line notation (engine/history/one_line.hpp), which
// a spec's anomaly reads its run_example in: only InputError may escape, and
// a history read must print back in the notation and read again.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/history/input_error.hpp"
#include "engine/history/one_line.hpp"
#include "engine/history/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const iso::History h = iso::parse_one_line(text, "fuzz");
    // What was read prints in the notation, and the print reads again into
    // as many transactions.
    const std::string printed = iso::history_one_line(h, false);
    const iso::History again = iso::parse_one_line(printed, "printed");
    if (again.num_txns() != h.num_txns()) throw std::logic_error("the printed history reads back differently");
  } catch (const iso::InputError&) {
  }
  return 0;
}
