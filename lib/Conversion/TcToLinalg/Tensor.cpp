//===- Tensor.cpp - tc.constant, tc.range, tc.shape_of to tensor/linalg ---===//

#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

/// A constant of a narrow type as its i8 storage (module_abi.h layout):
/// dense values re-encoded one by one; resource blobs (one byte per element,
/// zero-extended, as the importer writes them) reused, except that signed
/// i4/i2 need their sign bits spread, which takes a copy.
Attribute narrowConstant(Attribute value, Type tcElement,
                         RankedTensorType type) {
  auto intType = dyn_cast<IntegerType>(tcElement);
  bool signExtend = intType && !intType.isUnsigned();
  auto toByte = [&](APInt bits) {
    return signExtend ? bits.sext(8) : bits.zext(8);
  };
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    SmallVector<APInt> bytes;
    if (intType)
      for (const APInt &v : dense.getValues<APInt>())
        bytes.push_back(toByte(v));
    else
      for (const APFloat &v : dense.getValues<APFloat>())
        bytes.push_back(toByte(v.bitcastToAPInt()));
    return DenseElementsAttr::get(type, bytes);
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(value);
  if (!resource)
    return {};
  if (!signExtend)
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return {};
  unsigned width = intType.getWidth();
  SmallVector<APInt> bytes;
  for (char byte : blob->getData())
    bytes.push_back(APInt(width, static_cast<uint8_t>(byte) & ((1u << width) - 1))
                        .sext(8));
  return DenseElementsAttr::get(type, bytes);
}

struct ConstantPattern : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Attribute value = op.getValue();
    Type tcElement = elementTypeOf(op.getResult());
    if (isByteStored(tcElement)) {
      value = narrowConstant(value, tcElement, type);
      if (!value)
        return rewriter.notifyMatchFailure(op, "unsupported constant kind");
    } else if (type != op.getResult().getType()) {
      // Only the type changes (ui -> i); the bytes are reused, never copied.
      if (auto dense = dyn_cast<DenseElementsAttr>(value))
        value = dense.bitcast(type.getElementType());
      else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
        value = DenseResourceElementsAttr::get(type, resource.getRawHandle());
      else
        return rewriter.notifyMatchFailure(op, "unsupported constant kind");
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   cast<TypedAttr>(value));
    return success();
  }
};

struct RangePattern : OpConversionPattern<RangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Type tcType = elementTypeOf(op.getResult());
    bool isFloat = isa<FloatType>(tcType);
    auto scalar = [&](Value tensor) {
      return tensor::ExtractOp::create(rewriter, loc, tensor, ValueRange{})
          .getResult();
    };
    Value start = scalar(adaptor.getStart()), limit = scalar(adaptor.getLimit()),
          delta = scalar(adaptor.getDelta());
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0)) {
      // max(0, ceil((limit - start) / delta)), computed in f64 / i64.
      Value count;
      if (isFloat) {
        Type f64 = rewriter.getF64Type();
        Value span = arith::SubFOp::create(
            rewriter, loc, castScalar(rewriter, loc, limit, tcType, f64),
            castScalar(rewriter, loc, start, tcType, f64));
        Value steps = arith::DivFOp::create(
            rewriter, loc, span, castScalar(rewriter, loc, delta, tcType, f64));
        Value rounded = math::CeilOp::create(rewriter, loc, steps);
        count = arith::FPToSIOp::create(rewriter, loc, rewriter.getI64Type(),
                                        rounded);
      } else {
        Type i64 = rewriter.getI64Type();
        Value span = arith::SubIOp::create(
            rewriter, loc, castScalar(rewriter, loc, limit, tcType, i64),
            castScalar(rewriter, loc, start, tcType, i64));
        count = arith::CeilDivSIOp::create(
            rewriter, loc, span, castScalar(rewriter, loc, delta, tcType, i64));
      }
      count = arith::MaxSIOp::create(
          rewriter, loc, count,
          scalarConstant(rewriter, loc, rewriter.getI64Type(), 0));
      dynamicSizes.push_back(toIndex(rewriter, loc, count));
    }
    Value result = buildParallelGeneric(
        rewriter, loc, resultType, dynamicSizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          Value index = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, 0));
          Value step = castScalar(b, l, index, b.getI64Type(), tcType);
          if (isFloat)
            return arith::AddFOp::create(
                b, l, start, arith::MulFOp::create(b, l, step, delta));
          return arith::AddIOp::create(
              b, l, start, arith::MulIOp::create(b, l, step, delta));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ShapeOfPattern : OpConversionPattern<ShapeOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ShapeOfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<Value> sizes;
    for (int64_t i = 0; i < inputType.getRank(); ++i)
      sizes.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getI64Type(), dimValue(rewriter, loc, input, i)));
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, op.getResult().getType(), sizes);
    return success();
  }
};

} // namespace

void populateTensorPatterns(TcTypeConverter &converter,
                            RewritePatternSet &patterns) {
  patterns.add<ConstantPattern, RangePattern, ShapeOfPattern>(
      converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
