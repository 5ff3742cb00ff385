// The one verdict vocabulary of every checker and command: a level allows a
// history, or the history violates it, or the run's budget ended before
// either was shown, or the level cannot be decided on this history at all.
#pragma once

#include <cstdint>
#include <string_view>

namespace iso {

// NotApplicable: decide() refuses the level on this history (DecideRefused:
// no database timestamps for a level that reads them, too many transactions
// for the generic oracle, ...). decide() itself never returns it; a command
// that decides several levels gives it, with the refusal as the reason, to
// each level it could not decide, so that one such level hides no other.
enum class Verdict : std::uint8_t { Allowed, Violated, Unknown, NotApplicable };

// "allowed", "violated", "unknown", "not-applicable": in text and in JSON.
constexpr std::string_view verdict_word(Verdict v) {
  switch (v) {
    case Verdict::Allowed: return "allowed";
    case Verdict::Violated: return "violated";
    case Verdict::Unknown: return "unknown";
    case Verdict::NotApplicable: return "not-applicable";
  }
  return "unknown";
}

}  // namespace iso
