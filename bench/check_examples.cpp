// Benchmark: `check` of every example history against every shipped level.
// Prints CSV (history, level, transactions, verdict, median/max milliseconds
// over the repetitions, gates, SAT variables, clauses) and a summary line.
// Not a test: run it with bench/run-check-examples.sh, which records machine,
// commit and date in bench/results/.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/decide/decide.hpp"
#include "engine/history/json_format.hpp"
#include "lua/spec_library.hpp"

using namespace iso;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: check_examples DIR... (BENCH_REPS sets the repetitions, 20)\n");
    return 2;
  }
  const char* reps_env = std::getenv("BENCH_REPS");
  const int reps = reps_env ? std::max(1, std::atoi(reps_env)) : 20;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    std::vector<std::filesystem::path> dir;
    for (const auto& entry : std::filesystem::directory_iterator(argv[i]))
      if (entry.path().extension() == ".json") dir.push_back(entry.path());
    std::sort(dir.begin(), dir.end());
    files.insert(files.end(), dir.begin(), dir.end());
  }

  auto t0 = Clock::now();
  lua::SpecLibrary lib;
  double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();

  fmt::print("history,level,transactions,verdict,median_ms,max_ms,translate_ms,solve_ms,gates,sat_vars,sat_clauses\n");
  std::vector<double> all_medians;
  double worst = 0, worst_median_8 = 0;
  for (const auto& f : files) {
    History h = read_native_json_file(f.string());
    for (const lua::Level* level : lib.levels()) {
      std::vector<double> ms;
      Decision last;
      DecideOptions opt;
      opt.force_generic = true;  // the generic oracle, whatever the level declares
      for (int i = 0; i < reps; ++i) {
        auto s = Clock::now();
        last = decide(h, *level, opt);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - s).count());
      }
      std::sort(ms.begin(), ms.end());
      double median = ms[ms.size() / 2];
      all_medians.push_back(median);
      if (h.num_txns() - 1 >= 8) worst_median_8 = std::max(worst_median_8, median);
      worst = std::max(worst, ms.back());
      fmt::print("{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{},{},{}\n", f.stem().string(), level->name,
                 h.num_txns() - 1,
                 verdict_word(last.verdict), median, ms.back(),
                 last.generic_stats.translate_seconds * 1e3, last.generic_stats.solve_seconds * 1e3,
                 last.generic_stats.gates, last.generic_stats.sat_vars, last.generic_stats.sat_clauses);
    }
  }
  std::sort(all_medians.begin(), all_medians.end());
  fmt::print(stderr,
             "{} checks x {} repetitions; spec library load {:.1f} ms; per check: median {:.3f} ms, "
             "p90 {:.3f} ms, worst {:.3f} ms; worst median at 8 transactions {:.3f} ms\n",
             all_medians.size(), reps, load_ms, all_medians[all_medians.size() / 2],
             all_medians[all_medians.size() * 9 / 10], worst, worst_median_8);
  return 0;
}
