// Shape parameters that are graph inputs compile once and match numpy for
// each parameter set: Split's sizes become run-time slices of a dynamic
// dimension; Pad's pads (negative ones crop, after the padding as ONNX's
// reference does) and axes give tc.dynamic_pad; Slice's axes and steps
// select every dimension's bounds and step at run time; TopK's k cuts a
// full sort; CumSum's axis picks one scan per dimension (scf.if). The
// results, views of internal buffers of dynamic shape, come back dense
// (--tc-cpu-dense-outputs). Parameters that break the op's rules are a
// run-time error naming the node.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/model.onnx | FileCheck %s --check-prefix=IR
// IR-COUNT-3: tc.dynamic_slice %arg0, %{{.*}}, %{{.*}} {axes = array<i64: 1>, steps = array<i64: 1>} : (tensor<2x?xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x?xf32>
// IR: tc.dynamic_pad %arg0, %{{.*}}, %{{.*}} : (tensor<2x?xf32>, tensor<4xi64>, tensor<f32>) -> tensor<?x?xf32>
// IR: tc.dynamic_pad %arg0, %{{.*}} mode(reflect) : (tensor<2x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
// IR: tc.dynamic_slice %arg0, %{{.*}}, %{{.*}} steps(%{{.*}}) {axes = array<i64: 0, 1>, steps = array<i64>} : (tensor<2x?xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
// IR: tc.top_k %{{.*}} {axis = 1 : i64, k = 4 : i64} : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi64>)
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=x=%t/a.x.npy --input=split=%t/a.split.npy --input=pads=%t/a.pads.npy --input=fill=%t/a.fill.npy --input=pads2=%t/a.pads2.npy --input=axes=%t/a.axes.npy --input=starts=%t/a.starts.npy --input=ends=%t/a.ends.npy --input=saxes=%t/a.saxes.npy --input=steps=%t/a.steps.npy --input=y=%t/a.y.npy --input=k=%t/a.k.npy --input=caxis=%t/a.caxis.npy --compare=sliced=%t/a.sliced.npy --compare=topv=%t/a.topv.npy --compare=topi=%t/a.topi.npy --compare=cumsum=%t/a.cumsum.npy --compare=padded=%t/a.padded.npy --compare=reflected=%t/a.reflected.npy --compare=s0=%t/a.s0.npy --compare=s1=%t/a.s1.npy --compare=s2=%t/a.s2.npy | FileCheck %s --check-prefix=A
// A: output 's0': OK: f32[2, 2]
// A: output 's1': OK: f32[2, 0]
// A: output 's2': OK: f32[2, 5]
// A: output 'padded': OK: f32[3, 8]
// A: output 'reflected': OK: f32[2, 12]
// A: output 'sliced': OK: f32[2, 3]
// A: output 'topv': OK: f32[2, 3]
// A: output 'cumsum': OK: f32[2, 7]
// A: output 'topi': OK: i64[2, 3]
// RUN: tc-run %t/model.so --input=x=%t/b.x.npy --input=split=%t/b.split.npy --input=pads=%t/b.pads.npy --input=fill=%t/b.fill.npy --input=pads2=%t/b.pads2.npy --input=axes=%t/b.axes.npy --input=starts=%t/b.starts.npy --input=ends=%t/b.ends.npy --input=saxes=%t/b.saxes.npy --input=steps=%t/b.steps.npy --input=y=%t/b.y.npy --input=k=%t/b.k.npy --input=caxis=%t/b.caxis.npy --compare=sliced=%t/b.sliced.npy --compare=topv=%t/b.topv.npy --compare=topi=%t/b.topi.npy --compare=cumsum=%t/b.cumsum.npy --compare=padded=%t/b.padded.npy --compare=reflected=%t/b.reflected.npy --compare=s0=%t/b.s0.npy --compare=s1=%t/b.s1.npy --compare=s2=%t/b.s2.npy | FileCheck %s --check-prefix=B
// B: output 's0': OK: f32[2, 1]
// B: output 's1': OK: f32[2, 2]
// B: output 's2': OK: f32[2, 1]
// B: output 'padded': OK: f32[1, 1]
// B: output 'reflected': OK: f32[3, 4]
// B: output 'sliced': OK: f32[2, 1]
// B: output 'topv': OK: f32[2, 0]
// B: output 'cumsum': OK: f32[2, 4]
// B: output 'topi': OK: i64[2, 0]
// RUN: not tc-run %t/model.so --input=x=%t/bad.x.npy --input=split=%t/bad.split.npy --input=pads=%t/bad.pads.npy --input=fill=%t/bad.fill.npy --input=pads2=%t/bad.pads2.npy --input=axes=%t/bad.axes.npy --input=starts=%t/bad.starts.npy --input=ends=%t/bad.ends.npy --input=saxes=%t/bad.saxes.npy --input=steps=%t/bad.steps.npy --input=y=%t/bad.y.npy --input=k=%t/bad.k.npy --input=caxis=%t/bad.caxis.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'split' (Split): the split sizes computed at run time must be non-negative and add up to dimension 1
// RUN: not tc-run %t/model.so --input=x=%t/badpad.x.npy --input=split=%t/badpad.split.npy --input=pads=%t/badpad.pads.npy --input=fill=%t/badpad.fill.npy --input=pads2=%t/badpad.pads2.npy --input=axes=%t/badpad.axes.npy --input=starts=%t/badpad.starts.npy --input=ends=%t/badpad.ends.npy --input=saxes=%t/badpad.saxes.npy --input=steps=%t/badpad.steps.npy --input=y=%t/badpad.y.npy --input=k=%t/badpad.k.npy --input=caxis=%t/badpad.caxis.npy 2>&1 | FileCheck %s --check-prefix=BADPAD
// BADPAD: node 'pad' (Pad): the pads computed at run time crop a dimension below size 0
// RUN: not tc-run %t/model.so --input=x=%t/badk.x.npy --input=split=%t/badk.split.npy --input=pads=%t/badk.pads.npy --input=fill=%t/badk.fill.npy --input=pads2=%t/badk.pads2.npy --input=axes=%t/badk.axes.npy --input=starts=%t/badk.starts.npy --input=ends=%t/badk.ends.npy --input=saxes=%t/badk.saxes.npy --input=steps=%t/badk.steps.npy --input=y=%t/badk.y.npy --input=k=%t/badk.k.npy --input=caxis=%t/badk.caxis.npy 2>&1 | FileCheck %s --check-prefix=BADK
// BADK: node 'topk' (TopK): the k computed at run time must be in [0, 4]
