// The space of runs a prediction searches (cegis/predictor.hpp): the
// observed trace with a prediction boundary per session and a free writer
// for each read the boundary frees, as circuit inputs, and the schema's
// relations over them for levels decided by their formula.
//
// The rules (IsoPredict §4.5, App. B; tests/brute/predict.hpp is the
// reference): each session has a boundary, its end or one of its reads.
// Strict: every operation up to and including the boundary read is kept;
// the boundary read may take any kept writer, every other kept read keeps
// its observed one. Relaxed: the boundary read's whole transaction is kept
// and all its reads are free. A read may take a transaction's write only
// if that transaction is complete, before its session's boundary
// transaction: a transaction whose read changed may not commit, or may
// write other values, so nothing that happens after it takes part
// (IsoPredict's tx_in_boundary).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/logic/circuit.hpp"
#include "engine/logic/matrix.hpp"
#include "engine/logic/translator.hpp"
#include "engine/logic/universe.hpp"

namespace iso::cegis {

enum class PredictMode { Strict, Relaxed };

// An observed run prediction cannot read: one line, and the input line of
// the operation at fault (Op::line; 0: none), for the caller to name with
// its file.
class TraceError : public std::invalid_argument {
 public:
  TraceError(const std::string& what, std::uint32_t line) : std::invalid_argument(what), line_(line) {}
  std::uint32_t line() const { return line_; }

 private:
  std::uint32_t line_;
};

// The observed run as the space sees it. Preconditions (checked; throws
// TraceError): committed transactions with item reads and writes only; the
// versions of a key have distinct values; every read event returns the
// value of some other transaction's last write of the key (or the initial
// state), and every other read its transaction's own last write before it:
// each read has a writer, a read-from that a prediction can change. Nothing
// else is asked of the observed run: the weak level need not allow it.
struct ObservedTrace {
  // A read operation; `event` when it is a read event (not after its
  // transaction's own write of the key).
  struct Read {
    TxnId txn = 0;
    std::uint32_t op = 0;            // its index in the transaction's operations
    std::size_t session = 0, index = 0;  // where its transaction is
    KeyId key = 0;
    bool event = true;
    TxnId observed = 0;  // a read event, when free, may take any writer of its key but its own transaction
  };

  explicit ObservedTrace(const History& h);

  const History& h;
  std::vector<Read> reads;                                 // in session, then program order
  std::vector<std::vector<std::size_t>> by_session;        // indices into reads
  std::vector<std::pair<std::size_t, std::size_t>> place;  // txn -> (session, index)

  std::optional<std::uint32_t> first_write(TxnId t, KeyId k) const;
  std::optional<std::uint32_t> last_write(TxnId t, KeyId k) const;
  ValueId version(TxnId w, KeyId k) const;  // w's last write of k (T0: the initial value)
  // The transactions with a write of k, in id order (T0 first when it
  // writes k), and where w is among them.
  const std::vector<TxnId>& writers_of(KeyId k) const { return writers_[k]; }
  std::optional<std::size_t> writer_index(KeyId k, TxnId w) const;
  // The read operations of t: reads[first ..< second] (one transaction's
  // reads are adjacent, in program order).
  std::pair<std::size_t, std::size_t> reads_of(TxnId t) const { return read_range_[t]; }
  // The read at operation `op` of t.
  std::size_t read_at(TxnId t, std::uint32_t op) const;

 private:
  std::vector<std::vector<TxnId>> writers_;
  std::vector<std::pair<std::size_t, std::size_t>> read_range_;
};

// A read that reads from another transaction than it did in the observed run.
struct ChangedRead {
  TxnId reader = 0;
  std::uint32_t op = 0;  // its index in the reader's operations
  TxnId observed = 0, writer = 0;
};

// A point of the space, decoded: the run (over the observed transactions; a
// dropped one keeps its place, empty), the reads whose writer changed, and
// per read of the trace the writer it takes (kNoTxn: not kept).
struct Candidate {
  History history;
  std::vector<ChangedRead> changed;
  std::vector<TxnId> chosen;
};

class PredictionSpace {
 public:
  // Builds the inputs and the constraints over them. With `relations`, also
  // the schema's relations (for a level decided by its formula): the
  // universe has the trace's transactions, keys, values and read events.
  PredictionSpace(const ObservedTrace& tr, PredictMode mode, logic::Circuit& c, bool relations);

  PredictMode mode() const { return mode_; }

  logic::BLit constraints() const { return constraints_; }
  const logic::Universe& universe() const { return universe_; }
  const logic::Bindings& bindings() const { return bindings_; }

  // "Read r of the trace is kept and reads from w".
  logic::BLit reads_from(std::size_t r, TxnId w) const;
  // "Read r is kept and reads from another writer than it observed".
  logic::BLit changed(std::size_t r) const;
  // "Read r is free and takes one of the first `count` writers of its key
  // in session `s` (in session order)": the stale writers a causal past
  // rules out are such prefixes (cegis/predictor.cpp).
  logic::BLit takes_among_first(std::size_t r, std::size_t s, std::size_t count) const;
  // "Read r is free and takes T0's version".
  logic::BLit takes_initial(std::size_t r) const;
  // "Operation i of transaction t is kept".
  logic::BLit kept(TxnId t, std::uint32_t i) const;
  // "t is complete": before its session's boundary transaction.
  logic::BLit complete(TxnId t) const;
  // "t writes k" (some write of k is kept).
  logic::BLit writes(TxnId t, KeyId k) const;

  Candidate decode(const std::vector<bool>& inputs) const;

 private:
  // Where the choice of a read's writer is: the free reads of a session
  // that are the k-th read of key x in their transaction share one choice
  // (a boundary frees the reads of one transaction at most), one input per
  // writer of x. So the inputs grow with sessions times writers, not reads
  // times writers.
  struct Group {
    std::vector<logic::BLit> pick;  // per writer of the key (ObservedTrace::writers_of)
    // Per session: [j] one of its first j writers of the key is picked.
    std::vector<std::vector<logic::BLit>> first;
  };
  void make_boundaries(std::vector<logic::BLit>& constraints);
  logic::BLit kept_at(std::size_t s, std::size_t j, std::uint32_t i) const;
  // "Session s's boundary is its p-th read or a later one, or its end".
  logic::BLit from(std::size_t s, std::size_t p) const;
  // "Session s's boundary is its p-th read" (p = n: its end).
  logic::BLit boundary_at(std::size_t s, std::size_t p) const;
  // The first read of session s whose boundary keeps op i of its j-th
  // transaction (every later one keeps it too).
  std::size_t first_keeping(std::size_t s, std::size_t j, std::uint32_t i) const;
  bool keeps(const ObservedTrace::Read& b, std::size_t j, std::uint32_t i) const;
  bool frees(const ObservedTrace::Read& b, const ObservedTrace::Read& r) const;
  logic::BLit picks(std::size_t r, TxnId w) const;  // r's group picks w
  void bind_relations();

  const ObservedTrace& tr_;
  PredictMode mode_;
  logic::Circuit& c_;
  logic::Universe universe_;
  logic::Bindings bindings_;
  logic::BLit constraints_ = logic::kTrue;
  // Per session: [p] the boundary is its p-th read or a later one, or its
  // end ([0] true, [n] the end).
  std::vector<std::vector<logic::BLit>> from_;
  std::vector<std::vector<logic::BLit>> onehot_;  // strict, per session: [0] its end, [1 + b] its b-th read
  std::vector<std::vector<logic::BLit>> later_;   // strict, per session: [b] the boundary is read b or later
  std::vector<logic::BLit> free_;                   // per read: the boundary frees it
  std::vector<std::size_t> group_of_;               // per read event: its group
  std::vector<Group> groups_;
};

}  // namespace iso::cegis
