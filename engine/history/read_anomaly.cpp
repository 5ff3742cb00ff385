// The names of read anomalies and INT violations (read_anomaly.hpp): as
// verdicts print them, and Plume's pattern names beside them.
#include "engine/history/read_anomaly.hpp"

namespace iso {

std::string_view read_anomaly_name(ReadAnomaly kind) {
  switch (kind) {
    case ReadAnomaly::ThinAir: return "thin-air read";
    case ReadAnomaly::Aborted: return "G1a";
    case ReadAnomaly::Intermediate: return "G1b";
    case ReadAnomaly::UnknownStatus: return "read of an unknown-status write";
    case ReadAnomaly::NotMember: return "read of an excluded write";
    case ReadAnomaly::FutureRead: return "future read";
    case ReadAnomaly::DuplicateElements: return "duplicate elements";
    case ReadAnomaly::IncompatibleOrder: return "incompatible order";
    case ReadAnomaly::InterleavedAppends: return "G0";
    case ReadAnomaly::PredicateMismatch: return "predicate mismatch";
  }
  return "?";
}

std::optional<PlumePattern> plume_pattern(ReadAnomaly kind) {
  switch (kind) {
    case ReadAnomaly::ThinAir: return PlumePattern{"TAP-a", "thin-air read"};
    case ReadAnomaly::Aborted: return PlumePattern{"TAP-b", "aborted read"};
    case ReadAnomaly::FutureRead: return PlumePattern{"TAP-c", "future read"};
    case ReadAnomaly::Intermediate: return PlumePattern{"TAP-f", "intermediate read"};
    default: return std::nullopt;
  }
}

PlumePattern plume_pattern(IntViolation::Pattern pattern) {
  return pattern == IntViolation::Pattern::NotMyLastWrite
             ? PlumePattern{"TAP-e", "not-my-last-write"}
             : PlumePattern{"TAP-d", "not-my-own-write"};
}

}  // namespace iso
