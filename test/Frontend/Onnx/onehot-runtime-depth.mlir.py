"""For onehot-runtime-depth.mlir: OneHot with its depth a graph input (a
float, truncated as the reference does), negative indices and a middle
axis; numpy references for two depths and a depth of zero.

Usage: onehot-runtime-depth.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
graph = helper.make_graph(
    [helper.make_node("OneHot", ["indices", "depth", "values"], ["y"], name="onehot", axis=1)],
    "g",
    [helper.make_tensor_value_info("indices", TensorProto.INT32, [2, 3]),
     helper.make_tensor_value_info("depth", TensorProto.FLOAT, []),
     helper.make_tensor_value_info("values", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, "d", 3])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)]),
          os.path.join(out, "model.onnx"))
indices = np.array([[0, 2, -1], [1, -3, 5]], np.int32)
for name, depth in (("a", 4.7), ("b", 7.0), ("bad", 0.5)):
    np.save(os.path.join(out, f"{name}.indices.npy"), indices)
    np.save(os.path.join(out, f"{name}.depth.npy"), np.array(depth, np.float32))
    np.save(os.path.join(out, f"{name}.values.npy"), np.array([-1, 2], np.float32))
    d = int(depth)
    if d > 0:
        wrapped = np.where(indices < 0, indices + d, indices)
        hit = wrapped[:, None, :] == np.arange(d)[None, :, None]
        np.save(os.path.join(out, f"{name}.y.npy"), np.where(hit, 2, -1).astype(np.float32))
