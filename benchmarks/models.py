#!/usr/bin/env python3
"""Builds the real-size benchmark models: torchvision CNNs and ViT, and plain
PyTorch BERT-base and GPT-2-small definitions, with random weights from a
fixed seed, exported by torch.onnx.export (opset 17, static shapes, batch 1).

Each model lands in OUT/<name>/ in the ONNX backend-test layout that
cpu_vs_onnxruntime.py and compile_time.py read: model.onnx and
test_data_set_0/{input,output}_<i>.pb with PyTorch's float32 outputs.
A model whose folder already has model.onnx is left as it is.

Run it with a Python that has torch and torchvision (Debian's python3-torch
and python3-torchvision, which utils/setup.sh installs):

  /usr/bin/python3 benchmarks/models.py OUT [NAME...]

Names: resnet18 resnet50 mobilenet_v2 efficientnet_b0 convnext_tiny vit_b_16
bert_base gpt2_small (default: all).
"""
import math
import os
import sys

import numpy as np
import torch
from torch import nn


class EncoderLayer(nn.Module):
    """A transformer layer as BERT (post-norm) and GPT-2 (pre-norm) write it."""

    def __init__(self, d, heads, pre_norm):
        super().__init__()
        self.heads, self.pre_norm = heads, pre_norm
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln1 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.ln2 = nn.LayerNorm(d)

    def attend(self, x, bias):
        b, s, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q, k, v = (t.view(b, s, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]) + bias
        y = torch.softmax(scores, dim=-1) @ v
        return self.proj(y.transpose(1, 2).reshape(b, s, d))

    def forward(self, x, bias):
        if self.pre_norm:
            x = x + self.attend(self.ln1(x), bias)
            return x + self.ff(self.ln2(x))
        x = self.ln1(x + self.attend(x, bias))
        return self.ln2(x + self.ff(x))


class BertBase(nn.Module):
    def __init__(self, vocab=30522, d=768, heads=12, layers=12, max_len=512):
        super().__init__()
        self.word = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.segment = nn.Embedding(2, d)
        self.ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList(EncoderLayer(d, heads, False) for _ in range(layers))
        self.pool = nn.Linear(d, d)

    def forward(self, input_ids, attention_mask, token_type_ids):
        positions = torch.arange(input_ids.shape[1]).unsqueeze(0)
        x = self.ln(self.word(input_ids) + self.pos(positions) + self.segment(token_type_ids))
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        return x, torch.tanh(self.pool(x[:, 0]))


class Gpt2Small(nn.Module):
    """GPT-2 small's shape: 12 pre-norm layers of 768, 12 heads, a
    50257-token LM head tied to the embedding."""

    def __init__(self, vocab=50257, d=768, heads=12, layers=12, max_len=1024):
        super().__init__()
        self.word = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList(EncoderLayer(d, heads, True) for _ in range(layers))
        self.ln = nn.LayerNorm(d)

    def forward(self, input_ids):
        s = input_ids.shape[1]
        x = self.word(input_ids) + self.pos(torch.arange(s).unsqueeze(0))
        causal = torch.triu(torch.full((s, s), float("-inf")), diagonal=1)
        for layer in self.layers:
            x = layer(x, causal)
        return self.ln(x) @ self.word.weight.t()


def calibrate_batch_norm(model, example):
    """Running statistics from a few random batches, so activations keep a
    realistic range through deep networks (random weights alone blow up or
    vanish, and then every output is alike)."""
    model.train()
    with torch.no_grad():
        for _ in range(3):
            model(torch.randn_like(example))
    model.eval()


def torchvision_model(name):
    import torchvision.models as tvm
    model = getattr(tvm, name)()
    # torchvision zero-initializes some layers (ViT's classifier head): with
    # random weights that makes every output 0, which checks nothing.
    with torch.no_grad():
        for parameter in model.parameters():
            if parameter.dim() >= 2 and not parameter.any():
                parameter.normal_(0, 0.02)
    example = torch.randn(1, 3, 224, 224)
    calibrate_batch_norm(model, example)
    return model, ["input"], ["logits"], (example,)


def bert_base():
    ids = torch.randint(0, 30522, (1, 128))
    mask = torch.ones(1, 128, dtype=torch.int64)
    mask[0, 100:] = 0
    segments = torch.randint(0, 2, (1, 128))
    return (BertBase(), ["input_ids", "attention_mask", "token_type_ids"],
            ["last_hidden_state", "pooler_output"], (ids, mask, segments))


def gpt2_small():
    return Gpt2Small(), ["input_ids"], ["logits"], (torch.randint(0, 50257, (1, 128)),)


MODELS = {
    "resnet18": lambda: torchvision_model("resnet18"),
    "resnet50": lambda: torchvision_model("resnet50"),
    "mobilenet_v2": lambda: torchvision_model("mobilenet_v2"),
    "efficientnet_b0": lambda: torchvision_model("efficientnet_b0"),
    "convnext_tiny": lambda: torchvision_model("convnext_tiny"),
    "vit_b_16": lambda: torchvision_model("vit_b_16"),
    "bert_base": bert_base,
    "gpt2_small": gpt2_small,
}


def save_tensor(path, array):
    from onnx import numpy_helper  # noqa: PLC0415 (torch's onnx dependency)
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array).SerializeToString())


def build(out, name):
    directory = os.path.join(out, name)
    path = os.path.join(directory, "model.onnx")
    if os.path.exists(path):
        return
    torch.manual_seed(0)
    model, inputs, outputs, example = MODELS[name]()
    model.eval()
    data = os.path.join(directory, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    with torch.no_grad():
        results = model(*example)
        results = results if isinstance(results, tuple) else (results,)
    # Exported with gradients enabled: under no_grad, torch's
    # nn.MultiheadAttention (ViT) takes a fused fast path that has no ONNX
    # export. The traced computation is the same.
    torch.onnx.export(model, example, path + ".tmp", input_names=inputs,
                      output_names=outputs, opset_version=17)
    for i, t in enumerate(example):
        save_tensor(os.path.join(data, f"input_{i}.pb"), t.numpy())
    for i, t in enumerate(results):
        save_tensor(os.path.join(data, f"output_{i}.pb"), t.numpy())
    os.replace(path + ".tmp", path)
    print(f"exported {name}: {os.path.getsize(path) / 1e6:.0f} MB", flush=True)


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    names = sys.argv[2:] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.exit(f"unknown model(s): {', '.join(unknown)}; known: {', '.join(MODELS)}")
    for name in names:
        build(sys.argv[1], name)


if __name__ == "__main__":
    main()
