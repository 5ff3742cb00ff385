// Readers for the history formats of other checkers (FORMATS.md §2-§8) and
// the dispatcher that detects which one a path holds.
//
// Every reader parses bytes already in memory (so that each can be fuzzed on
// its own), validates counts against the bytes that remain before allocating,
// and reports a malformed input by throwing InputError with a one-line
// message "SOURCE:LINE[:COL]: message" (text formats) or
// "SOURCE: byte OFFSET: message" (binary formats).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/history/json_format.hpp"  // InputError

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
};

// "native", "elle-edn", "elle-json", "text", "awdit", "dbcop", "cobra",
// "viper", "isopredict".
std::string_view format_name(Format f);
std::optional<Format> parse_format_name(std::string_view name);
std::vector<std::string_view> format_names();

// How a transaction that only writes the initial state is read (FORMATS.md,
// common conventions): as the initial transaction T0 itself (Explicit), as an
// ordinary transaction (Implicit), or decided by the reader (Auto).
enum class InitMode { Auto, Implicit, Explicit, None };

struct ReadOptions {
  InitMode init = InitMode::Auto;
};

struct ReadResult {
  History history;
  Format format = Format::Native;
  // True when a transaction of the file was taken as the initial state T0
  // (its writes became History::set_init and it is not a transaction).
  bool explicit_init = false;
  // Facts about the input worth telling the user, one line each, e.g.
  // "8 reads name writes that no logged transaction made".
  std::vector<std::string> notes;
};

// One file of a folder format: its name (for messages) and its bytes.
struct ClientLog {
  std::string name;
  std::string bytes;
};

// --- per-format readers over bytes in memory ---------------------------------
ReadResult read_elle_edn(std::string_view text, const std::string& source,
                         const ReadOptions& options);
ReadResult read_elle_json(std::string_view text, const std::string& source,
                          const ReadOptions& options);
ReadResult read_text_rw(std::string_view text, const std::string& source,
                        const ReadOptions& options);
ReadResult read_awdit(std::string_view text, const std::string& source,
                      const ReadOptions& options);
ReadResult read_isopredict(std::string_view text, const std::string& source,
                           const ReadOptions& options);
ReadResult read_dbcop(std::string_view bytes, const std::string& source,
                      const ReadOptions& options);
// Folder formats: the client logs in client order (T0.log, T1.log, ...).
ReadResult read_cobra(const std::vector<ClientLog>& logs, const std::string& source,
                      const ReadOptions& options);
ReadResult read_viper(const std::vector<ClientLog>& logs, const std::string& source,
                      const ReadOptions& options);

// --- detection and dispatch --------------------------------------------------
// Files and folders larger than this are refused before reading.
inline constexpr std::size_t kMaxHistoryBytes = std::size_t{4} << 30;  // 4 GiB

// Which format `path` holds: a folder of T*.log is Cobra, of J*.log Viper, a
// folder holding history.bincode is dbcop; a file by its first bytes.
// Throws InputError when it cannot tell.
Format detect_format(const std::string& path);

// Reads `path` in `format` (detected when absent).
ReadResult read_history_path(const std::string& path, std::optional<Format> format,
                             const ReadOptions& options);

}  // namespace iso
