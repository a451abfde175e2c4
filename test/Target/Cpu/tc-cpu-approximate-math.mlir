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
