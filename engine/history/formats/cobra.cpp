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

// The client's short name: "T3" of "some/dir/T3.log".
std::string client_stem(const std::string& name) {
  auto slash = name.find_last_of('/');
  std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  if (base.size() > 4 && base.ends_with(".log")) base.resize(base.size() - 4);
  return base;
}

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

}  // namespace

ReadResult read_cobra(const std::vector<ClientLog>& logs, const std::string& source,
                      const ReadOptions& options) {
  if (logs.empty()) throw InputError(fmt::format("{}: no client logs", source));
  initial::refuse_explicit(source, options.init, "Cobra logs",
                           "they do not log the initial transaction (0xbebeebee)");
  ReadResult result;
  result.format = Format::Cobra;
  History& h = result.history;
  const ValueId init_value = h.intern_value(Value{kInitId});

  std::unordered_map<std::int64_t, WriteInfo> writes;  // by write id
  // Writes with the universal id, by (key, value hash); committed or not.
  std::unordered_map<KeyValue, bool, KeyValueHash> value_writes;
  // Where the first write or read of each kind was, for the refusal of a
  // history mixing them (empty: none yet).
  std::string first_real, first_universal;
  std::size_t repeated_values = 0;
  auto mode_seen = [&](bool universal, const ByteCursor& at, const std::string& log, std::size_t offset) {
    std::string& mine = universal ? first_universal : first_real;
    if (mine.empty()) mine = fmt::format("{} at byte {}", log, offset);
    const std::string& other = universal ? first_real : first_universal;
    if (!other.empty())
      at.fail_at(offset, fmt::format("this record identifies a write by {}, but {} identifies one by {}: a history "
                                     "must use one kind (Cobra's unique write ids, or the universal id 0xabddefee "
                                     "of its benchmark clients)",
                                     universal ? "its value (universal id 0xabddefee)" : "a unique write id",
                                     other, universal ? "a unique write id" : "its value (universal id 0xabddefee)"));
  };
  std::vector<PendingRead> reads;                      // checked once all logs are read
  std::unordered_map<std::string, std::size_t> next_suffix;  // for repeated txn ids
  std::size_t n_txns = 0, n_unfinished = 0, n_timed_logs = 0, renamed = 0;
  std::size_t init_reads = 0, null_reads = 0, gc_reads = 0, duplicate_write_ids = 0;

  for (const ClientLog& log : logs) {
    ByteCursor in(log.bytes, log.name);
    const bool timed = timed_log(log.bytes);
    if (timed) ++n_timed_logs;
    const SessionId session = h.add_session();
    const std::string client = client_stem(log.name);
    std::optional<TxnId> open;            // the transaction between 'S' and 'C'
    std::int64_t open_id = 0;
    std::vector<std::int64_t> open_writes;  // write ids of the open transaction
    std::vector<KeyValue> open_value_writes;  // its writes identified by value

    while (!in.at_end()) {
      const std::size_t record_at = in.offset();
      const std::uint8_t tag = in.u8("a record tag");
      auto need_open = [&](const char* record) {
        if (!open)
          in.fail_at(record_at, fmt::format("{} record outside a transaction (expected 'S' "
                                            "first)",
                                            record));
      };
      switch (tag) {
        case 'S': {
          if (open)
            in.fail_at(record_at, fmt::format("'S' record while transaction T{} is still open "
                                              "(expected its 'C' first)",
                                              hex(open_id)));
          open_id = in.i64_be("the transaction id of an 'S' record");
          std::optional<std::int64_t> begin;
          if (timed) begin = in.i64_be("the timestamp of an 'S' record (time-ordered log)");
          std::string name = "T" + hex(open_id);
          if (h.find_txn(name)) {
            ++renamed;
            std::string base = fmt::format("{}@{}", name, client);
            // The count of names handed out per base keeps renaming linear
            // even when one id repeats many times.
            std::size_t& used = next_suffix[base];
            name = used == 0 ? base : fmt::format("{}#{}", base, used + 1);
            while (h.find_txn(name)) name = fmt::format("{}#{}", base, ++used + 1);
            ++used;
          }
          open = h.add_txn(session, std::move(name), TxnStatus::Unknown);
          h.txn(*open).begin = begin;
          open_writes.clear();
          open_value_writes.clear();
          ++n_txns;
          break;
        }
        case 'C': {
          need_open("'C'");
          const std::size_t id_at = in.offset();
          std::int64_t id = in.i64_be("the transaction id of a 'C' record");
          if (id != open_id)
            in.fail_at(id_at, fmt::format("'C' record for transaction T{}, but the open "
                                          "transaction is T{}",
                                          hex(id), hex(open_id)));
          if (timed) {
            const std::size_t ts_at = in.offset();
            const std::int64_t commit =
                in.i64_be("the timestamp of a 'C' record (time-ordered log)");
            const auto begin = h.txn(*open).begin;
            if (begin && commit < *begin)
              in.fail_at(ts_at, fmt::format("commit timestamp {} of T{} is before its start "
                                            "timestamp {}",
                                            commit, hex(open_id), *begin));
            h.txn(*open).commit = commit;
          }
          h.txn(*open).status = TxnStatus::Committed;
          for (std::int64_t w : open_writes) writes[w].committed = true;
          for (const KeyValue& kv : open_value_writes) value_writes[kv] = true;
          open.reset();
          break;
        }
        case 'W': {
          need_open("'W'");
          const std::size_t id_at = in.offset();
          std::int64_t write_id = in.i64_be("the write id of a 'W' record");
          std::int64_t key_hash = in.i64_be("the key hash of a 'W' record");
          const std::size_t value_at = in.offset();
          const std::int64_t value_hash = in.i64_be("the value hash of a 'W' record");
          if (write_id == kInitId)
            in.fail_at(id_at, "write id 0xbebeebee is reserved for the initial write");
          KeyId k = h.intern_key(std::to_string(key_hash), /*integer=*/true);
          mode_seen(write_id == kUniversalId, in, log.name, id_at);
          if (write_id == kUniversalId) {
            if (value_hash == kInitId)
              in.fail_at(value_at, "value hash 0xbebeebee is reserved for the initial write");
            h.add_write(*open, k, h.intern_value(Value{value_hash}));
            const KeyValue kv{key_hash, value_hash};
            if (!value_writes.try_emplace(kv, false).second) ++repeated_values;
            open_value_writes.push_back(kv);
            break;
          }
          h.add_write(*open, k, h.intern_value(Value{write_id}));
          auto [it, fresh] = writes.try_emplace(write_id, WriteInfo{open_id, key_hash, false, *open});
          if (!fresh) {
            ++duplicate_write_ids;
          } else {
            open_writes.push_back(write_id);
          }
          break;
        }
        case 'R': {
          need_open("'R'");
          const std::size_t ids_at = in.offset();
          std::int64_t writer = in.i64_be("the writer transaction id of an 'R' record");
          std::int64_t write_id = in.i64_be("the write id of an 'R' record");
          std::int64_t key_hash = in.i64_be("the key hash of an 'R' record");
          const std::int64_t value_hash = in.i64_be("the value hash of an 'R' record");
          if (writer == kUniversalId || write_id == kUniversalId) {
            if (writer != write_id)
              in.fail_at(ids_at, fmt::format("read names writer T{} and write {:#x}: the universal id "
                                             "0xabddefee must appear as both",
                                             hex(writer), static_cast<std::uint64_t>(write_id)));
            mode_seen(true, in, log.name, ids_at);
            h.add_read(*open, h.intern_key(std::to_string(key_hash), true), h.intern_value(Value{value_hash}));
            reads.push_back(PendingRead{writer, value_hash, key_hash, true});
            break;
          }
          const bool magic_writer = writer == kInitId || writer == kNullId;
          const bool magic_write = write_id == kInitId || write_id == kNullId;
          if (magic_writer && magic_write) {
            ++(write_id == kNullId || writer == kNullId ? null_reads : init_reads);
            h.add_read(*open, h.intern_key(std::to_string(key_hash), true), init_value);
          } else if (writer == kInitId && (write_id == kGcTrue || write_id == kGcFalse)) {
            ++gc_reads;
          } else if (magic_writer || magic_write) {
            in.fail_at(ids_at, fmt::format("read names writer T{} and write {:#x}: the initial "
                                           "(0xbebeebee) and null (0xdeadbeef) ids must appear "
                                           "together",
                                           hex(writer), static_cast<std::uint64_t>(write_id)));
          } else {
            mode_seen(false, in, log.name, ids_at);
            h.add_read(*open, h.intern_key(std::to_string(key_hash), true),
                       h.intern_value(Value{write_id}));
            reads.push_back(PendingRead{writer, write_id, key_hash, false});
          }
          break;
        }
        default:
          in.fail_at(record_at, fmt::format("expected a record tag 'S', 'C', 'W' or 'R', found "
                                            "byte {:#04x}",
                                            tag));
      }
    }
    if (open) ++n_unfinished;  // stays Unknown
  }

  // Every key starts at the initial write; the History default (integer 0)
  // could be a real write id.
  initial::record_implicit_or_none(result, options.init,
                                   "T0 is the initial write 0xbebeebee of every key",
                                   "T0 writes no key: a read of the initial write 0xbebeebee "
                                   "reads a value nobody wrote",
                                   init_value);

  std::size_t unlogged = 0, mismatched = 0;
  for (const PendingRead& r : reads) {
    if (r.by_value) {
      auto it = value_writes.find(KeyValue{r.key_hash, r.write_id});
      if (it == value_writes.end() || !it->second) ++unlogged;
      continue;
    }
    auto it = writes.find(r.write_id);
    if (it == writes.end() || !it->second.committed) {
      ++unlogged;
    } else if (it->second.txn_id != r.writer_txn || it->second.key_hash != r.key_hash) {
      ++mismatched;
    }
  }
  const std::size_t n_reads = reads.size() + init_reads + null_reads;

  result.notes.push_back(fmt::format("Cobra logs: {} client{}, {} transaction{}{}", logs.size(),
                                     logs.size() == 1 ? "" : "s", n_txns, n_txns == 1 ? "" : "s",
                                     n_timed_logs > 0 ? ", time-ordered (begin and commit "
                                                        "timestamps read from 'S' and 'C')"
                                                      : ""));
  if (n_timed_logs > 0 && n_timed_logs < logs.size())
    result.notes.push_back(fmt::format("only {} of {} logs are time-ordered", n_timed_logs,
                                       logs.size()));
  if (n_unfinished > 0)
    result.notes.push_back(fmt::format(
        "{} transaction{} at the end of a log {} no commit record: status unknown",
        n_unfinished, n_unfinished == 1 ? "" : "s", n_unfinished == 1 ? "has" : "have"));
  if (unlogged > 0)
    result.notes.push_back(fmt::format(
        "{} of {} reads name writes that no logged committed transaction made (kept: each "
        "reads a value no committed transaction wrote)",
        unlogged, n_reads));
  if (init_reads + null_reads > 0)
    result.notes.push_back(fmt::format(
        "{} read{} the initial write (0xbebeebee, the initial value of every key){}",
        init_reads + null_reads, init_reads + null_reads == 1 ? "s" : "",
        null_reads > 0 ? fmt::format(", {} of them null reads (0xdeadbeef) of keys that did not "
                                     "exist yet",
                                     null_reads)
                       : std::string()));
  if (mismatched > 0)
    result.notes.push_back(fmt::format(
        "{} a writer transaction or key other than the one that logged the write",
        mismatched == 1 ? std::string("1 read names") : fmt::format("{} reads name", mismatched)));
  if (duplicate_write_ids > 0)
    result.notes.push_back(fmt::format("{} write{} reuse a write id logged earlier: reads of "
                                       "those ids are ambiguous",
                                       duplicate_write_ids, duplicate_write_ids == 1 ? "" : "s"));
  if (!first_universal.empty())
    result.notes.push_back(
        "writes are identified by key and value hash (the universal write id 0xabddefee of Cobra's "
        "benchmark clients): read-from is by value");
  if (repeated_values > 0)
    result.notes.push_back(fmt::format("{} write{} repeat a key's value hash written earlier: reads of those "
                                       "values may have read from either writer",
                                       repeated_values, repeated_values == 1 ? "" : "s"));
  if (gc_reads > 0)
    result.notes.push_back(fmt::format("{} garbage-collection read{} of Cobra's verifier "
                                       "dropped",
                                       gc_reads, gc_reads == 1 ? "" : "s"));
  if (renamed > 0)
    result.notes.push_back(fmt::format("{} transaction id{} repeated: named T<hex>@<client>",
                                       renamed, renamed == 1 ? "" : "s"));
  return result;
}

}  // namespace iso
