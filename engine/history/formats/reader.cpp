// Format names, detection and dispatch. Detection looks at a folder's file
// names or a file's first bytes; it never parses the whole input.
#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <utility>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"

namespace iso {
namespace fs = std::filesystem;

namespace {

constexpr std::array<std::pair<Format, std::string_view>, 9> kNames{{
    {Format::Native, "native"},
    {Format::ElleEdn, "elle-edn"},
    {Format::ElleJson, "elle-json"},
    {Format::Text, "text"},
    {Format::Awdit, "awdit"},
    {Format::Dbcop, "dbcop"},
    {Format::Cobra, "cobra"},
    {Format::Viper, "viper"},
    {Format::IsoPredict, "isopredict"},
}};

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

std::optional<Format> detect_text(std::string_view head) {
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

std::string_view format_name(Format f) {
  for (const auto& [format, name] : kNames)
    if (format == f) return name;
  return "?";
}

std::optional<Format> parse_format_name(std::string_view name) {
  for (const auto& [format, n] : kNames)
    if (n == name) return format;
  return std::nullopt;
}

std::vector<std::string_view> format_names() {
  std::vector<std::string_view> out;
  for (const auto& [format, name] : kNames) out.push_back(name);
  return out;
}

Format detect_format(const std::string& path) {
  fs::path p(path);
  std::error_code ec;
  if (!fs::exists(p, ec)) throw InputError(fmt::format("{}: no such file or folder", path));
  if (fs::is_directory(p, ec)) {
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
  if (p.extension() == ".bincode") return Format::Dbcop;
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open for reading", path));
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (auto f = detect_text(head)) return *f;
  // dbcop files start with five little-endian u64s; text formats never hold
  // NUL bytes.
  if (head.find('\0') != std::string::npos) return Format::Dbcop;
  throw InputError(fmt::format(
      "{}: cannot tell the format from the first line; use --format ({})", path,
      fmt::join(format_names(), ", ")));
}

ReadResult read_history_path(const std::string& path, std::optional<Format> format,
                             const ReadOptions& options) {
  Format f = format ? *format : detect_format(path);
  fs::path p(path);
  std::error_code ec;
  bool dir = fs::is_directory(p, ec);
  if (f == Format::Cobra || f == Format::Viper) {
    if (!dir)
      throw InputError(fmt::format("{}: the {} format is a folder of {}<n>.log files", path,
                                   format_name(f), f == Format::Cobra ? 'T' : 'J'));
    auto logs = read_client_logs(p, f == Format::Cobra ? 'T' : 'J', path);
    return f == Format::Cobra ? read_cobra(logs, path, options)
                              : read_viper(logs, path, options);
  }
  fs::path file = p;
  if (dir) {
    if (f != Format::Dbcop)
      throw InputError(fmt::format("{}: is a folder; the {} format is a file", path,
                                   format_name(f)));
    file = p / "history.bincode";
  }
  std::string source = file.string();
  std::string bytes = read_file_bytes(file, source);
  switch (f) {
    case Format::Native: {
      ReadResult r;
      r.history = read_native_json(bytes, source);
      r.format = Format::Native;
      return r;
    }
    case Format::ElleEdn: return read_elle_edn(bytes, source, options);
    case Format::ElleJson: return read_elle_json(bytes, source, options);
    case Format::Text: return read_text_rw(bytes, source, options);
    case Format::Awdit: return read_awdit(bytes, source, options);
    case Format::Dbcop: return read_dbcop(bytes, source, options);
    case Format::IsoPredict: return read_isopredict(bytes, source, options);
    case Format::Cobra:
    case Format::Viper: break;
  }
  throw InputError(fmt::format("{}: unsupported format", path));
}

}  // namespace iso
