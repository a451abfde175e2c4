"""For reduce-runtime-axes.mlir: ReduceSum (keepdims), ReduceMean and
ReduceLogSumExp (keepdims=0) of x f32[2, 3, 4] over axes given as a graph
input, with numpy references for a few axes sets.

Usage: reduce-runtime-axes.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
nodes = [
    helper.make_node("ReduceSum", ["x", "axes"], ["sum"], name="sum", keepdims=1),
    helper.make_node("ReduceMean", ["x", "axes"], ["mean"], name="mean", keepdims=0),
    helper.make_node("ReduceLogSumExp", ["x", "axes"], ["lse"], name="lse", keepdims=0),
]
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4]),
     helper.make_tensor_value_info("axes", TensorProto.INT64, [2])],
    [helper.make_tensor_value_info("sum", TensorProto.FLOAT, ["a", "b", "c"]),
     helper.make_tensor_value_info("mean", TensorProto.FLOAT, ["m"]),
     helper.make_tensor_value_info("lse", TensorProto.FLOAT, ["l"])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]),
          os.path.join(out, "model.onnx"))
rng = np.random.default_rng(0)
# Large values: the log-sum-exp must not overflow.
x = (rng.standard_normal((2, 3, 4)) * 40).astype(np.float32)
np.save(os.path.join(out, "x.npy"), x)
for name, axes in [("a02", [0, 2]), ("am11", [-1, 1]), ("a10", [1, 0]), ("bad", [0, 3])]:
    np.save(os.path.join(out, f"{name}.npy"), np.array(axes, np.int64))
    if name == "bad":
        continue
    t = tuple(a % 3 for a in axes)
    np.save(os.path.join(out, f"{name}.sum.npy"), x.sum(axis=t, keepdims=True))
    np.save(os.path.join(out, f"{name}.mean.npy"), x.mean(axis=t))
    m = x.max(axis=t, keepdims=True)
    lse = np.log(np.exp(x.astype(np.float64) - m).sum(axis=t, keepdims=True)) + m
    np.save(os.path.join(out, f"{name}.lse.npy"), lse.squeeze(axis=t).astype(np.float32))
