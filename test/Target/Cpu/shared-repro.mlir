// The reproducers of ../shared/repro that tc now handles, run like the
// shared models: tiny_bert exported with a dynamic batch (the batch flows
// through Shape/Gather/Unsqueeze/Concat into Reshape and Expand), which
// crashed in --expand-strided-metadata; one .so at batch 1 and 3.
// REQUIRES: shared-repro
// RUN: rm -rf %t && mkdir -p %t
// RUN: tc-compile %shared_repro/tiny_bert_dynbatch/model.onnx -o %t/bert.so
// RUN: tc-run %t/bert.so --print-signature | FileCheck %s --check-prefix=SIG
// RUN: tc-run %t/bert.so --rtol=1e-3 --atol=1e-4 --input=%shared_repro/tiny_bert_dynbatch/test_data_set_0/input_0.pb --input=%shared_repro/tiny_bert_dynbatch/test_data_set_0/input_1.pb --input=%shared_repro/tiny_bert_dynbatch/test_data_set_0/input_2.pb --compare=%shared_repro/tiny_bert_dynbatch/test_data_set_0/output_0.pb --compare=%shared_repro/tiny_bert_dynbatch/test_data_set_0/output_1.pb | FileCheck %s --check-prefix=BATCH1
// RUN: tc-run %t/bert.so --threads=2 --rtol=1e-3 --atol=1e-4 --input=%shared_repro/tiny_bert_dynbatch/test_data_set_1/input_0.pb --input=%shared_repro/tiny_bert_dynbatch/test_data_set_1/input_1.pb --input=%shared_repro/tiny_bert_dynbatch/test_data_set_1/input_2.pb --compare=%shared_repro/tiny_bert_dynbatch/test_data_set_1/output_0.pb --compare=%shared_repro/tiny_bert_dynbatch/test_data_set_1/output_1.pb | FileCheck %s --check-prefix=BATCH3

// SIG: input 'input_ids': i64[?batch, 32]
// SIG: output 'last_hidden_state': f32[?batch, 32, 128]
// BATCH1: output 'last_hidden_state': OK: f32[1, 32, 128]
// BATCH1: output 'pooler_output': OK: f32[1, 128]
// BATCH3: output 'last_hidden_state': OK: f32[3, 32, 128]
// BATCH3: output 'pooler_output': OK: f32[3, 128]
