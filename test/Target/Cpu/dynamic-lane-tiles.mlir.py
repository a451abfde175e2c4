"""For dynamic-lane-tiles.mlir: kernels whose vector lanes run along a
dynamic dimension (full tiles and a peeled partial one), and kernels that
read their loop indices, with numpy references at two sizes.

Usage: dynamic-lane-tiles.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
F = TensorProto.FLOAT
nodes = [
    # A matmul with dynamic M and N: register tiles with partial rows and lanes.
    helper.make_node("MatMul", ["a", "b"], ["mm"], name="mm"),
    # Softmax along a dynamic row (its max and sum reductions, its
    # normalization).
    helper.make_node("Softmax", ["s"], ["sm"], name="sm", axis=-1),
    # An elementwise op along a dynamic row.
    helper.make_node("Sigmoid", ["s"], ["sig"], name="sig"),
    # CumSum along the leading axis: its body compares loop indices, and its
    # lanes run along the other (dynamic, then static) dim.
    helper.make_node("CumSum", ["s", "zero"], ["cs"], name="cs"),
    helper.make_node("CumSum", ["t", "zero"], ["ct"], name="ct"),
]
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("a", F, ["m", 24]),
     helper.make_tensor_value_info("b", F, [24, "n"]),
     helper.make_tensor_value_info("s", F, [3, "w"]),
     helper.make_tensor_value_info("t", F, [2, 37])],
    [helper.make_tensor_value_info("mm", F, ["m", "n"]),
     helper.make_tensor_value_info("sm", F, [3, "w"]),
     helper.make_tensor_value_info("sig", F, [3, "w"]),
     helper.make_tensor_value_info("cs", F, [3, "w"]),
     helper.make_tensor_value_info("ct", F, [2, 37])],
    [helper.make_tensor("zero", TensorProto.INT64, [], [0])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "model.onnx"))
rng = np.random.default_rng(0)
for name, (m, n, w) in {"a": (13, 45, 37), "b": (8, 64, 5)}.items():
    a = rng.standard_normal((m, 24)).astype(np.float32)
    b = rng.standard_normal((24, n)).astype(np.float32)
    s = rng.standard_normal((3, w)).astype(np.float32)
    t = rng.standard_normal((2, 37)).astype(np.float32)
    e = np.exp(s - s.max(-1, keepdims=True))
    refs = {"a": a, "b": b, "s": s, "t": t, "mm": a @ b, "sm": e / e.sum(-1, keepdims=True),
            "sig": 1 / (1 + np.exp(-s)), "cs": np.cumsum(s, 0), "ct": np.cumsum(t, 0)}
    for key, value in refs.items():
        np.save(os.path.join(out, f"{name}.{key}.npy"), value.astype(np.float32))
