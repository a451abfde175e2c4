//===- RuntimeInputFuzzer.cpp - libFuzzer target over the runtime's readers ==//
//
// What a user hands the runtime and tc-run as data: .npy and TensorProto
// (.pb) tensor files (tools/tc-run) and a module's metadata text
// (lib/Runtime/Metadata.cpp, which a damaged or hostile model.so controls).
// The first byte picks the reader, the rest is its input. Any input must
// end in a tensor, a signature or an error, never in a crash, a hang or an
// allocation far beyond the input's size (the fuzzer's -rss_limit_mb).
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/Metadata.h"
#include "../../tools/tc-run/TensorFile.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  std::string bytes(reinterpret_cast<const char *>(data) + 1, size - 1);
  std::string error, name;
  switch (data[0] % 3) {
  case 0:
    (void)tc::run::parseNpy(bytes, "fuzz.npy", error);
    break;
  case 1:
    (void)tc::run::parseTensorProto(bytes, "fuzz.pb", name, error);
    break;
  default: {
    tc::rt::ModuleSignature signature;
    if (tc::rt::parseMetadata(bytes.c_str(), signature, error))
      signature.finalize();
    break;
  }
  }
  return 0;
}
