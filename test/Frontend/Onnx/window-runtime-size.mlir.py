"""For window-runtime-size.mlir: Blackman (symmetric) and Hann (periodic,
int32 output) windows whose size is a graph input; numpy references for
sizes 5 and 1 and a negative size.

Usage: window-runtime-size.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
graph = helper.make_graph(
    [helper.make_node("BlackmanWindow", ["size"], ["blackman"], name="blackman", periodic=0),
     helper.make_node("HannWindow", ["size"], ["hann"], name="hann",
                      output_datatype=TensorProto.INT32)],
    "g", [helper.make_tensor_value_info("size", TensorProto.INT32, [])],
    [helper.make_tensor_value_info("blackman", TensorProto.FLOAT, ["n"]),
     helper.make_tensor_value_info("hann", TensorProto.INT32, ["n"])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "model.onnx"))


def cosine(size, period, a0, a1, a2):
    phase = 2 * np.pi * np.arange(size) / (period if period > 0 else 1)
    return a0 - a1 * np.cos(phase) + a2 * np.cos(2 * phase)


for name, size in (("a", 5), ("b", 1), ("bad", -2)):
    np.save(os.path.join(out, f"{name}.size.npy"), np.array(size, np.int32))
    if size >= 0:
        np.save(os.path.join(out, f"{name}.blackman.npy"),
                cosine(size, size - 1, 0.42, 0.5, 0.08).astype(np.float32))
        # Scaled by 1: a Hann window in int32 is 0 but at its peak.
        np.save(os.path.join(out, f"{name}.hann.npy"),
                cosine(size, size, 0.5, 0.5, 0.0).astype(np.int32))
