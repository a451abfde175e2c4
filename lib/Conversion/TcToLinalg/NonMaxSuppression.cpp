//===- NonMaxSuppression.cpp - tc.non_max_suppression to scf loops --------===//
//
// Greedy by nature: whether a box is kept depends on the boxes kept before
// it. Per batch and class, a stable argsort orders the boxes by decreasing
// score, and one scan keeps each eligible box that no kept box overlaps by
// more than the IoU threshold, writing (batch, class, box) rows into a
// buffer sized for the worst case; the result is the filled part.
//
//===----------------------------------------------------------------------===//

#include "Sort.h"
#include "Utils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "tc/Dialect/Tc/IR/TcOps.h"

namespace mlir::tc::to_linalg {
namespace {
using P = arith::CmpFPredicate;

/// A float scalar (boxes, scores and thresholds may each be any float
/// type) in f32, where the overlap tests run.
Value asF32(OpBuilder &b, Location l, Value v) {
  return castScalar(b, l, v, v.getType(), b.getF32Type());
}

/// Extents of a box along x and y: {xmin, xmax, ymin, ymax}.
std::array<Value, 4> boxExtents(OpBuilder &b, Location l, Value boxes,
                                Value batch, Value box, bool centerPoint) {
  std::array<Value, 4> c;
  for (int64_t k = 0; k < 4; ++k) {
    Value v = tensor::ExtractOp::create(
        b, l, boxes,
        ValueRange{batch, box, arith::ConstantIndexOp::create(b, l, k)});
    c[k] = asF32(b, l, v);
  }
  if (centerPoint) {
    // x_center, y_center, width, height.
    Value half = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0.5f));
    Value hw = arith::MulFOp::create(b, l, c[2], half);
    Value hh = arith::MulFOp::create(b, l, c[3], half);
    return {arith::SubFOp::create(b, l, c[0], hw),
            arith::AddFOp::create(b, l, c[0], hw),
            arith::SubFOp::create(b, l, c[1], hh),
            arith::AddFOp::create(b, l, c[1], hh)};
  }
  // y1, x1, y2, x2, either corner first.
  return {arith::MinimumFOp::create(b, l, c[1], c[3]),
          arith::MaximumFOp::create(b, l, c[1], c[3]),
          arith::MinimumFOp::create(b, l, c[0], c[2]),
          arith::MaximumFOp::create(b, l, c[0], c[2])};
}

/// True when the boxes overlap by more than `threshold` (intersection over
/// union); degenerate boxes never suppress.
Value overlapsTooMuch(OpBuilder &b, Location l, std::array<Value, 4> p,
                      std::array<Value, 4> q, Value threshold) {
  Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0.0f));
  auto sub = [&](Value x, Value y) { return arith::SubFOp::create(b, l, x, y); };
  auto mul = [&](Value x, Value y) { return arith::MulFOp::create(b, l, x, y); };
  auto positive = [&](Value x) {
    return arith::CmpFOp::create(b, l, P::OGT, x, zero);
  };
  Value width = sub(arith::MinimumFOp::create(b, l, p[1], q[1]),
                    arith::MaximumFOp::create(b, l, p[0], q[0]));
  Value height = sub(arith::MinimumFOp::create(b, l, p[3], q[3]),
                     arith::MaximumFOp::create(b, l, p[2], q[2]));
  Value inter = mul(width, height);
  Value area1 = mul(sub(p[1], p[0]), sub(p[3], p[2]));
  Value area2 = mul(sub(q[1], q[0]), sub(q[3], q[2]));
  Value unionArea = sub(arith::AddFOp::create(b, l, area1, area2), inter);
  Value valid = positive(width);
  for (Value v : {height, inter, area1, area2, unionArea})
    valid = arith::AndIOp::create(b, l, valid, positive(v));
  Value iou = arith::DivFOp::create(b, l, inter, unionArea);
  return arith::AndIOp::create(
      b, l, valid, arith::CmpFOp::create(b, l, P::OGT, iou, threshold));
}

struct NonMaxSuppressionPattern : OpConversionPattern<NonMaxSuppressionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NonMaxSuppressionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value boxes = adaptor.getBoxes(), scores = adaptor.getScores();
    bool centerPoint = op.getCenterPointBox();
    Type i64 = rewriter.getI64Type();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value batches = dimValue(rewriter, loc, boxes, 0);
    Value count = dimValue(rewriter, loc, boxes, 1);
    Value classes = dimValue(rewriter, loc, scores, 1);

    auto first = [&](Value t) {
      SmallVector<Value> at(cast<RankedTensorType>(t.getType()).getRank(), zero);
      return tensor::ExtractOp::create(rewriter, loc, t, at).getResult();
    };
    // At most min(max_output_boxes_per_class, boxes) per class; a negative
    // limit selects nothing.
    Value limit = first(adaptor.getMaxOutputBoxesPerClass());
    if (isUnsignedInt(elementTypeOf(op.getMaxOutputBoxesPerClass())))
      limit = arith::IndexCastUIOp::create(rewriter, loc, rewriter.getIndexType(),
                                           limit);
    else
      limit = arith::MaxSIOp::create(rewriter, loc, toIndex(rewriter, loc, limit),
                                     zero);
    limit = arith::MinUIOp::create(rewriter, loc, limit, count);
    Value iouThreshold = asF32(rewriter, loc, first(adaptor.getIouThreshold()));
    Value scoreThreshold = adaptor.getScoreThreshold()
                               ? asF32(rewriter, loc,
                                       first(adaptor.getScoreThreshold()))
                               : Value();

    Value capacity = arith::MulIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, batches, classes),
        limit);
    auto rowsType = RankedTensorType::get({ShapedType::kDynamic, 3}, i64);
    auto keptType = RankedTensorType::get({ShapedType::kDynamic},
                                          rewriter.getIndexType());
    Value rows = tensor::EmptyOp::create(rewriter, loc, rowsType,
                                         ValueRange{capacity});
    Value kept = tensor::EmptyOp::create(rewriter, loc, keptType,
                                         ValueRange{limit});

    auto score = [&](OpBuilder &b, Location l, Value batch, Value cls, Value box) {
      return asF32(b, l, tensor::ExtractOp::create(b, l, scores,
                                                   ValueRange{batch, cls, box}));
    };
    auto perBatch = scf::ForOp::create(
        rewriter, loc, zero, batches, one, ValueRange{zero, rows},
        [&](OpBuilder &bb, Location bl, Value batch, ValueRange bArgs) {
          auto perClass = scf::ForOp::create(
              bb, bl, zero, classes, one, ValueRange{bArgs[0], bArgs[1], kept},
              [&](OpBuilder &cb, Location cl, Value cls, ValueRange cArgs) {
                // Decreasing score; the stable sort keeps lower indices
                // first among equal scores.
                Value order = buildStableArgSort(
                    cb, cl, count, [&](OpBuilder &b, Location l, Value x, Value y) {
                      return arith::CmpFOp::create(b, l, P::OGT,
                                                   score(b, l, batch, cls, x),
                                                   score(b, l, batch, cls, y))
                          .getResult();
                    });
                auto scan = scf::ForOp::create(
                    cb, cl, zero, count, one,
                    ValueRange{zero, cArgs[0], cArgs[1], cArgs[2]},
                    [&](OpBuilder &b, Location l, Value t, ValueRange s) {
                      // s: kept in this class, rows written, rows, kept boxes.
                      Value box = tensor::ExtractOp::create(b, l, order, t);
                      Value eligible = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::ult, s[0], limit);
                      if (scoreThreshold)
                        eligible = arith::AndIOp::create(
                            b, l, eligible,
                            arith::CmpFOp::create(b, l, P::OGT,
                                                  score(b, l, batch, cls, box),
                                                  scoreThreshold));
                      auto visit = scf::IfOp::create(
                          b, l, eligible,
                          [&](OpBuilder &tb, Location tl) {
                            auto self = boxExtents(tb, tl, boxes, batch, box,
                                                   centerPoint);
                            Value no = arith::ConstantIntOp::create(tb, tl, 0, 1);
                            auto check = scf::ForOp::create(
                                tb, tl, zero, s[0], one, ValueRange{no},
                                [&](OpBuilder &kb, Location kl, Value q,
                                    ValueRange k) {
                                  Value other = tensor::ExtractOp::create(
                                      kb, kl, s[3], q);
                                  Value hit = overlapsTooMuch(
                                      kb, kl, self,
                                      boxExtents(kb, kl, boxes, batch, other,
                                                 centerPoint),
                                      iouThreshold);
                                  scf::YieldOp::create(
                                      kb, kl,
                                      ValueRange{arith::OrIOp::create(kb, kl, k[0], hit)});
                                });
                            Value keep = arith::XOrIOp::create(
                                tb, tl, check.getResult(0),
                                arith::ConstantIntOp::create(tb, tl, 1, 1));
                            auto add = scf::IfOp::create(
                                tb, tl, keep,
                                [&](OpBuilder &ab, Location al) {
                                  Value out = s[2];
                                  Value fields[3] = {batch, cls, box};
                                  for (int64_t k = 0; k < 3; ++k)
                                    out = tensor::InsertOp::create(
                                        ab, al,
                                        arith::IndexCastOp::create(ab, al, i64,
                                                                   fields[k]),
                                        out,
                                        ValueRange{s[1], arith::ConstantIndexOp::create(
                                                             ab, al, k)});
                                  Value keptBoxes = tensor::InsertOp::create(
                                      ab, al, box, s[3], ValueRange{s[0]});
                                  scf::YieldOp::create(
                                      ab, al,
                                      ValueRange{arith::AddIOp::create(ab, al, s[0], one),
                                                 arith::AddIOp::create(ab, al, s[1], one),
                                                 out, keptBoxes});
                                },
                                [&](OpBuilder &eb, Location el) {
                                  scf::YieldOp::create(eb, el, s);
                                });
                            scf::YieldOp::create(tb, tl, add.getResults());
                          },
                          [&](OpBuilder &eb, Location el) {
                            scf::YieldOp::create(eb, el, s);
                          });
                      scf::YieldOp::create(b, l, visit.getResults());
                    });
                scf::YieldOp::create(cb, cl,
                                     ValueRange{scan.getResult(1), scan.getResult(2),
                                                scan.getResult(3)});
              });
          scf::YieldOp::create(bb, bl,
                               ValueRange{perClass.getResult(0),
                                          perClass.getResult(1)});
        });
    Value written = perBatch.getResult(0);
    SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(0),
                                         rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {written, rewriter.getIndexAttr(3)};
    SmallVector<OpFoldResult> strides = {rewriter.getIndexAttr(1),
                                         rewriter.getIndexAttr(1)};
    Value result = tensor::ExtractSliceOp::create(
        rewriter, loc, rowsType, perBatch.getResult(1), offsets, sizes, strides);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateNonMaxSuppressionPatterns(TcTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<NonMaxSuppressionPattern>(converter, patterns.getContext());
}

} // namespace mlir::tc::to_linalg
