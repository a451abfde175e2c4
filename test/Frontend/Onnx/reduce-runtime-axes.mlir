// Reductions whose axes are a graph input compile once (one single-axis
// reduction per dimension, each under an scf.if on the axes read at run
// time; keepdims=0 drops the reduced dimensions by a reshape to extents
// computed at run time) and match numpy for every axes set; axes out of
// range are a run-time error naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --print-signature | FileCheck %s --check-prefix=SIG
// SIG: output 'sum': f32[?a, ?b, ?c]
// SIG: output 'mean': f32[?m]
// SIG: output 'lse': f32[?l]
// RUN: tc-run %t/model.so --input=x=%t/x.npy --input=axes=%t/a02.npy --compare=sum=%t/a02.sum.npy --compare=mean=%t/a02.mean.npy --compare=lse=%t/a02.lse.npy --rtol=1e-5 --atol=1e-4 | FileCheck %s --check-prefix=A02
// A02: output 'sum': OK: f32[1, 3, 1]
// A02: output 'mean': OK: f32[3]
// A02: output 'lse': OK: f32[3]
// RUN: tc-run %t/model.so --input=x=%t/x.npy --input=axes=%t/am11.npy --compare=sum=%t/am11.sum.npy --compare=mean=%t/am11.mean.npy --compare=lse=%t/am11.lse.npy --rtol=1e-5 --atol=1e-4 | FileCheck %s --check-prefix=AM11
// AM11: output 'sum': OK: f32[2, 1, 1]
// AM11: output 'mean': OK: f32[2]
// AM11: output 'lse': OK: f32[2]
// RUN: tc-run %t/model.so --input=x=%t/x.npy --input=axes=%t/a10.npy --compare=sum=%t/a10.sum.npy --compare=mean=%t/a10.mean.npy --compare=lse=%t/a10.lse.npy --rtol=1e-5 --atol=1e-4 | FileCheck %s --check-prefix=A10
// A10: output 'sum': OK: f32[1, 1, 4]
// A10: output 'mean': OK: f32[4]
// RUN: not tc-run %t/model.so --input=x=%t/x.npy --input=axes=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'sum' (ReduceSum): the axes computed at run time must be in [-3, 3) and distinct
