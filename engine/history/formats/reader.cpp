// Format names, detection and dispatch. Detection looks at a folder's file
// names or a file's first bytes; it never parses the whole input.
//
// Streams (standard input, named pipes, character devices) can be read only
// once and have no size: they are opened once, read until their end with
// poll(2) so that the run's deadline also bounds the wait for a writer, and
// their format is detected from the bytes read.
#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/util/budget.hpp"

namespace iso {
namespace fs = std::filesystem;

namespace {

// Each format's and each --init mode's name on the command line.
constexpr std::array<std::pair<Format, std::string_view>, 12> kNames{{
    {Format::Native, "native"}, {Format::ElleEdn, "elle-edn"}, {Format::ElleJson, "elle-json"},
    {Format::Text, "text"}, {Format::Awdit, "awdit"}, {Format::Dbcop, "dbcop"},
    {Format::Cobra, "cobra"}, {Format::Viper, "viper"}, {Format::IsoPredict, "isopredict"},
    {Format::DbcopJson, "dbcop-json"}, {Format::DbcopHist, "dbcop-hist"},
    {Format::Chronos, "chronos"},
}};
constexpr std::array<std::pair<InitMode, std::string_view>, 4> kInitModes{{
    {InitMode::Auto, "auto"}, {InitMode::Implicit, "implicit"},
    {InitMode::Explicit, "explicit"}, {InitMode::None, "none"},
}};

// Lookups in a table of names.
template <class E, std::size_t N>
std::string_view name_in(const std::array<std::pair<E, std::string_view>, N>& table, E e) {
  for (const auto& [value, name] : table)
    if (value == e) return name;
  return "?";
}
template <class E, std::size_t N>
std::optional<E> find_in(const std::array<std::pair<E, std::string_view>, N>& table,
                         std::string_view name) {
  for (const auto& [value, n] : table)
    if (n == name) return value;
  return std::nullopt;
}
template <class E, std::size_t N>
std::vector<std::string_view> names_in(const std::array<std::pair<E, std::string_view>, N>& table) {
  std::vector<std::string_view> out;
  for (const auto& entry : table) out.push_back(entry.second);
  return out;
}

// How standard input is named in messages.
constexpr std::string_view kStdinName = "<stdin>";
// How long one poll(2) waits before the deadline is looked at again.
constexpr int kPollMillis = 50;

std::string read_file_bytes(const fs::path& path, const std::string& source) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  if (ec) throw InputError(fmt::format("{}: cannot read: {}", source, ec.message()));
  if (size > kMaxHistoryBytes)
    throw InputError(fmt::format("{}: file of {} bytes exceeds the limit of {} bytes",
                                 source, size, kMaxHistoryBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open for reading", source));
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (static_cast<std::uintmax_t>(in.gcount()) != size)
    throw InputError(fmt::format("{}: read error", source));
  return bytes;
}

// A file descriptor closed on scope exit (unless it is standard input).
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ > STDIN_FILENO) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Reads `fd` until its end. poll(2) with a short timeout rather than a
// blocking read(2), so that an idle writer (or none yet: a named pipe opened
// without O_NONBLOCK would block in open(2) until one comes) cannot outlast
// the run's deadline.
std::string read_stream(int fd, const std::string& source) {
  std::string bytes;
  std::array<char, 1 << 16> buf;
  while (true) {
    budget::check();
    pollfd p{fd, POLLIN, 0};
    int ready = ::poll(&p, 1, kPollMillis);
    if (ready < 0 && errno != EINTR)
      throw InputError(fmt::format("{}: cannot read: {}", source, std::strerror(errno)));
    if (ready <= 0) continue;
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      throw InputError(fmt::format("{}: cannot read: {}", source, std::strerror(errno)));
    }
    if (n == 0) return bytes;  // the end: every writer closed
    if (bytes.size() + static_cast<std::size_t>(n) > kMaxHistoryBytes)
      throw InputError(fmt::format("{}: input exceeds the limit of {} bytes", source,
                                   kMaxHistoryBytes));
    bytes.append(buf.data(), static_cast<std::size_t>(n));
  }
}

// Opens a named pipe or character device once, without blocking, and reads it.
std::string read_stream_path(const std::string& path) {
  // O_NONBLOCK: open(2) of a named pipe would otherwise wait for a writer,
  // beyond the deadline's reach; read_stream waits with poll(2) instead.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0)
    throw InputError(fmt::format("{}: cannot open for reading: {}", path, std::strerror(errno)));
  return read_stream(fd.get(), path);
}

bool is_folder_format(Format f) { return f == Format::Cobra || f == Format::Viper; }

char log_prefix(Format f) { return f == Format::Cobra ? 'T' : 'J'; }

// The number in "T12.log" / "J12.log", or nullopt when the name is not of
// that shape.
std::optional<unsigned long> client_number(const std::string& name, char prefix) {
  if (name.size() < 6 || name[0] != prefix || !name.ends_with(".log")) return std::nullopt;
  std::string digits = name.substr(1, name.size() - 5);
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::nullopt;
  return std::stoul(digits);
}

// The client logs of a folder, ordered by client number.
std::vector<ClientLog> read_client_logs(const fs::path& dir, char prefix,
                                        const std::string& source) {
  std::vector<std::pair<unsigned long, fs::path>> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    if (auto n = client_number(entry.path().filename().string(), prefix))
      files.emplace_back(*n, entry.path());
  }
  if (ec) throw InputError(fmt::format("{}: cannot list folder: {}", source, ec.message()));
  if (files.empty())
    throw InputError(fmt::format("{}: no {}<n>.log files in this folder", source, prefix));
  std::sort(files.begin(), files.end());
  std::vector<ClientLog> logs;
  std::uintmax_t total = 0;
  for (const auto& [n, path] : files) {
    std::string name = (fs::path(source) / path.filename()).string();
    total += fs::file_size(path, ec);
    if (total > kMaxHistoryBytes)
      throw InputError(fmt::format("{}: logs exceed the limit of {} bytes", source,
                                   kMaxHistoryBytes));
    logs.push_back(ClientLog{name, read_file_bytes(path, name)});
  }
  return logs;
}

std::string_view first_line(std::string_view text) {
  // Skip blank lines and EDN/Lisp comments.
  while (!text.empty()) {
    auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())))
      line.remove_prefix(1);
    if (!line.empty() && line.front() != ';') return line;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return {};
}

// Whether `head` names `key` as an object key: "key" then ':'.
bool has_json_key(std::string_view head, std::string_view key) {
  const std::string quoted = fmt::format("\"{}\"", key);
  for (auto at = head.find(quoted); at != std::string_view::npos;
       at = head.find(quoted, at + 1)) {
    auto next = head.find_first_not_of(" \t\r\n", at + quoted.size());
    if (next != std::string_view::npos && head[next] == ':') return true;
  }
  return false;
}

// dbcop's JSON: an array of sessions (arrays: "[[" or "[]"), or the CLI's
// object with "data" and "params". Called on JSON that is not native.
bool dbcop_json(std::string_view head) {
  auto first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  if (head[first] == '{') return has_json_key(head, "data") || has_json_key(head, "params");
  auto second = head.find_first_not_of(" \t\r\n", first + 1);
  return head[first] == '[' && second != std::string_view::npos &&
         (head[second] == '[' || head[second] == ']');
}

// Chronos/Aion JSON: an array whose first element is an object with "sts",
// "cts" or "ops" (Chronos writes its fields in any order, "ops" often before
// "tid"). Called on JSON that is neither native nor dbcop's; Elle's JSON
// operations have "type", "f" and "value" instead.
bool chronos_json(std::string_view head) {
  auto first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || head[first] != '[') return false;
  auto second = head.find_first_not_of(" \t\r\n", first + 1);
  return second != std::string_view::npos && head[second] == '{' &&
         (has_json_key(head, "sts") || has_json_key(head, "cts") || has_json_key(head, "ops"));
}

// dbcop's .hist text: past blank lines, "//" comments and lines of dashes
// (session separators), a transaction "[x:=1 ...", "[x==1 ...", "[x==? ...";
// or nothing but separators.
bool dbcop_hist(std::string_view head) {
  bool separator = false;
  while (!head.empty()) {
    auto end = head.find('\n');
    std::string_view line = head.substr(0, end);
    auto first = line.find_first_not_of(" \t\r");
    line = first == std::string_view::npos ? std::string_view{} : line.substr(first);
    if (!line.empty() && line.front() == '-' &&
        line.find_first_not_of("- \t\r") == std::string_view::npos) {
      separator = true;
    } else if (!line.empty() && !line.starts_with("//")) {
      if (line.front() != '[') return false;
      auto name = line.find_first_not_of(" \t", 1);
      auto op = name == std::string_view::npos ? name : line.find_first_of(":=", name);
      if (op == std::string_view::npos || op == name) return false;
      for (std::size_t i = name; i < op; ++i)
        if (!std::isalnum(static_cast<unsigned char>(line[i])) && line[i] != '_') return false;
      return line.substr(op).starts_with(":=") || line.substr(op).starts_with("==");
    }
    if (end == std::string_view::npos) break;
    head.remove_prefix(end + 1);
  }
  return separator;
}

std::optional<Format> detect_text(std::string_view head) {
  if (dbcop_hist(head)) return Format::DbcopHist;
  std::string_view line = first_line(head);
  if (line.empty()) return std::nullopt;
  if (line.starts_with("{:") || line.starts_with("[{:") || line.starts_with("[ {:") ||
      line.starts_with("({:"))
    return Format::ElleEdn;
  if (line.front() == '{' || line.front() == '[') {
    // Native JSON names its format or has "sessions"; elle-cli JSON has "type".
    if (head.find("\"sessions\"") != std::string_view::npos ||
        head.find("isosynth-history") != std::string_view::npos)
      return Format::Native;
    if (dbcop_json(head)) return Format::DbcopJson;
    if (chronos_json(head)) return Format::Chronos;
    if (head.find("\"type\"") != std::string_view::npos) return Format::ElleJson;
    if (line.front() == '{' && line.find(':') != std::string_view::npos &&
        line.find('"') == std::string_view::npos)
      return Format::ElleEdn;
    return std::nullopt;
  }
  if (line.starts_with("r(") || line.starts_with("w(")) return Format::Text;
  if (line.starts_with("=====") || line.starts_with("-----") ||
      ((line.starts_with("r ") || line.starts_with("w ")) && line.size() > 2 &&
       std::isdigit(static_cast<unsigned char>(line[2]))))
    return Format::Awdit;
  if (line.starts_with("WRITE") || line.starts_with("READ") || line.starts_with("INSERT") ||
      line.starts_with("CONTAINS") || line.starts_with("DELETE"))
    return Format::IsoPredict;
  return std::nullopt;
}

}  // namespace

std::string client_stem(const std::string& log_name) {
  auto slash = log_name.find_last_of('/');
  std::string base = slash == std::string::npos ? log_name : log_name.substr(slash + 1);
  if (base.size() > 4 && base.ends_with(".log")) base.resize(base.size() - 4);
  return base;
}

std::string_view format_name(Format f) { return name_in(kNames, f); }
std::optional<Format> parse_format_name(std::string_view name) { return find_in(kNames, name); }
std::vector<std::string_view> format_names() { return names_in(kNames); }

std::string_view init_mode_name(InitMode m) { return name_in(kInitModes, m); }
std::optional<InitMode> parse_init_mode(std::string_view name) {
  return find_in(kInitModes, name);
}
std::vector<std::string_view> init_mode_names() { return names_in(kInitModes); }

std::string_view initial_state_name(InitialState s) {
  switch (s) {
    case InitialState::Implicit: return "implicit";
    case InitialState::Explicit: return "explicit";
    case InitialState::None: return "none";
  }
  return "?";
}

Format detect_format_bytes(std::string_view bytes, const std::string& name) {
  if (fs::path(name).extension() == ".bincode") return Format::Dbcop;
  if (fs::path(name).extension() == ".hist") return Format::DbcopHist;
  std::string_view head = bytes.substr(0, 4096);
  if (auto f = detect_text(head)) return *f;
  // dbcop files start with five little-endian u64s; text formats never hold
  // NUL bytes.
  if (head.find('\0') != std::string_view::npos) return Format::Dbcop;
  throw InputError(fmt::format(
      "{}: cannot tell the format from the first line; use --format ({})", name,
      fmt::join(format_names(), ", ")));
}

Format detect_format(const std::string& path) {
  if (path == kStdinPath)
    throw InputError(fmt::format("{}: the format of standard input is detected from the bytes "
                                 "read_history_path reads",
                                 kStdinName));
  fs::path p(path);
  std::error_code ec;
  auto st = fs::status(p, ec);
  if (!fs::exists(st)) throw InputError(fmt::format("{}: no such file or folder", path));
  if (fs::is_directory(st)) {
    if (fs::exists(p / "history.bincode", ec)) return Format::Dbcop;
    bool cobra = false, viper = false;
    for (const auto& entry : fs::directory_iterator(p, ec)) {
      std::string name = entry.path().filename().string();
      cobra = cobra || client_number(name, 'T').has_value();
      viper = viper || client_number(name, 'J').has_value();
    }
    if (cobra && !viper) return Format::Cobra;
    if (viper && !cobra) return Format::Viper;
    throw InputError(fmt::format(
        "{}: cannot tell the format of this folder (expected history.bincode, T<n>.log "
        "files (Cobra) or J<n>.log files (Viper)); use --format",
        path));
  }
  if (!fs::is_regular_file(st))
    throw InputError(fmt::format("{}: a stream: its format is detected from the bytes "
                                 "read_history_path reads",
                                 path));
  if (p.extension() == ".bincode") return Format::Dbcop;
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open for reading", path));
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return detect_format_bytes(head, path);
}

namespace {

// ReadOptions::initial_value is Chronos's --initial_value: other formats
// fix their initial value themselves.
void check_initial_value(Format f, const std::string& source, const ReadOptions& options) {
  if (options.initial_value && f != Format::Chronos)
    throw InputError(fmt::format("{}: --initial-value applies to Chronos JSON only ({} histories "
                                 "say their own initial value)",
                                 source, format_name(f)));
}

// Reads the bytes of a file format.
ReadResult read_bytes(Format f, std::string_view bytes, const std::string& source,
                      const ReadOptions& options) {
  check_initial_value(f, source, options);
  switch (f) {
    case Format::Native: return read_native(bytes, source, options);
    case Format::ElleEdn: return read_elle_edn(bytes, source, options);
    case Format::ElleJson: return read_elle_json(bytes, source, options);
    case Format::Text: return read_text_rw(bytes, source, options);
    case Format::Awdit: return read_awdit(bytes, source, options);
    case Format::Dbcop: return read_dbcop(bytes, source, options);
    case Format::IsoPredict: return read_isopredict(bytes, source, options);
    case Format::DbcopJson: return read_dbcop_json(bytes, source, options);
    case Format::DbcopHist: return read_dbcop_hist(bytes, source, options);
    case Format::Chronos: return read_chronos(bytes, source, options);
    case Format::Cobra:
    case Format::Viper: break;
  }
  throw InputError(fmt::format("{}: the {} format is a folder of {}<n>.log files", source,
                               format_name(f), log_prefix(f)));
}

// The bytes of a file or stream, in `format` or the one they show.
ReadResult read_detected(const std::string& bytes, std::optional<Format> format,
                         const std::string& source, const ReadOptions& options) {
  Format f = format ? *format : detect_format_bytes(bytes, source);
  return read_bytes(f, bytes, source, options);
}

}  // namespace

ReadResult read_history_path(const std::string& path, std::optional<Format> format,
                             const ReadOptions& options) {
  // A folder format cannot come from a file or stream: refused before
  // reading (or waiting for) any byte.
  auto refuse_folder = [&](const std::string& source, std::string_view what) {
    if (format && is_folder_format(*format))
      throw InputError(fmt::format("{}: the {} format is a folder of {}<n>.log files; it "
                                   "cannot be read from {}",
                                   source, format_name(*format), log_prefix(*format), what));
  };
  if (path == kStdinPath) {
    const std::string source(kStdinName);
    refuse_folder(source, "standard input");
    return read_detected(read_stream(STDIN_FILENO, source), format, source, options);
  }
  fs::path p(path);
  std::error_code ec;
  auto st = fs::status(p, ec);
  if (!fs::exists(st)) throw InputError(fmt::format("{}: no such file or folder", path));
  if (fs::is_fifo(st) || fs::is_character_file(st)) {
    refuse_folder(path, "a stream");
    return read_detected(read_stream_path(path), format, path, options);
  }
  const bool dir = fs::is_directory(st);
  if (dir && (!format || is_folder_format(*format) || *format == Format::Dbcop)) {
    Format f = format ? *format : detect_format(path);
    if (is_folder_format(f)) {
      check_initial_value(f, path, options);
      auto logs = read_client_logs(p, log_prefix(f), path);
      return f == Format::Cobra ? read_cobra(logs, path, options)
                                : read_viper(logs, path, options);
    }
    // A dbcop folder holds history.bincode.
    std::string source = (p / "history.bincode").string();
    return read_bytes(f, read_file_bytes(p / "history.bincode", source), source, options);
  }
  if (dir)
    throw InputError(fmt::format("{}: is a folder; the {} format is a file", path,
                                 format_name(*format)));
  refuse_folder(path, "a file");
  return read_detected(read_file_bytes(p, path), format, path, options);
}

}  // namespace iso
