// The shared pieces of the line-oriented text readers (text_input.hpp):
// lines, the cursor over one line, and the explicit initial state decision.
#include "engine/history/formats/text_input.hpp"

#include <unordered_set>

#include <fmt/format.h>

#include "engine/history/formats/initial_state.hpp"

namespace iso::textin {

void fail(const std::string& source, std::size_t line, std::size_t col,
          std::string_view message) {
  throw InputError(fmt::format("{}:{}:{}: {}", source, line, col, message));
}

bool Lines::next(std::string_view& line) {
  if (done_) return false;
  auto end = rest_.find('\n');
  if (end == std::string_view::npos) {
    done_ = true;
    // A final line without "\n"; an empty remainder is no line at all.
    if (rest_.empty()) return false;
    line = rest_;
    rest_ = {};
  } else {
    line = rest_.substr(0, end);
    rest_.remove_prefix(end + 1);
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++number_;
  return true;
}

void Cursor::skip_spaces() {
  while (!at_end() && (line_[pos_] == ' ' || line_[pos_] == '\t')) ++pos_;
}

bool Cursor::eat(std::string_view word) {
  if (line_.substr(pos_).starts_with(word)) {
    pos_ += word.size();
    return true;
  }
  return false;
}

void Cursor::expect(std::string_view word, std::string_view what) {
  if (!eat(word)) fail(fmt::format("expected {}", what));
}

std::uint64_t Cursor::unsigned_int(std::string_view what, std::uint64_t max) {
  std::size_t start = pos_;
  std::uint64_t n = 0;
  bool overflow = false;
  while (!at_end() && line_[pos_] >= '0' && line_[pos_] <= '9') {
    auto d = static_cast<std::uint64_t>(line_[pos_] - '0');
    if (n > (max - d) / 10) overflow = true;
    if (!overflow) n = n * 10 + d;
    ++pos_;
  }
  if (pos_ == start) {
    if (peek() == '-') fail(fmt::format("expected a non-negative integer as {}", what));
    fail(fmt::format("expected an integer as {}", what));
  }
  if (overflow) fail_at(start + 1, fmt::format("{} is out of range (at most {})", what, max));
  return n;
}

void Cursor::expect_end(std::string_view after) {
  skip_spaces();
  if (!at_end()) fail(fmt::format("unexpected text after {}", after));
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

InitDecision decide_explicit_init(const std::vector<InitOp>& ops, std::string_view name,
                                  InitMode mode, const std::string& source) {
  if (mode == InitMode::Implicit || mode == InitMode::None) return {};
  if (mode == InitMode::Explicit) {
    for (const auto& op : ops)
      if (!op.write)
        fail(source, op.line, 1, initial::not_initial_state(name, "it reads"));
    return {true, fmt::format("the first transaction {} is T0", name)};
  }
  // Auto: the reason it is not an initial state, if any.
  std::unordered_set<std::uint64_t> keys;
  for (const auto& op : ops) {
    if (!op.write)
      return {false, fmt::format("the first transaction {} reads key {} (line {})", name, op.key,
                                 op.line)};
    if (op.value != 0)
      return {false, fmt::format("the first transaction {} writes {} to key {} (line {})", name,
                                 op.value, op.key, op.line)};
    if (!keys.insert(op.key).second)
      return {false, fmt::format("the first transaction {} writes key {} twice (line {})", name,
                                 op.key, op.line)};
  }
  return {true, fmt::format("the first transaction {} only writes 0 to {} key{}: it is T0", name,
                            keys.size(), keys.size() == 1 ? "" : "s")};
}

}  // namespace iso::textin
