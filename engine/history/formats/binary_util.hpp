// A bounded cursor over the bytes of a binary history file (dbcop, Cobra).
// Every read checks the bytes that remain first and throws InputError
// "SOURCE: byte OFFSET: expected ..." on truncation, so a reader never reads
// past the end, and counts read from the file can be checked against what
// remains before anything is reserved or looped over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "engine/history/input_error.hpp"

namespace iso {

class ByteCursor {
 public:
  ByteCursor(std::string_view bytes, const std::string& source)
      : bytes_(bytes), source_(source) {}

  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  std::size_t size() const { return bytes_.size(); }

  // Throws "SOURCE: byte OFFSET: MESSAGE".
  [[noreturn]] void fail_at(std::size_t offset, std::string_view message) const {
    throw InputError(fmt::format("{}: byte {}: {}", source_, offset, message));
  }
  [[noreturn]] void fail(std::string_view message) const { fail_at(pos_, message); }

  // Throws unless `n` bytes remain; `what` names what was expected there.
  void need(std::size_t n, std::string_view what) const {
    if (remaining() < n)
      fail(fmt::format("expected {} ({} byte{}), but the input ends after {} byte{}", what,
                       n, n == 1 ? "" : "s", remaining(), remaining() == 1 ? "" : "s"));
  }

  std::uint8_t peek_u8() const { return static_cast<std::uint8_t>(bytes_[pos_]); }

  std::uint8_t u8(std::string_view what) {
    need(1, what);
    return static_cast<std::uint8_t>(bytes_[pos_++]);
  }

  std::uint64_t u64_le(std::string_view what) {
    need(8, what);
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | byte_at(pos_ + static_cast<std::size_t>(i));
    pos_ += 8;
    return v;
  }

  std::uint64_t u64_be(std::string_view what) {
    need(8, what);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | byte_at(pos_ + i);
    pos_ += 8;
    return v;
  }

  // Two's complement reinterpretation; well defined since C++20.
  std::int64_t i64_be(std::string_view what) { return static_cast<std::int64_t>(u64_be(what)); }

  // A bincode bool: exactly 0 or 1.
  bool bool_byte(std::string_view what) {
    std::size_t at = pos_;
    std::uint8_t b = u8(what);
    if (b > 1) fail_at(at, fmt::format("expected {} (a bool, 0 or 1), found {}", what, b));
    return b == 1;
  }

  // A count that announces `count` elements of at least `min_bytes` bytes
  // each: throws (at the count's own offset) when the rest of the input
  // cannot hold them, so that callers may reserve or loop safely.
  void check_count(std::uint64_t count, std::size_t min_bytes, std::size_t count_offset,
                   std::string_view what) const {
    if (min_bytes == 0) return;
    if (count > remaining() / min_bytes)
      fail_at(count_offset,
              fmt::format("{} count {} exceeds what the remaining {} bytes can hold "
                          "(at least {} bytes each)",
                          what, count, remaining(), min_bytes));
  }

  std::string_view take(std::size_t n, std::string_view what) {
    need(n, what);
    std::string_view s = bytes_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  std::uint64_t byte_at(std::size_t i) const {
    return static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes_[i]));
  }

  std::string_view bytes_;
  const std::string& source_;
  std::size_t pos_ = 0;
};

}  // namespace iso
