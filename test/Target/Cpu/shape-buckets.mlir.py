"""For shape-buckets.mlir: a model with three symbolic dimensions (batch,
rows, cols) whose additions broadcast [batch, 16] with [rows, 16] and
[cols, 16], so its generic code checks two extents at run time; numpy
references at shapes inside and outside the buckets, and inputs whose
extents do not broadcast.

Usage: shape-buckets.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
w = rng.standard_normal((8, 16)).astype(np.float32)
b = rng.standard_normal(16).astype(np.float32)
nodes = [
    helper.make_node("MatMul", ["x", "w"], ["xw"], name="matmul"),
    helper.make_node("Add", ["xw", "b"], ["xwb"], name="bias"),
    helper.make_node("Relu", ["xwb"], ["r"], name="relu"),
    helper.make_node("Add", ["r", "y"], ["ry"], name="add_rows"),
    helper.make_node("Add", ["ry", "z"], ["out"], name="add_cols"),
]
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 8]),
     helper.make_tensor_value_info("y", TensorProto.FLOAT, ["rows", 16]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, ["cols", 16])],
    [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["batch", 16])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "model.onnx"))

# name: (batch, rows, cols); "bad_*" do not broadcast (extents known
# only at run time must be equal).
cases = {"b2": (2, 2, 2), "b3": (3, 3, 3), "b4": (4, 4, 4), "b1": (1, 1, 1),
         "bad_b0": (2, 2, 3), "bad_b1": (3, 2, 3), "bad_generic": (4, 4, 5)}
for name, (batch, rows, cols) in cases.items():
    x = rng.standard_normal((batch, 8)).astype(np.float32)
    y = rng.standard_normal((rows, 16)).astype(np.float32)
    z = rng.standard_normal((cols, 16)).astype(np.float32)
    for key, value in (("x", x), ("y", y), ("z", z)):
        np.save(os.path.join(out, f"{name}.{key}.npy"), value)
    if not name.startswith("bad"):
        np.save(os.path.join(out, f"{name}.out.npy"),
                np.maximum(x @ w + b, 0) + y + z)
