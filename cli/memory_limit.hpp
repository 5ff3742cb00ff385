// The run's memory budget (--max-memory). The address space is capped with
// setrlimit, so an allocation past it fails instead of dragging the machine
// into swap; a failed allocation ends the run with one line on stderr and
// exit code 2, never a bare std::bad_alloc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace iso::cli {

// A sensible default: three quarters of the machine's physical memory.
std::uint64_t default_memory_limit();

// --max-memory's value: a positive size in bytes, with an optional unit K,
// M, G, T, P or E (powers of 1024; "KB", "KiB" and lower case too) and an
// optional fraction ("1.5G"), or `none` or `0` for no limit (0). nullopt
// for anything else: another size of zero bytes ("0G", "0.1"), a negative
// or non-finite number, an unknown unit, a size past 2^64.
std::optional<std::uint64_t> parse_memory_size(std::string_view text);

// Caps the address space at `bytes` (0: no cap) and installs the handler
// that reports running out. Under AddressSanitizer, whose shadow memory
// reserves terabytes of address space, only the handler is installed.
void arm_memory_limit(std::uint64_t bytes);

// The one-line message for running out of memory under the armed limit.
std::string out_of_memory_message();

}  // namespace iso::cli
