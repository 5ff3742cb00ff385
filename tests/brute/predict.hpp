// The brute-force reference of prediction (IsoPredict, PLDI 2024, §4.5 and
// App. B; its implementation's event_in_boundary / event_on_boundary), by
// enumeration: every way the observed run could have gone that a weak level
// allows and serializability forbids. Meant for traces of a few
// transactions; independent of the synthesizer, which it is the reference
// of.
//
// Nothing is asked of the observed run but that each read has a writer:
// IsoPredict puts no condition on it, so a run the level does not allow is
// predicted from too. With every boundary at its session's end, the
// observed run itself is a prediction when the level allows it and
// serializability forbids it.
//
// A prediction keeps the observed sessions and, in each, a prefix of its
// events up to a boundary: the end of the session, or a read event.
//  - Strict: the events up to and including the boundary read are kept; the
//    boundary read reads from any kept writer (its observed one too: the
//    boundary may only cut), every other kept read from its observed
//    writer.
//  - Relaxed: the whole transaction of the boundary read is kept, and each
//    of its reads reads from any kept writer; later transactions of the
//    session are dropped.
// A read may read from a transaction only if that transaction is complete:
// before its own session's boundary transaction (a transaction whose read
// changed may not commit, or may write other values, so nothing that
// happens after it takes part: IsoPredict's tx_in_boundary). T0 is always
// complete. A read of a transaction's last write of the key reads its value:
// values are unique per key in the histories this is meant for (IsoPredict
// traces: the reader makes the n-th write of a key write n). IsoPredict
// lets a read choose any write event of the key; here a transaction's last
// write of it, the version the level's model has.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "engine/history/history.hpp"

namespace iso::brute {

// A read that reads from another writer in a prediction: the read's
// transaction and operation (in the observed history) and the new writer.
struct ChangedRead {
  TxnId reader;
  std::uint32_t op;
  TxnId writer;
};

struct Prediction {
  History history;                   // the predicted run: the kept prefix, changed reads
  std::vector<ChangedRead> changed;  // the reads whose writer changed
};

enum class PredictMode { Strict, Relaxed };

// Every prediction of `observed` (committed transactions with item reads
// and writes only; throws std::invalid_argument otherwise) that `level`
// allows and biswas.SER forbids (up to `limit`), in enumeration order.
std::vector<Prediction> predictions(const History& observed, std::string_view level,
                                    PredictMode mode = PredictMode::Strict,
                                    std::size_t limit = SIZE_MAX);

}  // namespace iso::brute
