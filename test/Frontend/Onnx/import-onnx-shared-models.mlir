// Every real exported model imports and verifies; the IR after shape
// inference and canonicalization verifies too.
// REQUIRES: shared-models
// RUN: tc-translate --import-onnx %shared_models/mobilenet_v2/model.onnx | tc-opt -tc-infer-shapes -canonicalize | FileCheck %s --check-prefix=MOBILENET
// RUN: tc-translate --import-onnx %shared_models/small_cnn_dynbatch/model.onnx | tc-opt -tc-infer-shapes -canonicalize | FileCheck %s --check-prefix=CNN
// RUN: tc-translate --import-onnx %shared_models/tiny_bert/model.onnx | tc-opt -tc-infer-shapes -canonicalize | FileCheck %s --check-prefix=BERT
// RUN: tc-translate --import-onnx %shared_models/tiny_gpt/model.onnx | tc-opt -tc-infer-shapes -canonicalize | FileCheck %s --check-prefix=GPT

// MOBILENET: func.func @main(%arg0: tensor<1x3x224x224xf32> {tc.name = "input"}) -> (tensor<1x1000xf32> {tc.name = "logits"})
// MOBILENET-COUNT-52: tc.conv
// MOBILENET: tc.matmul

// CNN: func.func @main(%arg0: tensor<?x3x64x64xf32> {tc.dim_params = ["batch", "", "", ""], tc.name = "input"}) -> (tensor<?x10xf32> {tc.dim_params = ["batch", ""], tc.name = "logits"})
// CNN: tc.max_pool
// CNN: tc.reshape {{.*}} -> tensor<?x{{[0-9]+}}xf32>

// BERT: func.func @main(%arg0: tensor<2x32xi64> {tc.name = "input_ids"}, %arg1: tensor<2x32xi64> {tc.name = "attention_mask"}, %arg2: tensor<2x32xi64> {tc.name = "token_type_ids"}) -> (tensor<2x32x128xf32> {tc.name = "last_hidden_state"}, tensor<2x128xf32> {tc.name = "pooler_output"})
// BERT-NOT: tc.shape_of
// BERT: tc.layer_norm
// BERT: tc.softmax

// GPT: func.func @main(%arg0: tensor<1x32xi64> {tc.name = "input_ids"}) -> (tensor<1x32x1000xf32> {tc.name = "logits"})
// GPT-NOT: tc.shape_of
// GPT: tc.softmax
