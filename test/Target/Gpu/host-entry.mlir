// The host side of a GPU target, run without a GPU: tc_module_gpu_run_v3 of
// a compiled model is called through ctypes with an environment whose
// alloc is malloc, whose launch records the kernels and whose download
// answers 2 (host-entry.mlir.py). What this checks is the compiler's host
// code: every kernel of the table launched with a non-empty grid and its
// parameter array, the outputs allocated through the environment with
// their extents, every temporary released, the constants uploaded through
// the environment, and values the host needs copied from device memory.
// RUN: %pyonnx %models conv_pool %t.onnx
// RUN: tc-compile %t.onnx --target=cuda:sm_90 -o %t.so
// RUN: %pyonnx %s.py %t.so conv_pool | FileCheck %s
// RUN: %pyonnx %models nonzero %t.nz.onnx
// RUN: tc-compile %t.nz.onnx --target=cuda:sm_90 -o %t.nz.so
// RUN: %pyonnx %s.py %t.nz.so nonzero | FileCheck %s --check-prefix=NONZERO
// RUN: %pyonnx %models image_decoder %t.img.onnx
// RUN: tc-compile %t.img.onnx --target=cuda:sm_90 -o %t.img.so
// RUN: %pyonnx %s.py %t.img.so image | FileCheck %s --check-prefix=IMAGE

// CHECK: kernels in the table: [[N:[0-9]+]]
// CHECK: launches: [[N]], distinct kernels: [[N]], empty grids: 0
// CHECK: output 0 dims: [1, 8, 1, 1]
// CHECK: output allocated through env: True
// CHECK: blocks still allocated after the run: 1
// CHECK: status: 0
// The weights (3x3 conv 8x3x3x3, depthwise 8x1x3x3, bias 8) reach the
// kernels as device copies, never as pointers into the library.
// CHECK: constants uploaded: 3, bytes: [32, 288, 864]
// CHECK: kernel parameters pointing into the library: 0 (mapped ranges: True)
// CHECK: downloads: [], uploads: []

// NonZero: one kernel counts (in one thread, into a device cell), the host
// downloads the count once (8 bytes, not one download per element), sizes
// the output [2, count] with it, and a second kernel fills it.
// NONZERO: kernels in the table: 2
// NONZERO: launches: 2, distinct kernels: 2, empty grids: 0
// NONZERO: output 0 dims: [2, 2]
// NONZERO: output allocated through env: True
// NONZERO: blocks still allocated after the run: 1
// NONZERO: status: 0
// NONZERO: downloads: [8], uploads: [], copies not between host and device memory: 0

// ImageDecoder is host C code: the encoded bytes (a 78-byte BMP of 3 x 2
// pixels) are downloaded into a host buffer once, decoded there, and the
// 18 bytes of pixels uploaded into the device output, row r column c being
// R = 10 r + c, G = 100, B = 200 (--tc-gpu-stage-host-buffers).
// IMAGE: kernels in the table: 0
// IMAGE: pixels: [0, 100, 200, 1, 100, 200, 2, 100, 200, 10, 100, 200, 11, 100, 200, 12, 100, 200]
// IMAGE: output 0 dims: [2, 3, 3]
// IMAGE: output allocated through env: True
// IMAGE: status: 0
// IMAGE: downloads: [78], uploads: [18], copies not between host and device memory: 0

// A kernel built in alternatives (--gpu-candidates=3) is a site of the
// module's table: its key, its alternatives' configurations and their
// kernels. The host code runs the alternative env->choices names, or with
// -1 none of them (the heuristic kernel).
// RUN: %pyonnx %models dense_relu %t.dense.onnx
// RUN: tc-compile %t.dense.onnx --precision=fp16 --target=cuda:sm_90 --gpu-candidates=3 -o %t.dense.so --no-cache
// RUN: %pyonnx %s.py %t.dense.so tuned 1 | FileCheck %s --check-prefix=TUNED1
// RUN: %pyonnx %s.py %t.dense.so tuned -1 | FileCheck %s --check-prefix=TUNED-HEURISTIC
// TUNED1: sites: 1, key: gpu-{{[0-9a-f]+}}
// TUNED1-NEXT: candidate: #fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0, stages = 3>
// TUNED1-NEXT: candidate: #fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0, stages = 2>
// TUNED1-NEXT: candidate: #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 3>
// TUNED1-NEXT: alternative kernels: {{\[}}[[K0:[0-9]+]], [[K1:[0-9]+]], [[K2:[0-9]+]]{{\]}}
// The heuristic kernel's tile is chosen from the extents: one kernel per
// tile, none of them an alternative's.
// TUNED1-NEXT: heuristic kernels: {{\[}}{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}{{\]}}
// TUNED1: alternatives launched: {{\[}}[[K1]]{{\]}}
// TUNED1-NEXT: heuristic kernels launched: 0
// TUNED1: status: 0
// TUNED-HEURISTIC: alternatives launched: {{\[\]}}
// TUNED-HEURISTIC-NEXT: heuristic kernels launched: 1
// TUNED-HEURISTIC: status: 0
// tc-run sets the choices on a GPU device (--gpu-choice); the CPU runs the
// model's CPU code, which has no alternatives.
// RUN: not tc-run %t.dense.so --device=cpu --gpu-choice=0 2>&1 | FileCheck %s --check-prefix=CPU-CHOICE
// CPU-CHOICE: --gpu-choice: tunable GPU kernels run on a GPU device, not 'cpu'
