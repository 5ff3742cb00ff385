// The error every history reader throws for an input it cannot read, or
// will not read because it is not what isosynth checks: one line, naming
// the source and, where one applies, the position.
#pragma once

#include <stdexcept>

namespace iso {

// A malformed or unsupported input. what() is one line: "FILE:LINE:COL:
// message", "FILE: byte OFFSET: message" (binary formats) or "FILE: message"
// when no position applies. The command line exits with code 2 on it.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace iso
