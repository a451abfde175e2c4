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
# An LM head: a 3-D activation (the weight is viewed as [1, 160, 1000]) and
# N = 1000, not a multiple of 32 (a zero-padded last panel).
x3 = rng.standard_normal((1, 27, 160)).astype(np.float32)
wh = (rng.standard_normal((160, 1000)) * 0.1).astype(np.float32)
# A classifier at batch 1: one row (a matrix-vector product), a [1000, 200]
# Gemm weight with a bias.
v = rng.standard_normal((1, 200)).astype(np.float32)
wc = (rng.standard_normal((1000, 200)) * 0.1).astype(np.float32)  # [N, K]
bc = rng.standard_normal(1000).astype(np.float32)
nodes = [
    helper.make_node("MatMul", ["x", "w"], ["h"], name="up"),
    helper.make_node("Relu", ["h"], ["r"], name="act"),
    helper.make_node("Gemm", ["r", "wt", "bias"], ["y"], name="down", transB=1),
    helper.make_node("MatMul", ["x3", "wh"], ["z"], name="head"),
    helper.make_node("Gemm", ["v", "wc", "bc"], ["c"], name="classifier", transB=1),
]
graph = helper.make_graph(
    nodes, "packed", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["rows", 160]),
                      helper.make_tensor_value_info("x3", TensorProto.FLOAT, [1, "rows", 160]),
                      helper.make_tensor_value_info("v", TensorProto.FLOAT, [1, 200])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["rows", 96]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, "rows", 1000]),
     helper.make_tensor_value_info("c", TensorProto.FLOAT, [1, 1000])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(wt, "wt"),
     numpy_helper.from_array(bias, "bias"), numpy_helper.from_array(wh, "wh"),
     numpy_helper.from_array(wc, "wc"), numpy_helper.from_array(bc, "bc")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "x.npy"), x)
y = np.maximum(x.astype(np.float64) @ w, 0) @ wt.T.astype(np.float64) + bias
np.save(os.path.join(out, "y.npy"), y.astype(np.float32))
np.save(os.path.join(out, "x3.npy"), x3)
np.save(os.path.join(out, "z.npy"), (x3.astype(np.float64) @ wh).astype(np.float32))
np.save(os.path.join(out, "v.npy"), v)
np.save(os.path.join(out, "c.npy"),
        (v.astype(np.float64) @ wc.T.astype(np.float64) + bc).astype(np.float32))
