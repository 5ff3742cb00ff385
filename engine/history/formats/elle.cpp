// Elle / Jepsen histories (FORMATS.md §2), in EDN or in elle-cli's JSON.
//
// Both spellings are parsed by one tree reader (edn.hpp) into the same
// operation model (ElleOp) and converted to a History by one function:
//  - only operations with :f :txn are transactions (an absent :f counts as
//    :txn, as in elle-cli's samples); others are counted in a note;
//  - an invocation is paired with the next completion of the same :process;
//    operations without :process form one process;
//  - :ok -> committed, with the completion's micro-operations; :fail ->
//    aborted, :info or no completion -> unknown, both keeping only writes and
//    appends (their reads are aborted or unknown);
//  - [:w k v] writes v; [:r k v] reads v (nil: the initial value);
//    [:append k v] writes v; [:r k [v1 ... vn]] reads vn (nil or []: the
//    initial value) and records v1 < ... < vn as a known version order;
//  - the initial value of every key is nil (--init auto or implicit); with
//    --init none there is none, and a read of nil or [] is a thin-air read;
//    --init explicit is refused: Elle histories have no initial transaction;
//  - a history with no :txn operation at all is another Jepsen workload
//    (bank, set, counter, register, ...): refused, naming the workload as far
//    as its :f values tell;
//  - keys and values are compared as Elle compares them, by Clojure's
//    equality: integers, strings, keywords and nil are the history's own
//    keys and values; any other EDN value (a vector key, a float, a map...)
//    is one key or value per class of equal values, spelled as its EDN text
//    in one canonical form (a list and a vector with the same elements are
//    equal, a map or a set whatever its order, 1.0 and 1.00 are one float,
//    1 and 1.0 are not); a string spelled as such a text would be taken for
//    it, so that is refused, naming both, as is ##NaN (equal to nothing);
//  - a process that invokes again before its last invocation completed is
//    refused, as Jepsen's history refuses it (a process runs one operation
//    at a time; after an :info its successor takes a new process number);
//  - each operation's line is that of the completion its micro-operation
//    comes from (of the invocation when there is none);
//  - a transaction is named T<index> after its completion's :index (its
//    invocation's when it never completed), or L<line> of that operation
//    when there is no :index (or the name would be T0, the initial state);
//  - real time is the order of events in the history, as Elle and Jepsen
//    define it (an operation precedes another when its completion comes
//    before the other's invocation), not :time, which is not read: a
//    transaction's begin is the position of its invocation among the
//    history's operations (from 0), an :ok completion's position its commit;
//    an indeterminate one has no commit, so nothing follows it;
//  - Elle's closed-predicate workload (a history with an :init operation, or
//    an :insert, :delete or :rp micro-operation): an {:f :init, :value
//    {k v ...}} operation is the initial state (T0 writes those keys; every
//    other key is unborn until inserted; without :init every key is unborn,
//    and T0 writes none), [:insert k v] writes v, [:delete k] writes the
//    tombstone, and [:rp pred {k v ...}] is a predicate read (pred :true,
//    [:= c] or [:mod m r]: "true", "v=c", "v%m=r"); there a read of nil reads
//    an unborn or dead version, which matches no predicate (Elle's eval-pred),
//    a predicate read "[k,k]" that returned nothing.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/edn.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/formats/initial_state.hpp"

namespace iso {
namespace {

enum class OpType : std::uint8_t { Invoke, Ok, Fail, Info };

struct ElleKey {
  std::string text;
  bool integer = false;
};

struct MicroOp {
  enum class Kind : std::uint8_t { Read, Write, Append, Delete, PredicateRead } kind = Kind::Read;
  ElleKey key;                  // not for a PredicateRead
  Value value;                  // Write, Append, and a register Read
  bool list = false;            // a list-append Read: `elements` hold the list
  std::vector<Value> elements;
  std::string predicate;        // PredicateRead: its text form (predicate.hpp)
  std::vector<std::pair<ElleKey, Value>> result;  // PredicateRead
};

struct ElleOp {
  OpType type = OpType::Invoke;
  bool txn = false;
  std::string f;                // as spelled, for messages
  std::optional<std::int64_t> index;
  bool has_value = false;       // :value present and not nil
  std::vector<MicroOp> mops;    // :txn operations only
  bool init = false;            // :f :init (the closed-predicate workload's initial state)
  std::vector<std::pair<ElleKey, Value>> init_values;
  std::uint32_t line = 0, col = 0;
};

// One transaction: an invocation and/or its completion (indices into ops).
struct Slot {
  std::optional<std::size_t> invoke, completion;
};

// What a value is, as a noun for "... are not supported": "vector",
// "floating-point".
std::string_view noun(edn::Kind k) {
  switch (k) {
    case edn::Kind::Nil: return "nil";
    case edn::Kind::Bool: return "boolean";
    case edn::Kind::Integer: return "integer";
    case edn::Kind::Float: return "floating-point";
    case edn::Kind::String: return "string";
    case edn::Kind::Keyword: return "keyword";
    case edn::Kind::Symbol: return "symbol";
    case edn::Kind::Char: return "character";
    case edn::Kind::Vector: return "vector";
    case edn::Kind::List: return "list";
    case edn::Kind::Map: return "map";
    case edn::Kind::Set: return "set";
  }
  return "such";
}

// Clojure's equality on an EDN value (other than an integer, a string, a
// keyword or nil) as one text per class of equal values; "" for ##NaN, which
// equals nothing.
std::string canonical(const edn::Node& n) {
  switch (n.kind) {
    case edn::Kind::Nil: return "nil";
    case edn::Kind::Bool: return n.boolean ? "true" : "false";
    case edn::Kind::Integer: return std::to_string(n.integer);
    case edn::Kind::String: return quote_string(n.text);
    case edn::Kind::Keyword: return ":" + n.text;
    case edn::Kind::Symbol: return n.text;
    case edn::Kind::Char: return "\\" + n.text;
    case edn::Kind::Float: {
      if (n.text == "##NaN") return "";
      if (n.text.starts_with("##") || n.text.ends_with('M')) return n.text;  // infinities, BigDecimal
      double d = 0;
      const auto [p, ec] = std::from_chars(n.text.data(), n.text.data() + n.text.size(), d);
      if (ec != std::errc{} || p != n.text.data() + n.text.size()) return n.text;
      if (std::isinf(d)) return d > 0 ? "##Inf" : "##-Inf";
      d += 0.0;  // -0.0 == 0.0 (Clojure's = on doubles)
      return fmt::format("{}", d) + (std::trunc(d) == d && std::abs(d) < 1e16 ? ".0" : "");
    }
    case edn::Kind::Vector:
    case edn::Kind::List:
    case edn::Kind::Set:
    case edn::Kind::Map: {
      std::vector<std::string> parts;
      const bool map = n.kind == edn::Kind::Map;
      for (std::size_t i = 0; i < n.items.size(); i += map ? 2 : 1) {
        std::string part = canonical(n.items[i]);
        if (part.empty()) return "";
        if (map) {
          const std::string v = canonical(n.items[i + 1]);
          if (v.empty()) return "";
          part += " " + v;
        }
        parts.push_back(std::move(part));
      }
      // A map or a set is equal to another whatever the order of its entries.
      if (map || n.kind == edn::Kind::Set) std::sort(parts.begin(), parts.end());
      const std::string body = fmt::format("{}", fmt::join(parts, map ? ", " : " "));
      if (map) return "{" + body + "}";
      return n.kind == edn::Kind::Set ? "#{" + body + "}" : "[" + body + "]";
    }
  }
  return n.text;
}

struct Process {
  std::string label;
  std::optional<std::size_t> pending;       // invocation awaiting completion
  std::optional<std::size_t> pending_slot;  // its slot, when a :txn
  std::vector<std::size_t> slots;
};

class ElleReader {
 public:
  ElleReader(std::string_view text, const std::string& source, edn::Dialect dialect)
      : source_(source), dialect_(dialect), reader_(text, source, dialect) {}

  ReadResult read(Format format, InitMode init);

 private:
  // How a field is spelled in this dialect, for messages: :type or "type".
  std::string field(std::string_view name) const {
    return dialect_ == edn::Dialect::Edn ? fmt::format(":{}", name)
                                         : fmt::format("\"{}\"", name);
  }
  [[noreturn]] void fail(const edn::Node& at, std::string_view message) const {
    reader_.fail(at.line, at.col, message);
  }
  void read_ops();
  ElleOp convert(const edn::Node& n);
  MicroOp micro_op(const edn::Node& n);
  Value scalar(const edn::Node& n, std::string_view what);
  ElleKey key(const edn::Node& k);
  std::string predicate(const edn::Node& p);
  std::vector<std::pair<ElleKey, Value>> key_values(const edn::Node& map, std::string_view what);
  void pair(std::size_t op_index, const edn::Node& process);
  History build(ReadResult& result);
  // What build() counted, for its notes.
  struct Counts {
    std::size_t committed = 0, aborted = 0, unknown = 0, dropped = 0, incomplete = 0;
  };
  // Transaction t's operations from `source`'s micro-operations (its writes
  // only, when `writes_only`: a transaction that did not commit).
  void add_operations(History& h, TxnId t, const ElleOp& source, bool writes_only);
  // The notes of a read: real time, the statuses, and what was read how.
  void add_notes(std::vector<std::string>& notes, const Counts& c) const;
  void refuse_non_transactional() const;

  const std::string& source_;
  edn::Dialect dialect_;
  edn::Reader reader_;
  std::vector<ElleOp> ops_;
  std::vector<Slot> slots_;
  std::vector<Process> processes_;
  std::unordered_map<std::string, std::size_t> process_index_;
  std::unordered_map<std::int64_t, std::uint32_t> index_lines_;  // :index -> line
  std::size_t non_txn_ = 0, no_f_ = 0, no_process_ = 0, orphans_ = 0;
  // The :f values of operations that are not :txn, in order of first use,
  // and what their :read completions returned: for naming the workload of a
  // history that has no :txn operation at all.
  std::vector<std::string> other_fs_;
  bool read_collection_ = false, read_number_ = false;
  std::optional<std::size_t> init_op_;  // the :init operation whose :value is the initial state
  // Elle's closed-predicate workload (an :init, :insert, :delete or :rp):
  // nil is an unborn or dead version, never a value.
  bool closed_predicate_ = false;
  std::size_t absent_reads_ = 0;        // reads of nil read as absent keys
  // Keys and values spelled as the canonical text of another EDN value
  // (canonical()), and the text of every key and string value, each with
  // where it first appeared: a text in both is refused.
  struct Spelled {
    std::unordered_map<std::string, std::pair<std::uint32_t, std::uint32_t>> other, plain;
  };
  Spelled keys_spelled_, values_spelled_;
  std::size_t other_values_ = 0, other_keys_ = 0;
  // Records `text` as the spelling of a plain (other = false) or other
  // value or key at n; refuses a text spelled both ways.
  void spelled(Spelled& s, const std::string& text, bool other, const edn::Node& n,
               std::string_view what);
  std::string other_text(const edn::Node& n, std::string_view what);
};

void ElleReader::spelled(Spelled& s, const std::string& text, bool other, const edn::Node& n,
                         std::string_view what) {
  auto& mine = other ? s.other : s.plain;
  const auto& theirs = other ? s.plain : s.other;
  if (const auto it = theirs.find(text); it != theirs.end())
    fail(n, fmt::format("this {} and the {} on line {}, column {} are both spelled {} here, though "
                        "Elle tells them apart: not supported",
                        what, what, it->second.first, it->second.second, quote_string(text)));
  mine.try_emplace(text, n.line, n.col);
}

std::string ElleReader::other_text(const edn::Node& n, std::string_view what) {
  std::string text = canonical(n);
  if (text.empty())
    fail(n, fmt::format("a {} holding ##NaN is not supported: NaN equals nothing, not even itself, "
                        "so no read could return it",
                        what));
  return text;
}

Value ElleReader::scalar(const edn::Node& n, std::string_view what) {
  switch (n.kind) {
    case edn::Kind::Nil: return Value{};
    case edn::Kind::Integer: return Value{n.integer};
    case edn::Kind::String:
    case edn::Kind::Keyword:
      spelled(values_spelled_, n.text, false, n, "value");
      return Value{n.text};
    default: {
      // Elle compares values by equality alone: a float, a vector, ... is
      // one value per class of equal ones.
      std::string text = other_text(n, what);
      spelled(values_spelled_, text, true, n, "value");
      ++other_values_;
      return Value{std::move(text)};
    }
  }
}

ElleKey ElleReader::key(const edn::Node& k) {
  ElleKey out;
  if (k.kind == edn::Kind::Integer) out = ElleKey{std::to_string(k.integer), true};
  else if (k.kind == edn::Kind::Keyword || k.kind == edn::Kind::String) out = ElleKey{k.text, false};
  else {
    out = ElleKey{other_text(k, "key"), false};
    spelled(keys_spelled_, out.text, true, k, "key");
    ++other_keys_;
    return out;
  }
  spelled(keys_spelled_, out.text, false, k, "key");
  return out;
}

// Elle's closed-predicate predicates: :true, [:= c], [:mod m r].
std::string ElleReader::predicate(const edn::Node& p) {
  if (p.is_name() && p.text == "true") return "true";
  auto integer = [&](const edn::Node& n) {
    if (n.kind != edn::Kind::Integer) fail(n, "expected an integer in the predicate");
    return n.integer;
  };
  if (p.is_seq() && p.items.size() == 2 && p.items[0].is_name() && p.items[0].text == "=") {
    const edn::Node& c = p.items[1];
    if (c.kind == edn::Kind::Integer) return fmt::format("v={}", c.integer);
    if (c.kind == edn::Kind::String || c.kind == edn::Kind::Keyword) return fmt::format("v=\"{}\"", c.text);
    if (c.kind == edn::Kind::Nil) return "v=null";
    fail(c, fmt::format("{} constants are not supported in a predicate", noun(c.kind)));
  }
  if (p.is_seq() && p.items.size() == 3 && p.items[0].is_name() && p.items[0].text == "mod") {
    const std::int64_t m = integer(p.items[1]), r = integer(p.items[2]);
    if (m <= 0) fail(p.items[1], "the modulus of [:mod m r] must be positive");
    return fmt::format("v%{}={}", m, r);
  }
  fail(p, fmt::format("unknown predicate (expected {}, [{} c] or [{} m r])", field("true"),
                      field("="), field("mod")));
}

std::vector<std::pair<ElleKey, Value>> ElleReader::key_values(const edn::Node& map,
                                                              std::string_view what) {
  if (map.kind == edn::Kind::Nil) return {};
  if (map.kind != edn::Kind::Map)
    fail(map, fmt::format("expected a map of keys to values as {}, found {}", what,
                          edn::kind_name(map.kind)));
  std::vector<std::pair<ElleKey, Value>> out;
  for (std::size_t i = 0; i + 1 < map.items.size(); i += 2) {
    ElleKey k = key(map.items[i]);
    for (const auto& [seen, v] : out)
      if (seen.text == k.text && seen.integer == k.integer)
        fail(map.items[i], fmt::format("key {} appears twice in {}", quote_string(k.text), what));
    out.emplace_back(std::move(k), scalar(map.items[i + 1], "value"));
  }
  return out;
}

MicroOp ElleReader::micro_op(const edn::Node& n) {
  const bool is_delete = n.is_seq() && n.items.size() == 2 && n.items[0].is_name() && n.items[0].text == "delete";
  if (!n.is_seq() || (n.items.size() != 3 && !is_delete))
    fail(n, fmt::format("expected a micro-operation [f key value], found {}{}",
                        edn::kind_name(n.kind),
                        n.is_seq() ? fmt::format(" of {} elements", n.items.size()) : ""));
  MicroOp m;
  const edn::Node& f = n.items[0];
  if (!is_delete && f.is_name() && f.text == "delete")
    fail(n, fmt::format("a delete names its key alone: [{} key]", field("delete")));
  if (f.is_name() && f.text == "r") m.kind = MicroOp::Kind::Read;
  else if (f.is_name() && (f.text == "w" || f.text == "insert")) m.kind = MicroOp::Kind::Write;
  else if (f.is_name() && f.text == "append") m.kind = MicroOp::Kind::Append;
  else if (is_delete) m.kind = MicroOp::Kind::Delete;
  else if (f.is_name() && f.text == "rp") m.kind = MicroOp::Kind::PredicateRead;
  else
    fail(f, fmt::format("unknown micro-operation (expected {}, {}, {}, {}, {} or {})", field("r"),
                        field("w"), field("append"), field("insert"), field("delete"), field("rp")));
  if (is_delete || m.kind == MicroOp::Kind::PredicateRead || f.text == "insert")
    closed_predicate_ = true;
  if (m.kind == MicroOp::Kind::PredicateRead) {
    m.predicate = predicate(n.items[1]);
    m.result = key_values(n.items[2], "a predicate read's result");
    return m;
  }
  m.key = key(n.items[1]);
  if (m.kind == MicroOp::Kind::Delete) return m;
  const edn::Node& v = n.items[2];
  if (m.kind == MicroOp::Kind::Read && v.is_seq()) {
    m.list = true;
    m.elements.reserve(v.items.size());  // bounded: the nodes already exist
    for (const auto& e : v.items) m.elements.push_back(scalar(e, "list element"));
  } else {
    m.value = scalar(v, "value");
  }
  return m;
}

ElleOp ElleReader::convert(const edn::Node& n) {
  if (n.kind != edn::Kind::Map)
    fail(n, fmt::format("expected an operation map with {}, found {}", field("type"),
                        edn::kind_name(n.kind)));
  ElleOp op;
  op.line = n.line;
  op.col = n.col;
  const edn::Node* type = n.get("type");
  if (!type) fail(n, fmt::format("the operation has no {}", field("type")));
  if (type->is_name() && type->text == "invoke") op.type = OpType::Invoke;
  else if (type->is_name() && type->text == "ok") op.type = OpType::Ok;
  else if (type->is_name() && type->text == "fail") op.type = OpType::Fail;
  else if (type->is_name() && type->text == "info") op.type = OpType::Info;
  else
    fail(*type, fmt::format("unknown {} (expected {}, {}, {} or {})", field("type"),
                            field("invoke"), field("ok"), field("fail"), field("info")));
  const edn::Node* f = n.get("f");
  if (!f) {
    op.txn = true;
    ++no_f_;
  } else {
    op.txn = f->is_name() && f->text == "txn";
    op.init = f->is_name() && f->text == "init";
    op.f = f->is_name() ? f->text : std::string(edn::kind_name(f->kind));
    if (op.init) {
      if (const edn::Node* value = n.get("value"))
        op.init_values = key_values(*value, fmt::format("the {} operation's {}", field("init"), field("value")));
    } else if (!op.txn) {
      if (std::find(other_fs_.begin(), other_fs_.end(), op.f) == other_fs_.end())
        other_fs_.push_back(op.f);
      if (const edn::Node* value = n.get("value"); value && op.f == "read") {
        read_collection_ = read_collection_ || value->is_seq() || value->kind == edn::Kind::Set;
        read_number_ = read_number_ || value->kind == edn::Kind::Integer;
      }
    }
  }
  if (const edn::Node* index = n.get("index")) {
    if (index->kind != edn::Kind::Integer || index->integer < 0)
      fail(*index, fmt::format("expected a non-negative integer as {}", field("index")));
    op.index = index->integer;
    auto [it, fresh] = index_lines_.try_emplace(index->integer, n.line);
    if (!fresh)
      fail(*index, fmt::format("{} {} is used twice (also on line {})", field("index"),
                               index->integer, it->second));
  }
  if (op.txn) {
    const edn::Node* value = n.get("value");
    if (value && value->kind != edn::Kind::Nil) {
      if (!value->is_seq())
        fail(*value, fmt::format("expected a vector of micro-operations as {}, found {}",
                                 field("value"), edn::kind_name(value->kind)));
      op.has_value = true;
      op.mops.reserve(value->items.size());
      for (const auto& m : value->items) op.mops.push_back(micro_op(m));
    }
    if (op.type == OpType::Ok && !op.has_value)
      fail(n, fmt::format("an {} completion of a transaction needs its {}", field("ok"),
                          field("value")));
  }
  return op;
}

void ElleReader::pair(std::size_t i, const edn::Node& process) {
  // The process's identity: its spelling, tagged by kind.
  std::string label;
  switch (process.kind) {
    case edn::Kind::Nil: label = "(none)"; break;
    case edn::Kind::Integer: label = std::to_string(process.integer); break;
    case edn::Kind::Keyword: label = ":" + process.text; break;
    case edn::Kind::String: label = quote_string(process.text); break;
    default:
      fail(process, fmt::format("expected an integer, a keyword or a string as {}",
                                field("process")));
  }
  auto [it, fresh] = process_index_.try_emplace(label, processes_.size());
  if (fresh) processes_.push_back(Process{label, {}, {}, {}});
  Process& p = processes_[it->second];
  const ElleOp& op = ops_[i];
  if (op.type == OpType::Invoke) {
    if (p.pending) {
      const ElleOp& prev = ops_[*p.pending];
      reader_.fail(op.line, op.col,
                   fmt::format("overlapping invocations in one process are not supported: "
                               "process {} invokes again while its invocation on line {} has "
                               "not completed (Jepsen refuses this too: a process runs one "
                               "operation at a time)",
                               label, prev.line));
    }
    p.pending = i;
    p.pending_slot.reset();
    if (op.txn) {
      p.pending_slot = slots_.size();
      p.slots.push_back(slots_.size());
      slots_.push_back(Slot{i, std::nullopt});
    }
    return;
  }
  if (p.pending) {
    const ElleOp& inv = ops_[*p.pending];
    if (inv.txn != op.txn || inv.f != op.f)
      reader_.fail(op.line, op.col,
                   fmt::format("the completion's {} differs from that of its invocation on "
                               "line {}",
                               field("f"), inv.line));
    if (p.pending_slot) slots_[*p.pending_slot].completion = i;
    p.pending.reset();
    p.pending_slot.reset();
  } else if (op.txn) {
    ++orphans_;  // a completion without invocation: read on its own
    p.slots.push_back(slots_.size());
    slots_.push_back(Slot{std::nullopt, i});
  }
}

void ElleReader::read_ops() {
  // The operations are maps one after the other, or inside one vector/list.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> wrapped;
  char close = ']';
  if (reader_.more() && (reader_.peek() == '[' ||
                         (dialect_ == edn::Dialect::Edn && reader_.peek() == '('))) {
    close = reader_.peek() == '[' ? ']' : ')';
    wrapped = std::pair{reader_.line(), reader_.col()};
    reader_.skip_char();
  }
  const edn::Node nil;
  while (true) {
    if (!reader_.more()) {
      if (wrapped)
        reader_.fail_here(fmt::format("unexpected end of input: expected '{}' to close the "
                                      "'{}' at line {}, column {}",
                                      close, close == ']' ? '[' : '(', wrapped->first,
                                      wrapped->second));
      return;
    }
    if (wrapped && reader_.peek() == close) {
      reader_.skip_char();
      if (reader_.more())
        reader_.fail_here(fmt::format("unexpected text after the closing '{}'", close));
      return;
    }
    edn::Node n = reader_.value();
    ops_.push_back(convert(n));
    const edn::Node* process = n.get("process");
    if (!process || process->kind == edn::Kind::Nil) {
      process = &nil;
      ++no_process_;
    }
    if (ops_.back().init) {
      // The initial state: the :ok completion's, else the invocation's.
      if (init_op_ && ops_[*init_op_].type == OpType::Ok && ops_.back().type == OpType::Ok)
        reader_.fail(n.line, n.col, fmt::format("a second {} operation: the initial state is given once (first on line {})",
                                                field("init"), ops_[*init_op_].line));
      if (!init_op_ || ops_.back().type == OpType::Ok) init_op_ = ops_.size() - 1;
    } else if (!ops_.back().txn) {
      ++non_txn_;
    }
    pair(ops_.size() - 1, *process);
    // Non-transactional operations are only needed for pairing.
    if (!ops_.back().txn) ops_.back().mops.clear();
  }
}

void ElleReader::add_operations(History& h, TxnId t, const ElleOp& source, bool writes_only) {
  auto key_of = [&](const ElleKey& k) { return h.intern_key(k.text, k.integer); };
  const std::uint32_t line = source.line, column = op_column(source.col);
  for (const auto& m : source.mops) {
    if (m.kind == MicroOp::Kind::PredicateRead) {
      if (writes_only) continue;
      PredicateRead pr{m.predicate, {}};
      for (const auto& [k, v] : m.result) pr.result.emplace_back(key_of(k), h.intern_value(v));
      h.add_predicate_read(t, std::move(pr), line, column);
      continue;
    }
    KeyId k = key_of(m.key);
    if (m.kind == MicroOp::Kind::Delete) {
      h.add_delete(t, k, line, column);
    } else if (m.kind != MicroOp::Kind::Read) {
      h.add_write(t, k, h.intern_value(m.value), line, column);
    } else if (!writes_only) {
      if (closed_predicate_ && !m.list && std::holds_alternative<std::monostate>(m.value)) {
        // In the closed-predicate workload nil is no version: the key was
        // unborn or dead, which a predicate read of the key alone returns
        // as nothing.
        if (m.key.text.find_first_of(",]") != std::string::npos || m.key.text.empty() ||
            m.key.text.front() == ' ' || m.key.text.back() == ' ')
          reader_.fail(source.line, source.col,
                       fmt::format("a read of nil of key {} cannot be spelled as a predicate read "
                                   "of that key alone",
                                   quote_string(m.key.text)));
        h.add_predicate_read(t, PredicateRead{fmt::format("[{},{}]", m.key.text, m.key.text), {}}, line, column);
        ++absent_reads_;
        continue;
      }
      if (!m.list) {
        h.add_read(t, k, h.intern_value(m.value), line, column);
        continue;
      }
      std::vector<ValueId> elements;
      elements.reserve(m.elements.size());
      for (const auto& e : m.elements) elements.push_back(h.intern_value(e));
      h.add_list_read(t, k, std::move(elements), h.intern_value(Value{}), line, column);
    }
  }
}

void ElleReader::add_notes(std::vector<std::string>& notes, const Counts& c) const {
  notes.push_back(fmt::format("real time is the order of events in the history: a transaction's begin "
                              "and commit are the positions of its invocation and {} completion "
                              "(from 0); {} is not read",
                              field("ok"), field("time")));
  notes.push_back(fmt::format("{} committed, {} aborted ({}), {} indeterminate ({} or never "
                              "completed) transactions",
                              c.committed, c.aborted, field("fail"), c.unknown, field("info")));
  if (non_txn_ > 0)
    notes.push_back(fmt::format("{} operations with an {} other than {} are not transactions: "
                                "ignored",
                                non_txn_, field("f"), field("txn")));
  if (no_f_ > 0)
    notes.push_back(fmt::format("{} operations have no {}: read as {}", no_f_, field("f"),
                                field("txn")));
  if (no_process_ > 0)
    notes.push_back(fmt::format("{} operations have no {}: read as one process", no_process_,
                                field("process")));
  if (c.incomplete > 0)
    notes.push_back(fmt::format("{} invocations never completed: read as indeterminate",
                                c.incomplete));
  if (orphans_ > 0)
    notes.push_back(fmt::format("{} completions have no invocation: read on their own",
                                orphans_));
  if (c.dropped > 0)
    notes.push_back(fmt::format("{} failed or indeterminate transactions write nothing: left "
                                "out",
                                c.dropped));
  if (other_keys_ + other_values_ > 0)
    notes.push_back(fmt::format("{} keys and {} values are EDN values other than integers, strings, "
                                "keywords and nil: compared by equality, as Elle compares them, and "
                                "shown as their EDN text",
                                other_keys_, other_values_));
  if (absent_reads_ > 0)
    notes.push_back(fmt::format("{} reads of nil (an unborn or deleted key) are read as predicate reads "
                                "of that key alone that returned nothing",
                                absent_reads_));
}

History ElleReader::build(ReadResult& result) {
  History h;
  auto key_of = [&](const ElleKey& k) { return h.intern_key(k.text, k.integer); };
  std::unordered_set<std::string> names;
  Counts counts;
  for (const Process& p : processes_) {
    std::optional<SessionId> session;
    for (std::size_t s : p.slots) {
      const Slot& slot = slots_[s];
      const ElleOp* inv = slot.invoke ? &ops_[*slot.invoke] : nullptr;
      const ElleOp* comp = slot.completion ? &ops_[*slot.completion] : nullptr;
      TxnStatus status = TxnStatus::Unknown;
      if (comp && comp->type == OpType::Ok) status = TxnStatus::Committed;
      if (comp && comp->type == OpType::Fail) status = TxnStatus::Aborted;
      if (!comp) ++counts.incomplete;
      // Committed: the completion's micro-ops. Otherwise only writes count,
      // from the completion when it has them, else from the invocation.
      const ElleOp* source = comp && comp->has_value ? comp : inv;
      bool writes_only = status != TxnStatus::Committed;
      bool any = false;
      if (source)
        for (const auto& m : source->mops)
          any = any || !writes_only || m.kind != MicroOp::Kind::Read;
      if (writes_only && !any) {
        ++counts.dropped;
        continue;
      }
      const ElleOp& named = comp ? *comp : *inv;
      std::string name = named.index && *named.index != 0
                             ? fmt::format("T{}", *named.index)
                             : fmt::format("L{}", named.line);
      if (!names.insert(name).second) {
        name = fmt::format("L{}.{}", named.line, named.col);  // several on one line
        names.insert(name);
      }
      if (!session) session = h.add_session();
      TxnId t = h.add_txn(*session, std::move(name), status);
      // Real time: the positions of the invocation and the completion.
      if (slot.invoke) h.txn(t).begin = static_cast<std::int64_t>(*slot.invoke);
      if (status == TxnStatus::Committed) h.txn(t).commit = static_cast<std::int64_t>(*slot.completion);
      switch (status) {
        case TxnStatus::Committed: ++counts.committed; break;
        case TxnStatus::Aborted: ++counts.aborted; break;
        case TxnStatus::Unknown: ++counts.unknown; break;
      }
      if (!source) continue;
      add_operations(h, t, *source, writes_only);
    }
  }

  add_notes(result.notes, counts);
  // The closed-predicate workload's initial state: its keys, with their
  // values (interned before the last key, so after the transactions).
  if (init_op_)
    for (const auto& [k, v] : ops_[*init_op_].init_values) h.set_init(key_of(k), h.intern_value(v));
  return h;
}

// Which Jepsen workload the :f values of a history without :txn operations
// belong to, as far as they tell.
void ElleReader::refuse_non_transactional() const {
  if (ops_.empty()) throw InputError(fmt::format("{}: no operations", source_));
  auto has = [&](std::string_view f) {
    return std::find(other_fs_.begin(), other_fs_.end(), f) != other_fs_.end();
  };
  std::string workload;
  if (has("transfer")) workload = "bank";
  else if (has("cas")) workload = "cas-register";
  else if (has("enqueue") || has("dequeue") || has("drain")) workload = "queue";
  else if (has("acquire") || has("release")) workload = "lock";
  else if (has("generate")) workload = "unique-ids";
  else if (has("add") && read_collection_ && !read_number_) workload = "set";
  else if ((has("add") || has("inc")) && read_number_ && !read_collection_)
    workload = "counter";
  else if (has("add")) workload = "set or counter";
  else if (has("read") || has("write")) workload = "register";
  std::vector<std::string> fs;
  for (std::size_t i = 0; i < other_fs_.size() && i < 6; ++i) fs.push_back(field(other_fs_[i]));
  if (other_fs_.size() > 6) fs.push_back("...");
  const ElleOp& first = ops_.front();
  reader_.fail(first.line, first.col,
               fmt::format("no {} operations: this is {} history ({} {}), not a transactional "
                           "one; isosynth checks rw-register and list-append histories ({} {})",
                           field("txn"),
                           workload.empty() ? std::string("a Jepsen workload's")
                                            : fmt::format("a Jepsen {} workload's", workload),
                           field("f"), fmt::join(fs, ", "), field("f"), field("txn")));
}

ReadResult ElleReader::read(Format format, InitMode init) {
  ReadResult result;
  result.format = format;
  read_ops();
  // Only the closed-predicate workload's :init is an initial transaction.
  if (!init_op_)
    initial::refuse_explicit(source_, init, "Elle histories", "they have no initial transaction");
  if (std::none_of(ops_.begin(), ops_.end(), [](const ElleOp& o) { return o.txn; }))
    refuse_non_transactional();
  closed_predicate_ = closed_predicate_ || init_op_.has_value();
  result.history = build(result);
  if (init_op_) {
    // The closed-predicate workload: its :init operation is the initial
    // transaction.
    const ElleOp& op = ops_[*init_op_];
    if (init == InitMode::Implicit || init == InitMode::None)
      throw InputError(fmt::format("{}:{}:{}: --init {} is not supported for this history: its {} operation "
                                   "gives the initial state (use --init auto or explicit)",
                                   source_, op.line, op.col, init_mode_name(init), field("init")));
    initial::record(result, init, InitialState::Explicit,
                    fmt::format("the {} operation on line {} writes {} key{}; every other key is unborn "
                                "until inserted",
                                field("init"), op.line, op.init_values.size(),
                                initial::plural(op.init_values.size())));
    return result;
  }
  if (closed_predicate_) {
    // Elle's closed-predicate workload without :init: every key starts
    // unborn (conj-version), and an unborn version matches no predicate.
    if (init == InitMode::Implicit)
      throw InputError(fmt::format("{}: --init implicit is not supported for this history: it is Elle's "
                                   "closed-predicate workload (it has {}, {} or {} micro-operations), in "
                                   "which a key is unborn until inserted and nil is no value (use --init "
                                   "auto or none)",
                                   source_, field("insert"), field("delete"), field("rp")));
    initial::record(result, init, InitialState::None,
                    fmt::format("Elle's closed-predicate workload without an {} operation: T0 writes no "
                                "key, every key is unborn until inserted, and a read of nil reads an "
                                "unborn or dead version",
                                field("init")));
    return result;
  }
  // The initial value of every Elle key is nil (or the empty list).
  initial::record_implicit_or_none(
      result, init, "T0 writes nil (the empty list) to every key",
      "T0 writes no key: a read of nil or of the empty list is a thin-air read",
      result.history.intern_value(Value{}));
  return result;
}

}  // namespace

ReadResult read_elle_edn(std::string_view text, const std::string& source,
                         const ReadOptions& options) {
  return ElleReader(text, source, edn::Dialect::Edn).read(Format::ElleEdn, options.init);
}

ReadResult read_elle_json(std::string_view text, const std::string& source,
                          const ReadOptions& options) {
  return ElleReader(text, source, edn::Dialect::Json).read(Format::ElleJson, options.init);
}

}  // namespace iso
