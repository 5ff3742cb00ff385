// Other checkers' own test suites, as their producers decide them:
//  - AWDIT's test histories (../shared/data/histories/awdit-test): the
//    folder names the strongest of AWDIT's levels that the history
//    satisfies (read-committed ⊂ read-atomic ⊂ causal; `none` satisfies
//    none of them), read with AWDIT's initial-state convention (none);
//  - dbcop's unit-test histories (dbcop-tests/, expected.json): its
//    verdicts for RC (committed read), RR (repeatable read, dbcop.RR), RA,
//    CC, PC (prefix), SI and SER, for each history in our native JSON and in
//    dbcop's own JSON and .hist text, each read with its format's
//    initial-state convention.
// AWDIT's and dbcop's levels include session order, like biswas.* and
// dbcop.RR (docs/levels.md maps the names).
#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tests/unit/history_helpers.hpp"
#include "tests/unit/shared_data.hpp"
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/decide/decide.hpp"
#include "engine/history/formats/formats.hpp"
#include "lua/spec_library.hpp"

using namespace iso;
namespace fs = std::filesystem;

namespace {


std::string data(const std::string& rel) {
  return std::string(ISOSYNTH_SHARED_DIR) + "/data/histories/" + rel;
}

bool allowed(const History& h, const std::string& level) {
  Decision d = decide(h, library().level(level));
  REQUIRE(d.verdict != Verdict::Unknown);
  return d.verdict == Verdict::Allowed;
}

}  // namespace

TEST_CASE("AWDIT's test histories get AWDIT's RC, RA and CC verdicts") {
  require_shared(data("awdit-test"));
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(data("awdit-test"))) {
    if (!e.is_regular_file() || e.path().extension() != ".txt") continue;
    // The group is the folder under awdit-test (generated/ files sit one deeper).
    fs::path rel = fs::relative(e.path(), data("awdit-test"));
    const std::string group = rel.begin()->string();
    const bool rc = group != "none";
    const bool ra = group == "read-atomic" || group == "causal";
    const bool cc = group == "causal";
    CAPTURE(rel.string());
    ReadResult r = read_history_path(e.path().string(), std::nullopt, {});
    CHECK(r.initial_state == InitialState::None);
    CHECK(allowed(r.history, "biswas.RC") == rc);
    CHECK(allowed(r.history, "biswas.RA") == ra);
    CHECK(allowed(r.history, "biswas.CC") == cc);
    ++files;
  }
  CHECK(files >= 20);
}

TEST_CASE("dbcop's unit-test histories get dbcop's RC, RR, RA, CC, PC, SI and SER verdicts") {
  const std::string dir = data("dbcop-tests");
  require_shared(dir);
  std::ifstream in(dir + "/expected.json");
  const nlohmann::json expected = nlohmann::json::parse(in);
  const std::map<std::string, std::string> level = {{"RC", "biswas.RC"},
                                                    {"RR", "dbcop.RR"},
                                                    {"RA", "biswas.RA"},
                                                    {"CC", "biswas.CC"},
                                                    {"PC", "biswas.PC"},
                                                    {"SI", "biswas.SI"},
                                                    {"SER", "biswas.SER"}};
  // Each folder, the file name's extension and the format it is detected as.
  const std::vector<std::array<std::string, 3>> forms = {
      {"native", ".json", "native"},
      {"dbcop-json", ".json", "dbcop-json"},
      {"dbcop-hist", ".hist", "dbcop-hist"}};
  for (const auto& [folder, ext, format] : forms) {
    int verdicts = 0;
    for (const auto& [name, entry] : expected.items()) {
      CAPTURE(folder);
      CAPTURE(name);
      ReadResult r = read_history_path(dir + "/" + folder + "/" + name + ext, std::nullopt, {});
      CHECK(std::string(format_name(r.format)) == format);
      for (const auto& [dbcop_level, want] : entry.at("expect").items()) {
        CAPTURE(dbcop_level);
        auto it = level.find(dbcop_level);
        REQUIRE(it != level.end());
        CHECK(allowed(r.history, it->second) == want.get<bool>());
        ++verdicts;
      }
    }
    CHECK(verdicts >= 80);
  }
}
