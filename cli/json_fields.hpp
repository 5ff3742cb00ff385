// The structured JSON forms every command's --json shares for what a history
// is made of (docs/json.md, docs/schema/isosynth-output.schema.json): an
// operation {txn, index, kind, key, value, line, column, text}, a
// transaction {id, session, position, status, ops, operations}, and an edge
// {from, to, type, key, operations}. Indices are 0-based, lines and columns
// 1-based and null where the input did not say; names and keys are as the
// input spelled them (JSON escapes them, display_text() is for text only).
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "engine/history/history.hpp"
#include "engine/verdict/dependency.hpp"

namespace iso::cli {

// The operation `index` of transaction t.
nlohmann::json operation_json(const History& h, TxnId t, std::uint32_t index);

// A transaction: its id, session (null for T0), position in its session,
// status, its operations as text ("ops", as printed) and structured.
nlohmann::json transaction_json(const History& h, TxnId t);

// An edge: its endpoints, type ("so", "init", "wr", "ww", "rw", "rt",
// "rt-cc", "rt-bc"), key (null for an edge on no key), and the operations it
// rests on (poly::edge_operations). The caller adds "why".
nlohmann::json edge_json(const History& h, const DepEdge& e);

}  // namespace iso::cli
