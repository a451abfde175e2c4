// Casts to and from the narrow types (float8, float4, 4- and 2-bit
// integers) compiled for the CPU agree with ml_dtypes, the reference ONNX
// uses: rounding, saturation, NaN/Inf conventions, subnormals, wrapping.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: %pyonnx %s.py %t tc-run | FileCheck %s --implicit-check-not=MISMATCH
// CHECK: output 'sat_e4m3fn': OK: f8e4m3fn[
// CHECK: output 'raw_e4m3fn': OK
// CHECK: output 'f_e4m3fn': OK: f32[256]
// CHECK: output 'f4': OK: f4e2m1fn[
// CHECK: output 'e8m0': OK: f8e8m0fnu[
// CHECK: output 'x_i4': OK: i4[{{.*}} (exact)
// CHECK: output 'k_u2': OK: i64[200]
