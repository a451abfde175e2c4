// The real exported models through the GPU code generation (the kernels,
// the shared-memory contractions among them, and the host code), with the
// kernels emulated on the CPU: the same reference outputs as on the CPU
// (rtol 1e-3, atol 1e-4). Each model again with its blocks and threads
// run last to first (gpu-emulation:reverse): bit for bit the same results,
// so no kernel's result depends on the order of its threads or blocks,
// which a race would (emulation-race-check.mlir).
// REQUIRES: shared-models
// RUN: rm -rf %t && mkdir -p %t
// RUN: tc-compile %shared_models/small_cnn_dynbatch/model.onnx --target=gpu-emulation -o %t/cnn.so
// RUN: tc-run %t/cnn.so --rtol=1e-3 --atol=1e-4 --input=%shared_models/small_cnn_dynbatch/test_data_set_1/input_0.pb --compare=%shared_models/small_cnn_dynbatch/test_data_set_1/output_0.pb --output=%t/cnn | FileCheck %s --check-prefix=CNN3
// RUN: tc-compile %shared_models/small_cnn_dynbatch/model.onnx --target=gpu-emulation:reverse -o %t/cnn-reverse.so
// RUN: tc-run %t/cnn-reverse.so --rtol=0 --atol=0 --input=%shared_models/small_cnn_dynbatch/test_data_set_1/input_0.pb --compare=%t/cnn/logits.npy | FileCheck %s --check-prefix=CNN3
// RUN: tc-compile %shared_models/mobilenet_v2/model.onnx --target=gpu-emulation -o %t/mobilenet.so
// RUN: tc-run %t/mobilenet.so --rtol=1e-3 --atol=1e-4 --input=%shared_models/mobilenet_v2/test_data_set_0/input_0.pb --compare=%shared_models/mobilenet_v2/test_data_set_0/output_0.pb --output=%t/mobilenet | FileCheck %s --check-prefix=MOBILENET
// RUN: tc-compile %shared_models/mobilenet_v2/model.onnx --target=gpu-emulation:reverse -o %t/mobilenet-reverse.so
// RUN: tc-run %t/mobilenet-reverse.so --rtol=0 --atol=0 --input=%shared_models/mobilenet_v2/test_data_set_0/input_0.pb --compare=%t/mobilenet/logits.npy | FileCheck %s --check-prefix=MOBILENET
// RUN: tc-compile %shared_models/tiny_bert/model.onnx --target=gpu-emulation -o %t/bert.so
// RUN: tc-run %t/bert.so --rtol=1e-3 --atol=1e-4 --input=%shared_models/tiny_bert/test_data_set_0/input_0.pb --input=%shared_models/tiny_bert/test_data_set_0/input_1.pb --input=%shared_models/tiny_bert/test_data_set_0/input_2.pb --compare=%shared_models/tiny_bert/test_data_set_0/output_0.pb --compare=%shared_models/tiny_bert/test_data_set_0/output_1.pb --output=%t/bert | FileCheck %s --check-prefix=BERT
// RUN: tc-compile %shared_models/tiny_bert/model.onnx --target=gpu-emulation:reverse -o %t/bert-reverse.so
// RUN: tc-run %t/bert-reverse.so --rtol=0 --atol=0 --input=%shared_models/tiny_bert/test_data_set_0/input_0.pb --input=%shared_models/tiny_bert/test_data_set_0/input_1.pb --input=%shared_models/tiny_bert/test_data_set_0/input_2.pb --compare=%t/bert/last_hidden_state.npy --compare=%t/bert/pooler_output.npy | FileCheck %s --check-prefix=BERT
// RUN: tc-compile %shared_models/tiny_gpt/model.onnx --target=gpu-emulation -o %t/gpt.so
// RUN: tc-run %t/gpt.so --rtol=1e-3 --atol=1e-4 --input=%shared_models/tiny_gpt/test_data_set_0/input_0.pb --compare=%shared_models/tiny_gpt/test_data_set_0/output_0.pb --output=%t/gpt | FileCheck %s --check-prefix=GPT
// RUN: tc-compile %shared_models/tiny_gpt/model.onnx --target=gpu-emulation:reverse -o %t/gpt-reverse.so
// RUN: tc-run %t/gpt-reverse.so --rtol=0 --atol=0 --input=%shared_models/tiny_gpt/test_data_set_0/input_0.pb --compare=%t/gpt/logits.npy | FileCheck %s --check-prefix=GPT

// CNN3: output 'logits': OK: f32[3, 10]
// MOBILENET: output 'logits': OK: f32[1, 1000]
// BERT: output 'last_hidden_state': OK: f32[2, 32, 128]
// BERT: output 'pooler_output': OK: f32[2, 128]
// GPT: output 'logits': OK: f32[1, 32, 1000]
