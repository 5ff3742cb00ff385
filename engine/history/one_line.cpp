// Reads the papers' one-line notation back into a History (one_line.hpp):
// a small hand-written scanner with positions for its one-line errors.

#include "engine/history/one_line.hpp"

#include <cctype>
#include <charconv>
#include <vector>

#include <fmt/format.h>

#include "engine/history/input_error.hpp"
#include "engine/history/predicate.hpp"

namespace iso {

namespace {

// A cursor over the text with the error every malformed spot gives.
class Cursor {
 public:
  Cursor(std::string_view text, const std::string& source) : s_(text), source_(source) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(fmt::format("{}: column {}: {}", source_, pos_ + 1, what));
  }
  void blanks() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  bool done() {
    blanks();
    return pos_ >= s_.size();
  }
  bool peek(char c) {
    blanks();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  bool take(char c) {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  bool take(std::string_view word) {
    blanks();
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  void expect(char c) {
    if (!take(c)) fail(fmt::format("expected '{}'", c));
  }
  std::string word() {
    blanks();
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' ||
                                s_[pos_] == '.' || s_[pos_] == '-'))
      ++pos_;
    if (pos_ == start) fail("expected a name");
    return std::string(s_.substr(start, pos_ - start));
  }
  // Text up to `stop` (not included), for a predicate.
  std::string until(char stop) {
    blanks();
    const std::size_t end = s_.find(stop, pos_);
    if (end == std::string_view::npos) fail(fmt::format("expected '{}'", stop));
    std::string out(s_.substr(pos_, end - pos_));
    pos_ = end;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  }
  Value value() {
    if (take("null")) return Value{};
    blanks();
    std::int64_t v = 0;
    const char* first = s_.data() + pos_;
    const auto [ptr, ec] = std::from_chars(first, s_.data() + s_.size(), v);
    if (ec != std::errc{} || ptr == first) fail("expected an integer or null");
    pos_ += static_cast<std::size_t>(ptr - first);
    return Value{v};
  }

 private:
  std::string_view s_;
  const std::string& source_;
  std::size_t pos_ = 0;
};

bool all_digits(const std::string& s) {
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return !s.empty();
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : in_(text, source) {}

  History run() {
    do {
      const SessionId s = h_.add_session();
      do transaction(s);
      while (in_.take(';'));
    } while (in_.take('|'));
    if (!in_.done()) in_.fail("expected ';', '|' or the end");
    return std::move(h_);
  }

 private:
  KeyId key() {
    const std::string k = in_.word();
    return h_.intern_key(k, all_digits(k));
  }
  std::string predicate() {
    std::string text = in_.until(':');
    std::string error;
    if (!parse_predicate(text, &error)) in_.fail(fmt::format("predicate \"{}\": {}", text, error));
    in_.expect(':');
    return text;
  }

  void transaction(SessionId s) {
    const std::string name = in_.word();
    if (h_.find_txn(name)) in_.fail(fmt::format("transaction {} appears twice", name));
    const TxnId t = h_.add_txn(s, name);
    in_.expect(':');
    while (!in_.done() && !in_.peek('|') && !in_.peek(';') && !in_.peek('[')) op(t);
    if (in_.take('[')) {
      if (in_.take("aborted"))
        h_.txn(t).status = TxnStatus::Aborted;
      else if (in_.take("status unknown"))
        h_.txn(t).status = TxnStatus::Unknown;
      else
        in_.fail("expected \"aborted\" or \"status unknown\"");
      in_.expect(']');
    }
  }

  void op(TxnId t) {
    if (in_.take("pr(")) {
      PredicateRead pr{predicate(), {}};
      in_.expect('{');
      while (!in_.take('}')) {
        if (!pr.result.empty()) in_.expect(',');
        const KeyId k = key();
        in_.expect('=');
        pr.result.emplace_back(k, h_.intern_value(in_.value()));
      }
      in_.expect(')');
      h_.add_predicate_read(t, std::move(pr));
    } else if (in_.take("pw(")) {
      std::string p = predicate();
      const ValueId v = h_.intern_value(in_.value());
      in_.expect(')');
      h_.add_predicate_write(t, std::move(p), v);
    } else if (in_.take("pd(")) {
      std::string p = in_.until(')');
      std::string error;
      if (!parse_predicate(p, &error)) in_.fail(fmt::format("predicate \"{}\": {}", p, error));
      in_.expect(')');
      h_.add_predicate_write(t, std::move(p), h_.intern_value(Value{Deleted{}}));
    } else if (in_.take("d(")) {
      const KeyId k = key();
      in_.expect(')');
      h_.add_delete(t, k);
    } else if (const bool read = in_.take("r("); read || in_.take("w(")) {
      const KeyId k = key();
      in_.expect(',');
      if (read && in_.take('[')) {
        std::vector<ValueId> elements;
        while (!in_.take(']')) elements.push_back(h_.intern_value(in_.value()));
        h_.add_list_read(t, k, std::move(elements), h_.init_value(k));
      } else {
        const ValueId v = h_.intern_value(in_.value());
        if (read)
          h_.add_read(t, k, v);
        else
          h_.add_write(t, k, v);
      }
      in_.expect(')');
    } else {
      in_.fail("expected an operation: r(, w(, d(, pr(, pw( or pd(");
    }
  }
  Cursor in_;
  History h_;
};

}  // namespace

History parse_one_line(std::string_view text, const std::string& source) {
  return Parser(text, source).run();
}

}  // namespace iso
