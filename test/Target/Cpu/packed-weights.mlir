// Weights stored in panels (--tc-cpu-pack-weights) give the same results:
// a [K, N] MatMul weight with a ReLU epilogue and a [N, K] Gemm weight
// (transB) with a bias, both packed (the default threshold is 64 KB; these
// are 160 and 96 KB), and an LM head [1, rows, 160] x [160, 1000] (the weight
// viewed as [1, 160, 1000]; 1000 columns: a zero-padded last panel), against
// numpy. The rows are a dynamic axis (27 at run time: three 8-row register
// tiles and a partial one). A classifier at batch 1 (one row, a
// matrix-vector product: a [1000, 200] Gemm weight with a bias) is packed
// too.
// RUN: %pyonnx %s.py %t
// RUN: tc-compile %t/model.onnx -o %t/model.so
// RUN: tc-run %t/model.so --input=x=%t/x.npy --input=x3=%t/x3.npy --input=v=%t/v.npy --compare=y=%t/y.npy --compare=z=%t/z.npy --compare=c=%t/c.npy --rtol=1e-4 --atol=1e-4 | FileCheck %s
// CHECK-DAG: output 'y': OK: f32[27, 96]
// CHECK-DAG: output 'z': OK: f32[1, 27, 1000]
// CHECK-DAG: output 'c': OK: f32[1, 1000]
// RUN: tc-compile %t/model.onnx --dump-ir=%t/dump -o %t/model2.so
// RUN: cat %t/dump/passes/*/*tc-cpu-pack-weights.mlir | FileCheck %s --check-prefix=IR
// The [160, 256] weight becomes 8 panels of 160 x 32, the [96, 256]
// (transposed) one 3 panels of 256 x 32; the contractions write their
// outputs as [rows, N / 32, 32].
// IR-DAG: dense_resource<packed{{.*}}> : tensor<8x160x32xf32>
// IR-DAG: dense_resource<packed{{.*}}> : tensor<3x256x32xf32>
// IR-DAG: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x8x32xf32>)
// IR-DAG: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<?x8x32xf32> into tensor<?x256xf32>
// IR-DAG: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<?x3x32xf32> into tensor<?x96xf32>
// The head's 1000 columns: 32 panels (the last one 8 columns and 24 zeros),
// an output of 1024 columns sliced back to 1000.
// IR-DAG: dense_resource<packed{{.*}}> : tensor<32x160x32xf32>
// IR-DAG: dense_resource<packed{{.*}}> : tensor<32x200x32xf32>
// IR-DAG: tensor.extract_slice %{{.*}}[0, 0] [1, 1000] [1, 1] : tensor<1x1024xf32> to tensor<1x1000xf32>
// IR-DAG: tensor.extract_slice %{{.*}}[0, 0, 0] [1, %{{.*}}, 1000] [1, 1, 1] : tensor<1x?x1024xf32> to tensor<1x?x1000xf32>
