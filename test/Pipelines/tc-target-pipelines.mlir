// The target pipelines take the options tc-compile sets from its flags.
// RUN: tc-opt %s --tc-cpu-pipeline | FileCheck %s --check-prefix=CPU
// RUN: tc-opt %s '--tc-cpu-pipeline=emit-entry=false' | FileCheck %s --check-prefix=NOENTRY
// RUN: tc-opt %s '--tc-gpu-kernel-pipeline=block-size=128' | FileCheck %s --check-prefix=GPU
// RUN: tc-opt %s '--tc-gpu-emulation-pipeline=reverse=true' | FileCheck %s --check-prefix=CPU
// RUN: not tc-opt %s '--tc-cpu-pipeline=max-workgroups=many' 2>&1 | FileCheck %s --check-prefix=BAD

// CPU: llvm.func @tc_module_run_v1(
// Without the entry point, the lowered @main stays for shape buckets to
// merge into (ShapeBuckets.h).
// NOENTRY: llvm.func @main_wg0(
// NOENTRY: llvm.func @main(
// NOENTRY-NOT: tc_module_run_v1
// GPU: gpu.func @main_kernel({{.*}}known_block_size = array<i32: 128, 1, 1>
// GPU: gpu.launch_func  @kernels::@main_kernel blocks in ({{.*}}) threads in (%c128,
// BAD: for the --max-workgroups option: 'many' value invalid
module attributes {tc.signature = #tc.signature<name = "m", inputs = [#tc.slot<"x" : tensor<1024xf32>>],
    outputs = [#tc.slot<"y" : tensor<1024xf32>>], targets = ["cpu"]>} {
  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %y = tc.relu %x : tensor<1024xf32>
    return %y : tensor<1024xf32>
  }
}
