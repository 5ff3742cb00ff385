// Runs the command examples of a Markdown file and compares their output,
// so that README and docs/ cannot drift from what the binary prints.
//
//   doc_examples ISOSYNTH ROOT FILE.md [--update]
//
// An example is a line "$ isosynth ARGS" inside a ``` fence; the lines after
// it, up to the next "$ " line or the fence's end, are its standard output.
// The command runs in ROOT (the repository) through /bin/sh (so `| head`,
// `> f.json`, `;` work), with the binary under test first on PATH.
// Lines compare exactly, but for trailing blanks; an expected line "..."
// stands for any number of lines. Exit code 0 when every example matches
// (or the file has none), 1 otherwise (each difference printed), 2 for a
// usage error. --update rewrites the expected output of every example that
// differs and has no "..." line, for a maintainer who changed the output on
// purpose (and reads the diff before committing it).
#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Example {
  std::size_t line = 0;     // of the "$ " line, 1-based
  std::string command;
  std::vector<std::string> expected;
  std::size_t end = 0;      // the line after the last expected line, 1-based
};

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

std::vector<Example> examples(std::istream& in) {
  std::vector<Example> out;
  std::string line;
  bool fence = false;
  Example* current = nullptr;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    if (line.rfind("```", 0) == 0) {
      fence = !fence;
      current = nullptr;
      continue;
    }
    if (current) current->end = n + 1;
    if (!fence) continue;
    if (line.rfind("$ ", 0) == 0) {
      current = nullptr;
      if (line.rfind("$ isosynth ", 0) == 0) {
        out.push_back(Example{n, line.substr(2), {}, n + 1});
        current = &out.back();
      }
      continue;
    }
    if (current) current->expected.push_back(rtrim(line));
  }
  return out;
}

std::vector<std::string> run(const std::string& root, const std::string& binary,
                             const std::string& command) {
  // ISOSYNTH is an absolute path (CTest's $<TARGET_FILE>).
  // `isosynth` anywhere in the command (after a pipe, say) is the binary
  // under test: its folder goes first on PATH.
  const std::string dir = binary.substr(0, binary.find_last_of('/'));
  const std::string shell = "cd '" + root + "' && PATH='" + dir + "':\"$PATH\" && {\n" + command +
                            "\n} 2>/dev/null";
  std::vector<std::string> lines;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(shell.c_str(), "r"), pclose);
  if (!pipe) return lines;
  std::string text;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe.get())) > 0) text.append(buf.data(), n);
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(rtrim(line));
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// Does `actual` from index a match `expected` from index e ("..." = any lines)?
bool matches(const std::vector<std::string>& expected, std::size_t e,
             const std::vector<std::string>& actual, std::size_t a) {
  if (e == expected.size()) return a == actual.size();
  if (expected[e] == "...") {
    for (std::size_t skip = a; skip <= actual.size(); ++skip)
      if (matches(expected, e + 1, actual, skip)) return true;
    return false;
  }
  return a < actual.size() && expected[e] == actual[a] && matches(expected, e + 1, actual, a + 1);
}

}  // namespace

int main(int argc, char** argv) {
  const bool update = argc == 5 && std::string(argv[4]) == "--update";
  if (argc != 4 && !update) {
    std::cerr << "usage: doc_examples ISOSYNTH ROOT FILE.md [--update]\n";
    return 2;
  }
  const std::string binary = argv[1], root = argv[2], file = argv[3];
  std::vector<std::string> text;
  {
    std::ifstream in(file);
    if (!in) {
      std::cerr << file << ": cannot open\n";
      return 2;
    }
    for (std::string line; std::getline(in, line);) text.push_back(line);
  }
  std::istringstream whole([&] {
    std::string all;
    for (const auto& l : text) all += l + "\n";
    return all;
  }());
  auto all = examples(whole);
  if (all.empty()) {
    std::cout << file << ": no examples\n";
    return 0;
  }
  int failed = 0;
  // From the last example up, so that rewriting one keeps the others' lines.
  for (auto ex = all.rbegin(); ex != all.rend(); ++ex) {
    auto expected = ex->expected;
    while (!expected.empty() && expected.back().empty()) expected.pop_back();
    const auto actual = run(root, binary, ex->command);
    if (matches(expected, 0, actual, 0)) continue;
    ++failed;
    std::cout << file << ":" << ex->line << ": $ " << ex->command << "\n--- expected\n";
    for (const auto& l : expected) std::cout << l << "\n";
    std::cout << "--- actual\n";
    for (const auto& l : actual) std::cout << l << "\n";
    if (update && std::find(expected.begin(), expected.end(), "...") == expected.end()) {
      // Lines [ex->line, ex->end - 1) (0-based) hold the old output.
      text.erase(text.begin() + static_cast<std::ptrdiff_t>(ex->line),
                 text.begin() + static_cast<std::ptrdiff_t>(ex->end - 1));
      text.insert(text.begin() + static_cast<std::ptrdiff_t>(ex->line), actual.begin(), actual.end());
    }
  }
  if (update) {
    std::ofstream out(file);
    for (const auto& l : text) out << l << "\n";
  }
  std::cout << all.size() - static_cast<std::size_t>(failed) << " of " << all.size()
            << " examples match" << (update && failed ? " (rewritten)" : "") << "\n";
  return failed == 0 ? 0 : 1;
}
