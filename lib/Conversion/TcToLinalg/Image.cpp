//===- Image.cpp - tc.image_decode to calls of the model's image codecs ---===//
//
// Decoding is not loop code: it calls the helper functions of
// lib/Target/Host/ModelSupport/ImageDecoder.c, which the library linker adds
// to a model that declares them. The result's extent is only known once
// the header is read, so the sequence is: decode into a handle, check its
// status (run-time checks naming the node), read height and width,
// allocate the result, copy the pixels into it and release the handle.
// Pointers cross the calls as i64, so no memref descriptor ABI is involved;
// the calls name the pointer operands through which they read or write
// (kReadsBufferAttr, kWritesBufferAttr) for targets that must stage them.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tc/Conversion/Passes.h"
#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {

/// The declaration of helper `name` taking `numArgs` i64 values and
/// returning one (or nothing), added to the module once.
func::FuncOp declareHelper(OpBuilder &b, Operation *from, StringRef name,
                           unsigned numArgs, bool returnsValue) {
  auto module = from->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  Type i64 = b.getI64Type();
  SmallVector<Type> args(numArgs, i64);
  auto type = b.getFunctionType(args, returnsValue ? TypeRange{i64}
                                                   : TypeRange{});
  auto fn = func::FuncOp::create(b, from->getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

struct ImageDecodePattern : OpConversionPattern<ImageDecodeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ImageDecodeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    // `buffer`: the attribute naming the operand through which the helper
    // reads or writes a buffer (kReadsBufferAttr, ...), and its index.
    auto call = [&](StringRef name, ValueRange args, bool returnsValue = true,
                    std::pair<StringRef, int64_t> buffer = {}) {
      func::FuncOp fn =
          declareHelper(rewriter, op, name, args.size(), returnsValue);
      auto result = func::CallOp::create(rewriter, loc, fn, args);
      if (!buffer.first.empty())
        result->setAttr(buffer.first,
                        rewriter.getI64IntegerAttr(buffer.second));
      return returnsValue ? result.getResult(0) : Value();
    };
    auto toI64 = [&](Value index) { return fromIndex(rewriter, loc, index, i64); };
    auto constant = [&](int64_t v) {
      return arith::ConstantIntOp::create(rewriter, loc, i64, v).getResult();
    };

    Value data = adaptor.getData();
    auto dataType = cast<RankedTensorType>(data.getType());
    Value bytes = bufferization::ToBufferOp::create(
        rewriter, loc,
        MemRefType::get(dataType.getShape(), dataType.getElementType()), data,
        /*read_only=*/true);
    Value address = toI64(
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, bytes));
    Value size = toI64(dimValue(rewriter, loc, data, 0));
    StringRef format = op.getPixelFormat();
    Value formatCode = constant(format == "BGR" ? 1 : format == "Grayscale" ? 2 : 0);
    Value handle = call("tc_image_decode_v1", {address, size, formatCode},
                        /*returnsValue=*/true, {kReadsBufferAttr, 0});

    Value status = call("tc_image_status_v1", {handle});
    auto statusIsNot = [&](int64_t code) {
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                   status, constant(code))
          .getResult();
    };
    checkAtRunTime(rewriter, loc, op, statusIsNot(1),
                   "decoding an image needs FreeImage (libfreeimage.so.3, "
                   "Debian's libfreeimage3), which could not be loaded");
    checkAtRunTime(rewriter, loc, op, statusIsNot(2),
                   "the data is not an image in a format FreeImage decodes "
                   "(BMP, JPEG, JPEG 2000, PNG, PNM, TIFF, WebP, ...)");
    checkAtRunTime(rewriter, loc, op, statusIsNot(3),
                   "out of memory while decoding the image");

    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    SmallVector<Value> extents;
    for (int64_t axis = 0; axis < 2; ++axis)
      extents.push_back(toIndex(
          rewriter, loc, call("tc_image_extent_v1", {handle, constant(axis)})));
    Value pixels = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get(resultType.getShape(), resultType.getElementType()),
        extents);
    Value pixelAddress = toI64(
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, pixels));
    call("tc_image_finish_v1", {handle, pixelAddress}, /*returnsValue=*/false,
         {kWritesBufferAttr, 1});
    rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                               rewriter, loc, resultType, pixels,
                               /*restrict=*/true, /*writable=*/true));
    return success();
  }
};

} // namespace

void populateImagePatterns(TcTypeConverter &converter,
                           RewritePatternSet &patterns) {
  patterns.add<ImageDecodePattern>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
