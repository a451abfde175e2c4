"""Exports models with dynamic axes as torch.onnx.export writes them, with
PyTorch's own outputs at several sizes for one compiled model to match.

usage: dynamic_exports.py OUT_DIR [--bert-base]

Writes OUT_DIR/<model>/model.onnx and OUT_DIR/<model>/<size>/{input_*,output_*}.npy:
  bert: a BERT-shaped encoder (token, position and segment embeddings, two
        post-norm layers with a padding mask, GELU, pooler); dynamic batch and
        sequence length; sizes b1s8, b3s17, b2s32.
  gpt:  a GPT-shaped decoder (token and position embeddings, two pre-norm
        layers with a causal mask built from the sequence length, LM head);
        dynamic batch and sequence length; sizes b1s5, b2s16, b3s31.
  cnn:  a CNN (convolutions, batch norm, pooling, a residual add, global
        average pooling, a classifier); dynamic batch, height and width;
        sizes b1h32w32, b2h40w24, b3h17w29.
With --bert-base, only bert-base: the BERT shape at BERT-base size (12
layers of 768, 12 heads, 30522 tokens; 440 MB) at sizes b1s128 and b2s37, for
checking by hand (compile it, then tc-run each size with --compare); not
run by the test suite. Random weights, fixed seed; run with a Python that has torch (Debian's
python3-torch). The shapes flow through Shape/Gather/Concat into Reshape,
Expand and Slice, which is what these tests are about.
"""
import math
import os
import sys

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
out_dir = sys.argv[1]
bert_base = sys.argv[2:] == ["--bert-base"]


class EncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln1 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.ln2 = nn.LayerNorm(d)

    def attend(self, x, bias):
        b, s, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        # Head splits through view(b, s, heads, -1), as HF models write them.
        q, k, v = (t.view(b, s, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]) + bias
        y = torch.softmax(scores, dim=-1) @ v
        return self.proj(y.transpose(1, 2).reshape(b, s, d))

    def forward(self, x, bias, pre_norm):
        if pre_norm:
            x = x + self.attend(self.ln1(x), bias)
            return x + self.ff(self.ln2(x))
        x = self.ln1(x + self.attend(x, bias))
        return self.ln2(x + self.ff(x))


class Bert(nn.Module):
    def __init__(self, vocab=500, d=64, heads=4, layers=2, max_len=64):
        super().__init__()
        self.word = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.segment = nn.Embedding(2, d)
        self.ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList(EncoderLayer(d, heads) for _ in range(layers))
        self.pool = nn.Linear(d, d)

    def forward(self, input_ids, attention_mask, token_type_ids):
        positions = torch.arange(input_ids.shape[1]).unsqueeze(0)
        x = self.ln(self.word(input_ids) + self.pos(positions) + self.segment(token_type_ids))
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, bias, pre_norm=False)
        return x, torch.tanh(self.pool(x[:, 0]))


class Gpt(nn.Module):
    def __init__(self, vocab=500, d=64, heads=4, layers=2, max_len=64):
        super().__init__()
        self.word = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList(EncoderLayer(d, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        s = input_ids.shape[1]
        x = self.word(input_ids) + self.pos(torch.arange(s).unsqueeze(0))
        causal = torch.triu(torch.full((s, s), float("-inf")), diagonal=1)
        for layer in self.layers:
            x = layer(x, causal, pre_norm=True)
        return self.head(self.ln(x))


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                  nn.MaxPool2d(2, ceil_mode=True))
        self.block = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                   nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16))
        self.down = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = self.stem(x)
        x = torch.relu(x + self.block(x))
        x = torch.relu(self.down(x))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


def export(name, model, names, outputs, dynamic_axes, example, sizes):
    model.eval()
    directory = os.path.join(out_dir, name)
    os.makedirs(directory, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(model, example, os.path.join(directory, "model.onnx"),
                          input_names=names, output_names=outputs,
                          dynamic_axes=dynamic_axes, opset_version=17)
        for size, inputs in sizes.items():
            case = os.path.join(directory, size)
            os.makedirs(case, exist_ok=True)
            results = model(*inputs)
            results = results if isinstance(results, tuple) else (results,)
            for i, t in enumerate(inputs):
                np.save(os.path.join(case, f"input_{i}.npy"), t.numpy())
            for i, t in enumerate(results):
                np.save(os.path.join(case, f"output_{i}.npy"), t.numpy())


def bert_inputs(b, s, vocab=500):
    ids = torch.randint(0, vocab, (b, s))
    mask = torch.ones(b, s, dtype=torch.int64)
    mask[0, s // 2:] = 0  # padding in the first sequence
    return ids, mask, torch.randint(0, 2, (b, s))


bert_names = ["input_ids", "attention_mask", "token_type_ids"]
bert_axes = {n: {0: "batch", 1: "sequence"} for n in bert_names}
if bert_base:
    export("bert-base", Bert(vocab=30522, d=768, heads=12, layers=12, max_len=512),
           bert_names, ["last_hidden_state", "pooler_output"], bert_axes,
           bert_inputs(2, 16, 30522),
           {"b1s128": bert_inputs(1, 128, 30522), "b2s37": bert_inputs(2, 37, 30522)})
    print("exported bert-base")
    sys.exit(0)
export("bert", Bert(), bert_names,
       ["last_hidden_state", "pooler_output"],
       bert_axes,
       bert_inputs(2, 16),
       {"b1s8": bert_inputs(1, 8), "b3s17": bert_inputs(3, 17), "b2s32": bert_inputs(2, 32)})
export("gpt", Gpt(), ["input_ids"], ["logits"],
       {"input_ids": {0: "batch", 1: "sequence"}, "logits": {0: "batch", 1: "sequence"}},
       (torch.randint(0, 500, (2, 16)),),
       {f"b{b}s{s}": (torch.randint(0, 500, (b, s)),) for b, s in [(1, 5), (2, 16), (3, 31)]})
cnn = Cnn()
for m in cnn.modules():  # non-trivial batch-norm statistics
    if isinstance(m, nn.BatchNorm2d):
        m.running_mean.uniform_(-0.5, 0.5)
        m.running_var.uniform_(0.5, 1.5)
export("cnn", cnn, ["image"], ["logits"],
       {"image": {0: "batch", 2: "height", 3: "width"}, "logits": {0: "batch"}},
       (torch.randn(2, 3, 32, 32),),
       {f"b{b}h{h}w{w}": (torch.randn(b, 3, h, w),) for b, h, w in [(1, 32, 32), (2, 40, 24), (3, 17, 29)]})
print("exported bert, gpt, cnn")
