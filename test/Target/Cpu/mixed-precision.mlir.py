"""A model whose contractions take every CPU kernel path, for
--precision=bf16/fp16, with numpy references that round as the policy does.
See mixed-precision.mlir."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from low_precision import bf16, conv, f16  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)


# A packed MatMul weight [K, N], a Gemm weight [N, K] (transB) with a bias, a
# 3x3 convolution on a 7x7 image with 64 filters (channel-blocked), one on a
# 16x16 image (image-width tiles), a depthwise one on 14x14 (channel-blocked,
# --tc-cpu-block-depthwise-convs), and attention (Q K^T, softmax, V).
x = rng.standard_normal((24, 160)).astype(np.float32)
w = (rng.standard_normal((160, 256)) * 0.1).astype(np.float32)
wt = (rng.standard_normal((96, 256)) * 0.1).astype(np.float32)
bias = rng.standard_normal(96).astype(np.float32)
img7 = rng.standard_normal((1, 32, 7, 7)).astype(np.float32)
f7 = (rng.standard_normal((64, 32, 3, 3)) * 0.1).astype(np.float32)
img16 = rng.standard_normal((1, 8, 16, 16)).astype(np.float32)
f16w = (rng.standard_normal((16, 8, 3, 3)) * 0.1).astype(np.float32)
img14 = rng.standard_normal((1, 32, 14, 14)).astype(np.float32)
fdw = (rng.standard_normal((32, 1, 3, 3)) * 0.3).astype(np.float32)
q = rng.standard_normal((2, 16, 32)).astype(np.float32)
k = rng.standard_normal((2, 16, 32)).astype(np.float32)
v = rng.standard_normal((2, 16, 32)).astype(np.float32)
nodes = [
    helper.make_node("MatMul", ["x", "w"], ["h"], name="up"),
    helper.make_node("Relu", ["h"], ["r"], name="act"),
    helper.make_node("Gemm", ["r", "wt", "bias"], ["y"], name="down", transB=1),
    helper.make_node("Conv", ["img7", "f7"], ["c7"], name="conv7", pads=[1, 1, 1, 1]),
    helper.make_node("Conv", ["img16", "f16w"], ["c16"], name="conv16", pads=[1, 1, 1, 1]),
    helper.make_node("Conv", ["img14", "fdw"], ["dw"], name="depthwise", group=32,
                     pads=[1, 1, 1, 1]),
    helper.make_node("Transpose", ["k"], ["kt"], name="kt", perm=[0, 2, 1]),
    helper.make_node("MatMul", ["q", "kt"], ["s"], name="scores"),
    helper.make_node("Softmax", ["s"], ["p"], name="softmax", axis=-1),
    helper.make_node("MatMul", ["p", "v"], ["att"], name="context"),
]
floats = TensorProto.FLOAT
graph = helper.make_graph(
    nodes, "mixed",
    [helper.make_tensor_value_info("x", floats, [24, 160]),
     helper.make_tensor_value_info("img7", floats, [1, 32, 7, 7]),
     helper.make_tensor_value_info("img16", floats, [1, 8, 16, 16]),
     helper.make_tensor_value_info("img14", floats, [1, 32, 14, 14]),
     helper.make_tensor_value_info("q", floats, [2, 16, 32]),
     helper.make_tensor_value_info("k", floats, [2, 16, 32]),
     helper.make_tensor_value_info("v", floats, [2, 16, 32])],
    [helper.make_tensor_value_info("y", floats, [24, 96]),
     helper.make_tensor_value_info("c7", floats, [1, 64, 7, 7]),
     helper.make_tensor_value_info("c16", floats, [1, 16, 16, 16]),
     helper.make_tensor_value_info("dw", floats, [1, 32, 14, 14]),
     helper.make_tensor_value_info("att", floats, [2, 16, 32])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(wt, "wt"),
     numpy_helper.from_array(bias, "bias"), numpy_helper.from_array(f7, "f7"),
     numpy_helper.from_array(f16w, "f16w"), numpy_helper.from_array(fdw, "fdw")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.save(model, os.path.join(out, "model.onnx"))
for name, value in [("x", x), ("img7", img7), ("img16", img16), ("img14", img14), ("q", q),
                    ("k", k), ("v", v)]:
    np.save(os.path.join(out, name + ".npy"), value)


def reference(low):
    """The policy's numerics: contraction operands and results rounded to
    the 16-bit type, the sums exact (f64; the kernels accumulate in f32),
    everything else unrounded."""
    h = np.maximum(low(low(x).astype(np.float64) @ low(w)), 0)
    y = low(low(h).astype(np.float64) @ low(wt).T.astype(np.float64)) + bias
    c7 = low(conv(low(img7), low(f7)))
    c16 = low(conv(low(img16), low(f16w)))
    dw = low(conv(low(img14), low(fdw), group=32))
    # Fused attention keeps the scores and the softmax in f32 and rounds
    # the probabilities to the 16-bit type before they multiply V.
    s = np.einsum("bqd,bkd->bqk", low(q).astype(np.float64), low(k))
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    att = low(np.einsum("bqk,bkd->bqd", low(p), low(v)))
    return {"y": y, "c7": c7, "c16": c16, "dw": dw, "att": att}


for suffix, low in [("bf16", bf16), ("fp16", f16)]:
    for name, value in reference(low).items():
        np.save(os.path.join(out, f"{name}.{suffix}.npy"), value.astype(np.float32))
