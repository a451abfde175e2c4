// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Bilinear with zero padding: the grid is read once per coordinate (x is
// grid[..., 0] and samples the last dim), each position is denormalized
// without align_corners as ((g + 1) * size - 1) / 2, and the four taps are
// masked to zero outside the input.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, 0)>
// CHECK-DAG: #[[Y:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, 1)>
// CHECK-LABEL: func.func @bilinear
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[Y]], {{.*}}]
// CHECK-NEXT: ^bb0(%[[GX:.*]]: f32, %[[GY:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[Y1:.*]] = arith.addf %[[GY]], %[[ONE]]
// CHECK: %[[H:.*]] = arith.constant 4.000000e+00 : f32
// CHECK: arith.mulf %[[Y1]], %[[H]]
// CHECK: math.floor
// CHECK: arith.cmpf oge
// CHECK: arith.cmpf ole
// CHECK: %[[X1:.*]] = arith.addf %[[GX]], %{{.*}}
// CHECK: %[[W:.*]] = arith.constant 5.000000e+00 : f32
// CHECK: arith.mulf %[[X1]], %[[W]]
// CHECK: tensor.extract %arg0
// CHECK: arith.select %{{.*}}, %extracted,
// CHECK: tensor.extract %arg0
// CHECK: arith.select %{{.*}}, %extracted_{{.*}},
// CHECK: tensor.extract %arg0
// CHECK: arith.select %{{.*}}, %extracted_{{.*}},
// CHECK: tensor.extract %arg0
// CHECK: arith.select %{{.*}}, %extracted_{{.*}},
// CHECK-NOT: tensor.extract
// CHECK: linalg.yield
func.func @bilinear(%x: tensor<2x3x4x5xf32>, %g: tensor<2x6x7x2xf32>) -> tensor<2x3x6x7xf32> {
  %0 = tc.grid_sample %x, %g : (tensor<2x3x4x5xf32>, tensor<2x6x7x2xf32>) -> tensor<2x3x6x7xf32>
  return %0 : tensor<2x3x6x7xf32>
}

// -----

// Nearest, 3 spatial dims, reflection: positions are rounded half to even,
// mirrored into the input, and read with one extract and no mask.
// CHECK-LABEL: func.func @nearest_reflection
// CHECK-COUNT-3: math.roundeven
// CHECK-NOT: arith.select {{.*}}%extracted
// CHECK: %[[V:.*]] = tensor.extract %arg0[{{.*}}] : tensor<1x1x3x4x5xf32>
// CHECK-NEXT: linalg.yield %[[V]]
func.func @nearest_reflection(%x: tensor<1x1x3x4x5xf32>, %g: tensor<1x2x2x2x3xf32>) -> tensor<1x1x2x2x2xf32> {
  %0 = tc.grid_sample %x, %g {mode = "nearest", padding_mode = "reflection", align_corners} : (tensor<1x1x3x4x5xf32>, tensor<1x2x2x2x3xf32>) -> tensor<1x1x2x2x2xf32>
  return %0 : tensor<1x1x2x2x2xf32>
}

// -----

// Cubic with border padding: 4 x 4 taps, clamped, never masked.
// CHECK-LABEL: func.func @cubic_border
// CHECK-COUNT-16: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
// CHECK: linalg.yield
func.func @cubic_border(%x: tensor<1x1x3x2xf32>, %g: tensor<1x2x4x2xf32>) -> tensor<1x1x2x4xf32> {
  %0 = tc.grid_sample %x, %g {mode = "cubic", padding_mode = "border"} : (tensor<1x1x3x2xf32>, tensor<1x2x4x2xf32>) -> tensor<1x1x2x4xf32>
  return %0 : tensor<1x1x2x4xf32>
}

// -----

// Unnormalized (DeformConv's) grids are positions already: floor directly.
// CHECK-LABEL: func.func @unnormalized
// CHECK: ^bb0(%{{.*}}: f32, %[[GY:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: math.floor %[[GY]]
func.func @unnormalized(%x: tensor<1x2x4x4xf32>, %g: tensor<1x12x3x2xf32>) -> tensor<1x2x12x3xf32> {
  %0 = tc.grid_sample %x, %g {align_corners, unnormalized} : (tensor<1x2x4x4xf32>, tensor<1x12x3x2xf32>) -> tensor<1x2x12x3xf32>
  return %0 : tensor<1x2x12x3xf32>
}

// -----

// RoiAlign: per output bin a loop nest over the 2 x 2 sampling points, each
// a bilinear read of 4 elements; avg mode divides by the number of points.
// CHECK-LABEL: func.func @roi_align
// CHECK: linalg.generic
// CHECK-COUNT-4: tensor.extract %arg1
// CHECK: tensor.extract %arg2
// CHECK: scf.for
// CHECK: scf.for
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK: arith.divf
// CHECK: linalg.yield
func.func @roi_align(%x: tensor<1x2x10x10xf32>, %r: tensor<3x4xf32>, %i: tensor<3xi64>) -> tensor<3x2x5x5xf32> {
  %0 = tc.roi_align %x, %r, %i {output_height = 5 : i64, output_width = 5 : i64, sampling_ratio = 2 : i64, spatial_scale = 0.5 : f32} : (tensor<1x2x10x10xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x5x5xf32>
  return %0 : tensor<3x2x5x5xf32>
}

// -----

// Antialiased linear downsampling by 0.75: one generic per resized dim,
// innermost first, each with 2 * ceil(1 / 0.75) = 4 taps whose triangle
// weights are divided by their sum.
// CHECK-LABEL: func.func @antialias
// CHECK: %[[W:.*]] = linalg.generic
// CHECK-COUNT-4: math.absf
// CHECK-COUNT-4: arith.divf
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK: -> tensor<1x1x4x3xf32>
// CHECK: linalg.generic
// CHECK-COUNT-4: tensor.extract %[[W]]
// CHECK: -> tensor<1x1x3x3xf32>
func.func @antialias(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %0 = tc.resize %x {scales = array<f32: 1.0, 1.0, 0.75, 0.75>, mode = "linear", antialias} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// Antialiased cubic downsampling by 0.5 along one dim: 2 * ceil(2 / 0.5) =
// 8 taps.
// CHECK-LABEL: func.func @antialias_cubic
// CHECK: linalg.generic
// CHECK-COUNT-8: tensor.extract %arg0
// CHECK-NOT: tensor.extract
// CHECK: -> tensor<1x8xf32>
func.func @antialias_cubic(%x: tensor<1x16xf32>) -> tensor<1x8xf32> {
  %0 = tc.resize %x {scales = array<f32: 1.0, 0.5>, mode = "cubic", antialias} : (tensor<1x16xf32>) -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// A filter too wide to unroll (linear by 0.01: 200 taps) loops over its
// taps, accumulating the weighted sum and the weights' total.
// CHECK-LABEL: func.func @antialias_wide
// CHECK: linalg.generic
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}, %[[TOTAL:.*]] = %{{.*}}) -> (f64, f64)
// CHECK: tensor.extract %arg0
// CHECK: scf.yield
// CHECK: arith.divf
// CHECK: -> tensor<1x3xf32>
func.func @antialias_wide(%x: tensor<1x300xf32>) -> tensor<1x3xf32> {
  %0 = tc.resize %x {scales = array<f32: 1.0, 0.01>, mode = "linear", antialias} : (tensor<1x300xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// Scales read at run time: the number of taps is a run-time value, so they
// loop, in one generic per dimension (innermost first), since neither scale
// is known to be 1.
// CHECK-LABEL: func.func @antialias_dynamic
// CHECK: %[[S1:.*]] = tensor.extract %arg1[%c1
// CHECK: linalg.generic
// CHECK: arith.minimumf %[[S1]]
// CHECK: scf.for
// CHECK: -> tensor<1x?xf32>
// CHECK: linalg.generic
// CHECK: scf.for
// CHECK: -> tensor<1x?xf32>
func.func @antialias_dynamic(%x: tensor<1x300xf32>, %scales: tensor<2xf64>, %sizes: tensor<2xi64>) -> tensor<1x?xf32> {
  %0 = tc.dynamic_resize %x, %scales, %sizes {mode = "cubic", antialias} : (tensor<1x300xf32>, tensor<2xf64>, tensor<2xi64>) -> tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}
