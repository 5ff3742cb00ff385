// The one naming of histories: which entries of the anomaly catalogue
// (specs/anomalies.lua) a history exhibits, and how every command says so.
// check, synth, compare, hierarchy, anomalies and the pictures' captions all
// name a history through classify(), so one history has one name whatever
// levels it was found between. A checker's cycle name (G1c, G-nonadjacent)
// stays the name of a cycle next to a level's verdict; it names the history
// only when the catalogue names nothing ("no catalogue anomaly; cycle: G1c").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cli {

// The catalogue's anomalies `h` exhibits, in catalogue order: those whose
// level (the pattern negated) rejects `h` for its pattern, not for a read no
// execution explains (thin air, incompatible orders), which every level
// rejects. An anomaly that cannot be decided on `h` (a kind of operation its
// pattern does not cover) is left out. The anomalies are decided on up to
// `jobs` threads (engine/util/thread_pool.hpp); a caller that is itself one
// of several parallel tasks passes 1.
std::vector<const lua::Level*> classify(const lua::SpecLibrary& lib, const History& h, std::size_t jobs = 1);

// Its name without its library: "anomalies.LongFork" -> "LongFork" (file
// names, page anchors).
std::string anomaly_short_name(const lua::Level& anomaly);
// How people name an anomaly: its title, else its name split into words
// ("anomalies.LongFork" -> "long fork").
std::string anomaly_display_name(const lua::Level& anomaly);
// Its display name with the literature's names alongside:
// "long fork (G-nonadjacent)", "write skew (A5B, G2-item)".
std::string anomaly_label(const lua::Level& anomaly);
// A short column heading: the initials of its display name ("LF", "NRR"),
// or the name itself when short ("G0", "G1a").
std::string anomaly_abbreviation(const lua::Level& anomaly);

// A history's name: the labels of what it exhibits, comma-separated; when
// the catalogue names nothing, "no catalogue anomaly", followed by
// "; cycle: CYCLE" when a checker named a cycle.
std::string history_name(const std::vector<const lua::Level*>& exhibited, std::string_view cycle = {});
// "exhibits: " + history_name(...), the line every command prints.
std::string exhibits_line(const std::vector<const lua::Level*>& exhibited, std::string_view cycle = {});
// JSON: [{"anomaly": "anomalies.LongFork", "name": "long fork", "aka": ["G-nonadjacent"]}, ...].
nlohmann::json exhibits_json(const std::vector<const lua::Level*>& exhibited);

// The one-line legend of the histories' notation, printed once by the
// commands that print histories on one line.
std::string_view notation_legend();

}  // namespace iso::cli
