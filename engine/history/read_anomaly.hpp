// Reads that no execution can justify, found before any level is decided:
// they make a history inconsistent at every level that forbids thin-air,
// aborted and intermediate reads (all the levels isosynth ships). Each has a
// type, so that explanations and verdicts never depend on message text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/history/history.hpp"

namespace iso {

inline constexpr TxnId kNoTxn = UINT32_MAX;

enum class ReadAnomaly : std::uint8_t {
  ThinAir,            // no transaction wrote the value (a garbage list element)
  Aborted,            // G1a: only an aborted transaction wrote it
  Intermediate,       // G1b: another transaction's non-final write
  UnknownStatus,      // only transactions of unknown status that are not members wrote it
  NotMember,          // only committed transactions outside the members considered wrote it
  FutureRead,         // the reader's own later write
  DuplicateElements,  // a list read holds an element twice (Elle: duplicate-elements)
  IncompatibleOrder,  // list reads of a key disagree on its version order (Elle)
  InterleavedAppends, // a list shows one transaction's appends around another's: G0
  PredicateMismatch,  // a predicate read returned a key or value its predicate excludes,
                      // or left out a key whose every version satisfies it
};

// The name users know the anomaly by (Adya, Elle): "thin-air read", "G1a",
// "G1b", "duplicate elements", "incompatible order", "G0", ...
std::string_view read_anomaly_name(ReadAnomaly kind);

// One of Plume's transactional anomalous patterns (Liu et al., OOPSLA 2024),
// by Plume's letter and name: {"TAP-b", "aborted read"}. Plume's checker
// reports these, so a user who knows them by that name finds them here.
struct PlumePattern {
  std::string_view code;
  std::string_view name;
};

// Plume's pattern for a read anomaly, when Plume has one: thin-air (TAP-a),
// aborted (TAP-b), future (TAP-c) and intermediate (TAP-f) reads. Reads of
// writes of unknown status or outside the members, and Elle's list
// anomalies, have no TAP of their own.
std::optional<PlumePattern> plume_pattern(ReadAnomaly kind);

// A read that nothing justifies.
struct UnjustifiedRead {
  TxnId txn = 0;
  std::uint32_t op = 0;           // the read, an index into Transaction::ops
  ReadAnomaly kind = ReadAnomaly::ThinAir;
  TxnId writer = kNoTxn;          // the writer it names, when one does (G1a, G1b, ...)
  // IncompatibleOrder between two reads: the other reader (its read is
  // named in `message`).
  TxnId other_txn = kNoTxn;
  std::string message;            // one line, e.g. "T2: r(x,5) reads the write of aborted T1 (G1a)"
};

// A violation of internal consistency (Cerone et al. 2015, INT): a read after
// the transaction's own write of the key that does not return the last such
// write, or a list read that does not end with the transaction's own earlier
// appends. (A re-read that returns another committed value than an earlier
// read is no INT violation: it is a read event like any other, and whether
// it is allowed is the level's business.)
struct IntViolation {
  enum class Kind : std::uint8_t {
    OwnWrite,         // a read after the transaction's own write returns another value
    OwnAppends,       // a list read does not end with the transaction's own appends
  };
  // Plume tells two INT violations apart (Liu et al. 2024): a read that
  // returns one of the transaction's own writes that a later own write of
  // the key overwrote (not-my-last-write, TAP-e; a list read that ends
  // inside the transaction's own appends), and any other value (not-my-own-
  // write, TAP-d).
  enum class Pattern : std::uint8_t {
    NotMyOwnWrite,
    NotMyLastWrite,
  };
  TxnId txn = 0;
  std::uint32_t op = 0;     // the offending read
  std::string message;      // e.g. "T1: r(x,2) does not return its own earlier write w(x,1)"
  Kind kind = Kind::OwnWrite;
  Pattern pattern = Pattern::NotMyOwnWrite;
};

// Plume's pattern for an INT violation: TAP-d or TAP-e.
PlumePattern plume_pattern(IntViolation::Pattern pattern);

}  // namespace iso
