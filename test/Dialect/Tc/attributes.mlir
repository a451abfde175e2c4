// RUN: tc-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// The tc.* attributes are declared (TcAttributes.h) and checked wherever
// they appear. Declared ones of the right kind pass.
// CHECK-LABEL: func.func @declared
// CHECK-SAME: tc.name = "x"
// CHECK: tc.arena_bytes = 64
func.func @declared(%x: tensor<2xf32> {tc.name = "x", tc.dim_params = ["", "n"]}) -> (tensor<2xf32> {tc.name = "y"}) attributes {tc.arena_bytes = 64 : i64, tc.check_offset = 0 : i64, tc.bucket_guard = array<i64: 0, 1>} {
  %y = tc.relu %x {tc.calibrated_max = 3.0 : f32, tc.tf32_factors} : tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// expected-error @+1 {{unknown tc attribute 'tc.arena_size' (the tc attributes are declared in TcAttributes.h)}}
func.func @unknown() attributes {tc.arena_size = 64 : i64} {
  return
}

// -----

// expected-error @+1 {{'tc.arena_bytes' must be an integer}}
func.func @wrong_kind() attributes {tc.arena_bytes = "64"} {
  return
}

// -----

// expected-error @+1 {{'tc.dim_params' must be an array of strings}}
func.func @wrong_elements(%x: tensor<?xf32> {tc.dim_params = [1]}) {
  return
}

// -----

// expected-error @+1 {{'tc.name' belongs on function arguments and results}}
func.func @misplaced() attributes {tc.name = "f"} {
  return
}

// -----

// expected-error @+1 {{'tc.arena_bytes' belongs on operations}}
func.func @misplaced_argument(%x: i64 {tc.arena_bytes = 64 : i64}) {
  return
}
