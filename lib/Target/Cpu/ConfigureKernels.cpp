//===- ConfigureKernels.cpp - each register-tiled kernel's config ---------===//
//
// One pass chooses how every register-tiled CPU kernel is built, so that the
// choice is visible in the IR (and can be written by hand in a test), and
// so that --mode=max-autotune can try candidates and keep the fastest per
// kernel in a table this pass reads back.
//
//===----------------------------------------------------------------------===//

#include "tc/Target/Cpu/Passes.h"

#include "tc/Target/Cpu/KernelConfig.h"
#include "tc/Target/Cpu/RegisterTiling.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::tc::cpu {
#define GEN_PASS_DEF_CPUCONFIGUREKERNELSPASS
#include "tc/Target/Cpu/Passes.h.inc"

namespace {

/// Reads a tuning table: key to configuration.
FailureOr<llvm::StringMap<RegisterTileConfig>>
readTable(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read the tuning table '" + path.str() +
            "': " + buffer.getError().message();
    return failure();
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    error = "the tuning table '" + path.str() +
            "' is not JSON: " + llvm::toString(json.takeError());
    return failure();
  }
  llvm::StringMap<RegisterTileConfig> table;
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Object *kernels = root ? root->getObject("kernels") : nullptr;
  if (!kernels) {
    error = "the tuning table '" + path.str() + "' has no \"kernels\" object";
    return failure();
  }
  for (const auto &[key, value] : *kernels) {
    const llvm::json::Object *entry = value.getAsObject();
    const llvm::json::Array *tile = entry ? entry->getArray("tile") : nullptr;
    std::optional<int64_t> workgroups =
        entry ? entry->getInteger("workgroups") : std::nullopt;
    std::optional<int64_t> rows, lanes;
    if (tile && tile->size() == 2) {
      rows = (*tile)[0].getAsInteger();
      lanes = (*tile)[1].getAsInteger();
    }
    if (!rows || !lanes || !workgroups || *rows < 1 || *lanes < 1 ||
        *workgroups < 1) {
      error = "the tuning table '" + path.str() + "': entry '" + key.str() +
              "' needs \"tile\": [rows, lanes] and \"workgroups\", all positive";
      return failure();
    }
    table[key] = {*rows, *lanes, *workgroups};
  }
  return table;
}

struct CpuConfigureKernelsPass
    : impl::CpuConfigureKernelsPassBase<CpuConfigureKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxWorkgroups < 1) {
      getOperation()->emitError("max-workgroups must be positive");
      return signalPassFailure();
    }
    llvm::StringMap<RegisterTileConfig> tuned;
    if (!table.empty()) {
      std::string error;
      auto read = readTable(table, error);
      if (failed(read)) {
        getOperation()->emitError(error);
        return signalPassFailure();
      }
      tuned = std::move(*read);
    }
    MLIRContext *ctx = &getContext();
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op.hasPureTensorSemantics() || !registerTileDims(op))
        return;
      std::string key = kernelKey(op);
      op->setAttr(fusion::FusionDialect::kKernelKeyAttr,
                  StringAttr::get(ctx, key));
      if (op->hasAttr(fusion::FusionDialect::kConfigAttr))
        return;
      RegisterTileConfig config = defaultRegisterTileConfig(maxWorkgroups);
      if (auto entry = tuned.find(key); entry != tuned.end()) {
        config = entry->second;
      } else if (candidate >= 0) {
        SmallVector<RegisterTileConfig> candidates =
            registerTileCandidates(op, maxWorkgroups);
        if (candidate < static_cast<int64_t>(candidates.size()))
          config = candidates[candidate];
      }
      op->setAttr(fusion::FusionDialect::kConfigAttr, config.toAttr(ctx));
    });
  }
};

} // namespace
} // namespace mlir::tc::cpu
