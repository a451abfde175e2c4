// tc-compile --precision=fp16 --calibrate=DIR: an activation beyond fp16's
// range (65504), which no weight shows, is found by running the fp32 model
// on the samples first; the contraction that reads it keeps f32, and the
// compile report names its node. The other contraction is still fp16.
// RUN: %pyonnx %s.py %t
//
// Without calibration the activation becomes infinity in fp16.
// RUN: tc-compile %t/model.onnx --precision=fp16 -o %t/plain.so --no-cache
// RUN: not tc-run %t/plain.so --input=x=%t/x.npy --compare=big=%t/big.npy --compare=small=%t/small.npy --rtol=2e-3 --atol=1e-4 | FileCheck %s --check-prefix=PLAIN
// PLAIN: output 'big': MISMATCH
//
// Samples in the ONNX test-data layout (input_0.pb) and as <name>.npy.
// RUN: tc-compile %t/model.onnx --precision=fp16 --calibrate=%t/samples -o %t/calibrated.so --no-cache 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: tc-compile: remark: --precision=fp16 keeps node 'big' (MatMul) in f32: the calibration run saw {{[0-9.]+}}e+05, beyond fp16's range
// REPORT-NOT: keeps node 'small'
// RUN: tc-run %t/calibrated.so --input=x=%t/x.npy --compare=big=%t/big.npy --compare=small=%t/small.npy --rtol=2e-3 --atol=1e-4 | FileCheck %s
// CHECK-DAG: output 'big': OK
// CHECK-DAG: output 'small': OK
//
// The samples are part of the compile cache's key.
// RUN: rm -rf %t/cache %t/other && cp -r %t/samples %t/other
// RUN: tc-compile %t/model.onnx --precision=fp16 --calibrate=%t/samples -o %t/c.so --cache-dir=%t/cache --timing 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: tc-compile %t/model.onnx --precision=fp16 --calibrate=%t/other -o %t/c.so --cache-dir=%t/cache --timing 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: cp %t/x.npy %t/other/set_2/x.npy
// RUN: tc-compile %t/model.onnx --precision=fp16 --calibrate=%t/other -o %t/c.so --cache-dir=%t/cache --timing 2>&1 | FileCheck %s --check-prefix=MISS
// MISS: cache lookup (a miss)
// HIT: cache hit
//
// Errors: a sample the model cannot take (naming it and the input), a
// directory without samples, another precision.
// RUN: not tc-compile %t/model.onnx --precision=fp16 --calibrate=%t/bad -o %t/e.so --no-cache 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tc-compile: error: --calibrate: running the sample '{{.*}}bad/set_0' failed:
// BAD: input 'x' axis 0 is 4 but the module expects 8
// RUN: mkdir -p %t/empty
// RUN: not tc-compile %t/model.onnx --precision=fp16 --calibrate=%t/empty -o %t/e.so --no-cache 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: tc-compile: error: --calibrate: '{{.*}}empty' holds no inputs (input_<i>.pb files, or <input name>.npy)
// RUN: not tc-compile %t/model.onnx --precision=bf16 --calibrate=%t/samples -o %t/e.so --no-cache 2>&1 | FileCheck %s --check-prefix=BF16
// BF16: tc-compile: error: --calibrate looks for activations beyond fp16's range: it needs --precision=fp16
