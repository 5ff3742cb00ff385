// Exhaustive enumeration of small histories, decided on every level by the
// brute force: the reference that synthesis is complete within its scope
// (tests/unit/test_synth*.cpp). Independent of the synthesizer's encoding
// and of its symmetry breaking.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/history/abstract.hpp"

namespace iso::brute {

// Every level the brute force knows, aliases (adya.SI, adya.SER) once.
std::vector<std::string> all_levels();

// A space of small histories.
struct EnumeratedSpace {
  int txns = 2;
  int keys = 1;
  int values = 2;        // 0 (the initial value) .. values - 1
  int ops = 0;           // operations per transaction; 0: the transaction form
  bool sessions = true;  // false: every transaction in its own session
  // The features of the space, each as the synth option of its name:
  // - duplicates (--duplicates): any value written to a key by any number
  //   of transactions; otherwise each value other than 0 by at most one, 0
  //   by none (synthesis's default space);
  // - dirty_reads (--dirty-reads): any transaction may abort, and a
  //   transaction may write a key twice (in the transaction form: an
  //   intermediate write, then the final one); a read may then return an
  //   aborted or intermediate write. Values stay unique over every write;
  // - lists (--lists; transaction form, unique values, no dirty reads): each
  //   write appends its value, and each read returns the list of every
  //   appender of the key up to the writer of the value it returns, in one
  //   order of the key's appenders (every order is tried), without the
  //   reader's own append;
  // - real_time (a level that reads h.rt, h.rt_cc or h.rt_bc): every history
  //   once per strict weak order of its transactions' begin and commit
  //   events (each begin not after its commit, a session's transactions one
  //   after another), the events at exact times;
  // - predicates (a level that reads h.item_wrx; transaction form, unique
  //   values): a transaction that reads every key may read them all through
  //   one predicate read, v!=0, which returns the keys read with a value
  //   other than 0.
  bool duplicates = false, dirty_reads = false, lists = false, real_time = false, predicates = false;
};

// Every history of `space`: each transaction a sequence of at most `ops`
// operations in any order, one write per key (only final writes are seen),
// or in the transaction form at most one read and one write per key, the
// read first; in any sessions (chains in index order); without the
// histories no level allows (a read of a value nobody else wrote, a read
// after an own write returning something else): those separate nothing.
// With dirty reads, each transaction also committed or aborted, up to two
// writes per key, and reads of aborted or intermediate writes kept. With
// lists, every such history once per order of each key's appenders.
// Returns separated[a][b]: some history is allowed by levels[a] and violates
// levels[b]; `histories` counts those decided.
std::vector<std::vector<bool>> enumerate_separations(const EnumeratedSpace& space,
                                                     const std::vector<std::string>& levels,
                                                     std::size_t& histories);

// Decides `ah` on every level and records, in separated[a][b], that
// levels[a] allows it and levels[b] does not.
void record_separations(const AbstractHistory& ah, const std::vector<std::string>& levels,
                        std::vector<std::vector<bool>>& separated);

}  // namespace iso::brute
