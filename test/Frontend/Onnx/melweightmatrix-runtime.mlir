// MelWeightMatrix whose parameters are graph inputs compiles once: the
// filter edges and triangles are computed at run time in f64 tc ops, the
// [dft_length / 2 + 1, num_mel_bins] extents read at run time. It matches
// onnx's reference for two parameter sets; parameters the constant path
// rejects when importing are run-time errors naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR: cf.assert %{{.*}}, "node 'mel' (MelWeightMatrix): num_mel_bins, dft_length and sample_rate must be positive"
// IR: tc.range
// IR: tc.pow
// IR: tc.floor
// IR: cf.assert %{{.*}}, "node 'mel' (MelWeightMatrix): mel edges outside the spectrogram bins"
// IR: tc.select %{{.*}} -> tensor<?x?xf64>
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=bins=%t/a.bins.npy --input=length=%t/a.length.npy --input=rate=%t/a.rate.npy --input=low=%t/a.low.npy --input=high=%t/a.high.npy --compare=w=%t/a.w.npy | FileCheck %s --check-prefix=A
// A: OK: f32[9, 8]
// RUN: tc-run %t/model.so --input=bins=%t/b.bins.npy --input=length=%t/b.length.npy --input=rate=%t/b.rate.npy --input=low=%t/b.low.npy --input=high=%t/b.high.npy --compare=w=%t/b.w.npy | FileCheck %s --check-prefix=B
// B: OK: f32[33, 5]
// RUN: not tc-run %t/model.so --input=bins=%t/zero.bins.npy --input=length=%t/zero.length.npy --input=rate=%t/zero.rate.npy --input=low=%t/zero.low.npy --input=high=%t/zero.high.npy 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: node 'mel' (MelWeightMatrix): num_mel_bins, dft_length and sample_rate must be positive
// RUN: not tc-run %t/model.so --input=bins=%t/wide.bins.npy --input=length=%t/wide.length.npy --input=rate=%t/wide.rate.npy --input=low=%t/wide.low.npy --input=high=%t/wide.high.npy 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: node 'mel' (MelWeightMatrix): mel edges outside the spectrogram bins
