// The graph stage as tc-compile runs it, reproduced by tc-opt: shapes are
// inferred (the `?` of the import become static), the erf form of GELU
// becomes tc.gelu, and constant arithmetic folds; with precision=bf16 the
// matmul reads bf16 operands, its weight folded to a bf16 constant.
// RUN: tc-opt %s --tc-graph-pipeline | FileCheck %s
// RUN: tc-opt %s --tc-graph-pipeline=precision=bf16 | FileCheck %s --check-prefix=BF16
// tc-compile's graph stage is this pipeline: its --emit=tc is the import
// run through it.
// RUN: rm -rf %t && %pyonnx %S/../Target/Cpu/shape-buckets.mlir.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | tc-opt --tc-graph-pipeline=precision=fp16 -o %t/opt.mlir
// RUN: tc-compile %t/model.onnx --emit=tc --precision=fp16 -o %t/compile.mlir
// RUN: diff -B %t/opt.mlir %t/compile.mlir

// CHECK-LABEL: func.func @main(%arg0: tensor<2x8xf32>) -> tensor<2x4xf32>
// CHECK: %[[W:.*]] = tc.constant dense<2.500000e-01> : tensor<8x4xf32>
// CHECK: %[[G:.*]] = tc.gelu %arg0 : tensor<2x8xf32>
// CHECK: %[[M:.*]] = tc.matmul %[[G]], %[[W]] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK: return %[[M]] : tensor<2x4xf32>
// BF16-LABEL: func.func @main
// BF16-DAG: tc.constant dense<2.500000e-01> : tensor<8x4xbf16>
// BF16-DAG: tc.cast %{{.*}} : (tensor<2x8xf32>) -> tensor<2x8xbf16>
// BF16: tc.matmul %{{.*}}, %{{.*}} : (tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xbf16>
// BF16: tc.cast %{{.*}} : (tensor<2x4xbf16>) -> tensor<2x4xf32>
func.func @main(%x: tensor<2x8xf32>) -> tensor<?x?xf32> {
  %half = tc.constant dense<5.000000e-01> : tensor<f32>
  %one = tc.constant dense<1.000000e+00> : tensor<f32>
  %sqrt2 = tc.constant dense<1.41421354> : tensor<f32>
  %w0 = tc.constant dense<5.000000e-01> : tensor<8x4xf32>
  %w = tc.mul %w0, %half : (tensor<8x4xf32>, tensor<f32>) -> tensor<?x?xf32>
  %0 = tc.div %x, %sqrt2 : (tensor<2x8xf32>, tensor<f32>) -> tensor<?x?xf32>
  %1 = tc.erf %0 : tensor<?x?xf32>
  %2 = tc.add %1, %one : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %3 = tc.mul %x, %2 : (tensor<2x8xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %4 = tc.mul %3, %half : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %5 = tc.matmul %4, %w : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %5 : tensor<?x?xf32>
}
