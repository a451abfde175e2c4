// RUN: tc-opt %s --tc-cpu-approximate-math | FileCheck %s

// f32 tanh and erf become arithmetic; f64 keeps its library call.
// CHECK-LABEL: func.func @approximate
// CHECK-NOT: math.tanh {{.*}} : f32
// CHECK-NOT: math.erf {{.*}} : f32
// CHECK: math.tanh {{.*}} : f64
func.func @approximate(%x: f32, %y: f64) -> (f32, f32, f64) {
  %0 = math.tanh %x : f32
  %1 = math.erf %x : f32
  %2 = math.tanh %y : f64
  return %0, %1, %2 : f32, f32, f64
}

// A sigmoid's 1 / (1 + exp(-x)) on f32 vectors divides by a denominator
// clamped to 2^100 with arcp and ninf, which LLVM computes as a reciprocal
// estimate and a Newton step; other divisions keep their flags.
// CHECK-LABEL: func.func @sigmoid
// CHECK: %[[BIG:.*]] = arith.constant dense<1.2676506{{[eE]}}+30> : vector<16xf32>
// CHECK: %[[C:.*]] = arith.minimumf %{{.*}}, %[[BIG]] : vector<16xf32>
// CHECK: arith.divf %{{.*}}, %[[C]] fastmath<ninf,arcp,contract> : vector<16xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
func.func @sigmoid(%x: vector<16xf32>, %y: vector<16xf32>, %s: f32) -> (vector<16xf32>, vector<16xf32>, f32) {
  %one = arith.constant dense<1.0> : vector<16xf32>
  %n = arith.negf %x : vector<16xf32>
  %e = math.exp %n : vector<16xf32>
  %d = arith.addf %e, %one : vector<16xf32>
  %r = arith.divf %one, %d : vector<16xf32>
  %q = arith.divf %one, %y : vector<16xf32>
  %s1 = arith.constant 1.0 : f32
  %se = math.exp %s : f32
  %sd = arith.addf %se, %s1 : f32
  %sr = arith.divf %s1, %sd : f32
  return %r, %q, %sr : vector<16xf32>, vector<16xf32>, f32
}
