// Placeholder: replaced by the real reader.
#include "engine/history/formats/formats.hpp"
namespace iso {
ReadResult read_viper(const std::vector<ClientLog>&, const std::string& source, const ReadOptions&) {
  throw InputError(source + ": the viper reader is not built yet");
}
}  // namespace iso
