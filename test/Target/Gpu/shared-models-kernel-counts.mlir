// How many kernels the real exported models take on a GPU: each is a
// launch and a trip through memory, and the fusion of fills, epilogues,
// pads, transposes and reduction fills and divisions into the kernels of
// the ops beside them (ContractionFusion.h) is what keeps the counts low.
// A change that loses a fusion fails here; one that gains one updates the
// number (and docs/gpu.md). The kernels themselves are checked for
// numerics by shared-models-emulation.mlir.
// REQUIRES: shared-models
// RUN: rm -rf %t && mkdir -p %t
// RUN: tc-compile %shared_models/mobilenet_v2/model.onnx --target=cuda:sm_90 --emit=gpu-kernels -o %t/mobilenet | FileCheck %s --check-prefix=MOBILENET
// RUN: tc-compile %shared_models/small_cnn_dynbatch/model.onnx --target=cuda:sm_90 --emit=gpu-kernels -o %t/cnn | FileCheck %s --check-prefix=CNN
// RUN: tc-compile %shared_models/tiny_bert/model.onnx --target=cuda:sm_90 --emit=gpu-kernels -o %t/bert | FileCheck %s --check-prefix=BERT
// RUN: tc-compile %shared_models/tiny_gpt/model.onnx --target=cuda:sm_90 --emit=gpu-kernels -o %t/gpt | FileCheck %s --check-prefix=GPT
// The transformers with a symbolic batch, as exported with dynamic axes:
// their normalizations and softmaxes are row chains too (the loops are
// provably the same), and --tc-fold-shape-arithmetic gives the reshapes
// their static sizes back, but some fusions still need static shapes.
// RUN: %pyonnx %S/Inputs/symbolic_batch.py %shared_models/tiny_bert/model.onnx %t/bert-batch.onnx
// RUN: tc-compile %t/bert-batch.onnx --target=cuda:sm_90 --emit=gpu-kernels -o %t/bert-batch | FileCheck %s --check-prefix=BERT-BATCH
// RUN: %pyonnx %S/Inputs/symbolic_batch.py %shared_models/tiny_gpt/model.onnx %t/gpt-batch.onnx
// RUN: tc-compile %t/gpt-batch.onnx --target=cuda:sm_90 --emit=gpu-kernels -o %t/gpt-batch | FileCheck %s --check-prefix=GPT-BATCH
// RUN: tc-compile %t/gpt-batch.onnx --target=gpu-emulation -o %t/gpt-batch.so
// RUN: tc-run %t/gpt-batch.so --rtol=1e-3 --atol=1e-4 --input=%shared_models/tiny_gpt/test_data_set_0/input_0.pb --compare=%shared_models/tiny_gpt/test_data_set_0/output_0.pb | FileCheck %s --check-prefix=GPT-BATCH-OUTPUT

// MOBILENET: cuda:sm_90: ok, 54 kernels
// CNN: cuda:sm_90: ok, 13 kernels
// BERT: cuda:sm_90: ok, 33 kernels
// GPT: cuda:sm_90: ok, 29 kernels
// BERT-BATCH: cuda:sm_90: ok, 36 kernels
// GPT-BATCH: cuda:sm_90: ok, 42 kernels
// GPT-BATCH-OUTPUT: output 'logits': OK: f32[1, 32, 1000]
