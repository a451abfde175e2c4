"""For affinegrid-runtime-size.mlir: AffineGrid (2-D, align_corners=0 and
1) with its size a graph input; numpy references for two sizes (one with a
single row) and a size whose N differs from theta's.

Usage: affinegrid-runtime-size.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
graph = helper.make_graph(
    [helper.make_node("AffineGrid", ["theta", "size"], ["grid"], name="grid"),
     helper.make_node("AffineGrid", ["theta", "size"], ["corners"], name="corners",
                      align_corners=1)], "g",
    [helper.make_tensor_value_info("theta", TensorProto.FLOAT, [2, 2, 3]),
     helper.make_tensor_value_info("size", TensorProto.INT64, [4])],
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, "h", "w", 2])
     for n in ("grid", "corners")])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)]),
          os.path.join(out, "model.onnx"))


def reference(theta, h, w, corners):
    def axis(n):
        if corners:
            return np.array([-1.0]) if n == 1 else -1 + np.arange(n) * 2 / (n - 1)
        return -1 + 1 / n + np.arange(n) * 2 / n
    ys, xs = np.meshgrid(axis(h), axis(w), indexing="ij")
    base = np.stack([xs, ys, np.ones_like(xs)], axis=-1).reshape(-1, 3)
    return np.einsum("pk,njk->npj", base, theta).reshape(len(theta), h, w, 2)


theta = np.random.default_rng(0).standard_normal((2, 2, 3)).astype(np.float32)
for name, size in (("a", [2, 3, 4, 5]), ("b", [2, 1, 1, 3]), ("bad", [3, 1, 4, 5])):
    np.save(os.path.join(out, f"{name}.theta.npy"), theta)
    np.save(os.path.join(out, f"{name}.size.npy"), np.array(size, np.int64))
    if name != "bad":
        for output, corners in (("grid", False), ("corners", True)):
            np.save(os.path.join(out, f"{name}.{output}.npy"),
                    reference(theta.astype(np.float64), size[2], size[3], corners)
                    .astype(np.float32))
