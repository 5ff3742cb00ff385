// libFuzzer target of the Chronos/Aion JSON reader: the first byte chooses
// the --init mode (its remainder by 4) and whether the initial value is
// Chronos's default null or 0 (--initial-value 0: the next bit), the rest is
// the input; the seeds start with '0' (--init auto, null) or '4' (--init
// auto, 0). Only InputError may escape the reader, and what it returns must
// keep the readers' promises (fuzz_checks.hpp: every operation names its
// line) and the format's own: every transaction but T0 committed, with the
// database's timestamps, start not after commit, and no client real time.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/history/formats/formats.hpp"
#include "fuzz/fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  iso::ReadOptions options;
  options.init = fuzzcheck::mode(data[0]);
  if ((data[0] / 4) % 2 == 1) options.initial_value = 0;
  try {
    iso::ReadResult r = iso::read_chronos(text, "fuzz.json", options);
    fuzzcheck::verify(r, /*lines=*/true);
    const iso::History& h = r.history;
    for (iso::TxnId t = 1; t < h.num_txns(); ++t) {
      const iso::Transaction& x = h.txn(t);
      fuzzcheck::require(x.status == iso::TxnStatus::Committed);
      fuzzcheck::require(x.start_ts && x.commit_ts && *x.start_ts <= *x.commit_ts);
      fuzzcheck::require(!x.begin && !x.commit);
    }
  } catch (const iso::InputError&) {
  }
  return 0;
}
