// `import tc` on an NVIDIA GPU, through the fake driver that
// test/unittests/Runtime builds (FakeCuda/fake_cuda.h): a model loaded and
// dropped many times, as the GPU check's workers do, runs each time in the
// one primary context the process retained.
// RUN: env LD_LIBRARY_PATH=%tc_fake_modules/FakeCuda %pyonnx %s.py %tc_fake_modules | FileCheck %s
// CHECK: cuda:0 y [1.0, 3.0, 5.0, 7.0]
// CHECK: loads 10 contexts made 1 destroyed 0 retained 1
// CHECK: streams 0 modules 0 allocations 0
// CHECK: error: device 'cuda:3' does not exist: this machine has 2 NVIDIA GPUs
// CHECK: graphs: 5 runs right, 4 graph launches, 1 graph live, 4 graph runs
