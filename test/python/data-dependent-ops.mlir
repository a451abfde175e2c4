// End to end against the ONNX reference implementation, on inputs larger
// than the backend test data's: ops whose result size is data (Compress,
// Unique, NonMaxSuppression), Det, TensorScatter and slices with run-time
// bounds; and the statistics of the random ops and training-mode Dropout,
// which no reference can match draw for draw.
// RUN: %pyonnx %s.py %t | FileCheck %s
// CHECK: compress ok
// CHECK: compress_flat ok
// CHECK: unique_sorted ok
// CHECK: unique_unsorted ok
// CHECK: unique_axis ok
// CHECK: unique_float ok
// CHECK: nms ok
// CHECK: nms_center ok
// CHECK: det ok
// CHECK: tensor_scatter_linear ok
// CHECK: tensor_scatter_circular ok
// CHECK: runtime_slice ok
// CHECK: uniform mean {{.*}} ok
// CHECK: normal mean {{.*}} ok
// CHECK: bernoulli ok
// CHECK: dropout ok
// CHECK: deterministic ok
