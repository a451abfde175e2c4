//===- Autotune.h - tc-compile --mode=max-autotune --------------*- C++ -*-===//
//
// max-autotune on the CPU: the host that compiles tunes itself. Each
// register-tiled kernel has a few candidate configurations
// (registerTileCandidates); trial compile c gives every kernel its c-th,
// and each trial library is run with tc-run --profile-json on the same
// inputs, in interleaved rounds (this machine is noisy), so that each
// kernel's time under each of its candidates is measured within one
// program. The fastest configuration per kernel key (when it beats the
// heuristic one by a margin) goes into the tuning table, a JSON file in
// the compile cache that the final compile (--tc-cpu-configure-kernels'
// table) and later compiles read: a kernel already in the table is not
// tuned again.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TOOLS_TC_COMPILE_AUTOTUNE_H
#define TC_TOOLS_TC_COMPILE_AUTOTUNE_H

#include "tc/Dialect/Tc/IR/TcSignature.h"
#include "tc/Target/Cpu/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <functional>
#include <string>
#include <vector>

namespace tc_compile {

struct AutotuneOptions {
  /// The CPU pipeline's options for every trial (candidate and table are
  /// set per trial).
  mlir::tc::cpu::CpuPipelineOptions pipeline;
  /// --cpu: the trials are compiled as the final library is.
  std::string cpu = "host";
  /// The tuning table, read and then updated.
  std::string table;
  /// tc-run, beside tc-compile.
  std::string tcRun;
  /// tc-run --input arguments; empty: inputs are generated from @main's
  /// static signature (random floats, integers 1, booleans true).
  std::vector<std::string> inputs;
  /// Trials stop being compiled once this many seconds have passed.
  double budgetSeconds = 600;
  /// The tc.signature of a trial library.
  std::function<mlir::FailureOr<mlir::tc::SignatureAttr>(mlir::func::FuncOp,
                                                         std::string &)>
      signature;
};

struct AutotuneSummary {
  unsigned kernels = 0, keys = 0, keysFromTable = 0, trials = 0, changed = 0;
  /// The measured time of the tuned kernels, heuristic and chosen (ms per
  /// run, summed over the kernels).
  double heuristicMs = 0, tunedMs = 0;
  double seconds = 0;
  /// Whether the budget ended the trials before every candidate.
  bool budgetExhausted = false;
  /// One line per kernel key whose configuration changed.
  std::vector<std::string> changes;
};

/// Tunes the register-tiled kernels of `module` (after the graph passes,
/// not modified) and updates the table at options.table.
mlir::LogicalResult autotuneCpuKernels(mlir::ModuleOp module,
                                       const AutotuneOptions &options,
                                       AutotuneSummary &summary,
                                       std::string &error);

} // namespace tc_compile

#endif // TC_TOOLS_TC_COMPILE_AUTOTUNE_H
