// Key symmetry, broken by a violation (docs/synthesis.md, "Key symmetry").
// Every level sees keys only through the history's relations (the logic has
// no constant of sort Obj), so renaming the keys of a history renames its
// executions and changes no verdict: that is what numbering keys by first
// use relies on. A solution violates the first deny level N under the
// witness W of each of its templates; take one: read through conjunctions,
// negations and quantifiers, some part of N fails for some atoms of its
// quantified variables, the key variables among them x0, x1, ... taking keys
// k0, k1, .... Renaming the keys in order of first appearance in k0, k1, ...
// gives a solution (W is built from so, wr, writers and allow witnesses on
// Txn, all renamed along) whose violation has xi among the keys 0..i. So
// that template's negation may range xi over those keys only, in place of
// numbering keys by first use (the two together could lose a solution), for
// one template at a time (the schedule, cegis/schedule.hpp). A negation that
// would otherwise be refuted once per tuple of keys is refuted once.
#pragma once

#include "engine/logic/translator.hpp"

namespace iso::cegis {

// Does the violation of `f` quantify over keys at all? (Else there is
// nothing to restrict, and keys are numbered by first use.)
bool quantifies_keys(const logic::FormulaPtr& f);

// The constraint `f` with its violation's key variables restricted, the
// i-th to the keys 0..i of `u`, with the bindings of those sets of keys
// added to `b`.
logic::FormulaPtr keys_canonical(const logic::FormulaPtr& f, logic::Bindings& b, const logic::Universe& u);

}  // namespace iso::cegis
