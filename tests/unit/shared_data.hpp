// The recorded histories under ../shared/data/histories, for tests that run
// something on each of them.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace iso {

inline std::string shared_history_dir() {
  return std::string(ISOSYNTH_SHARED_DIR) + "/data/histories";
}

// The histories of the given groups (folders under data/histories): a
// folder history (Cobra, Viper) is one folder directly under its group; a
// dbcop history is a history.bincode file; any other file is one history.
// Empty when the shared data is absent.
inline std::vector<std::string> shared_histories(const std::vector<std::string>& groups) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  const std::string dir = shared_history_dir();
  if (!fs::exists(dir)) return out;
  for (const std::string& group : groups) {
    const fs::path root = fs::path(dir) / group;
    const bool folders = group == "cobra" || group == "viper-json" || group == "cobra-bench";
    const bool dbcop = group.starts_with("dbcop") && group.find("dbcop-tests") == std::string::npos;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (folders) {
        if (e.is_directory() && e.path().parent_path() == root) out.push_back(e.path().string());
      } else if (e.is_regular_file() && (!dbcop || e.path().filename() == "history.bincode")) {
        out.push_back(e.path().string());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace iso
