"""For dft-runtime-axis.mlir: a onesided DFT-20 of a real [3, 4, 1] signal
with its axis a graph input; numpy references (rfft) for axes 0 and -2, and
the axis of the real/imaginary dimension.

Usage: dft-runtime-axis.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
graph = helper.make_graph(
    [helper.make_node("DFT", ["x", "", "axis"], ["y"], name="dft", onesided=1)], "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4, 1]),
     helper.make_tensor_value_info("axis", TensorProto.INT64, [])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b", 2])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)]),
          os.path.join(out, "model.onnx"))
x = np.random.default_rng(0).standard_normal((3, 4, 1)).astype(np.float32)
for name, axis in (("a", 0), ("b", -2), ("bad", 2)):
    np.save(os.path.join(out, f"{name}.x.npy"), x)
    np.save(os.path.join(out, f"{name}.axis.npy"), np.array(axis, np.int64))
    if name != "bad":
        spectrum = np.fft.rfft(x[..., 0].astype(np.float64), axis=axis % 3)
        np.save(os.path.join(out, f"{name}.y.npy"),
                np.stack([spectrum.real, spectrum.imag], axis=-1).astype(np.float32))
