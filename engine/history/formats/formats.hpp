// Readers for the history formats of other checkers (FORMATS.md §2-§9) and
// the dispatcher that detects which one a path holds.
//
// Every reader parses bytes already in memory (so that each can be fuzzed on
// its own), validates counts against the bytes that remain before allocating,
// and reports a malformed input by throwing InputError with a one-line
// message "SOURCE:LINE[:COL]: message" (text formats) or
// "SOURCE: byte OFFSET: message" (binary formats).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/history/input_error.hpp"
#include "engine/history/json_format.hpp"  // the native format (§1)

namespace iso {

enum class Format {
  Native,      // FORMATS.md §1
  ElleEdn,     // §2, EDN spelling
  ElleJson,    // §2, elle-cli JSON spelling
  Text,        // §3, r/w(key,value,session,txn)
  Awdit,       // §4
  Dbcop,       // §5, history.bincode
  Cobra,       // §6, a folder of T<n>.log
  Viper,       // §7, a folder of J<n>.log
  IsoPredict,  // §8
  DbcopJson,   // dbcop's current JSON (docs/formats.md)
  DbcopHist,   // dbcop's current .hist text (docs/formats.md)
  Chronos,     // §9, Chronos/Aion JSON (TimeKiller)
};

// "native", "elle-edn", "elle-json", "text", "awdit", "dbcop", "cobra",
// "viper", "isopredict", "dbcop-json", "dbcop-hist", "chronos".
std::string_view format_name(Format f);
std::optional<Format> parse_format_name(std::string_view name);
std::vector<std::string_view> format_names();

// The initial state a history is read with (FORMATS.md, common
// conventions; `--init`):
//  - Implicit: T0 writes the initial value of every key (0, or the format's
//    own: nil for Elle, 0xbebeebee for Cobra); no transaction of the file is
//    taken as T0;
//  - Explicit: the file's initial transaction (its first, which must only
//    write; Viper's "isInitial" line; IsoPredict's Txn(0,0)) IS T0: its
//    writes become the initial values and T0 writes exactly those keys
//    (InitialWrites::ExplicitOnly); a key it does not write has no initial
//    version;
//  - None: no initial state at all (ExplicitOnly with no initial values,
//    except those a native file's "init" gives): a read of a value nobody
//    wrote is a thin-air read;
//  - Auto: what the format's producer means (docs/formats.md has the table).
// A reader that cannot honour a mode refuses it with an InputError saying
// why; none ignores it.
enum class InitMode { Auto, Implicit, Explicit, None };

// "auto", "implicit", "explicit", "none".
std::string_view init_mode_name(InitMode m);
std::optional<InitMode> parse_init_mode(std::string_view name);
std::vector<std::string_view> init_mode_names();

// The initial state a reader used (Auto resolved).
enum class InitialState { Implicit, Explicit, None };

// "implicit", "explicit", "none".
std::string_view initial_state_name(InitialState s);

struct ReadOptions {
  ReadOptions() = default;
  // ReadOptions{InitMode::None}: the common case, spelled briefly.
  explicit(false) ReadOptions(InitMode mode) : init(mode) {}
  InitMode init = InitMode::Auto;
  // The initial value of every key, for the formats whose producer lets the
  // user choose it (Chronos's --initial_value); nullopt: the format's own
  // (null for Chronos). read_history_path refuses it for other formats.
  std::optional<std::int64_t> initial_value;
};

struct ReadResult {
  ReadResult() = default;
  // An empty history about to be read in format `f`.
  explicit ReadResult(Format f) : format(f) {}

  History history;
  Format format = Format::Native;
  // Which initial state was used. Implicit: T0 writes every key; Explicit
  // and None: T0 writes only the keys History::set_init gave
  // (History::initial_writes() says the same).
  InitialState initial_state = InitialState::Implicit;
  // True when a transaction of the file was taken as the initial state T0
  // (its writes became History::set_init and it is not a transaction).
  bool explicit_init = false;
  // Facts about the input worth telling the user, one line each, e.g.
  // "8 reads name writes that no logged transaction made". Every reader
  // states the initial state it used in one of them ("initial state: ...").
  std::vector<std::string> notes;
};

// Op::line for an input line number: saturated at UINT32_MAX, which no real
// input reaches (the readers refuse inputs above kMaxHistoryBytes).
inline std::uint32_t op_line(std::size_t line) {
  return line > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(line);
}

// One file of a folder format: its name (for messages) and its bytes.
struct ClientLog {
  std::string name;
  std::string bytes;
};

// The client's short name, for the names of its transactions: "T3" of
// "some/dir/T3.log".
std::string client_stem(const std::string& log_name);

// --- per-format readers over bytes in memory ---------------------------------
// A reader of one file's bytes (`source` names it in messages), and a reader
// of a folder format's client logs, in client order (T0.log, T1.log, ...).
using BytesReader = ReadResult(std::string_view bytes, const std::string& source,
                               const ReadOptions& options);
using LogsReader = ReadResult(const std::vector<ClientLog>& logs, const std::string& source,
                              const ReadOptions& options);

// The native format (§1) with the initial-state modes; read_native_json is
// this with InitMode::Auto.
BytesReader read_native;
BytesReader read_elle_edn, read_elle_json;  // elle.cpp
BytesReader read_text_rw;
BytesReader read_awdit;
BytesReader read_isopredict;
BytesReader read_dbcop;  // history.bincode
// The current dbcop's JSON (an array of sessions, or the CLI's object with
// "data") and its .hist text (dbcop_text.cpp).
BytesReader read_dbcop_json, read_dbcop_hist;
// Chronos/Aion JSON (chronos.cpp): key-value or list-append, with the
// database's start and commit timestamps (Transaction::start_ts, commit_ts).
BytesReader read_chronos;
// Folder formats.
LogsReader read_cobra;
LogsReader read_viper;

// --- detection and dispatch --------------------------------------------------
// Files, folders and streams larger than this are refused.
inline constexpr std::size_t kMaxHistoryBytes = std::size_t{4} << 30;  // 4 GiB

// The path that names standard input.
inline constexpr std::string_view kStdinPath = "-";

// Which format `path` holds: a folder of T*.log is Cobra, of J*.log Viper, a
// folder holding history.bincode is dbcop; a file by its first bytes.
// Throws InputError when it cannot tell. For a stream (standard input, a
// named pipe, a character device) it cannot look without consuming the
// input: read_history_path detects those from the bytes it has read.
Format detect_format(const std::string& path);

// The format of a file from its bytes (`name` for its extension and for
// messages). Throws InputError when it cannot tell.
Format detect_format_bytes(std::string_view bytes, const std::string& name);

// Reads `path` in `format` (detected when absent). `path` may be "-"
// (standard input), a named pipe or a character device: such a stream is
// read once, until its end, up to kMaxHistoryBytes, and the run's deadline
// (engine/util/budget.hpp) bounds the wait for its bytes (TimeoutError).
ReadResult read_history_path(const std::string& path, std::optional<Format> format,
                             const ReadOptions& options);

}  // namespace iso
