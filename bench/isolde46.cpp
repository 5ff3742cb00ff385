// Benchmark: the 46 synthesis problems of Isolde §5 (Table 1) at 3..10
// transactions, 5 objects and 5 values (the initial value counted), in
// Isolde's history space (no blind writes) unless --blind-writes is given.
// Prints one CSV row per run; bench/run-isolde46.sh records machine, commit
// and date, and bench/compare-isolde.py puts the times beside Isolde's.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cegis/synthesizer.hpp"
#include "lua/spec_library.hpp"

using namespace iso;

namespace {

// Isolde's problem ids (allow levels joined by '+', then the deny level).
struct Problem {
  std::string allow, deny;
};

const std::vector<Problem> kProblems = {
    // SAT, one framework
    {"RA_ax_b", "CC_ax_b"}, {"CC_ax_b", "PC_ax_b"}, {"PC_ax_b", "SI_ax_b"}, {"SI_ax_b", "Ser_ax_b"},
    {"RA_ax_c", "CC_ax_c"}, {"CC_ax_c", "PC_ax_c"}, {"PC_ax_c", "SI_ax_c"}, {"SI_ax_c", "Ser_ax_c"},
    {"SI_ax_b+UpdateSer__b", "Ser_ax_b"}, {"SI_ax_c+UpdateSer__c", "Ser_ax_c"}, {"RA_tap_b", "RA_ax_b"},
    // SAT, two frameworks
    {"RA_ax_b", "CC_ax_c"}, {"CC_ax_b", "PC_ax_c"}, {"PC_ax_b", "SI_ax_c"}, {"SI_ax_b", "Ser_ax_c"},
    {"RA_ax_c", "CC_ax_b"}, {"CC_ax_c", "PC_ax_b"}, {"PC_ax_c", "SI_ax_b"}, {"SI_ax_c", "Ser_ax_b"},
    {"SI_ax_b+UpdateSer__b", "Ser_ax_c"}, {"SI_ax_b+UpdateSer__c", "Ser_ax_b"},
    {"SI_ax_b+UpdateSer__c", "Ser_ax_c"}, {"SI_ax_c+UpdateSer__b", "Ser_ax_b"},
    {"SI_ax_c+UpdateSer__b", "Ser_ax_c"}, {"SI_ax_c+UpdateSer__c", "Ser_ax_b"},
    // UNSAT, one framework
    {"CC_ax_b", "RA_ax_b"}, {"PC_ax_b", "CC_ax_b"}, {"SI_ax_b", "PC_ax_b"}, {"Ser_ax_b", "SI_ax_b"},
    {"CC_ax_c", "RA_ax_c"}, {"PC_ax_c", "CC_ax_c"}, {"SI_ax_c", "PC_ax_c"}, {"Ser_ax_c", "SI_ax_c"},
    {"RA_ax_b", "RA_tap_b"}, {"CC_ax_b", "CC_tap_b"}, {"CC_tap_b", "CC_ax_b"},
    // UNSAT, two frameworks
    {"RA_ax_b", "RA_ax_c"}, {"RA_ax_c", "RA_ax_b"}, {"CC_ax_b", "CC_ax_c"}, {"CC_ax_c", "CC_ax_b"},
    {"PC_ax_b", "PC_ax_c"}, {"PC_ax_c", "PC_ax_b"}, {"SI_ax_b", "SI_ax_c"}, {"SI_ax_c", "SI_ax_b"},
    {"Ser_ax_b", "Ser_ax_c"}, {"Ser_ax_c", "Ser_ax_b"},
};

// Isolde id -> our level name.
std::string level_name(const std::string& id) {
  if (id == "RA_tap_b") return "plume.TapRA";
  if (id == "CC_tap_b") return "plume.TapCC";
  if (id == "UpdateSer__b") return "biswas.UpdateSer";
  if (id == "UpdateSer__c") return "cerone.UpdateSer";
  std::string base = id.substr(0, id.find('_'));
  if (base == "Ser") base = "SER";
  return (id.back() == 'b' ? "biswas." : "cerone.") + base;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0, pos;
  while ((pos = s.find(sep, start)) != std::string::npos) {
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
  out.push_back(s.substr(start));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int from = 3, to = 10;
  double timeout = 60;
  bool blind = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--from" && i + 1 < argc) from = std::atoi(argv[++i]);
    else if (a == "--to" && i + 1 < argc) to = std::atoi(argv[++i]);
    else if (a == "--timeout" && i + 1 < argc) timeout = std::atof(argv[++i]);
    else if (a == "--blind-writes") blind = true;
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else {
      fmt::print(stderr, "usage: isolde46 [--from N] [--to N] [--timeout S] [--blind-writes] [--only ALLOW/DENY]\n");
      return 2;
    }
  }
  lua::SpecLibrary lib;
  fmt::print("allow,deny,txn,keys,values,outcome,total_ms,translate_ms,solve_ms,oracle_ms,candidates,lemmas,gates,sat_vars,sat_clauses\n");
  for (int n = from; n <= to; ++n) {
    for (const auto& prob : kProblems) {
      if (!only.empty() && only != prob.allow + "/" + prob.deny) continue;
      cegis::Problem p;
      for (const auto& a : split(prob.allow, '+')) p.allow.push_back(&lib.level(level_name(a)));
      p.deny.push_back(&lib.level(level_name(prob.deny)));
      p.scope = cegis::Scope{static_cast<std::uint32_t>(n), 5, 5};
      p.space.blind_writes = blind;
      cegis::SynthOptions opt;
      opt.timeout_seconds = timeout;
      cegis::SynthResult r = cegis::synthesize(p, opt);
      const char* outcome = r.outcome == cegis::Outcome::Found ? "SAT"
                            : r.outcome == cegis::Outcome::None ? "UNSAT"
                                                                : "TIMEOUT";
      const auto& s = r.stats;
      fmt::print("{},{},{},5,5,{},{:.1f},{:.1f},{:.1f},{:.1f},{},{},{},{},{}\n", prob.allow, prob.deny, n,
                 outcome, s.total_seconds * 1e3, s.translate_seconds * 1e3, s.solve_seconds * 1e3,
                 s.oracle_seconds * 1e3, s.candidates, s.lemmas, s.gates, s.sat_vars, s.sat_clauses);
      std::fflush(stdout);
    }
  }
  return 0;
}
