//===- Calibration.cpp - tc-compile --calibrate ---------------------------===//

#include "Calibration.h"

#include "tc/Dialect/Tc/IR/TcDialect.h"
#include "tc/Dialect/Tc/Transforms/Passes.h"
#include "tc/Target/Cpu/Passes.h"
#include "tc/Target/Host/SharedLibrary.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstring>
#include <map>

using namespace mlir;

namespace tc_compile {
namespace {

/// A sample directory's tc-run inputs: input_<i>.pb in index order, else
/// every .npy by its name.
std::vector<std::string> sampleInputs(StringRef dir, std::string &error,
                                      StringRef flag) {
  std::map<int, std::string> protos;
  std::vector<std::string> arrays;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef path = it->path();
    StringRef file = llvm::sys::path::filename(path);
    int index = 0;
    if (file.consume_front("input_") && file.consume_back(".pb") &&
        !file.getAsInteger(10, index))
      protos[index] = path.str();
    else if (path.ends_with(".npy"))
      arrays.push_back(
          (llvm::sys::path::stem(path) + "=" + path).str());
  }
  if (ec) {
    error = flag.str() + ": cannot read '" + dir.str() + "': " + ec.message();
    return {};
  }
  if (!protos.empty()) {
    std::vector<std::string> inputs;
    for (auto &[index, path] : protos)
      inputs.push_back(path);
    return inputs;
  }
  std::sort(arrays.begin(), arrays.end());
  return arrays;
}

/// The f32 elements of a one-dimensional little-endian .npy file.
FailureOr<std::vector<float>> readVector(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read '" + path.str() + "'";
    return failure();
  }
  StringRef bytes = (*buffer)->getBuffer();
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10) {
    error = "'" + path.str() + "' is not a .npy file";
    return failure();
  }
  size_t headerSize = bytes[6] == 1
                          ? uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8)
                          : 0;
  size_t start = bytes[6] == 1 ? 10 + headerSize : 0;
  StringRef header = bytes.substr(10, headerSize);
  if (start == 0 || !header.contains("'<f4'") || start > bytes.size() ||
      (bytes.size() - start) % 4) {
    error = "'" + path.str() + "' does not hold a float32 vector";
    return failure();
  }
  std::vector<float> values((bytes.size() - start) / 4);
  std::memcpy(values.data(), bytes.data() + start, values.size() * 4);
  return values;
}

/// Removes a temporary file when it goes out of scope.
struct TemporaryFile {
  llvm::SmallString<128> path;
  ~TemporaryFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

} // namespace

FailureOr<std::vector<CalibrationSample>>
findCalibrationSamples(StringRef dir, std::string &error, StringRef flag) {
  if (!llvm::sys::fs::is_directory(dir)) {
    error = flag.str() + ": '" + dir.str() + "' is not a directory";
    return failure();
  }
  std::vector<std::string> subdirectories;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::fs::is_directory(it->path()))
      subdirectories.push_back(it->path());
  std::sort(subdirectories.begin(), subdirectories.end());
  if (subdirectories.empty())
    subdirectories.push_back(dir.str());
  std::vector<CalibrationSample> samples;
  for (const std::string &sample : subdirectories) {
    std::vector<std::string> inputs = sampleInputs(sample, error, flag);
    if (!error.empty())
      return failure();
    if (inputs.empty()) {
      error = flag.str() + ": '" + sample +
              "' holds no inputs (input_<i>.pb files, or <input name>.npy)";
      return failure();
    }
    samples.push_back({sample, std::move(inputs)});
  }
  return samples;
}

LogicalResult calibrate(ModuleOp module, const CalibrationOptions &options,
                        std::string &error) {
  MLIRContext *context = module.getContext();
  SmallVector<Operation *> ops = mlir::tc::precisionPolicyOps(module);
  if (ops.empty())
    return success();

  // The fp32 graph with probes, compiled for this machine. It shares the
  // original's weights, so nothing of it may release them.
  OwningOpRef<ModuleOp> probe = module.clone();
  PassManager passes(context);
  passes.addPass(mlir::tc::createTcCalibrationProbesPass());
  passes.addPass(createCanonicalizerPass());
  if (failed(passes.run(*probe))) {
    error = "--calibrate: building the calibration run failed";
    return failure();
  }
  auto main = probe->lookupSymbol<func::FuncOp>("main");
  FailureOr<mlir::tc::SignatureAttr> signature = options.signature(main, error);
  if (failed(signature))
    return failure();
  (*probe)->setAttr(mlir::tc::kSignatureAttr, *signature);
  PassManager lowering(context);
  mlir::tc::cpu::CpuPipelineOptions pipeline;
  mlir::tc::cpu::buildCpuPipeline(lowering, pipeline);
  if (failed(lowering.run(*probe))) {
    error = "--calibrate: compiling the calibration run failed";
    return failure();
  }
  TemporaryFile library, magnitudes;
  if (llvm::sys::fs::createTemporaryFile("tc-calibration", "so",
                                         library.path) ||
      llvm::sys::fs::createTemporaryFile("tc-calibration", "npy",
                                         magnitudes.path)) {
    error = "--calibrate: cannot create a temporary file";
    return failure();
  }
  mlir::tc::host::SharedLibraryOptions libraryOptions;
  libraryOptions.cpu = "host";
  if (failed(mlir::tc::host::emitSharedLibrary(*probe, library.path,
                                               libraryOptions, error)))
    return failure();

  std::vector<float> largest(ops.size(), 0.0f);
  for (const CalibrationSample &sample : options.samples) {
    std::vector<std::string> args = {options.tcRun, library.path.str().str()};
    for (const std::string &input : sample.inputs)
      args.push_back("--input=" + input);
    args.push_back("--output=magnitudes=" + magnitudes.path.str().str());
    SmallVector<StringRef> argRefs(args.begin(), args.end());
    std::string message;
    TemporaryFile log;
    llvm::sys::fs::createTemporaryFile("tc-calibration", "log", log.path);
    std::optional<StringRef> redirects[] = {std::nullopt, log.path.str(),
                                            log.path.str()};
    int rc = llvm::sys::ExecuteAndWait(options.tcRun, argRefs, std::nullopt,
                                       redirects, 0, 0, &message);
    if (rc != 0) {
      auto text = llvm::MemoryBuffer::getFile(log.path);
      error = "--calibrate: running the sample '" + sample.name +
              "' failed" + (message.empty() ? "" : ": " + message) +
              (text ? ":\n" + (*text)->getBuffer().rtrim().str() : "");
      return failure();
    }
    FailureOr<std::vector<float>> values = readVector(magnitudes.path, error);
    if (failed(values))
      return failure();
    if (values->size() != ops.size()) {
      error = "--calibrate: the calibration run returned " +
              std::to_string(values->size()) + " magnitudes for " +
              std::to_string(ops.size()) + " ops";
      return failure();
    }
    for (auto [seen, value] : llvm::zip(largest, *values))
      // NaN compares false: a NaN activation is fp32's own, kept as seen.
      if (!(value <= seen))
        seen = value;
  }
  Builder b(context);
  for (auto [op, seen] : llvm::zip(ops, largest))
    op->setAttr(mlir::tc::kCalibratedMaxAttr, b.getF32FloatAttr(seen));
  return success();
}

} // namespace tc_compile
