// The one verdict vocabulary of every checker and command: a level allows a
// history, or the history violates it, or the run's budget ended before
// either was shown.
#pragma once

#include <cstdint>
#include <string_view>

namespace iso {

enum class Verdict : std::uint8_t { Allowed, Violated, Unknown };

// "allowed", "violated", "unknown": in text and in JSON.
constexpr std::string_view verdict_word(Verdict v) {
  switch (v) {
    case Verdict::Allowed: return "allowed";
    case Verdict::Violated: return "violated";
    case Verdict::Unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace iso
