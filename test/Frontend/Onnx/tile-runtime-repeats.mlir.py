"""For tile-runtime-repeats.mlir: Tile with its repeats a graph input, of an
input with a dynamic dimension; numpy references for two repeat sets and a
negative repeat.

Usage: tile-runtime-repeats.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
graph = helper.make_graph(
    [helper.make_node("Tile", ["x", "repeats"], ["y"], name="tile")], "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, "n"]),
     helper.make_tensor_value_info("repeats", TensorProto.INT64, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["h", "w"])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
          os.path.join(out, "model.onnx"))
rng = np.random.default_rng(0)
for name, columns, repeats in (("a", 3, [2, 3]), ("b", 5, [1, 0]), ("bad", 2, [1, -1])):
    x = rng.standard_normal((2, columns)).astype(np.float32)
    np.save(os.path.join(out, f"{name}.x.npy"), x)
    np.save(os.path.join(out, f"{name}.repeats.npy"), np.array(repeats, np.int64))
    if min(repeats) >= 0:
        np.save(os.path.join(out, f"{name}.y.npy"), np.tile(x, repeats))
