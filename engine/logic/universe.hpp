// The universe of atoms (Kodkod's `instance`): atoms are dense integers,
// partitioned into sorts that occupy contiguous ranges, in sort-id order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/logic/ast.hpp"

namespace iso::logic {

using Atom = std::uint32_t;

class Universe {
 public:
  // atoms[s] are the names of the atoms of sort s.
  explicit Universe(std::vector<std::vector<std::string>> atoms);

  std::uint32_t size() const { return static_cast<std::uint32_t>(names_.size()); }
  std::size_t num_sorts() const { return first_.size(); }
  Atom first(SortId s) const { return first_[s]; }
  std::uint32_t count(SortId s) const { return count_[s]; }
  Atom atom(SortId s, std::uint32_t i) const { return first_[s] + i; }
  bool in_sort(Atom a, SortId s) const {
    return s == kAnySort || (a >= first_[s] && a < first_[s] + count_[s]);
  }
  const std::string& name(Atom a) const { return names_[a]; }

 private:
  std::vector<std::string> names_;
  std::vector<Atom> first_;
  std::vector<std::uint32_t> count_;
};

}  // namespace iso::logic
