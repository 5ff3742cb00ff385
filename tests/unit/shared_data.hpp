// The recorded histories under ../shared/data/histories, for tests that run
// something on each of them.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

namespace iso {

// Fails the test, with a message, when a file or folder of ../shared is
// missing: a test that needs the shared data does not pass without it.
inline void require_shared(const std::filesystem::path& p) {
  REQUIRE_MESSAGE(std::filesystem::exists(p),
                  "missing " << p.string() << ": this test needs ../shared beside the repository");
}

inline std::string shared_history_dir() {
  return std::string(ISOSYNTH_SHARED_DIR) + "/data/histories";
}

// The histories of the given groups (folders under data/histories): a
// folder history (Cobra, Viper) is one folder directly under its group; a
// dbcop history is a history.bincode file; any other file is one history.
// Fails the test when the shared data or a group is absent.
inline std::vector<std::string> shared_histories(const std::vector<std::string>& groups) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  const std::string dir = shared_history_dir();
  require_shared(dir);
  for (const std::string& group : groups) {
    const fs::path root = fs::path(dir) / group;
    require_shared(root);
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
