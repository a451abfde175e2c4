"""Contractions the GPU kernels compute on matrix cores under --precision
(16-bit operands, f32 accumulation), with tails in every dimension, and
numpy references that round as the policy does. See matrix-cores.mlir."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
import onnx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from low_precision import bf16, conv, f16, tf32  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(24)


# A MatMul of 37 x 70 by 70 x 90 (32 x 32 tiles: tails in M, N and K), a
# batch of 256 64 x 24 by 24 x 64 products (enough blocks for 64 x 64
# tiles; K a tail of one step), a Gemm with transB and a bias, a strided
# padded 3x3 convolution (implicit GEMM) and a grouped dilated one.
x1 = rng.standard_normal((37, 70)).astype(np.float32)
w1 = (rng.standard_normal((70, 90)) * 0.2).astype(np.float32)
a2 = rng.standard_normal((256, 64, 24)).astype(np.float32)
b2 = rng.standard_normal((256, 24, 64)).astype(np.float32)
x3 = rng.standard_normal((20, 33)).astype(np.float32)
w3 = (rng.standard_normal((50, 33)) * 0.2).astype(np.float32)
bias3 = rng.standard_normal(50).astype(np.float32)
img4 = rng.standard_normal((1, 19, 15, 15)).astype(np.float32)
f4 = (rng.standard_normal((40, 19, 3, 3)) * 0.2).astype(np.float32)
img5 = rng.standard_normal((1, 8, 9, 9)).astype(np.float32)
f5 = (rng.standard_normal((36, 4, 3, 3)) * 0.2).astype(np.float32)
nodes = [
    helper.make_node("MatMul", ["x1", "w1"], ["y1"], name="tails"),
    helper.make_node("MatMul", ["a2", "b2"], ["y2"], name="batched"),
    helper.make_node("Gemm", ["x3", "w3", "bias3"], ["y3"], name="gemm", transB=1),
    helper.make_node("Conv", ["img4", "f4"], ["y4"], name="strided", strides=[2, 2],
                     pads=[1, 1, 1, 1]),
    helper.make_node("Conv", ["img5", "f5"], ["y5"], name="grouped", group=2,
                     dilations=[2, 2], pads=[2, 2, 2, 2]),
]
inputs = {"x1": x1, "a2": a2, "x3": x3, "img4": img4, "img5": img5}
weights = {"w1": w1, "b2": b2, "w3": w3, "bias3": bias3, "f4": f4, "f5": f5}
graph = helper.make_graph(
    nodes, "matrix_cores",
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, v.shape) for n, v in inputs.items()],
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in [
        ("y1", [37, 90]), ("y2", [256, 64, 64]), ("y3", [20, 50]),
        ("y4", [1, 40, 8, 8]), ("y5", [1, 36, 9, 9])]],
    [numpy_helper.from_array(v, n) for n, v in weights.items()])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "model.onnx"))
for name, value in inputs.items():
    np.save(os.path.join(out, name + ".npy"), value)

# The policy: operands rounded to the 16-bit type, products summed
# exactly, the result rounded once; the Gemm's bias is added after, in f32.
for tag, r in (("bf16", bf16), ("fp16", f16)):
    refs = {
        "y1": r(r(x1).astype(np.float64) @ r(w1)),
        "y2": r(np.matmul(r(a2).astype(np.float64), r(b2))),
        "y3": r(r(x3).astype(np.float64) @ r(w3).T) + bias3,
        "y4": r(conv(r(img4), r(f4), 2, 1, 1, 1)),
        "y5": r(conv(r(img5), r(f5), 1, 2, 2, 2)),
    }
    for name, value in refs.items():
        np.save(os.path.join(out, f"{name}.{tag}.npy"), value.astype(np.float32))

# TF32: the factors rounded, the products exact and summed in f32 (here in
# f64), the result and the bias not rounded.
refs = {
    "y1": tf32(x1).astype(np.float64) @ tf32(w1),
    "y2": np.matmul(tf32(a2).astype(np.float64), tf32(b2)),
    "y3": tf32(x3).astype(np.float64) @ tf32(w3).T + bias3,
    "y4": conv(tf32(img4), tf32(f4), 2, 1, 1, 1),
    "y5": conv(tf32(img5), tf32(f5), 1, 2, 2, 2),
}
for name, value in refs.items():
    np.save(os.path.join(out, f"{name}.tf32.npy"), value.astype(np.float32))
