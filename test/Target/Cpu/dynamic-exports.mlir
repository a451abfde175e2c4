// Models exported by torch.onnx.export with dynamic axes compile once and
// match PyTorch at several sizes: BERT- and GPT-shaped transformers with a
// dynamic batch and sequence length, a CNN with a dynamic batch, height and
// width (Inputs/dynamic_exports.py builds them and PyTorch's outputs).
// REQUIRES: torch
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pytorch %S/Inputs/dynamic_exports.py %t | FileCheck %s --check-prefix=EXPORT
// EXPORT: exported bert, gpt, cnn

// RUN: tc-compile %t/bert/model.onnx -o %t/bert.so
// RUN: tc-run %t/bert.so --print-signature | FileCheck %s --check-prefix=BERTSIG
// BERTSIG: input 'input_ids': i64[?batch, ?sequence]
// BERTSIG: output 'last_hidden_state': f32[?{{[^,]*}}, ?{{[^,]*}}, 64]
// BERTSIG: output 'pooler_output': f32[?{{[^,]*}}, 64]
// RUN: for s in b1s8 b3s17 b2s32; do tc-run %t/bert.so --atol=1e-4 --input=%t/bert/$s/input_0.npy --input=%t/bert/$s/input_1.npy --input=%t/bert/$s/input_2.npy --compare=%t/bert/$s/output_0.npy --compare=%t/bert/$s/output_1.npy || exit 1; done | FileCheck %s --check-prefix=BERT
// BERT: output 'last_hidden_state': OK: f32[1, 8, 64]
// BERT: output 'pooler_output': OK: f32[1, 64]
// BERT: output 'last_hidden_state': OK: f32[3, 17, 64]
// BERT: output 'pooler_output': OK: f32[3, 64]
// BERT: output 'last_hidden_state': OK: f32[2, 32, 64]
// BERT: output 'pooler_output': OK: f32[2, 64]

// RUN: tc-compile %t/gpt/model.onnx -o %t/gpt.so
// RUN: for s in b1s5 b2s16 b3s31; do tc-run %t/gpt.so --atol=1e-4 --input=%t/gpt/$s/input_0.npy --compare=%t/gpt/$s/output_0.npy || exit 1; done | FileCheck %s --check-prefix=GPT
// GPT: output 'logits': OK: f32[1, 5, 500]
// GPT: output 'logits': OK: f32[2, 16, 500]
// GPT: output 'logits': OK: f32[3, 31, 500]

// RUN: tc-compile %t/cnn/model.onnx -o %t/cnn.so
// RUN: tc-run %t/cnn.so --print-signature | FileCheck %s --check-prefix=CNNSIG
// CNNSIG: input 'image': f32[?batch, 3, ?height, ?width]
// RUN: for s in b1h32w32 b2h40w24 b3h17w29; do tc-run %t/cnn.so --atol=1e-4 --input=%t/cnn/$s/input_0.npy --compare=%t/cnn/$s/output_0.npy || exit 1; done | FileCheck %s --check-prefix=CNN
// CNN: output 'logits': OK: f32[1, 10]
// CNN: output 'logits': OK: f32[2, 10]
// CNN: output 'logits': OK: f32[3, 10]
