"""A small CNN (a 3x3 convolution with bias and ReLU, a strided one, a
matmul head) and a copy with a dynamic batch, for tc-compile
--mode=max-autotune. See max-autotune.mlir."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(11)
x = rng.standard_normal((1, 32, 20, 20)).astype(np.float32)
w1 = (rng.standard_normal((32, 32, 3, 3)) * 0.1).astype(np.float32)
b1 = rng.standard_normal(32).astype(np.float32)
w2 = (rng.standard_normal((64, 32, 3, 3)) * 0.1).astype(np.float32)
w3 = (rng.standard_normal((64 * 10 * 10, 40)) * 0.01).astype(np.float32)


def conv(x, w, stride, pad):
    n, c, h, wd = x.shape
    f, _, k, _ = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - k) // stride + 1, (wd + 2 * pad - k) // stride + 1
    y = np.zeros((n, f, oh, ow))
    for i in range(k):
        for j in range(k):
            patch = xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
            y += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return y


h = np.maximum(conv(x, w1, 1, 1) + b1.reshape(1, -1, 1, 1), 0)
h = conv(h, w2, 2, 1)
y = (h.reshape(1, -1) @ w3).astype(np.float32)

for name, batch in (("model", 1), ("dynamic", "N")):
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1], strides=[2, 2],
                         name="conv2"),
        helper.make_node("Flatten", ["c2"], ["f"], name="flatten"),
        helper.make_node("MatMul", ["f", "w3"], ["y"], name="head"),
    ]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 32, 20, 20])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, 40])],
        [numpy_helper.from_array(a, n) for a, n in
         ((w1, "w1"), (b1, "b1"), (w2, "w2"), (w3, "w3"))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    os.makedirs(out, exist_ok=True)
    onnx.save(model, os.path.join(out, f"{name}.onnx"))
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), y)
os.makedirs(os.path.join(out, "inputs"), exist_ok=True)
np.save(os.path.join(out, "inputs", "x.npy"), x)
