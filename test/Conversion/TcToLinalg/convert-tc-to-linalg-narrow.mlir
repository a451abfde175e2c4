// RUN: tc-opt %s --convert-tc-to-linalg --split-input-file | FileCheck %s

// Narrow types are bytes after conversion (one i8 each, module_abi.h), and
// casts encode float8 with integer arithmetic on the source bits: saturating
// clamps the magnitude bits to the format's largest value (448 = 0x43E00000
// as f32) before rounding.
// CHECK-LABEL: func.func @to_e4m3fn_saturate(%arg0: tensor<4xf32>) -> tensor<4xi8>
// CHECK: linalg.generic
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[MAX:.*]] = arith.constant 1138753536 : i32
// CHECK: arith.minui %{{.*}}, %[[MAX]] : i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: linalg.yield %{{.*}} : i8
func.func @to_e4m3fn_saturate(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %0 = tc.cast %x {saturate} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// Without saturate there is no clamp: overflow selects NaN (0x7f, signed).
// CHECK-LABEL: func.func @to_e4m3fn_overflow
// CHECK-NOT: arith.minui
// CHECK: %[[MAXCODE:.*]] = arith.constant 126 : i32
// CHECK: arith.cmpi ugt, %{{.*}}, %[[MAXCODE]] : i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
func.func @to_e4m3fn_overflow(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %0 = tc.cast %x : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// f64 sources are encoded from their own bits (no double rounding).
// CHECK-LABEL: func.func @f64_to_e5m2
// CHECK: arith.bitcast %{{.*}} : f64 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
func.func @f64_to_e5m2(%x: tensor<4xf64>) -> tensor<4xf8E5M2> {
  %0 = tc.cast %x {saturate} : (tensor<4xf64>) -> tensor<4xf8E5M2>
  return %0 : tensor<4xf8E5M2>
}

// -----

// Decoding builds the f32: significand times a power of two, then the sign
// and the format's specials.
// CHECK-LABEL: func.func @from_e5m2fnuz(%arg0: tensor<4xi8>) -> tensor<4xf16>
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.uitofp %{{.*}} : i32 to f32
// CHECK: arith.mulf
// CHECK: %[[NAN:.*]] = arith.constant 128 : i32
// CHECK: arith.cmpi eq, %{{.*}}, %[[NAN]] : i32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @from_e5m2fnuz(%x: tensor<4xf8E5M2FNUZ>) -> tensor<4xf16> {
  %0 = tc.cast %x : (tensor<4xf8E5M2FNUZ>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// 4-bit integers: reading keeps only their bits (sign-extended), writing
// truncates toward zero and wraps.
// CHECK-LABEL: func.func @int4(%arg0: tensor<4xi8>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi8>)
// CHECK: arith.shli %{{.*}} : i8
// CHECK: arith.shrsi %{{.*}} : i8
// CHECK: arith.sitofp %{{.*}} : i8 to f32
// CHECK: arith.fptosi %{{.*}} : f32 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
// CHECK: %[[MASK:.*]] = arith.constant 15 : i8
// CHECK: arith.andi %{{.*}}, %[[MASK]] : i8
func.func @int4(%a: tensor<4xi4>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xui4>) {
  %0 = tc.cast %a : (tensor<4xi4>) -> tensor<4xf32>
  %1 = tc.cast %x : (tensor<4xf32>) -> tensor<4xui4>
  return %0, %1 : tensor<4xf32>, tensor<4xui4>
}

// -----

// Constants become their bytes: f4 bit patterns, i4 values sign-extended.
// CHECK-LABEL: func.func @constants
// CHECK-DAG: arith.constant dense<[0, 1, 7, 15]> : tensor<4xi8>
// CHECK-DAG: arith.constant dense<[-8, -1, 0, 7]> : tensor<4xi8>
func.func @constants() -> (tensor<4xf4E2M1FN>, tensor<4xi4>) {
  %0 = tc.constant dense<[0.0, 0.5, 6.0, -6.0]> : tensor<4xf4E2M1FN>
  %1 = tc.constant dense<[-8, -1, 0, 7]> : tensor<4xi4>
  return %0, %1 : tensor<4xf4E2M1FN>, tensor<4xi4>
}

// -----

// f8E8M0FNU rounds the f32 exponent up; saturating caps it at 0xfe.
// CHECK-LABEL: func.func @to_e8m0
// CHECK: %[[CAP:.*]] = arith.constant 254 : i32
// CHECK: arith.minui %{{.*}}, %[[CAP]] : i32
func.func @to_e8m0(%x: tensor<4xf32>) -> tensor<4xf8E8M0FNU> {
  %0 = tc.cast %x {saturate} : (tensor<4xf32>) -> tensor<4xf8E8M0FNU>
  return %0 : tensor<4xf8E8M0FNU>
}
