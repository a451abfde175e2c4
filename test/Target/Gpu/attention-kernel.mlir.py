"""Attentions that --precision=fp16|bf16 computes as one flash-style GPU
kernel (tc_gpu.attention), with tails in every dimension, and numpy
references that round as the policy does. See attention-kernel.mlir."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
import onnx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from low_precision import attention, bf16, f16  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(25)

# 1: 2 x 3 heads, 70 queries (a whole 64-row block and a tail), 45 keys (a
#    whole 32-key step and a tail), head 40 (padded to 48), key given as
#    K^T [.., D, Lk] (key_transposed), an additive [70, 45] mask that hides
#    some positions with -inf and the first 33 keys of query 3 (a row whose
#    first step is all -inf), scale on the scores.
# 2: head 96 and value head 80 (32-row blocks), key given as K and
#    transposed in the graph, a [1, 1, 1, 37] padding mask, scale applied
#    to Q, K broadcast over the batch (its batch extent 1).
# 3: as exporters write multi-head attention: Q, K and V slices of one
#    [1, 37, 3 x 4 x 48] projection, their heads split by a Reshape and
#    moved ahead of the sequence by Transposes, the result's moved back and
#    merged (the kernel reads and writes them in place: no transposes).
q1 = rng.standard_normal((2, 3, 70, 40)).astype(np.float32)
kt1 = rng.standard_normal((2, 3, 40, 45)).astype(np.float32)
v1 = rng.standard_normal((2, 3, 45, 40)).astype(np.float32)
mask1 = np.where(rng.random((70, 45)) < 0.1, -np.inf, 0).astype(np.float32)
mask1[3, :33] = -np.inf
mask1 += (rng.standard_normal((70, 45)) * 0.5).astype(np.float32)
q2 = rng.standard_normal((3, 2, 19, 96)).astype(np.float32)
k2 = rng.standard_normal((1, 2, 37, 96)).astype(np.float32)
v2 = rng.standard_normal((3, 2, 37, 80)).astype(np.float32)
mask2 = np.zeros((1, 1, 1, 37), np.float32)
mask2[..., 30:] = -10000.0
x3 = rng.standard_normal((1, 37, 3 * 4 * 48)).astype(np.float32)
scale1 = np.array(1 / np.sqrt(40), np.float32)
scale2 = np.array(1 / np.sqrt(96), np.float32)

nodes = [
    helper.make_node("MatMul", ["q1", "kt1"], ["s1"]),
    helper.make_node("Mul", ["s1", "scale1"], ["l1"]),
    helper.make_node("Add", ["l1", "mask1"], ["m1"]),
    helper.make_node("Softmax", ["m1"], ["p1"], axis=-1),
    helper.make_node("MatMul", ["p1", "v1"], ["y1"]),
    helper.make_node("Mul", ["q2", "scale2"], ["qs2"]),
    helper.make_node("Transpose", ["k2"], ["kt2"], perm=[0, 1, 3, 2]),
    helper.make_node("MatMul", ["qs2", "kt2"], ["s2"]),
    helper.make_node("Add", ["s2", "mask2"], ["m2"]),
    helper.make_node("Softmax", ["m2"], ["p2"], axis=-1),
    helper.make_node("MatMul", ["p2", "v2"], ["y2"]),
    helper.make_node("Split", ["x3", "split3"], ["q3", "k3", "v3"], axis=2),
    helper.make_node("Reshape", ["q3", "heads3"], ["qh3"]),
    helper.make_node("Reshape", ["k3", "heads3"], ["kh3"]),
    helper.make_node("Reshape", ["v3", "heads3"], ["vh3"]),
    helper.make_node("Transpose", ["qh3"], ["qt3"], perm=[0, 2, 1, 3]),
    helper.make_node("Transpose", ["kh3"], ["kt3"], perm=[0, 2, 3, 1]),
    helper.make_node("Transpose", ["vh3"], ["vt3"], perm=[0, 2, 1, 3]),
    helper.make_node("MatMul", ["qt3", "kt3"], ["s3"]),
    helper.make_node("Div", ["s3", "root3"], ["l3"]),
    helper.make_node("Softmax", ["l3"], ["p3"], axis=-1),
    helper.make_node("MatMul", ["p3", "vt3"], ["o3"]),
    helper.make_node("Transpose", ["o3"], ["ot3"], perm=[0, 2, 1, 3]),
    helper.make_node("Reshape", ["ot3", "merged3"], ["y3"]),
]
inputs = {"q1": q1, "kt1": kt1, "v1": v1, "q2": q2, "k2": k2, "v2": v2, "x3": x3}
weights = {"mask1": mask1, "mask2": mask2, "scale1": scale1, "scale2": scale2,
           "split3": np.array([192, 192, 192], np.int64),
           "heads3": np.array([1, 37, 4, 48], np.int64),
           "merged3": np.array([1, 37, 192], np.int64),
           "root3": np.array(np.sqrt(48), np.float32)}
graph = helper.make_graph(
    nodes, "attention_kernel",
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, v.shape) for n, v in inputs.items()],
    [helper.make_tensor_value_info("y1", TensorProto.FLOAT, [2, 3, 70, 40]),
     helper.make_tensor_value_info("y2", TensorProto.FLOAT, [3, 2, 19, 80]),
     helper.make_tensor_value_info("y3", TensorProto.FLOAT, [1, 37, 192])],
    [numpy_helper.from_array(v, n) for n, v in weights.items()])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "model.onnx"))
for name, value in inputs.items():
    np.save(os.path.join(out, name + ".npy"), value)


for tag, r in (("bf16", bf16), ("fp16", f16)):
    # The scale folds into tc.attention's (in f32, not rounded to 16 bits).
    y1 = attention(q1, kt1, v1, mask1, float(scale1), r)
    y2 = attention(q2, np.swapaxes(k2, -1, -2), v2, mask2, float(scale2), r)
    np.save(os.path.join(out, f"y1.{tag}.npy"), y1.astype(np.float32))
    np.save(os.path.join(out, f"y2.{tag}.npy"), y2.astype(np.float32))
    q3, k3, v3 = (x3[..., i * 192:(i + 1) * 192].reshape(1, 37, 4, 48).transpose(0, 2, 1, 3)
                  for i in range(3))
    y3 = attention(q3, np.swapaxes(k3, -1, -2), v3, np.zeros((37, 37), np.float32),
                   float(1 / np.float32(np.sqrt(48))), r)
    np.save(os.path.join(out, f"y3.{tag}.npy"),
            y3.transpose(0, 2, 1, 3).reshape(1, 37, 192).astype(np.float32))
