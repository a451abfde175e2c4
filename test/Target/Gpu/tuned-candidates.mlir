// A Gemm with a dynamic number of rows built with alternative kernels
// (--gpu-candidates=3): the host code runs the heuristic kernels (the
// default, --gpu-candidate=-1) or every tunable kernel's c-th alternative.
// In fp16 on matrix cores (sm_90's mma.sync, emulated) the alternatives
// are 128 x 128 with three and two stages and 64 x 64 with three; each
// gives the CPU's fp16 results, with tails (1 and 300 rows) and without;
// a choice past a kernel's alternatives runs its heuristic kernel.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pyonnx %models dense_relu %t/dense.onnx
// RUN: %pyonnx -c "import numpy as np; rng = np.random.default_rng(1); [np.save('%t/x%%d.npy' %% n, rng.standard_normal((n, 64)).astype(np.float32)) for n in (1, 300, 1100)]"
// RUN: tc-compile %t/dense.onnx --precision=fp16 -o %t/cpu16.so --no-cache
// RUN: for n in 1 300 1100; do tc-run %t/cpu16.so --input=%t/x$n.npy --output=%t/h$n || exit 1; done
// RUN: for c in -1 0 1 2 7; do tc-compile %t/dense.onnx --precision=fp16 --target=gpu-emulation --gpu-candidates=3 --gpu-candidate=$c -o %t/mma$c.so --no-cache || exit 1; done
// RUN: for c in -1 0 1 2 7; do for n in 1 300 1100; do tc-run %t/mma$c.so --input=%t/x$n.npy --compare=%t/h$n/y.npy --rtol=2e-3 --atol=1e-3 || exit 1; done; done | FileCheck %s --check-prefix=FP16
// FP16-COUNT-15: output 'y': OK
//
// The IR says which kernels there are: the tunable contraction's choice
// names its alternatives and key, and each is a case of the host's switch.
// RUN: tc-compile %t/dense.onnx --precision=fp16 --target=cuda:sm_90 --gpu-candidates=3 --emit=gpu-kernels -o %t/kernels --dump-ir=%t/ir --no-cache | FileCheck %s --check-prefix=KERNELS
// RUN: FileCheck %s --check-prefix=IR < %t/ir/02-gpu-kernels.mlir
// RUN: tc-compile %t/dense.onnx --precision=fp16 --target=cuda:sm_90 --emit=gpu-kernels -o %t/kernels0 --no-cache | FileCheck %s --check-prefix=KERNELS0
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/kernels/cuda-sm_90.ptx -o %t/sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// Without alternatives: the input's cast and the heuristic's three tiles
// (chosen by the extents); with them, three more, none spilling.
// KERNELS0: cuda:sm_90: ok, 4 kernels
// KERNELS: cuda:sm_90: ok, 7 kernels
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// IR: tc_gpu.tuned_choice "gpu-{{[0-9a-f]+}}" [#fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0, stages = 3>, #fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0, stages = 2>, #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 3>]
// IR: scf.index_switch
// IR: case 0
// IR: case 1
// IR: case 2
// IR: default
//
// In fp32 on CUDA cores: 64 x 64 and 32 x 32 tiles.
// RUN: tc-compile %t/dense.onnx -o %t/cpu.so --no-cache
// RUN: for n in 1 300 1100; do tc-run %t/cpu.so --input=%t/x$n.npy --output=%t/y$n || exit 1; done
// RUN: for c in 0 2; do tc-compile %t/dense.onnx --target=gpu-emulation --emulate-matrix-cores=none --gpu-candidates=4 --gpu-candidate=$c -o %t/f32_$c.so --no-cache || exit 1; done
// RUN: for c in 0 2; do for n in 1 300 1100; do tc-run %t/f32_$c.so --input=%t/x$n.npy --compare=%t/y$n/y.npy --rtol=1e-5 || exit 1; done; done | FileCheck %s --check-prefix=FP32
// FP32-COUNT-6: output 'y': OK
//
// An alternative names the kernel it builds: where no operand can be copied
// asynchronously (K = 99 leaves no 16-byte vector along K, and Gemm's
// transB keeps the weights, an input here, K-inner too), a three-stage
// configuration builds the two-stage kernel; it says so, and the duplicate
// goes.
// RUN: %pyonnx -c "import onnx; from onnx import helper, TensorProto as T; g = helper.make_graph([helper.make_node('Gemm', ['x', 'w'], ['y'], transB=1)], 'g', [helper.make_tensor_value_info('x', T.FLOAT, ['n', 99]), helper.make_tensor_value_info('w', T.FLOAT, [256, 99])], [helper.make_tensor_value_info('y', T.FLOAT, ['n', 256])]); onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid('', 17)]), '%t/odd.onnx')"
// RUN: tc-compile %t/odd.onnx --precision=fp16 --target=cuda:sm_90 --gpu-candidates=3 --emit=gpu-kernels -o %t/odd --dump-ir=%t/odd-ir --no-cache
// RUN: FileCheck %s --check-prefix=ODD < %t/odd-ir/02-gpu-kernels.mlir
// ODD: tc_gpu.tuned_choice "gpu-{{[0-9a-f]+}}" [#fusion.kernel_config<strategy = "tiled-contraction", tile = [128, 128, 16], workgroups = 0, stages = 2>, #fusion.kernel_config<strategy = "tiled-contraction", tile = [64, 64, 16], workgroups = 0, stages = 2>]
// ODD: scf.index_switch
// ODD: case 0
// ODD: case 1
// ODD-NOT: case 2
// ODD: default
// RUN: tc-compile %t/odd.onnx --precision=fp16 --target=gpu-emulation --gpu-candidates=3 --gpu-candidate=1 -o %t/odd1.so --no-cache
// RUN: tc-compile %t/odd.onnx --precision=fp16 -o %t/odd-cpu.so --no-cache
// RUN: %pyonnx -c "import numpy as np; rng = np.random.default_rng(2); np.save('%t/x99.npy', rng.standard_normal((300, 99)).astype(np.float32)); np.save('%t/w99.npy', rng.standard_normal((256, 99)).astype(np.float32))"
// RUN: tc-run %t/odd-cpu.so --input=%t/x99.npy --input=%t/w99.npy --output=%t/odd-y
// RUN: tc-run %t/odd1.so --input=%t/x99.npy --input=%t/w99.npy --compare=%t/odd-y/y.npy --rtol=2e-3 --atol=1e-3 | FileCheck %s --check-prefix=ODDOUT
// ODDOUT: output 'y': OK
//
// --mode=max-autotune with a GPU target tunes the CPU code here and builds
// the GPU's contraction kernels with three alternatives, for the runtime to
// time at the first run on the GPU (docs/autotuning.md).
// RUN: mkdir -p %t/tune-in && cp %t/x300.npy %t/tune-in/x.npy
// RUN: tc-compile %t/dense.onnx --precision=fp16 --target=cuda:sm_90 --mode=max-autotune --autotune-inputs=%t/tune-in --autotune-budget=0 -o %t/autotuned.so --no-cache 2>&1 | FileCheck %s --check-prefix=AUTOTUNE
// AUTOTUNE: tc-compile: note: max-autotune tunes the CPU code here; the GPU kernels carry up to 3 alternative configurations each, timed on the GPU at the model's first run there (or by tc-tune)
// RUN: %pyonnx -c "import ctypes; lib = ctypes.CDLL('%t/autotuned.so'); print('sites:', ctypes.c_uint32.in_dll(lib, 'tc_module_gpu_site_count_v1').value)" | FileCheck %s --check-prefix=SITES
// SITES: sites: 1
// RUN: tc-run %t/autotuned.so --print-signature | FileCheck %s --check-prefix=MODE
// MODE: mode max-autotune
//
// Bad values and a CPU-only build are refused.
// RUN: not tc-compile %t/dense.onnx --target=cuda:sm_90 --gpu-candidates=-1 -o %t/bad.so 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: --gpu-candidates must be at least 0 and --gpu-candidate at least -1
// RUN: not tc-compile %t/dense.onnx --gpu-candidates=2 -o %t/bad.so 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: --gpu-candidates and --gpu-candidate need a GPU --target (or gpu-emulation)
