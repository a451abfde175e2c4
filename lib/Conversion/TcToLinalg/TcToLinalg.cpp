//===- TcToLinalg.cpp - the --convert-tc-to-linalg pass -------------------===//
//
// Collects every family's patterns (Elementwise.cpp, Contraction.cpp, ...)
// and runs one partial conversion: afterwards no tc op is left, and no type
// mentions an unsigned integer. Ops of other dialects (func, scf, tensor,
// fusion) are only retyped.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "tc/Conversion/Passes.h"
#include "tc/Dialect/Tc/IR/TcDialect.h"

namespace mlir::tc {
#define GEN_PASS_DEF_CONVERTTCTOLINALGPASS
#include "tc/Conversion/Passes.h.inc"
} // namespace mlir::tc

namespace mlir::tc {
namespace {

using to_linalg::TcTypeConverter;

/// Rebuilds any non-tc op whose operand or result types mention unsigned
/// integers with the converted types (regions move over and get their block
/// arguments converted).
struct RetypePattern : ConversionPattern {
  RetypePattern(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<TcDialect>(op->getDialect()) || isa<func::FuncOp>(op))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs(), op->getSuccessors());
    for (Region &region : op->getRegions()) {
      Region *newRegion = state.addRegion();
      rewriter.inlineRegionBefore(region, *newRegion, newRegion->begin());
      if (failed(rewriter.convertRegionTypes(newRegion, *getTypeConverter())))
        return failure();
    }
    Operation *newOp = rewriter.create(state);
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

struct ConvertTcToLinalgPass
    : impl::ConvertTcToLinalgPassBase<ConvertTcToLinalgPass> {
  using ConvertTcToLinalgPassBase::ConvertTcToLinalgPassBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    TcTypeConverter converter;
    RewritePatternSet patterns(ctx);
    to_linalg::populateElementwisePatterns(converter, patterns);
    to_linalg::populateContractionPatterns(converter, patterns,
                                           collapseSharedWeightBatch,
                                           denseStridedPointwise);
    to_linalg::populatePoolingPatterns(converter, patterns);
    to_linalg::populateReductionPatterns(converter, patterns);
    to_linalg::populateNormalizationPatterns(converter, patterns);
    to_linalg::populateAttentionPatterns(converter, patterns);
    to_linalg::populateShapePatterns(converter, patterns);
    to_linalg::populateIndexingPatterns(converter, patterns);
    to_linalg::populateTensorPatterns(converter, patterns);
    to_linalg::populateResizePatterns(converter, patterns);
    to_linalg::populateSamplingPatterns(converter, patterns);
    to_linalg::populateScanPatterns(converter, patterns);
    to_linalg::populateScatterPatterns(converter, patterns);
    to_linalg::populateUniquePatterns(converter, patterns);
    to_linalg::populateNonMaxSuppressionPatterns(converter, patterns);
    to_linalg::populateLinearAlgebraPatterns(converter, patterns);
    to_linalg::populateRandomPatterns(converter, patterns);
    to_linalg::populateImagePatterns(converter, patterns);
    patterns.add<RetypePattern>(converter, ctx);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<TcDialect>();
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::tc
