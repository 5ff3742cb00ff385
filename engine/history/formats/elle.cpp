// Placeholder: replaced by the Elle EDN/JSON reader.
#include "engine/history/formats/formats.hpp"
namespace iso {
ReadResult read_elle_edn(std::string_view, const std::string& source, const ReadOptions&) {
  throw InputError(source + ": the elle-edn reader is not built yet");
}
ReadResult read_elle_json(std::string_view, const std::string& source, const ReadOptions&) {
  throw InputError(source + ": the elle-json reader is not built yet");
}
}  // namespace iso
