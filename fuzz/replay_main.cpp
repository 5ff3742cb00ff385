// Feeds every file of the given folders (recursively) or files to
// LLVMFuzzerTestOneInput: the regression run of a fuzz target without
// libFuzzer. Exits non-zero only if the target crashes, which aborts anyway.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {
void run_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}
}  // namespace

int main(int argc, char** argv) {
  std::size_t n = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file()) { run_file(e.path()); ++n; }
    } else if (std::filesystem::exists(p)) {
      run_file(p);
      ++n;
    }
  }
  std::cout << "replayed " << n << " inputs\n";
  return 0;
}
