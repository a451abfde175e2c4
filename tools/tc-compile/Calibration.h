//===- Calibration.h - tc-compile --calibrate -------------------*- C++ -*-===//
//
// fp16's range ends at 65504. The precision policy sees a weight beyond it
// at compile time; an activation only shows when the model runs. With
// --calibrate=DIR, tc-compile compiles the fp32 graph once more, with
// tc-calibration-probes, for this machine's CPU, runs it with tc-run on
// each sample of DIR, and marks each op the policy would narrow with the
// largest magnitude it saw (tc.calibrated_max); tc-apply-precision then
// keeps the ones beyond fp16's range in f32 and names them.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TOOLS_TC_COMPILE_CALIBRATION_H
#define TC_TOOLS_TC_COMPILE_CALIBRATION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "tc/Dialect/Tc/IR/TcSignature.h"

#include <functional>
#include <string>
#include <vector>

namespace tc_compile {

/// One sample of a calibration directory: tc-run's --input arguments.
struct CalibrationSample {
  std::string name; // the directory, for messages
  std::vector<std::string> inputs;
};

/// The samples of `dir`: each subdirectory (sorted) is one, or `dir`
/// itself when it has none. A sample's inputs are its `input_<i>.pb` files
/// in index order (the ONNX test-data layout), else its `<input name>.npy`
/// files. Fails with `error` on an empty or unreadable directory.
/// `flag` names the option in messages.
mlir::FailureOr<std::vector<CalibrationSample>>
findCalibrationSamples(llvm::StringRef dir, std::string &error,
                       llvm::StringRef flag = "--calibrate");

struct CalibrationOptions {
  std::vector<CalibrationSample> samples;
  /// The tc-run that runs the calibration library.
  std::string tcRun;
  /// The tc.signature for a module with this @main, for this host.
  std::function<mlir::FailureOr<mlir::tc::SignatureAttr>(mlir::func::FuncOp,
                                                         std::string &)>
      signature;
};

/// Sets tc.calibrated_max on each op of `module` (after the graph passes,
/// in fp32) that the precision policy would narrow: the largest magnitude
/// among its operands and result over the samples.
mlir::LogicalResult calibrate(mlir::ModuleOp module,
                              const CalibrationOptions &options,
                              std::string &error);

} // namespace tc_compile

#endif // TC_TOOLS_TC_COMPILE_CALIBRATION_H
