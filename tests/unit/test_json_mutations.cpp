// Robustness of the native JSON reader: random byte-level mutations of the
// example histories (flips, deletions, insertions, truncations) must either
// load or raise InputError with a one-line message naming the source, never
// crash or hang. Run under the sanitizers with -DCMAKE_BUILD_TYPE=Debug and
// -fsanitize=address,undefined to make it a fuzzing pass.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "engine/history/abstract.hpp"
#include "engine/history/json_format.hpp"

using namespace iso;

TEST_CASE("mutated native JSON either loads or fails with a one-line InputError") {
  std::vector<std::string> seeds;
  for (const auto& e : std::filesystem::directory_iterator(std::string(ISOSYNTH_SOURCE_DIR) +
                                                           "/examples/histories")) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    seeds.push_back(ss.str());
  }
  REQUIRE(!seeds.empty());
  const std::string alphabet = "{}[],:\"0123456789-.eE nrwptaxyz\\\n\x01\xff";
  std::mt19937_64 rng(42);
  int loaded = 0, rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = seeds[rng() % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits && !text.empty(); ++k) {
      std::size_t pos = rng() % text.size();
      switch (rng() % 4) {
        case 0: text[pos] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(pos, 1 + rng() % 8); break;
        case 2: text.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        case 3: text.resize(pos); break;
      }
    }
    try {
      History h = read_native_json(text, "mutant.json");
      AbstractHistory ah = abstract_history(h);  // derived views must not crash either
      (void)ah;
      ++loaded;
    } catch (const InputError& e) {
      std::string msg = e.what();
      CHECK(msg.rfind("mutant.json", 0) == 0);
      CHECK(msg.find('\n') == std::string::npos);
      ++rejected;
    }
  }
  CHECK(loaded > 100);
  CHECK(rejected > 100);
}
