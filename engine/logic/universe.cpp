// The universe of universe.hpp: sorts as ranges of atoms, and their names.
#include "engine/logic/universe.hpp"

namespace iso::logic {

Universe::Universe(std::vector<std::vector<std::string>> atoms) {
  for (auto& sort_atoms : atoms) {
    first_.push_back(static_cast<Atom>(names_.size()));
    count_.push_back(static_cast<std::uint32_t>(sort_atoms.size()));
    for (auto& n : sort_atoms) names_.push_back(std::move(n));
  }
}

}  // namespace iso::logic
