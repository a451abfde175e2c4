"""Attentions with dynamic batch and sequence lengths that --precision=fp16
and bf16 compute as one flash-style GPU kernel, and numpy references for
two sets of extents. See attention-dynamic.mlir."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
import onnx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from low_precision import attention, bf16, f16  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(31)

# 1: q [batch, 2, lq, 64], k [batch, 2, lk, 64], v [batch, 2, lk, 64], a
#    [batch, 1, 1, lk] padding mask (broadcast over heads and queries),
#    scale on the scores.
# 2: self-attention of x [batch, s, 32] with itself as query, key and
#    value (heads of 32, one head), K given transposed in the graph.
nodes = [
    helper.make_node("MatMul", ["q", "kt"], ["s1"]),
    helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]),
    helper.make_node("Mul", ["s1", "scale"], ["l1"]),
    helper.make_node("Add", ["l1", "mask"], ["m1"]),
    helper.make_node("Softmax", ["m1"], ["p1"], axis=-1),
    helper.make_node("MatMul", ["p1", "v"], ["y1"]),
    helper.make_node("Transpose", ["x"], ["xt"], perm=[0, 2, 1]),
    helper.make_node("MatMul", ["x", "xt"], ["s2"]),
    helper.make_node("Softmax", ["s2"], ["p2"], axis=-1),
    helper.make_node("MatMul", ["p2", "x"], ["y2"]),
]
dims = {"q": ["batch", 2, "lq", 64], "k": ["batch", 2, "lk", 64],
        "v": ["batch", 2, "lk", 64], "mask": ["batch", 1, 1, "lk"],
        "x": ["batch", "s", 32]}
graph = helper.make_graph(
    nodes, "attention_dynamic",
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, d) for n, d in dims.items()],
    [helper.make_tensor_value_info("y1", TensorProto.FLOAT, ["batch", 2, "lq", 64]),
     helper.make_tensor_value_info("y2", TensorProto.FLOAT, ["batch", "s", 32])],
    [numpy_helper.from_array(np.array(1 / np.sqrt(64), np.float32), "scale")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "model.onnx"))

# a: a whole 32-row block and key step and tails of each; b: fewer queries
# and keys than one block or step.
for tag, (batch, lq, lk, s) in (("a", (2, 70, 45, 37)), ("b", (1, 5, 3, 9))):
    q = rng.standard_normal((batch, 2, lq, 64)).astype(np.float32)
    k = rng.standard_normal((batch, 2, lk, 64)).astype(np.float32)
    v = rng.standard_normal((batch, 2, lk, 64)).astype(np.float32)
    mask = np.zeros((batch, 1, 1, lk), np.float32)
    mask[0, ..., lk - 2:] = -10000.0
    x = rng.standard_normal((batch, s, 32)).astype(np.float32)
    for name, value in (("q", q), ("k", k), ("v", v), ("mask", mask), ("x", x)):
        np.save(os.path.join(out, f"{name}.{tag}.npy"), value)
    for precision, r in (("bf16", bf16), ("fp16", f16)):
        y1 = attention(q, np.swapaxes(k, -1, -2), v, mask, float(np.float32(1 / np.sqrt(64))), r)
        y2 = attention(x, np.swapaxes(x, -1, -2), x, np.zeros((s, s), np.float32), 1.0, r)
        np.save(os.path.join(out, f"y1.{tag}.{precision}.npy"), y1.astype(np.float32))
        np.save(os.path.join(out, f"y2.{tag}.{precision}.npy"), y2.astype(np.float32))
