//===- KernelConfig.h - CPU kernel configurations -------------*- C++ -*-===//
//
// A register-tiled CPU kernel (a multiply-add or pooling kernel, as
// registerTileDims matches it) is built from its #fusion.kernel_config:
// the rows and lanes of its register tile and the most workgroups it is
// split into. --tc-cpu-configure-kernels chooses one per kernel (the
// heuristics, a candidate for --mode=max-autotune, or a tuned table's
// entry) and names the kernel's computation by a key that a tuning table
// is indexed by; --tc-cpu-distribute and --tc-cpu-vectorize-contractions
// read the configuration back.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_CPU_KERNELCONFIG_H
#define TC_TARGET_CPU_KERNELCONFIG_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "tc/Dialect/Fusion/IR/FusionOps.h"

#include <optional>
#include <string>

namespace mlir::tc::cpu {

/// The register-tile strategy's name in #fusion.kernel_config.
inline constexpr llvm::StringLiteral kRegisterTileStrategy = "register-tile";

/// A register-tiled kernel's configuration, read from its attribute.
struct RegisterTileConfig {
  int64_t rows = 0, lanes = 0, workgroups = 0;
  fusion::KernelConfigAttr toAttr(MLIRContext *ctx) const;
  bool operator==(const RegisterTileConfig &o) const {
    return rows == o.rows && lanes == o.lanes && workgroups == o.workgroups;
  }
};

/// The configuration `op` carries (fusion.config), if it is a
/// register-tile one.
std::optional<RegisterTileConfig> registerTileConfig(Operation *op);

/// The heuristic configuration of a register-tiled kernel: kRegisterRows x
/// kRegisterLanes tiles, at most `maxWorkgroups` workgroups.
RegisterTileConfig defaultRegisterTileConfig(int64_t maxWorkgroups);

/// The configurations max-autotune times for `op` (a kernel registerTileDims
/// matches), the heuristic one first; each differs from the others in the
/// tile the kernel gets (rows are resolved against a static M, so 12 and 8
/// rows over a 7-row image are one candidate) or its workgroups.
SmallVector<RegisterTileConfig> registerTileCandidates(linalg::LinalgOp op,
                                                       int64_t maxWorkgroups);

/// A stable name of the computation of `op` (its kind, operand types,
/// indexing maps, iterators and body), the same in every compile of the
/// same kernel: `target` ("cpu", "gpu"), "-" and 16 hex digits.
std::string kernelKey(linalg::LinalgOp op, StringRef target = "cpu");

/// "rows=8 lanes=32 workgroups=64", for tables and messages.
std::string describe(const RegisterTileConfig &config);

} // namespace mlir::tc::cpu

#endif // TC_TARGET_CPU_KERNELCONFIG_H
