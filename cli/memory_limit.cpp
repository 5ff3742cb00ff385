#include "cli/memory_limit.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
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

std::uint64_t default_memory_limit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size) / 4 * 3;
}

std::string out_of_memory_message() {
  if (armed == 0) return "isosynth: error: out of memory";
  return fmt::format(
      "isosynth: error: out of memory: this run needs more than {:.1f} GB (--max-memory; the "
      "default is three quarters of the machine's memory)",
      static_cast<double>(armed) / (1u << 30));
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
