"""For runtime-shape-parameters.mlir: ops whose shape parameters are graph
inputs (Split's sizes on a dynamic dimension; Pad's pads, negative ones
cropping, and its axes; Slice's axes and steps; TopK's k; CumSum's axis), with numpy references for two parameter sets and
a set that breaks the ops' rules.

Usage: runtime-shape-parameters.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
nodes = [
    helper.make_node("Split", ["x", "split"], ["s0", "s1", "s2"], name="split", axis=1),
    helper.make_node("Pad", ["x", "pads", "fill"], ["padded"], name="pad"),
    helper.make_node("Pad", ["x", "pads2", "", "axes"], ["reflected"], name="reflect",
                     mode="reflect"),
    helper.make_node("Slice", ["x", "starts", "ends", "saxes", "steps"], ["sliced"],
                     name="slice"),
    helper.make_node("TopK", ["y", "k"], ["topv", "topi"], name="topk", axis=1),
    helper.make_node("CumSum", ["x", "caxis"], ["cumsum"], name="cumsum"),
]
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, "n"]),
     helper.make_tensor_value_info("split", TensorProto.INT64, [3]),
     helper.make_tensor_value_info("pads", TensorProto.INT64, [4]),
     helper.make_tensor_value_info("fill", TensorProto.FLOAT, []),
     helper.make_tensor_value_info("pads2", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("axes", TensorProto.INT64, [1]),
     helper.make_tensor_value_info("starts", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("ends", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("saxes", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("steps", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("k", TensorProto.INT64, [1]),
     helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4]),
     helper.make_tensor_value_info("caxis", TensorProto.INT32, [])],
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, f"{n}w"])
     for n in ("s0", "s1", "s2")] +
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, [f"{n}h", f"{n}w"])
     for n in ("padded", "reflected", "sliced", "topv")] +
    [helper.make_tensor_value_info("cumsum", TensorProto.FLOAT, [2, "cw"])] +
    [helper.make_tensor_value_info("topi", TensorProto.INT64, [2, "topiw"])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]),
          os.path.join(out, "model.onnx"))
rng = np.random.default_rng(0)
# name: (columns, split, pads [begin, end per dim], fill, pads2, axes,
#        slice (starts, ends, axes, steps), k)
cases = {
    "a": (7, [2, 0, 5], [1, -2, 0, 3], 1.5, [2, 3], [-1],
          ([-1, 0], [0, 2], [1, 0], [-2, 1]), 3),
    "b": (4, [1, 2, 1], [0, 2, -1, -5], -1.0, [1, 0], [0],
          ([0, 1], [9, 2], [-2, 1], [1, 2]), 0),
    "bad": (7, [2, 2, 2], [0, 0, 0, 0], 0.0, [0, 0], [1], ([0, 0], [1, 1], [0, 1], [1, 1]), 1),
    "badpad": (7, [2, 2, 3], [0, -5, 0, -3], 0.0, [0, 0], [1],
               ([0, 0], [1, 1], [0, 1], [1, 1]), 1),
    "badk": (4, [1, 2, 1], [0, 0, 0, 0], 0.0, [0, 0], [1], ([0, 0], [1, 1], [0, 1], [1, 1]), 5),
}
for name, (n, split, pads, fill, pads2, axes, sl, k) in cases.items():
    x = rng.standard_normal((2, n)).astype(np.float32)
    feeds = {"x": x, "split": np.array(split, np.int64), "pads": np.array(pads, np.int64),
             "fill": np.array(fill, np.float32), "pads2": np.array(pads2, np.int64),
             "axes": np.array(axes, np.int64), "k": np.array([k], np.int64),
             "y": rng.standard_normal((2, 4)).astype(np.float32),
             "caxis": np.array(axes[0], np.int32)}
    for key, value in zip(("starts", "ends", "saxes", "steps"), sl):
        feeds[key] = np.array(value, np.int64)
    for key, value in feeds.items():
        np.save(os.path.join(out, f"{name}.{key}.npy"), value)
    if name.startswith("bad"):
        continue
    for part, piece in enumerate(np.split(x, np.cumsum(split)[:-1], axis=1)):
        np.save(os.path.join(out, f"{name}.s{part}.npy"), piece)
    # ONNX pads by the positive amounts, then crops the negative ones.
    begin, end = pads[:2], pads[2:]
    padded = np.pad(x, [(max(b, 0), max(e, 0)) for b, e in zip(begin, end)],
                    constant_values=fill)
    padded = padded[tuple(slice(max(-b, 0), padded.shape[d] - max(-e, 0))
                          for d, (b, e) in enumerate(zip(begin, end)))]
    np.save(os.path.join(out, f"{name}.padded.npy"), padded)
    widths = [(0, 0), (0, 0)]
    widths[axes[0] % 2] = tuple(pads2)
    np.save(os.path.join(out, f"{name}.reflected.npy"), np.pad(x, widths, mode="reflect"))
    index = [slice(None)] * 2
    for start, end, axis, step in zip(*sl):
        index[axis % 2] = slice(start, end, step)
    np.save(os.path.join(out, f"{name}.sliced.npy"), x[tuple(index)])
    # Distinct values: the order of ties does not matter.
    y = feeds["y"]
    order = np.argsort(-y, axis=1, kind="stable")[:, :k]
    np.save(os.path.join(out, f"{name}.topi.npy"), order)
    np.save(os.path.join(out, f"{name}.topv.npy"), np.take_along_axis(y, order, axis=1))
    np.save(os.path.join(out, f"{name}.cumsum.npy"), np.cumsum(x, axis=axes[0]))
