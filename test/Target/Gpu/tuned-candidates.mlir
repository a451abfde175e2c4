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
// Bad values and a CPU-only build are refused.
// RUN: not tc-compile %t/dense.onnx --target=cuda:sm_90 --gpu-candidates=-1 -o %t/bad.so 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: --gpu-candidates must be at least 0 and --gpu-candidate at least -1
// RUN: not tc-compile %t/dense.onnx --gpu-candidates=2 -o %t/bad.so 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: --gpu-candidates and --gpu-candidate need a GPU --target (or gpu-emulation)
