"""Models whose matmul weights --tc-cpu-pack-weights stores in panels, with
numpy references. See packed-weights.mlir."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
# 27 rows: three full 8-row tiles and a partial one of 3.
x = rng.standard_normal((27, 160)).astype(np.float32)
w = (rng.standard_normal((160, 256)) * 0.1).astype(np.float32)  # [K, N]
wt = (rng.standard_normal((96, 256)) * 0.1).astype(np.float32)  # [N, K]: transB
bias = rng.standard_normal(96).astype(np.float32)
nodes = [
    helper.make_node("MatMul", ["x", "w"], ["h"], name="up"),
    helper.make_node("Relu", ["h"], ["r"], name="act"),
    helper.make_node("Gemm", ["r", "wt", "bias"], ["y"], name="down", transB=1),
]
graph = helper.make_graph(
    nodes, "packed", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["rows", 160])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["rows", 96])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(wt, "wt"),
     numpy_helper.from_array(bias, "bias")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "x.npy"), x)
y = np.maximum(x.astype(np.float64) @ w, 0) @ wt.T.astype(np.float64) + bias
np.save(os.path.join(out, "y.npy"), y.astype(np.float32))
