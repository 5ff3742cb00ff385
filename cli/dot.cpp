// Graphviz pictures (dot.hpp): the DOT text of a history with its witnesses
// and reasons, and its rendering to SVG by Graphviz's dot program.
#include "cli/dot.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/check_render.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

namespace {

// The allowed levels' witnesses; red is kept for the denied levels' reasons.
const char* kColors[] = {"#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"};
const char* kColorNames[] = {"blue", "green", "purple", "orange", "brown", "cyan"};
const char* kDenyColor = "#d62728";

// "1st", "2nd", "3rd", "4th", ...
std::string ordinal(std::size_t n) {
  const char* suffix = n % 100 / 10 == 1 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return fmt::format("{}{}", n, suffix);
}

}  // namespace

std::string dot_escape(const std::string& s) {
  // A line break is DOT's own "\n"; every other hidden character shows as
  // its escape (escape_text), whose backslash is then escaped for DOT.
  std::string out;
  for (char c : escape_text(s, /*keep_lines=*/true)) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\t') {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}

namespace {

// One picture being written (history_dot): the history, the allowed levels'
// witnesses, the denied levels' reasons, and the DOT text so far. Each step
// appends one part of it, in the order history_dot calls them.
class HistoryDot {
 public:
  HistoryDot(const History& h, const std::vector<LabelledWitness>& witnesses, const std::vector<Denial>& denials,
             const PictureOptions& options)
      : h_(h), ah_(abstraction(h)), witnesses_(witnesses), denials_(denials), options_(options),
        shown_(h.num_txns(), options.only.empty()) {
    for (TxnId t : options.only)
      if (t < shown_.size()) shown_[t] = true;
  }

  std::string write(const std::string& title) {
    header(title);
    transactions();
    read_from();
    witness_edges();
    for (std::size_t k = 0; k < denials_.size(); ++k) denial(k);
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  // The committed transactions' reads and writes, a predicate read's as a
  // read of each key it covers (returned or left out), where they are
  // modelled.
  static AbstractHistory abstraction(const History& h) {
    AbstractOptions options;
    options.predicate_reads = !h.predicate_reads().empty() && !predicate_write_gap(h);
    return abstract_history(h, committed_members(h), options);
  }

  // A node id: the transaction's printed name, quoted.
  std::string node(TxnId t) const { return fmt::format("\"{}\"", dot_escape(h_.txn_name(t))); }
  bool shown(TxnId t) const { return t < shown_.size() && shown_[t]; }

  // The graph's settings and its legend, which says what each kind of edge
  // is, so that the picture reads without the text.
  void header(const std::string& title) {
    std::vector<std::string> legend;
    if (!title.empty()) legend.push_back(title);
    legend.push_back("bold: session order (so); grey: read-from, wr(x): read x from");
    legend.push_back("ww(x): version order of x; rw(x): read a version of x the other overwrites; "
                     "rt: committed before the other began");
    for (std::size_t k = 0; k < witnesses_.size(); ++k)
      legend.push_back(fmt::format("{}'s witness: its order in the boxes, other relations dotted {}",
                                   witnesses_[k].level, kColorNames[k % std::size(kColorNames)]));
    for (const Denial& d : denials_) {
      const bool cycle = d.decision->anomaly && !d.decision->anomaly->cycle.empty();
      const std::string& name = options_.pattern.empty() && cycle ? d.decision->anomaly->name : options_.pattern;
      legend.push_back(fmt::format("red: why {} rejects it ({})", d.level,
                                   cycle ? "a cycle of dependencies: " + name
                                         : name.empty() ? "see the note" : name + ", see the note"));
    }
    if (!options_.left_out.empty()) legend.push_back(options_.left_out);
    std::string label;
    for (const auto& line : legend) label += dot_escape(line) + "\\l";
    out_ += fmt::format(
        "digraph history {{\n  rankdir=TB;\n  nodesep=0.6;\n  ranksep=0.7;\n  labelloc=t;\n  label=\"{}\";\n  fontname=\"sans-serif\";\n{}"
        "  node [shape=box, fontname=\"monospace\"];\n  edge [fontname=\"sans-serif\", fontsize=10];\n",
        label, options_.only.empty() ? "" : "  size=\"20,30\";\n");  // a cut picture: scaled to fit a page
  }

  // An order witness is written into the nodes ("biswas.SI co: 2nd"), not
  // drawn: its edges would lie on top of the dependencies between the same
  // transactions. Per transaction, the lines its node gets.
  std::vector<std::string> order_ranks() const {
    std::vector<std::string> ranks(h_.num_txns());
    for (std::size_t k = 0; k < witnesses_.size(); ++k)
      for (const auto& rel : witnesses_[k].witness->relations)
        if (rel.order)
          for (std::size_t i = 1; i < rel.sequence.size(); ++i)
            if (rel.sequence[i] < ranks.size())
              ranks[rel.sequence[i]] += fmt::format("\\n{} {}: {}", dot_escape(witnesses_[k].level),
                                                    dot_escape(rel.name), ordinal(i));
    return ranks;
  }

  // A transaction as its node shows it: on one line when short, else its
  // operations wrapped at about 48 characters, at most 12 of them, each cut
  // at 36 (the text output has them whole).
  std::string txn_label(TxnId t) const {
    std::string text = format_txn(h_, t);
    if (text.size() <= 60) return text;
    const auto& ops = h_.txn(t).ops;
    text = h_.txn_name(t) + ":";
    std::size_t line = text.size();
    for (std::size_t i = 0; i < ops.size() && i < 12; ++i) {
      std::string op = format_op(h_, ops[i]);
      if (op.size() > 36) op = op.substr(0, 32) + "...)";  // a long list read
      if (line + 1 + op.size() > 48) {
        text += "\n ";
        line = 1;
      }
      text += " " + op;
      line += 1 + op.size();
    }
    if (ops.size() > 12) text += fmt::format("\n ... ({} operations)", ops.size());
    return text;
  }

  // The nodes: T0 when it is a member, then each session in a box of its
  // own, with its session order.
  void transactions() {
    const std::vector<std::string> ranks = order_ranks();
    auto declare = [&](TxnId t, const std::string& indent) {
      std::string text = t == kInitTxn ? "T0 (initial values)" : txn_label(t);
      // Aborted, and the timestamps real time is read from.
      const std::string notes = transaction_notes(h_.txn(t));
      if (!notes.empty()) text += "\n" + notes;
      out_ += fmt::format("{}{} [label=\"{}{}\"];\n", indent, node(t), dot_escape(text), ranks[t]);
    };
    if (ah_.member[kInitTxn] && shown(kInitTxn)) declare(kInitTxn, "  ");
    for (std::size_t s = 0; s < h_.sessions().size(); ++s) {
      std::vector<TxnId> session;
      for (TxnId t : h_.sessions()[s])
        if (shown(t)) session.push_back(t);
      if (session.empty()) continue;
      out_ += fmt::format("  subgraph \"cluster_s{}\" {{\n    label=\"session {}\";\n    style=\"rounded,dashed\";\n"
                          "    color=\"#aaaaaa\";\n",
                          s + 1, s + 1);
      for (TxnId t : session) declare(t, "    ");
      // Between members shown apart: "so (...)", the ones between left out.
      for (std::size_t i = 1; i < session.size(); ++i)
        out_ += fmt::format("    {} -> {} [label=\"{}\", penwidth=2];\n", node(session[i - 1]), node(session[i]),
                            h_.txn(session[i]).position == h_.txn(session[i - 1]).position + 1 ? "so" : "so (...)");
      out_ += "  }\n";
    }
  }

  // Read-from, from T0 as well: the initial version a read returns matters
  // as much as any other (write skew reads nothing else).
  void read_from() {
    // A key a predicate read left out: it read a version that fails the
    // predicate, so its read-from says so.
    for (TxnId t : ah_.txns) {
      if (!shown(t)) continue;
      const auto& reads = ah_.abs[t].reads;
      for (std::size_t i = 0; i < reads.size(); ++i)
        for (TxnId w : ah_.candidates[t][i])
          if (shown(w))
            out_ += fmt::format("  {} -> {} [label=\"wr({}){}\", color=\"#888888\", fontcolor=\"#666666\"];\n",
                                node(w), node(t), dot_escape(h_.key_text(reads[i].key)),
                                item_read(reads[i]) ? "" : ", fails the predicate");
    }
  }

  // The witnesses' binary relations other than orders, dotted, a color per
  // level.
  void witness_edges() {
    for (std::size_t k = 0; k < witnesses_.size(); ++k) {
      const char* color = kColors[k % std::size(kColors)];
      for (const auto& rel : witnesses_[k].witness->relations) {
        std::string lbl = dot_escape(witnesses_[k].level + " " + rel.name);
        if (!rel.order && rel.type.size() == 2) {
          for (const auto& t : tuples_of(*witnesses_[k].witness, rel))
            if (t[0] != kInitTxn && shown(t[0]) && shown(t[1]))
              out_ += fmt::format("  {} -> {} [label=\"{}\", style=dotted, color=\"{}\", fontcolor=\"{}\", constraint=false];\n",
                                  node(t[0]), node(t[1]), lbl, color, color);
        }
      }
    }
  }

  // A red edge of a reason's cycle. Graphviz lays two edges between the
  // same transactions in opposite directions on one line; written in one
  // direction (the other with dir=back), they become parallel curves.
  void red_edge(TxnId from, TxnId to, const std::string& text, const char* style) {
    const bool back = from > to;
    out_ += fmt::format("  {} -> {} [label=\"{}\", color=\"{}\", fontcolor=\"{}\", penwidth=2.5{}{}];\n",
                        node(back ? to : from), node(back ? from : to), dot_escape(text), kDenyColor, kDenyColor,
                        style, back ? ", dir=back" : "");
  }

  // Why the k-th denied level rejects it: its cycle in red, or, for a level
  // decided without one, its reason in a red note pointing at the
  // transactions it involves.
  void denial(std::size_t k) {
    const Decision& d = *denials_[k].decision;
    // A cycle's edges name their level only when several levels are denied.
    const std::string prefix = denials_.size() > 1 ? denials_[k].level + ": " : "";
    if (d.anomaly && !d.anomaly->cycle.empty()) {
      // The cycle takes part in the layout (its edges are not drawn on top
      // of each other, the back edge curves round).
      const auto& cycle = d.anomaly->cycle;
      for (std::size_t i = 0; i < cycle.size(); ++i) red_edge(cycle[i].from, cycle[i].to, prefix + cycle_edge_text(*d.anomaly, i), "");
      predicate_notes(*d.anomaly);
      return;
    }
    std::string why = d.anomaly ? d.anomaly->name + ": " + d.anomaly->description : d.reason;
    if (d.failing) {
      why += failing_lines(*d.failing);
      failing_cycle(*d.failing, prefix);
    }
    out_ += fmt::format("  \"deny{}\" [shape=note, color=\"{}\", fontcolor=\"{}\", fontname=\"sans-serif\", "
                        "label=\"{} rejects it:\\n{}\"];\n",
                        k, kDenyColor, kDenyColor, dot_escape(denials_[k].level), dot_escape(why));
    std::vector<TxnId> involved = d.core;
    if (d.anomaly) involved.insert(involved.end(), d.anomaly->txns.begin(), d.anomaly->txns.end());
    for (TxnId t : involved)
      out_ += fmt::format("  \"deny{}\" -> {} [color=\"{}\", style=dotted, arrowhead=none, constraint=false];\n",
                          k, node(t), kDenyColor);
  }

  // The failing instances as the note's lines (each after a line break), at
  // most six, each cut at 110 characters.
  static std::string failing_lines(const FailingInstances& f) {
    std::string lines;
    std::size_t shown = 0;
    for (const FailingInstance& i : f.instances) {
      if (i.at.empty() && i.needs.empty() && i.cycle.empty()) continue;  // "co is a strict total order"
      if (++shown > 6) {
        lines += "\n...";
        break;
      }
      std::string line = i.of + (i.at.empty() ? "" : " at " + i.at_text());
      // What it needs given the lines before it, when that is simpler.
      const std::string& needs = i.given.empty() ? i.needs : i.given;
      if (!i.cycle.empty())
        line += ": has a cycle";
      else if (needs.starts_with("nothing"))
        line += i.needs == "nothing" ? ": false here" : ": contradicts the above";
      else if (!needs.empty())
        line += ": needs " + needs;
      lines += "\n" + (line.size() > 110 ? line.substr(0, 107) + "..." : line);
    }
    return lines;
  }

  // The cycle the failing instances force, or else the first that an
  // acyclicity instance then has, drawn dashed like a graph level's.
  void failing_cycle(const FailingInstances& f, const std::string& prefix) {
    std::vector<TxnId> cycle = f.cycle;
    std::string cycle_label = f.order + " needed";
    for (const FailingInstance& i : f.instances)
      if (cycle.empty() && !i.cycle.empty()) {
        cycle = i.cycle;
        cycle_label = "cycle";
      }
    for (std::size_t e = 0; e + 1 < cycle.size(); ++e)
      red_edge(cycle[e], cycle[e + 1], prefix + cycle_label, ", style=dashed");
  }

  // A cycle edge's label: its kind and key, and what a reader must see in
  // it: a real-time edge's timestamps, a stale read (an anti-dependency
  // against real time), a predicate read's missed write.
  std::string cycle_edge_text(const Anomaly& a, std::size_t i) const {
    const DepEdge& e = a.cycle[i];
    std::string text = edge_label(h_, e);
    if (real_time(e.type) && i < a.why.size()) return text + ": " + a.why[i];
    if (e.type != Dep::RW) return text;
    for (const DepEdge& o : a.cycle)
      if (real_time(o.type) && o.from == e.to && o.to == e.from)
        return text + fmt::format(": stale read, {} began after {} committed", h_.txn_name(e.from), h_.txn_name(e.to));
    if (const auto missed = missed_write(e)) return text + ": " + *missed;
    return text;
  }

  // When `e` is a predicate anti-dependency (its reader's predicate read
  // left the key out): "pr(P) misses T1's w(y,1)".
  std::optional<std::string> missed_write(const DepEdge& e) const {
    if (e.type != Dep::RW || e.from >= ah_.abs.size()) return std::nullopt;
    for (const ExternalRead& r : ah_.abs[e.from].reads) {
      if (r.key != e.key || item_read(r)) continue;
      const Op& pr = h_.txn(e.from).ops[r.op];
      std::string write = fmt::format("{}'s write of {}", h_.txn_name(e.to), h_.key_text(e.key));
      for (const Op& op : h_.txn(e.to).ops)
        if (op.kind == OpKind::Write && op.key == e.key) write = fmt::format("{}'s {}", h_.txn_name(e.to), format_op(h_, op));
      return fmt::format("pr({}) misses {}", h_.predicate_reads()[pr.predicate].predicate, write);
    }
    return std::nullopt;
  }

  // Each predicate read on the cycle: a note on its transaction naming the
  // keys it covers here, those it returned and those it left out.
  void predicate_notes(const Anomaly& a) {
    std::vector<TxnId> done;
    for (const DepEdge& e : a.cycle) {
      if (!missed_write(e) || std::find(done.begin(), done.end(), e.from) != done.end()) continue;
      done.push_back(e.from);
      std::string returned, left_out;
      for (const ExternalRead& r : ah_.abs[e.from].reads) {
        if (h_.txn(e.from).ops[r.op].kind != OpKind::PredicateRead) continue;
        std::string& list = item_read(r) ? returned : left_out;
        list += (list.empty() ? "" : ", ") + h_.key_text(r.key);
      }
      out_ += fmt::format("  \"pred{0}\" [shape=note, fontname=\"sans-serif\", color=\"{1}\", fontcolor=\"{1}\", "
                          "label=\"{2}\"];\n  \"pred{0}\" -> {3} [style=dotted, arrowhead=none, color=\"{1}\"];\n",
                          e.from, kDenyColor,
                          dot_escape(fmt::format("{}'s predicate read covers {}{}: it returned {}, and left out {}",
                                                 h_.txn_name(e.from), returned, left_out.empty() ? "" : ", " + left_out,
                                                 returned.empty() ? "nothing" : returned,
                                                 left_out.empty() ? "nothing" : left_out)),
                          node(e.from));
    }
  }

  const History& h_;
  const AbstractHistory ah_;
  const std::vector<LabelledWitness>& witnesses_;
  const std::vector<Denial>& denials_;
  const PictureOptions& options_;
  std::vector<bool> shown_;
  std::string out_;
};

}  // namespace

std::string history_dot(const History& h, const std::vector<LabelledWitness>& witnesses,
                        const std::vector<Denial>& denials, const std::string& title, const PictureOptions& options) {
  return HistoryDot(h, witnesses, denials, options).write(title);
}

std::string violation_dot(const History& h, const std::string& level, const Anomaly& a, const std::string& title) {
  Decision d;
  d.verdict = Verdict::Violated;
  d.anomaly = a;
  return violation_dot(h, level, d, title);
}

std::string violation_dot(const History& h, const std::string& level, const Decision& d, const std::string& title) {
  const std::vector<Denial> denials{{level, &d}};
  if (h.num_txns() <= kScreenfulTxns + 1 || !d.anomaly || d.anomaly->cycle.empty())
    return history_dot(h, {}, denials, title);
  // The cycle's transactions, then their neighbours: the writers they read
  // a key of the cycle from, and the readers of their writes of one.
  const AbstractHistory ah = abstract_history(h);
  std::vector<KeyId> keys;
  PictureOptions options;
  auto add = [&](TxnId t) {
    if (std::find(options.only.begin(), options.only.end(), t) == options.only.end()) options.only.push_back(t);
  };
  for (const DepEdge& e : d.anomaly->cycle) {
    add(e.from);
    if (keyed(e.type) && std::find(keys.begin(), keys.end(), e.key) == keys.end()) keys.push_back(e.key);
  }
  const std::vector<TxnId> cycle = options.only;
  std::vector<TxnId> seen;  // every neighbour, shown or not
  // At most a dozen neighbours: the picture is for a page.
  const std::size_t most = std::min<std::size_t>(12, kScreenfulTxns - std::min(kScreenfulTxns, cycle.size()));
  for (TxnId t : ah.txns) {
    const auto& reads = ah.abs[t].reads;
    for (std::size_t i = 0; i < reads.size(); ++i) {
      if (std::find(keys.begin(), keys.end(), reads[i].key) == keys.end()) continue;
      const bool reader_on = std::find(cycle.begin(), cycle.end(), t) != cycle.end();
      for (TxnId w : ah.candidates[t][i]) {
        const bool writer_on = std::find(cycle.begin(), cycle.end(), w) != cycle.end();
        const TxnId other = reader_on ? w : t;
        if (reader_on == writer_on || std::find(seen.begin(), seen.end(), other) != seen.end()) continue;
        seen.push_back(other);
        if (options.only.size() < cycle.size() + most) add(other);
      }
    }
  }
  const auto with_t0 = static_cast<std::size_t>(std::count(options.only.begin(), options.only.end(), kInitTxn));
  const std::size_t left = h.num_txns() - 1 - (options.only.size() - with_t0);
  std::string key_list;
  for (KeyId k : keys) key_list += (key_list.empty() ? "" : ", ") + h.key_text(k);
  options.left_out = fmt::format(
      "... {} of the {} transactions left out: shown are the {} on the cycle and {} with a read-from edge to or "
      "from them on its keys ({}){}",
      left, h.num_txns() - 1, cycle.size(), options.only.size() - cycle.size(), key_list,
      options.only.size() - cycle.size() < seen.size() ? fmt::format(" (the first {} of {})", most, seen.size()) : "");
  return history_dot(h, {}, denials, title, options);
}

namespace {

// A file descriptor, closed once.
struct Fd {
  int fd = -1;
  Fd() = default;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// What a child wrote to `f`, on one line: its lines joined by "; ", hidden
// characters escaped, cut after 500 bytes.
std::string folded_messages(std::FILE* f) {
  std::rewind(f);
  std::string text;
  char buf[512];
  std::size_t n = 0;
  while (text.size() < 4096 && (n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::string line;
  bool broken = false;  // a line ended since the last character kept
  for (const char c : text) {
    if (c == '\n' || c == '\r') {
      broken = true;
      continue;
    }
    if (broken && !line.empty()) line += "; ";
    broken = false;
    line.push_back(c);
  }
  line = escape_text(line);
  if (line.size() > 500) line = line.substr(0, 500) + " ...";
  return line;
}

}  // namespace

void write_svg(const std::string& path, const std::string& dot) {
  // Graphviz's dot reads the picture on its standard input and writes the
  // SVG file itself; no shell, so the path needs no quoting.
  int ends[2];
  if (::pipe(ends) != 0) throw std::runtime_error(fmt::format("{}: cannot start Graphviz's dot", path));
  Fd read_end, write_end;
  read_end.fd = ends[0];
  write_end.fd = ends[1];
  // dot's own messages go to a private file, to be folded into one line:
  // they are several, and they must not reach our stderr as they are.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> messages(std::tmpfile(), &std::fclose);
  if (!messages) throw std::runtime_error(fmt::format("{}: cannot start Graphviz's dot", display_text(path)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, read_end.fd, 0);
  posix_spawn_file_actions_adddup2(&actions, ::fileno(messages.get()), 2);
  posix_spawn_file_actions_addclose(&actions, write_end.fd);
  std::string prog = "dot", format = "-Tsvg", out_flag = "-o", target = path;
  char* argv[] = {prog.data(), format.data(), out_flag.data(), target.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "dot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  read_end.reset();
  if (spawned != 0)
    throw std::runtime_error(fmt::format(
        "{}: --svg needs Graphviz's dot program, which was not found (install graphviz, or write "
        "the picture with --dot)",
        path));
  // A dot that exits early must not kill us with SIGPIPE: its exit status
  // says what went wrong.
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  std::size_t written = 0;
  while (written < dot.size()) {
    const ssize_t n = ::write(write_end.fd, dot.data() + written, dot.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  write_end.reset();
  ::sigaction(SIGPIPE, &previous, nullptr);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string said = folded_messages(messages.get());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || written < dot.size())
    throw std::runtime_error(fmt::format("{}: Graphviz's dot failed to write the picture{}", display_text(path),
                                         said.empty() ? "" : ": " + said));
  if (!said.empty()) fmt::print(stderr, "note: {}: Graphviz's dot said: {}\n", display_text(path), said);
}

std::string render_svg(const std::string& dot, const std::string& what) {
  // dot writes a file; a private temporary one, read back and removed.
  std::string tmpl = (std::filesystem::temp_directory_path() / "isosynth-XXXXXX.svg").string();
  const int fd = ::mkstemps(tmpl.data(), 4);
  if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot create a temporary file for the picture", what));
  ::close(fd);
  struct Remove {
    std::string path;
    ~Remove() { std::remove(path.c_str()); }
  } remove{tmpl};
  try {
    write_svg(tmpl, dot);
  } catch (const std::runtime_error& e) {
    // The temporary file's name means nothing to the reader: the message
    // after it does.
    std::string why = e.what();
    if (why.rfind(tmpl, 0) == 0) why = why.substr(std::min(why.size(), tmpl.size() + 2));
    throw std::runtime_error(fmt::format("{}: the pictures need Graphviz's dot program: {}", what, why));
  }
  std::ifstream in(tmpl, std::ios::binary);
  std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Inside a page only the <svg> element is wanted, not the XML prolog.
  const auto start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

void write_text_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr)
    throw std::runtime_error(fmt::format("{}: cannot write the file: {}", display_text(path), std::strerror(errno)));
  // The write can fail at the end only (a full disk shows at the flush):
  // every step is checked, and the file is closed on every path.
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
  const int write_errno = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed)
    throw std::runtime_error(fmt::format("{}: cannot write the file: {}", display_text(path),
                                         std::strerror(written ? errno : write_errno)));
}

}  // namespace iso::cli
