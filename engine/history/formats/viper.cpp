// The Viper reader (FORMATS.md §7): a folder of J<n>.log files, one per
// client, each line one committed transaction:
//   {"preBeginTS": 1, "postBeginTS": 2, "preCommitTS": 3, "postCommitTS": 4,
//    "value": [["r", key, value, flag], ["w", key, value, flag],
//              ["range", k1, k2, [live rows], [dead rows]]],
//    "isInitial": false, "isFinal": false}
// Timestamps, isInitial and isFinal are optional.
//
// Mapping to the history model and the decisions it needs:
//  - one session per log; the transaction on line L of J<n>.log is named
//    "J<n>.<L>" (1-based line) so that a user can find it;
//  - the fourth element of "r" / "w" is Viper's is_dead (reads) and
//    update_succ (writes) flag; its meaning differs between producers, so it
//    is ignored, but reads flagged dead and writes flagged unsuccessful are
//    counted in a note since they may deserve a look;
//  - a range read ["range", k1, k2, live, dead] becomes a predicate read
//    "[k1,k2]" whose result is the live rows; each row is Viper's
//    {"id": key, "sk": key, "val": value} (or a [key, value] pair). Dead rows
//    (deleted ones the scan passed) are not part of the result and are
//    counted; a bound spelled "nil" is open (the int64 extreme);
//  - timestamps: a transaction began somewhere between preBeginTS and
//    postBeginTS and committed between preCommitTS and postCommitTS: they
//    are Transaction::begin, begin_end, commit_start and commit, from which
//    History::time_before orders two events only when they certainly are
//    (the inner ones must lie inside preBeginTS..postCommitTS). Taking
//    begin = preBeginTS and commit = postCommitTS gives the widest interval
//    that surely contains the transaction, so a real-time order derived from
//    them (A before B when A.commit < B.begin) is never claimed unless it
//    certainly held. A missing bound leaves the timestamp unset;
//  - a line with "isInitial": true is Viper's explicit initial state: with
//    --init auto or explicit its writes and live range rows become the
//    initial values (it is T0 itself) and T0 writes only those keys; with
//    --init implicit or none it is an ordinary transaction. --init explicit
//    is refused when no line is initial;
//  - with --init none T0 writes nothing: a read of a value no logged
//    transaction wrote is a thin-air read;
//  - the initial value. Finding from data/histories/viper-json/postgres-1000:
//    every key read there is also written by some logged transaction, yet
//    3300 of 3976 reads return a value that no logged write to that key
//    produced, and each key has at most one such value (2758 keys, none
//    shared between keys). The benchmark preloads every key with a random
//    value before logging starts, and that load is not in the logs. So the
//    initial value of a key is inferred: when the reads of a key return
//    exactly one value that no logged transaction wrote to it, that value is
//    the key's initial value. A key whose reads return two or more such
//    values keeps the default 0 (at most one can be the initial value; the
//    others are reads of values no transaction wrote, which a checker must
//    report) and is counted in a note. This cannot tell a thin-air read from
//    the preloaded value when a key has only one; nothing in the logs can,
//    so a note says for how many keys it was done. The inference is the
//    implicit initial state (--init implicit, and auto when no line is
//    initial); an explicit initial state or none replaces it.
//
// Errors name the file, line and column (1-based, bytes) of the offending
// element. Each line is parsed on its own by nlohmann::json into an
// insertion-ordered DOM; positions are recovered on demand, for an error
// only, by counting the tokens that precede the element in the DOM and
// finding that token in the line.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"
#include "engine/history/predicate.hpp"

namespace iso {

namespace {

using ojson = nlohmann::ordered_json;

// Lines nested deeper are rejected before parsing: real lines nest 4 deep,
// and the position helpers below recurse.
constexpr std::size_t kMaxDepth = 32;


// The number of tokens of a value (depth is bounded by kMaxDepth).
std::size_t token_count(const ojson& j) {
  std::size_t n = 1;
  if (j.is_array()) {
    ++n;
    for (const auto& e : j) n += token_count(e);
  } else if (j.is_object()) {
    ++n;
    for (const auto& [k, v] : j.items()) n += 1 + token_count(v);
  }
  return n;
}

// Token number of element i of the array whose '[' is token `at`.
std::size_t element_token(const ojson& arr, std::size_t at, std::size_t i) {
  std::size_t t = at + 1;
  for (std::size_t k = 0; k < i && k < arr.size(); ++k) t += token_count(arr[k]);
  return t;
}

// Token number of the value of member `key` of the object whose '{' is token `at`.
std::size_t member_token(const ojson& obj, std::size_t at, const std::string& key) {
  std::size_t t = at + 1;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    ++t;  // the key
    if (it.key() == key) return t;
    t += token_count(it.value());
  }
  return at;
}

// The 1-based column of the first byte nested deeper than kMaxDepth, if any.
std::optional<std::size_t> too_deep(std::string_view s) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return i + 1;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::string describe(const ojson& j) {
  switch (j.type()) {
    case ojson::value_t::null: return "null";
    case ojson::value_t::boolean: return j.get<bool>() ? "true" : "false";
    case ojson::value_t::number_integer:
    case ojson::value_t::number_unsigned:
    case ojson::value_t::number_float: return "the number " + j.dump();
    case ojson::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      return "the string " + quote_string(s.size() <= 40 ? s : s.substr(0, 37) + "...");
    }
    case ojson::value_t::array: return "an array";
    case ojson::value_t::object: return "an object";
    default: return "a value";
  }
}

// Strips nlohmann's "[json.exception.parse_error.101] parse error at line 1,
// column 7: " prefix (the position is given in our own format) and caps the
// length.
std::string parse_message(const std::string& what) {
  std::string msg = what;
  if (msg.starts_with("[json.exception.")) {
    if (auto close = msg.find("] "); close != std::string::npos) msg = msg.substr(close + 2);
  }
  if (msg.starts_with("parse error")) {
    if (auto colon = msg.find(": "); colon != std::string::npos) msg = msg.substr(colon + 2);
  }
  constexpr std::size_t kMax = 160;
  if (msg.size() > kMax) msg = msg.substr(0, kMax) + "...";
  return msg;
}

// The client's short name: "J24" of "some/dir/J24.log".
std::string client_stem(const std::string& name) {
  auto slash = name.find_last_of('/');
  std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  if (base.size() > 4 && base.ends_with(".log")) base.resize(base.size() - 4);
  return base;
}

// One line being read: its place in the input, for errors.
class Line {
 public:
  Line(const std::string& file, std::size_t number, std::string_view text, const ojson& root)
      : file_(file), number_(number), text_(text), root_(root) {}

  [[noreturn]] void fail_col(std::size_t col, std::string_view msg) const {
    throw InputError(fmt::format("{}:{}:{}: {}", file_, number_, col, msg));
  }
  [[noreturn]] void fail(std::size_t token, std::string_view msg) const {
    fail_col(json_token_offset(text_, token) + 1, msg);
  }

  const ojson& root() const { return root_; }
  std::uint32_t number() const { return op_line(number_); }

 private:
  const std::string& file_;
  std::size_t number_;
  std::string_view text_;
  const ojson& root_;
};

// A key: an integer or a string.
KeyId read_key(History& h, const Line& line, const ojson& j, std::size_t tok,
               std::string_view what) {
  if (j.is_number_integer() && !(j.is_number_unsigned() &&
                                 j.get<std::uint64_t>() >
                                     static_cast<std::uint64_t>(
                                         std::numeric_limits<std::int64_t>::max())))
    return h.intern_key(std::to_string(j.get<std::int64_t>()), /*integer=*/true);
  if (j.is_string()) return h.intern_key(j.get_ref<const std::string&>(), false);
  line.fail(tok, fmt::format("expected {} (an integer in the 64-bit signed range, or a "
                             "string), found {}",
                             what, describe(j)));
}

// A value: an integer, a string or null.
ValueId read_value(History& h, const Line& line, const ojson& j, std::size_t tok,
                   std::string_view what) {
  if (j.is_number_unsigned()) {
    if (j.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return h.intern_value(Value{static_cast<std::int64_t>(j.get<std::uint64_t>())});
  } else if (j.is_number_integer()) {
    return h.intern_value(Value{j.get<std::int64_t>()});
  } else if (j.is_string()) {
    return h.intern_value(Value{j.get<std::string>()});
  } else if (j.is_null()) {
    return h.intern_value(Value{std::monostate{}});
  }
  line.fail(tok, fmt::format("expected {} (an integer in the 64-bit signed range, a string "
                             "or null), found {}",
                             what, describe(j)));
}

// A range bound: an integer, a string, or "nil" for an open end.
std::string read_bound(const Line& line, const ojson& j, std::size_t tok, bool low) {
  if (j.is_string() && j.get_ref<const std::string&>() == "nil")
    return std::to_string(low ? std::numeric_limits<std::int64_t>::min()
                              : std::numeric_limits<std::int64_t>::max());
  if (j.is_number_integer() && !j.is_number_unsigned()) return std::to_string(j.get<std::int64_t>());
  if (j.is_number_unsigned() &&
      j.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return std::to_string(j.get<std::uint64_t>());
  if (j.is_string()) return j.get<std::string>();
  line.fail(tok, fmt::format("expected the {} bound of the range (an integer, a string or "
                             "\"nil\"), found {}",
                             low ? "lower" : "upper", describe(j)));
}

struct Counts {
  std::size_t txns = 0, dead_reads = 0, failed_writes = 0, ranges = 0, dead_rows = 0;
  std::size_t timestamped = 0, initial_lines = 0;
};

// Reads the operations of one line into `txn` (or, for an initial-state line
// taken as T0, into the initial values).
void read_ops(History& h, const Line& line, const ojson& ops, std::size_t ops_tok,
              std::optional<TxnId> txn, Counts& counts) {
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const ojson& mop = ops[i];
    auto mop_tok = [&] { return element_token(ops, ops_tok, i); };
    auto elem_tok = [&](std::size_t j) { return element_token(mop, mop_tok(), j); };
    if (!mop.is_array() || mop.empty() || !mop[0].is_string())
      line.fail(mop_tok(), fmt::format("value[{}]: expected an operation [\"r\"|\"w\", key, "
                                       "value, flag] or [\"range\", k1, k2, [...], [...]], "
                                       "found {}",
                                       i, mop.is_array() && !mop.empty() ? describe(mop[0])
                                                                        : describe(mop)));
    const std::string& kind = mop[0].get_ref<const std::string&>();
    if (kind == "r" || kind == "w") {
      if (mop.size() < 3 || mop.size() > 4)
        line.fail(mop_tok(), fmt::format("value[{}]: expected [\"{}\", key, value, flag], found "
                                         "{} elements",
                                         i, kind, mop.size()));
      KeyId k = read_key(h, line, mop[1], elem_tok(1), "a key");
      ValueId v = read_value(h, line, mop[2], elem_tok(2), "a value");
      // The flag is ignored (see above); unusual ones are counted.
      bool flagged = mop.size() == 4 && mop[3].is_boolean() &&
                     mop[3].get<bool>() == (kind == "r");
      if (kind == "r") {
        counts.dead_reads += flagged;
        if (txn) h.add_read(*txn, k, v, line.number());
      } else {
        counts.failed_writes += mop.size() == 4 && mop[3].is_boolean() && !mop[3].get<bool>();
        if (txn) h.add_write(*txn, k, v, line.number());
        else h.set_init(k, v);
      }
    } else if (kind == "range") {
      if (mop.size() != 5)
        line.fail(mop_tok(), fmt::format("value[{}]: expected [\"range\", k1, k2, [live rows], "
                                         "[dead rows]], found {} elements",
                                         i, mop.size()));
      std::string lo = read_bound(line, mop[1], elem_tok(1), true);
      std::string hi = read_bound(line, mop[2], elem_tok(2), false);
      PredicateRead pr;
      Predicate range;
      range.keys = Predicate::Keys::Range;
      range.lo = lo;
      range.hi = hi;
      pr.predicate = range.text();
      for (std::size_t part = 3; part <= 4; ++part) {
        const ojson& rows = mop[part];
        if (!rows.is_array())
          line.fail(elem_tok(part), fmt::format("value[{}][{}]: expected the list of {} rows, "
                                                "found {}",
                                                i, part, part == 3 ? "live" : "dead",
                                                describe(rows)));
        if (part == 4) {
          counts.dead_rows += rows.size();
          continue;
        }
        std::unordered_set<KeyId> row_keys;
        for (std::size_t r = 0; r < rows.size(); ++r) {
          const ojson& row = rows[r];
          auto row_tok = [&] { return element_token(rows, elem_tok(part), r); };
          const ojson* key = nullptr;
          const ojson* val = nullptr;
          std::size_t key_tok = 0, val_tok = 0;
          if (row.is_object() && row.contains("id") && row.contains("val")) {
            key = &row.at("id");
            val = &row.at("val");
            key_tok = member_token(row, row_tok(), "id");
            val_tok = member_token(row, row_tok(), "val");
          } else if (row.is_array() && row.size() == 2) {
            key = &row[0];
            val = &row[1];
            key_tok = element_token(row, row_tok(), 0);
            val_tok = element_token(row, row_tok(), 1);
          } else {
            line.fail(row_tok(), fmt::format("value[{}][3][{}]: expected a row {{\"id\": key, "
                                             "\"val\": value}} or [key, value], found {}",
                                             i, r, describe(row)));
          }
          KeyId k = read_key(h, line, *key, key_tok, "the key of a row");
          ValueId v = read_value(h, line, *val, val_tok, "the value of a row");
          // A range read returns each key once; a second row would be a
          // second value read for it, which a predicate read cannot hold.
          if (!row_keys.insert(k).second)
            line.fail(key_tok, fmt::format("value[{}][3][{}]: key {} appears twice in the live "
                                           "rows",
                                           i, r, h.key_text(k)));
          if (txn) pr.result.emplace_back(k, v);
          else h.set_init(k, v);
        }
      }
      if (txn) {
        ++counts.ranges;
        h.add_predicate_read(*txn, std::move(pr), line.number());
      }
    } else {
      line.fail(elem_tok(0), fmt::format("value[{}]: unknown operation {} (expected \"r\", "
                                         "\"w\" or \"range\")",
                                         i, describe(mop[0])));
    }
  }
}

std::optional<std::int64_t> read_timestamp(const Line& line, const char* field) {
  const ojson& root = line.root();
  auto it = root.find(field);
  if (it == root.end()) return std::nullopt;
  if (it->is_number_integer() &&
      !(it->is_number_unsigned() &&
        it->get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())))
    return it->get<std::int64_t>();
  line.fail(member_token(root, 0, field),
            fmt::format("{}: expected an integer timestamp, found {}", field, describe(*it)));
}

}  // namespace

ReadResult read_viper(const std::vector<ClientLog>& logs, const std::string& source,
                      const ReadOptions& options) {
  if (logs.empty()) throw InputError(fmt::format("{}: no client logs", source));
  ReadResult result;
  result.format = Format::Viper;
  History& h = result.history;
  Counts counts;

  for (const ClientLog& log : logs) {
    const SessionId session = h.add_session();
    const std::string client = client_stem(log.name);
    std::string_view rest = log.bytes;
    for (std::size_t number = 1; !rest.empty(); ++number) {
      auto nl = rest.find('\n');
      std::string_view text = rest.substr(0, nl);
      rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
      if (text.find_first_not_of(" \t\r") == std::string_view::npos) continue;  // blank
      const ojson empty;
      Line pre(log.name, number, text, empty);
      if (auto col = too_deep(text))
        pre.fail_col(*col, fmt::format("nesting deeper than {} levels", kMaxDepth));
      ojson root;
      try {
        root = ojson::parse(text);
      } catch (const ojson::parse_error& e) {
        // e.byte is the 1-based byte of the line where parsing stopped.
        pre.fail_col(std::max<std::size_t>(e.byte, 1), parse_message(e.what()));
      } catch (const ojson::exception& e) {
        // A number too large for a double ("number overflow parsing '1e999'")
        // carries no position: find the token it quotes.
        std::string msg = parse_message(e.what());
        std::size_t col = 1;
        auto open = msg.find('\'');
        auto close = open == std::string::npos ? open : msg.find('\'', open + 1);
        if (close != std::string::npos && close > open + 1)
          if (auto at = text.find(msg.substr(open + 1, close - open - 1)); at != text.npos)
            col = at + 1;
        pre.fail_col(col, msg);
      }
      Line line(log.name, number, text, root);
      if (!root.is_object())
        line.fail(0, fmt::format("expected a transaction {{\"value\": [...]}}, found {}",
                                 describe(root)));
      auto ops = root.find("value");
      if (ops == root.end())
        line.fail(0, "expected a transaction {\"value\": [...]}: no \"value\" field");
      if (!ops->is_array())
        line.fail(member_token(root, 0, "value"),
                  fmt::format("value: expected the list of operations, found {}",
                              describe(*ops)));
      bool initial = false;
      if (auto it = root.find("isInitial"); it != root.end()) {
        if (!it->is_boolean())
          line.fail(member_token(root, 0, "isInitial"),
                    fmt::format("isInitial: expected true or false, found {}", describe(*it)));
        initial = it->get<bool>();
      }
      if (initial && (options.init == InitMode::Auto || options.init == InitMode::Explicit)) {
        // The initial state itself (T0): its values become the initial values.
        ++counts.initial_lines;
        read_ops(h, line, *ops, member_token(root, 0, "value"), std::nullopt, counts);
        continue;
      }
      TxnId txn = h.add_txn(session, fmt::format("{}.{}", client, number));
      ++counts.txns;
      auto begin = read_timestamp(line, "preBeginTS");
      auto commit = read_timestamp(line, "postCommitTS");
      auto begin_end = read_timestamp(line, "postBeginTS");
      auto commit_start = read_timestamp(line, "preCommitTS");
      if (begin && commit && *begin > *commit)
        line.fail(member_token(root, 0, "postCommitTS"),
                  fmt::format("postCommitTS {} is before preBeginTS {}", *commit, *begin));
      // The inner timestamps must lie inside the outer ones.
      for (const auto& [name, ts] : {std::pair{"postBeginTS", begin_end}, std::pair{"preCommitTS", commit_start}}) {
        if (ts && ((begin && *ts < *begin) || (commit && *ts > *commit)))
          line.fail(member_token(root, 0, name),
                    fmt::format("{} {} is outside preBeginTS..postCommitTS", name, *ts));
      }
      h.txn(txn).begin = begin;
      h.txn(txn).commit = commit;
      h.txn(txn).begin_end = begin_end;
      h.txn(txn).commit_start = commit_start;
      counts.timestamped += begin || commit;
      read_ops(h, line, *ops, member_token(root, 0, "value"), txn, counts);
    }
  }

  const bool took_initial = counts.initial_lines > 0;
  if (options.init == InitMode::Explicit && !took_initial)
    throw InputError(fmt::format("{}: --init explicit: no line of the logs has \"isInitial\": "
                                 "true, so there is no initial transaction (use auto, implicit "
                                 "or none)",
                                 source));
  const InitialState state = took_initial ? InitialState::Explicit
                             : options.init == InitMode::None ? InitialState::None
                                                              : InitialState::Implicit;

  // Infer the initial values (see the finding above); only T0 of an
  // implicit initial state has them.
  std::size_t inferred = 0, n_ambiguous = 0, unwritten_reads = 0, total_reads = 0;
  if (state == InitialState::Implicit) {
    std::vector<std::unordered_set<ValueId>> written(h.keys().size());
    for (const Transaction& t : h.txns())
      for (const Op& op : t.ops)
        if (op.kind == OpKind::Write) written[op.key].insert(op.value);
    std::vector<std::optional<ValueId>> unwritten(h.keys().size());
    std::vector<bool> ambiguous(h.keys().size(), false);
    auto see_read = [&](KeyId k, ValueId v) {
      ++total_reads;
      if (h.has_explicit_init(k) || written[k].contains(v)) return;
      ++unwritten_reads;
      if (!unwritten[k]) unwritten[k] = v;
      else if (*unwritten[k] != v) ambiguous[k] = true;
    };
    for (const Transaction& t : h.txns())
      for (const Op& op : t.ops) {
        if (op.kind == OpKind::Read) see_read(op.key, op.value);
        if (op.kind == OpKind::PredicateRead)
          for (const auto& [k, v] : h.predicate_reads()[op.predicate].result) see_read(k, v);
      }
    for (KeyId k = 0; k < h.keys().size(); ++k) {
      if (ambiguous[k]) {
        ++n_ambiguous;
      } else if (unwritten[k]) {
        h.set_init(k, *unwritten[k]);
        ++inferred;
      }
    }
  }

  result.notes.push_back(fmt::format("Viper logs: {} client{}, {} transaction{}", logs.size(),
                                     logs.size() == 1 ? "" : "s", counts.txns,
                                     counts.txns == 1 ? "" : "s"));
  std::string detail;
  switch (state) {
    case InitialState::Explicit: {
      std::size_t keys = 0;
      for (KeyId k = 0; k < h.keys().size(); ++k) keys += h.has_explicit_init(k) ? 1 : 0;
      detail = fmt::format("{} \"isInitial\" line{} {} T0, which writes only {} key{}",
                           counts.initial_lines, initial::plural(counts.initial_lines),
                           counts.initial_lines == 1 ? "is" : "are", keys,
                           initial::plural(keys));
      break;
    }
    case InitialState::None:
      detail = "T0 writes no key: a read of a value no logged transaction wrote is a thin-air "
               "read";
      break;
    case InitialState::Implicit:
      detail = fmt::format("T0 writes every key: the inferred preloaded value for {} key{}, 0 "
                           "for the others",
                           inferred, initial::plural(inferred));
      break;
  }
  result.explicit_init = took_initial;
  initial::record(result, options.init, state, detail);
  if (inferred > 0)
    result.notes.push_back(fmt::format(
        "initial values inferred for {} key{}: {} of {} reads return a value no logged "
        "transaction wrote to the key, one such value per key, taken as its preloaded value",
        inferred, inferred == 1 ? "" : "s", unwritten_reads, total_reads));
  if (n_ambiguous > 0)
    result.notes.push_back(fmt::format(
        "{} key{} read{} two or more values that no logged transaction wrote; {} initial value "
        "is left at 0",
        n_ambiguous, n_ambiguous == 1 ? "" : "s", n_ambiguous == 1 ? "s" : "",
        n_ambiguous == 1 ? "its" : "their"));
  if (counts.timestamped > 0)
    result.notes.push_back(fmt::format(
        "{} of {} transactions carry timestamps: the begin between preBeginTS and postBeginTS, "
        "the commit between preCommitTS and postCommitTS",
        counts.timestamped, counts.txns));
  if (counts.ranges > 0)
    result.notes.push_back(fmt::format("{} range read{} taken as predicate reads{}",
                                       counts.ranges, counts.ranges == 1 ? "" : "s",
                                       counts.dead_rows > 0
                                           ? fmt::format(" ({} dead rows left out of results)",
                                                         counts.dead_rows)
                                           : std::string()));
  if (counts.dead_reads > 0 || counts.failed_writes > 0)
    result.notes.push_back(fmt::format(
        "flags ignored: {} read{} flagged dead (true), {} write{} flagged unsuccessful (false)",
        counts.dead_reads, counts.dead_reads == 1 ? "" : "s", counts.failed_writes,
        counts.failed_writes == 1 ? "" : "s"));
  return result;
}

}  // namespace iso
