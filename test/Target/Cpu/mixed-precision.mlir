// --precision=bf16 and fp16 on the CPU: a packed MatMul weight, a Gemm
// (transB) with a bias, a channel-blocked 3x3 convolution on a 7x7 image, one
// with image-width tiles on 16x16, a channel-blocked depthwise one on 14x14
// (its input narrower than its f32 result), and fused attention, against numpy
// references that round the contractions' operands and results to the
// 16-bit type (the sums exact). The kernels accumulate in f32, so they
// match to within a rounding flip of the result; fp32 results differ from
// these references by up to 2% and fail the comparison.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx --precision=bf16 -o %t/bf16.so --no-cache
// RUN: tc-run %t/bf16.so --input=x=%t/x.npy --input=img7=%t/img7.npy --input=img16=%t/img16.npy --input=img14=%t/img14.npy --input=q=%t/q.npy --input=k=%t/k.npy --input=v=%t/v.npy --compare=y=%t/y.bf16.npy --compare=c7=%t/c7.bf16.npy --compare=c16=%t/c16.bf16.npy --compare=dw=%t/dw.bf16.npy --compare=att=%t/att.bf16.npy --rtol=1e-2 --atol=1e-3 | FileCheck %s
// RUN: tc-compile %t/model.onnx --precision=fp16 -o %t/fp16.so --no-cache
// RUN: tc-run %t/fp16.so --input=x=%t/x.npy --input=img7=%t/img7.npy --input=img16=%t/img16.npy --input=img14=%t/img14.npy --input=q=%t/q.npy --input=k=%t/k.npy --input=v=%t/v.npy --compare=y=%t/y.fp16.npy --compare=c7=%t/c7.fp16.npy --compare=c16=%t/c16.fp16.npy --compare=dw=%t/dw.fp16.npy --compare=att=%t/att.fp16.npy --rtol=2e-3 --atol=1e-4 | FileCheck %s
// The inputs and outputs keep f32.
// CHECK-DAG: output 'y': OK: f32[24, 96]
// CHECK-DAG: output 'c7': OK: f32[1, 64, 7, 7]
// CHECK-DAG: output 'c16': OK: f32[1, 16, 16, 16]
// CHECK-DAG: output 'dw': OK: f32[1, 32, 14, 14]
// CHECK-DAG: output 'att': OK: f32[2, 16, 32]
//
// The weights are stored in bf16 in the CPU kernels' layouts: the MatMul
// weight in 8 panels of 160 x 32, the 7x7 convolution's filter in blocks of
// 32 output channels.
// RUN: tc-compile %t/model.onnx --precision=bf16 --dump-ir=%t/dump -o %t/bf16-dump.so
// RUN: cat %t/dump/passes/*/*tc-cpu-pack-weights.mlir | FileCheck %s --check-prefix=IR
// IR-DAG: dense_resource<packed{{.*}}> : tensor<8x160x32xbf16>
// IR-DAG: dense_resource<blocked{{.*}}> : tensor<2x32x3x3x32xbf16>
// The operands the register tiles broadcast are widened to f32 before the
// tiles (--tc-cpu-widen-broadcast-operands): the MatMul's rows where their
// kernel writes them (the rounding to bf16 and the widening in one
// kernel), the 16x16 convolution's filter at compile time. The weights the
// tiles read along their lanes stay bf16.
// RUN: cat %t/dump/passes/*/*tc-cpu-widen-broadcast-operands.mlir | FileCheck %s --check-prefix=WIDEN
// WIDEN-DAG: dense_resource<widened{{.*}}> : tensor<16x8x3x3xf32>
// WIDEN-DAG: elementwise (%{{.*}} = %arg0 : tensor<24x160xf32>) -> tensor<24x160xf32>
// WIDEN-DAG: matmul (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}} : tensor<24x160xf32>, tensor<160x256xbf16>) -> tensor<24x256xf32>
// WIDEN-DAG: conv (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}} : tensor<1x8x16x16xbf16>, tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32>
//
// The GPU kernels compute the same numbers (run here in emulation), and
// compile for every GPU target, multiplying bf16 on matrix cores and
// rounding to bf16. The attention is the flash-style kernel, which rounds
// the probabilities before it divides by their sum (as flash attention
// does), so it differs from the reference by up to one bf16 unit at the
// outputs' magnitude (atol 8e-3; an fp32 compile misses 20 of them).
// RUN: tc-compile %t/model.onnx --precision=bf16 --target=gpu-emulation -o %t/emulated.so --no-cache
// RUN: tc-run %t/emulated.so --input=x=%t/x.npy --input=img7=%t/img7.npy --input=img16=%t/img16.npy --input=img14=%t/img14.npy --input=q=%t/q.npy --input=k=%t/k.npy --input=v=%t/v.npy --compare=y=%t/y.bf16.npy --compare=c7=%t/c7.bf16.npy --compare=c16=%t/c16.bf16.npy --compare=dw=%t/dw.bf16.npy --rtol=1e-2 --atol=1e-3 | FileCheck %s --check-prefix=EMULATED
// RUN: tc-run %t/emulated.so --input=x=%t/x.npy --input=img7=%t/img7.npy --input=img16=%t/img16.npy --input=img14=%t/img14.npy --input=q=%t/q.npy --input=k=%t/k.npy --input=v=%t/v.npy --compare=att=%t/att.bf16.npy --rtol=1e-2 --atol=8e-3 | FileCheck %s --check-prefix=EMULATED-ATT
// EMULATED-DAG: output 'y': OK: f32[24, 96]
// EMULATED-DAG: output 'c7': OK: f32[1, 64, 7, 7]
// EMULATED-DAG: output 'c16': OK: f32[1, 16, 16, 16]
// EMULATED-DAG: output 'dw': OK: f32[1, 32, 14, 14]
// EMULATED-ATT: output 'att': OK: f32[2, 16, 32]
// RUN: rm -rf %t/kernels
// RUN: tc-compile %t/model.onnx --precision=bf16 --target=cuda:sm_80,cuda:sm_90,rocm:gfx90a,rocm:gfx942 --emit=gpu-kernels -o %t/kernels | FileCheck %s --check-prefix=GPU
// RUN: FileCheck %s --check-prefix=PTX < %t/kernels/cuda-sm_90.ptx
// GPU-COUNT-4: ok, {{[0-9]+}} kernels
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-DAG: cvt.rn.bf16x2.f32
//
// RUN: not tc-compile %t/model.onnx --precision=fp8 -o %t/bad.so 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tc-compile: error: --precision: unknown precision 'fp8'; use fp32, tf32, fp16 or bf16
