// Placeholder: replaced by the real reader.
#include "engine/history/formats/formats.hpp"
namespace iso {
ReadResult read_isopredict(std::string_view, const std::string& source, const ReadOptions&) {
  throw InputError(source + ": the isopredict reader is not built yet");
}
}  // namespace iso
