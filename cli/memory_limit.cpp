// --max-memory (memory_limit.hpp): sizes read, the address space capped,
// the out-of-memory line.
#include "cli/memory_limit.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

#include <fmt/format.h>

namespace iso::cli {

namespace {

std::uint64_t armed = 0;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// The line on_new_failure prints, made when the limit is armed: with no
// memory left, formatting it then could fail in turn.
char oom_line[256] = "isosynth: error: out of memory\n";
std::size_t oom_length = std::strlen(oom_line);

// Called by operator new when an allocation fails: there may be no memory to
// unwind with, and the allocation may sit where no exception may leave (a
// destructor), so the run ends here, without allocating.
void on_new_failure() {
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, oom_line, oom_length);
  std::_Exit(2);
}

}  // namespace

std::optional<std::uint64_t> parse_memory_size(std::string_view text) {
  if (text == "none" || text == "0") return 0;  // no limit, as 0 always meant
  // Digits and at most one point: no sign, no exponent, no "nan" or "inf".
  const std::size_t end = text.find_first_not_of("0123456789.");
  const std::string_view number = text.substr(0, end);
  std::string unit;
  for (char c : text.substr(number.size())) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (number.empty() || std::count(number.begin(), number.end(), '.') > 1) return std::nullopt;
  double value = 0;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || ptr != number.data() + number.size()) return std::nullopt;
  if (unit.ends_with("ib")) unit.erase(unit.size() - 2);
  else if (unit.ends_with("b")) unit.pop_back();
  else if (unit.ends_with("i")) unit.pop_back();
  static constexpr std::string_view kUnits = "kmgtpe";  // 1024^1 .. 1024^6
  double scale = 1;
  if (!unit.empty()) {
    const std::size_t power = kUnits.find(unit);
    if (unit.size() != 1 || power == std::string_view::npos) return std::nullopt;
    scale = std::ldexp(1.0, 10 * static_cast<int>(power + 1));
  }
  const double bytes = std::floor(value * scale);
  if (!(bytes >= 1) || bytes >= 18446744073709551616.0) return std::nullopt;  // [1, 2^64)
  return static_cast<std::uint64_t>(bytes);
}

std::uint64_t default_memory_limit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size) / 4 * 3;
}

std::string out_of_memory_message() {
  if (armed == 0) return "isosynth: error: out of memory";
  // In the unit the limit was likely given in: "100" is 100 bytes, not 0.0 GB.
  const double bytes = static_cast<double>(armed);
  const std::string size = armed >= (1u << 30) ? fmt::format("{:.1f} GB", bytes / (1u << 30))
                           : armed >= (1u << 20) ? fmt::format("{:.1f} MB", bytes / (1u << 20))
                                                 : fmt::format("{} bytes", armed);
  return fmt::format(
      "isosynth: error: out of memory: this run needs more than {} (--max-memory; the "
      "default is three quarters of the machine's memory)",
      size);
}

void arm_memory_limit(std::uint64_t bytes) {
  std::set_new_handler(on_new_failure);
  if (bytes == 0 || kAddressSanitizer) return;
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) != 0) return;
  if (limit.rlim_max != RLIM_INFINITY && bytes > limit.rlim_max) bytes = limit.rlim_max;
  limit.rlim_cur = bytes;
  if (::setrlimit(RLIMIT_AS, &limit) != 0) return;
  armed = bytes;
  const std::string line = out_of_memory_message() + "\n";
  oom_length = std::min(line.size(), sizeof oom_line);
  std::memcpy(oom_line, line.data(), oom_length);
}

}  // namespace iso::cli
