//===- OnnxImportFuzzer.cpp - libFuzzer target over the ONNX importer -----===//
//
// Feeds arbitrary bytes to importOnnxBytes. Any input must end in a module or
// in a reported error, never in a crash, an abort or a hang.
//
//===----------------------------------------------------------------------===//

#include "tc/Frontend/Onnx/Importer.h"

#include "mlir/IR/MLIRContext.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  mlir::tc::onnx::ImportOptions options;
  // External data must never be found: the fuzzer only explores the bytes.
  options.externalDataDir = "/nonexistent/tc-fuzz";
  auto result = mlir::tc::onnx::importOnnxBytes(
      context,
      llvm::StringRef(reinterpret_cast<const char *>(data), size), options);
  (void)result;
  return 0;
}
