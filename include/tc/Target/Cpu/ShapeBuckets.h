//===- ShapeBuckets.h - static specializations inside one model.so -*- C++ -*-===//
//
// A model with symbolic dimensions compiles once for every shape; a shape
// bucket (tc-compile --shape-bucket=batch=1) also compiles it with some of
// them fixed, where static extents make faster kernels, into the same
// library. The bucket is imported and lowered like the model itself, then
// merged into the model's lowered module under its own symbols; the entry
// point (--tc-cpu-emit-entry) calls the first bucket whose extents the
// inputs have, else the generic code. Weights the two share are written
// once (the weights region deduplicates by content).
//
//===----------------------------------------------------------------------===//

#ifndef TC_TARGET_CPU_SHAPEBUCKETS_H
#define TC_TARGET_CPU_SHAPEBUCKETS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <string>

namespace mlir::tc::cpu {

/// Extents for named symbolic dimensions (ONNX dim_param).
struct ShapeBucket {
  std::map<std::string, int64_t> dims;
  /// "name=extent,..." in name order, as --shape-bucket spells it.
  std::string describe() const;
};

/// Parses "NAME=EXTENT[,NAME=EXTENT]..." (extents non-negative integers,
/// each name once); on failure `error` says what is wrong with `spec`.
FailureOr<ShapeBucket> parseShapeBucket(StringRef spec, std::string &error);

/// The run-time test of a bucket: (index into the concatenated input extents
/// of tc_module_run_v1, extent) pairs, flattened, for every input extent
/// the generic @main (inputs `generic`) leaves dynamic and the bucket's
/// @main (inputs `bucket`) fixes. Fails when the two signatures differ
/// otherwise (ranks, element types) or the bucket fixes nothing.
FailureOr<SmallVector<int64_t>> bucketGuard(TypeRange generic,
                                            TypeRange bucket,
                                            std::string &error);

/// Moves `bucket`, lowered to the LLVM dialect without its entry point
/// (CpuPipelineOptions::emitEntry = false), into `into`, lowered the same
/// way: its symbols get a prefix of their own (its @main becomes
/// @__tc_bucket<N>_main with `guard`, N counting the buckets merged before),
/// its run-time check messages follow those of `into`, and `into`'s
/// metadata gains a `bucket` record. Leaves `bucket` empty.
LogicalResult mergeShapeBucket(ModuleOp into, ModuleOp bucket,
                               ArrayRef<int64_t> guard,
                               const ShapeBucket &shape, std::string &error);

} // namespace mlir::tc::cpu

#endif // TC_TARGET_CPU_SHAPEBUCKETS_H
