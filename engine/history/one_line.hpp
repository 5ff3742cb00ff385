// The papers' one-line notation of a history, as `isosynth anomalies` and
// `synth` print it, read back:
//
//   T1: r(x,0) w(x,1) | T2: r(x,0) w(x,2)
//   T1: w(x,1); T2: r(x,0)                 (one session: `;` between its transactions)
//   T1: w(x,1) [aborted] | T2: r(x,1)
//   T1: r(y,[2]) w(x,1) | T2: pr(v!=0: {x=1}) pw([1,5]: 7)
//
// `|` separates sessions. Operations: r(KEY,VALUE), w(KEY,VALUE),
// r(KEY,[V V ...]) (a list read; the key's initial value is the empty
// list's version), d(KEY), pr(PREDICATE: {KEY=VALUE, ...}), pw(PREDICATE:
// VALUE), pd(PREDICATE). Keys are words ([A-Za-z0-9_.-]+; all digits: an
// integer key); values are integers or null. A transaction may end with
// "[aborted]" or "[status unknown]". Every key starts at 0. For specs
// (an anomaly's example to run) and tests, where a history is short.
#pragma once

#include <string>
#include <string_view>

#include "engine/history/history.hpp"

namespace iso {

// Throws InputError "SOURCE: column N: what was expected" on malformed text.
History parse_one_line(std::string_view text, const std::string& source);

}  // namespace iso
