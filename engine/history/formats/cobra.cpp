// The Cobra reader (FORMATS.md §6): one binary log per client, a stream of
// records, each a one-byte tag and big-endian i64s:
//   'S' txn_id [timestamp]                  transaction start
//   'C' txn_id [timestamp]                  commit
//   'W' write_id key_hash value_hash        write
//   'R' writer_txn_id write_id key_hash value_hash   read, naming its write
// The timestamps exist only in Cobra's time-ordered mode.
//
// Mapping to the history model and the decisions it needs:
//  - one session per log, transactions in log order, named "T<txn id in hex>"
//    (Cobra's own spelling of ids). Cobra ids are unique per run; a repeated
//    id (or one that spells "T0", the initial transaction) is disambiguated
//    with the client, "T<hex>@T3", and counted in a note;
//  - keys are the key hashes; a write's value is its write id, which Cobra
//    makes unique per write, and a read's value is the write id it names, so
//    read-from is exact;
//  - the initial write: a read naming 0xbebeebee (INIT) reads the initial
//    value. Every key gets the initial value 0xbebeebee, the id Cobra itself
//    uses, so messages show the id users of Cobra know; a 'W' record carrying
//    that reserved id is rejected, so the initial value cannot collide with a
//    real write. Reads naming 0xdeadbeef (NULL: the key did not exist) are
//    read as the initial value too, as Cobra's verifier does, and counted.
//    That is --init auto and implicit; with --init none no key has an
//    initial value, and a read of the initial write reads a value nobody
//    wrote; --init explicit is refused: the initial transaction is not in
//    the logs;
//  - aborted transactions are never logged. A transaction whose 'C' is
//    missing at the end of a log (the client stopped mid-transaction) is kept
//    with status Unknown: it may or may not have committed;
//  - a read naming a write that no logged committed transaction made is kept
//    (it read a value no committed transaction wrote: a real violation, or a
//    log that is incomplete) and counted in a note;
//  - when the named write is logged, its transaction and key must be the ones
//    the read names; a mismatch means inconsistent logs. It is counted in a
//    note rather than rejected: the read still names a unique write id, which
//    is what read-from is built on, and a checker then reports the anomaly;
//  - Cobra's garbage-collection reads (writer INIT with the write ids
//    0x23332333 / 0x66666666) are verifier bookkeeping, not database reads:
//    dropped and counted;
//  - writes identified by value: Cobra's benchmark clients (TPC-C, RUBiS,
//    Twitter, as in VeriStrong's artifact) log every write with the
//    "universal" write id 0xabddefee, and every read with that id as both
//    writer transaction and write; such a write is identified by its key and
//    value hash, as VeriStrong's loader identifies it. Its value is then the
//    value hash, and read-from is by (key, value hash): exact where a value
//    is written once, a choice among the writers where it repeats (counted
//    in a note). A history is read in one mode: one whose logs mix
//    universal and real write ids is refused, since the two kinds of value
//    could not be told apart.
//
// Time-ordered mode is detected per log from its first record: after 'S' and
// the 8-byte id comes either the next record's tag (plain mode) or an 8-byte
// timestamp. A timestamp's high byte would have to be 0x43..0x57 ('C'..'W')
// to be mistaken for a tag, i.e. a value above 4.8e18, which no clock in
// milliseconds or nanoseconds since 1970 reaches before the 22nd century.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/binary_util.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"

namespace iso {

namespace {

constexpr std::int64_t kInitId = 0xbebeebee;   // initial transaction and write
constexpr std::int64_t kNullId = 0xdeadbeef;   // read of a key that did not exist
constexpr std::int64_t kGcTrue = 0x23332333;   // garbage-collection reads
constexpr std::int64_t kGcFalse = 0x66666666;
constexpr std::int64_t kUniversalId = 0xabddefee;  // write identified by its value hash

bool is_tag(std::uint8_t c) { return c == 'S' || c == 'C' || c == 'W' || c == 'R'; }

// Whether a log carries timestamps in 'S' and 'C', judged from its first record.
bool timed_log(std::string_view b) {
  if (b.size() < 10 || b[0] != 'S') return false;  // too short to tell: parse as plain
  if (is_tag(static_cast<std::uint8_t>(b[9]))) return false;
  return b.size() == 17 || (b.size() > 17 && is_tag(static_cast<std::uint8_t>(b[17])));
}

std::string hex(std::int64_t v) { return fmt::format("{:x}", static_cast<std::uint64_t>(v)); }

struct WriteInfo {
  std::int64_t txn_id;    // the Cobra id of the writing transaction
  std::int64_t key_hash;
  bool committed;         // known only once the log is read; updated then
  TxnId txn;
};

struct PendingRead {
  std::int64_t writer_txn, write_id, key_hash;
  bool by_value;  // universal ids: write_id is the value hash
};

struct KeyValue {
  std::int64_t key_hash, value_hash;
  bool operator==(const KeyValue&) const = default;
};
struct KeyValueHash {
  std::size_t operator()(const KeyValue& kv) const {
    return std::hash<std::int64_t>()(kv.key_hash) * 31 + std::hash<std::int64_t>()(kv.value_hash);
  }
};

// The counts the notes report.
struct Counts {
  std::size_t txns = 0, unfinished = 0, timed_logs = 0, renamed = 0;
  std::size_t init_reads = 0, null_reads = 0, gc_reads = 0, duplicate_write_ids = 0;
  std::size_t repeated_values = 0, unlogged = 0, mismatched = 0, reads = 0;
};

// Reads the logs one record at a time into a History; the reads are checked
// against the writes once every log is read (check_reads).
class CobraReader {
 public:
  explicit CobraReader(History& h) : h_(h), init_value_(h.intern_value(Value{kInitId})) {}

  ValueId init_value() const { return init_value_; }
  const Counts& counts() const { return n_; }
  bool by_value() const { return !first_universal_.empty(); }

  void read_log(const ClientLog& log) {
    ByteCursor in(log.bytes, log.name);
    const bool timed = timed_log(log.bytes);
    if (timed) ++n_.timed_logs;
    Log l{in, log.name, client_stem(log.name), timed, h_.add_session(), std::nullopt, 0, {}, {}};
    while (!in.at_end()) {
      const std::size_t record_at = in.offset();
      const std::uint8_t tag = in.u8("a record tag");
      if (tag != 'S' && is_tag(tag) && !l.open)
        in.fail_at(record_at, fmt::format("'{}' record outside a transaction (expected 'S' "
                                          "first)",
                                          static_cast<char>(tag)));
      switch (tag) {
        case 'S': start(l, record_at); break;
        case 'C': commit(l); break;
        case 'W': write(l); break;
        case 'R': read(l); break;
        default:
          in.fail_at(record_at, fmt::format("expected a record tag 'S', 'C', 'W' or 'R', found "
                                            "byte {:#04x}",
                                            tag));
      }
    }
    if (l.open) ++n_.unfinished;  // stays Unknown
  }

  // Counts the reads of writes no logged committed transaction made, and
  // those naming another writer or key than the write's.
  void check_reads() {
    for (const PendingRead& r : reads_) {
      if (r.by_value) {
        auto it = value_writes_.find(KeyValue{r.key_hash, r.write_id});
        if (it == value_writes_.end() || !it->second) ++n_.unlogged;
        continue;
      }
      auto it = writes_.find(r.write_id);
      if (it == writes_.end() || !it->second.committed) {
        ++n_.unlogged;
      } else if (it->second.txn_id != r.writer_txn || it->second.key_hash != r.key_hash) {
        ++n_.mismatched;
      }
    }
    n_.reads = reads_.size() + n_.init_reads + n_.null_reads;
  }

 private:
  // The log being read.
  struct Log {
    ByteCursor& in;
    const std::string& name;
    std::string client;
    bool timed;
    SessionId session;
    std::optional<TxnId> open;                // the transaction between 'S' and 'C'
    std::int64_t open_id = 0;
    std::vector<std::int64_t> open_writes;    // write ids of the open transaction
    std::vector<KeyValue> open_value_writes;  // its writes identified by value
  };

  // 'S' txn_id [timestamp].
  void start(Log& l, std::size_t record_at) {
    ByteCursor& in = l.in;
    if (l.open)
      in.fail_at(record_at, fmt::format("'S' record while transaction T{} is still open "
                                        "(expected its 'C' first)",
                                        hex(l.open_id)));
    l.open_id = in.i64_be("the transaction id of an 'S' record");
    std::optional<std::int64_t> begin;
    if (l.timed) begin = in.i64_be("the timestamp of an 'S' record (time-ordered log)");
    l.open = h_.add_txn(l.session, txn_name(l), TxnStatus::Unknown);
    h_.txn(*l.open).begin = begin;
    l.open_writes.clear();
    l.open_value_writes.clear();
    ++n_.txns;
  }

  // "T<hex id>", or when another transaction has that name already
  // "T<hex>@<client>" (then "#2", "#3", ...).
  std::string txn_name(const Log& l) {
    std::string name = "T" + hex(l.open_id);
    if (!h_.find_txn(name)) return name;
    ++n_.renamed;
    std::string base = fmt::format("{}@{}", name, l.client);
    // The count of names handed out per base keeps renaming linear even
    // when one id repeats many times.
    std::size_t& used = next_suffix_[base];
    name = used == 0 ? base : fmt::format("{}#{}", base, used + 1);
    while (h_.find_txn(name)) name = fmt::format("{}#{}", base, ++used + 1);
    ++used;
    return name;
  }

  // 'C' txn_id [timestamp].
  void commit(Log& l) {
    ByteCursor& in = l.in;
    const std::size_t id_at = in.offset();
    std::int64_t id = in.i64_be("the transaction id of a 'C' record");
    if (id != l.open_id)
      in.fail_at(id_at, fmt::format("'C' record for transaction T{}, but the open transaction "
                                    "is T{}",
                                    hex(id), hex(l.open_id)));
    Transaction& txn = h_.txn(*l.open);
    if (l.timed) {
      const std::size_t ts_at = in.offset();
      const std::int64_t commit = in.i64_be("the timestamp of a 'C' record (time-ordered log)");
      if (txn.begin && commit < *txn.begin)
        in.fail_at(ts_at, fmt::format("commit timestamp {} of T{} is before its start "
                                      "timestamp {}",
                                      commit, hex(l.open_id), *txn.begin));
      txn.commit = commit;
    }
    txn.status = TxnStatus::Committed;
    for (std::int64_t w : l.open_writes) writes_[w].committed = true;
    for (const KeyValue& kv : l.open_value_writes) value_writes_[kv] = true;
    l.open.reset();
  }

  // 'W' write_id key_hash value_hash.
  void write(Log& l) {
    ByteCursor& in = l.in;
    const std::size_t id_at = in.offset();
    std::int64_t write_id = in.i64_be("the write id of a 'W' record");
    std::int64_t key_hash = in.i64_be("the key hash of a 'W' record");
    const std::size_t value_at = in.offset();
    const std::int64_t value_hash = in.i64_be("the value hash of a 'W' record");
    if (write_id == kInitId)
      in.fail_at(id_at, "write id 0xbebeebee is reserved for the initial write");
    KeyId k = h_.intern_key(std::to_string(key_hash), /*integer=*/true);
    mode_seen(write_id == kUniversalId, l, id_at);
    if (write_id == kUniversalId) {
      if (value_hash == kInitId)
        in.fail_at(value_at, "value hash 0xbebeebee is reserved for the initial write");
      h_.add_write(*l.open, k, h_.intern_value(Value{value_hash}));
      const KeyValue kv{key_hash, value_hash};
      if (!value_writes_.try_emplace(kv, false).second) ++n_.repeated_values;
      l.open_value_writes.push_back(kv);
      return;
    }
    h_.add_write(*l.open, k, h_.intern_value(Value{write_id}));
    auto [it, fresh] = writes_.try_emplace(write_id, WriteInfo{l.open_id, key_hash, false, *l.open});
    if (!fresh) ++n_.duplicate_write_ids;
    else l.open_writes.push_back(write_id);
  }

  // 'R' writer_txn_id write_id key_hash value_hash.
  void read(Log& l) {
    ByteCursor& in = l.in;
    const std::size_t ids_at = in.offset();
    std::int64_t writer = in.i64_be("the writer transaction id of an 'R' record");
    std::int64_t write_id = in.i64_be("the write id of an 'R' record");
    std::int64_t key_hash = in.i64_be("the key hash of an 'R' record");
    const std::int64_t value_hash = in.i64_be("the value hash of an 'R' record");
    const auto key = [&] { return h_.intern_key(std::to_string(key_hash), true); };
    if (writer == kUniversalId || write_id == kUniversalId) {
      if (writer != write_id)
        in.fail_at(ids_at, fmt::format("read names writer T{} and write {:#x}: the universal id "
                                       "0xabddefee must appear as both",
                                       hex(writer), static_cast<std::uint64_t>(write_id)));
      mode_seen(true, l, ids_at);
      h_.add_read(*l.open, key(), h_.intern_value(Value{value_hash}));
      reads_.push_back(PendingRead{writer, value_hash, key_hash, true});
      return;
    }
    const bool magic_writer = writer == kInitId || writer == kNullId;
    const bool magic_write = write_id == kInitId || write_id == kNullId;
    if (magic_writer && magic_write) {
      ++(write_id == kNullId || writer == kNullId ? n_.null_reads : n_.init_reads);
      h_.add_read(*l.open, key(), init_value_);
    } else if (writer == kInitId && (write_id == kGcTrue || write_id == kGcFalse)) {
      ++n_.gc_reads;
    } else if (magic_writer || magic_write) {
      in.fail_at(ids_at, fmt::format("read names writer T{} and write {:#x}: the initial "
                                     "(0xbebeebee) and null (0xdeadbeef) ids must appear "
                                     "together",
                                     hex(writer), static_cast<std::uint64_t>(write_id)));
    } else {
      mode_seen(false, l, ids_at);
      h_.add_read(*l.open, key(), h_.intern_value(Value{write_id}));
      reads_.push_back(PendingRead{writer, write_id, key_hash, false});
    }
  }

  // A record identifying a write by its value (universal) or by a unique
  // id: refused when the history has seen the other kind.
  void mode_seen(bool universal, const Log& l, std::size_t offset) {
    std::string& mine = universal ? first_universal_ : first_real_;
    if (mine.empty()) mine = fmt::format("{} at byte {}", l.name, offset);
    const std::string& other = universal ? first_real_ : first_universal_;
    if (other.empty()) return;
    const char* const kByValue = "its value (universal id 0xabddefee)";
    const char* const kById = "a unique write id";
    l.in.fail_at(offset, fmt::format("this record identifies a write by {}, but {} identifies "
                                     "one by {}: a history must use one kind (Cobra's unique "
                                     "write ids, or the universal id 0xabddefee of its "
                                     "benchmark clients)",
                                     universal ? kByValue : kById, other,
                                     universal ? kById : kByValue));
  }

  History& h_;
  ValueId init_value_;
  Counts n_;
  std::unordered_map<std::int64_t, WriteInfo> writes_;  // by write id
  // Writes with the universal id, by (key, value hash); committed or not.
  std::unordered_map<KeyValue, bool, KeyValueHash> value_writes_;
  // Where the first write or read of each kind was, for the refusal of a
  // history mixing them (empty: none yet).
  std::string first_real_, first_universal_;
  std::vector<PendingRead> reads_;                            // checked once all logs are read
  std::unordered_map<std::string, std::size_t> next_suffix_;  // for repeated txn ids
};

std::string plural_s(std::size_t n) { return n == 1 ? "" : "s"; }

// The notes after the initial state's.
void add_notes(ReadResult& result, std::size_t n_logs, const Counts& n, bool by_value) {
  result.notes.push_back(fmt::format("Cobra logs: {} client{}, {} transaction{}{}", n_logs,
                                     plural_s(n_logs), n.txns, plural_s(n.txns),
                                     n.timed_logs > 0 ? ", time-ordered (begin and commit "
                                                        "timestamps read from 'S' and 'C')"
                                                      : ""));
  if (n.timed_logs > 0 && n.timed_logs < n_logs)
    result.notes.push_back(fmt::format("only {} of {} logs are time-ordered", n.timed_logs,
                                       n_logs));
  if (n.unfinished > 0)
    result.notes.push_back(fmt::format(
        "{} transaction{} at the end of a log {} no commit record: status unknown",
        n.unfinished, plural_s(n.unfinished), n.unfinished == 1 ? "has" : "have"));
  if (n.unlogged > 0)
    result.notes.push_back(fmt::format(
        "{} of {} reads name writes that no logged committed transaction made (kept: each "
        "reads a value no committed transaction wrote)",
        n.unlogged, n.reads));
  const std::size_t initial_reads = n.init_reads + n.null_reads;
  if (initial_reads > 0)
    result.notes.push_back(fmt::format(
        "{} read{} the initial write (0xbebeebee, the initial value of every key){}",
        initial_reads, initial_reads == 1 ? "s" : "",
        n.null_reads > 0 ? fmt::format(", {} of them null reads (0xdeadbeef) of keys that did "
                                       "not exist yet",
                                       n.null_reads)
                         : std::string()));
  if (n.mismatched > 0)
    result.notes.push_back(fmt::format(
        "{} a writer transaction or key other than the one that logged the write",
        n.mismatched == 1 ? std::string("1 read names")
                          : fmt::format("{} reads name", n.mismatched)));
  if (n.duplicate_write_ids > 0)
    result.notes.push_back(fmt::format("{} write{} reuse a write id logged earlier: reads of "
                                       "those ids are ambiguous",
                                       n.duplicate_write_ids, plural_s(n.duplicate_write_ids)));
  if (by_value)
    result.notes.push_back(
        "writes are identified by key and value hash (the universal write id 0xabddefee of "
        "Cobra's benchmark clients): read-from is by value");
  if (n.repeated_values > 0)
    result.notes.push_back(fmt::format("{} write{} repeat a key's value hash written earlier: "
                                       "reads of those values may have read from either writer",
                                       n.repeated_values, plural_s(n.repeated_values)));
  if (n.gc_reads > 0)
    result.notes.push_back(fmt::format("{} garbage-collection read{} of Cobra's verifier "
                                       "dropped",
                                       n.gc_reads, plural_s(n.gc_reads)));
  if (n.renamed > 0)
    result.notes.push_back(fmt::format("{} transaction id{} repeated: named T<hex>@<client>",
                                       n.renamed, plural_s(n.renamed)));
}

}  // namespace

ReadResult read_cobra(const std::vector<ClientLog>& logs, const std::string& source,
                      const ReadOptions& options) {
  if (logs.empty()) throw InputError(fmt::format("{}: no client logs", source));
  initial::refuse_explicit(source, options.init, "Cobra logs",
                           "they do not log the initial transaction (0xbebeebee)");
  ReadResult result(Format::Cobra);
  CobraReader reader(result.history);
  for (const ClientLog& log : logs) reader.read_log(log);
  // Every key starts at the initial write; the History default (integer 0)
  // could be a real write id.
  initial::record_implicit_or_none(result, options.init,
                                   "T0 is the initial write 0xbebeebee of every key",
                                   "T0 writes no key: a read of the initial write 0xbebeebee "
                                   "reads a value nobody wrote",
                                   reader.init_value());
  reader.check_reads();
  add_notes(result, logs.size(), reader.counts(), reader.by_value());
  return result;
}

}  // namespace iso
