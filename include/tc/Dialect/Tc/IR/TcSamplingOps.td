//===- TcSamplingOps.td - reading a tensor at computed positions ---------===//
//
// Ops whose output elements interpolate the input at coordinates that are
// data (a sampling grid, regions of interest), not a fixed function of the
// output index as for tc.resize.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_IR_TCSAMPLINGOPS_TD
#define TC_DIALECT_TC_IR_TCSAMPLINGOPS_TD

include "tc/Dialect/Tc/IR/TcBase.td"

def Tc_GridSampleOp : Tc_Op<"grid_sample", [Tc_InferResultType,
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "sample a tensor at grid positions (ONNX GridSample)";
  let description = Tc_Doc<[{
    `input` is `[N, C, D1, ..., Dk]` and `grid` is `[N, O1, ..., Ok, k]`;
    the result `[N, C, O1, ..., Ok]` holds, per batch and channel, the input
    interpolated at the positions of the grid. The last grid dimension
    lists a position's coordinates innermost spatial dimension first
    (x = Dk, y = Dk-1, ...), normalized to [-1, 1]: -1 and 1 are the centers
    of the corner elements with `align_corners`, their outer edges without.
    With `unnormalized` the coordinates are element indices instead (the
    grid already denormalized). `mode` is nearest (rounded half to even),
    linear or cubic (Keys, a = -0.75); `padding_mode` says what positions
    outside the input read: zeros, border (clamped) or reflection (mirrored
    at the borders).
  }], [{%r = tc.grid_sample %x, %grid {mode = "linear", padding_mode = "zeros"}
     : (tensor<1x3x16x16xf32>, tensor<1x8x8x2xf32>) -> tensor<1x3x8x8xf32>}]>.doc;
  let arguments = (ins Tc_Tensor:$input, Tc_FloatTensor:$grid,
      DefaultValuedAttr<StrAttr, "\"linear\"">:$mode,
      DefaultValuedAttr<StrAttr, "\"zeros\"">:$padding_mode,
      UnitAttr:$align_corners,
      UnitAttr:$unnormalized);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input `,` $grid attr-dict `:` "
                       "functional-type(operands, results)";
}

def Tc_RoiAlignOp : Tc_Op<"roi_align", [Tc_InferResultType,
    AllElementTypesMatch<["input", "rois", "result"]>]> {
  let summary = "pool regions of interest by bilinear sampling (ONNX RoiAlign)";
  let description = Tc_Doc<[{
    `input` is `[N, C, H, W]`, `rois` is `[R, 4]` (x1, y1, x2, y2 in input
    coordinates before `spatial_scale`) and `batch_indices` is `[R]`. Each
    region is split into `output_height` x `output_width` bins; every bin
    averages (`mode` avg) or takes the maximum (`mode` max) of
    sampling_ratio x sampling_ratio bilinear samples (an adaptive count,
    ceil(bin size), when `sampling_ratio` is 0). With `half_pixel` the
    region's corners are shifted by -0.5 (ONNX's half_pixel coordinate
    transformation); without, regions smaller than 1 grow to 1. The result
    is `[R, C, output_height, output_width]`.
  }], [{%r = tc.roi_align %x, %rois, %idx {output_height = 5 : i64, output_width = 5 : i64}
     : (tensor<1x1x10x10xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x1x5x5xf32>}]>.doc;
  let arguments = (ins Tc_FloatTensor:$input, Tc_FloatTensor:$rois,
      Tc_IndexTensor:$batch_indices,
      DefaultValuedAttr<StrAttr, "\"avg\"">:$mode,
      I64Attr:$output_height, I64Attr:$output_width,
      DefaultValuedAttr<I64Attr, "0">:$sampling_ratio,
      DefaultValuedAttr<F32Attr, "1.0">:$spatial_scale,
      UnitAttr:$half_pixel);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "$input `,` $rois `,` $batch_indices attr-dict `:` "
                       "functional-type(operands, results)";
}

def Tc_NonMaxSuppressionOp : Tc_Op<"non_max_suppression",
    [Tc_InferResultType]> {
  let summary = "select boxes by greedy non-maximum suppression (ONNX NonMaxSuppression)";
  let description = Tc_Doc<[{
    `boxes` is `[B, N, 4]` (corners y1, x1, y2, x2 in either order, or with
    `center_point_box` x_center, y_center, width, height) and `scores` is
    `[B, C, N]`. For each batch and class, the boxes whose score is above
    `score_threshold` (when given) are visited by decreasing score (ties:
    lower index first); a box is selected unless its intersection over
    union with an already selected box of that class exceeds
    `iou_threshold`, and at most `max_output_boxes_per_class` are selected.
    The result is `[n, 3]`: batch, class and box index of each selected
    box, in that order; `n` is known only at run time. The thresholds are
    1-element tensors read at run time.
  }], [{%r = tc.non_max_suppression %boxes, %scores, %max, %iou
     : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>}]>.doc;
  let arguments = (ins Tc_FloatTensor:$boxes, Tc_FloatTensor:$scores,
                       Tc_IndexTensor:$max_output_boxes_per_class,
                       Tc_FloatTensor:$iou_threshold,
                       Optional<Tc_FloatTensor>:$score_threshold,
                       UnitAttr:$center_point_box);
  let results = (outs TensorOf<[I64]>:$selected);
  let assemblyFormat = "$boxes `,` $scores `,` $max_output_boxes_per_class `,` "
                       "$iou_threshold (`,` $score_threshold^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

#endif // TC_DIALECT_TC_IR_TCSAMPLINGOPS_TD
