"""For stft-runtime-step.mlir: STFT of a real [1, 16, 1] signal with a
4-point window and its frame_step a graph input; numpy references for
steps 3 and 12, and a step of zero.

Usage: stft-runtime-step.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
graph = helper.make_graph(
    [helper.make_node("STFT", ["signal", "step", "window"], ["y"], name="stft")], "g",
    [helper.make_tensor_value_info("signal", TensorProto.FLOAT, [1, 16, 1]),
     helper.make_tensor_value_info("step", TensorProto.INT32, []),
     helper.make_tensor_value_info("window", TensorProto.FLOAT, [4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "frames", 3, 2])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "model.onnx"))
rng = np.random.default_rng(0)
signal = rng.standard_normal((1, 16, 1)).astype(np.float32)
window = np.hanning(4).astype(np.float32)
for name, step in (("a", 3), ("b", 12), ("bad", 0)):
    np.save(os.path.join(out, f"{name}.signal.npy"), signal)
    np.save(os.path.join(out, f"{name}.step.npy"), np.array(step, np.int32))
    np.save(os.path.join(out, f"{name}.window.npy"), window)
    if step > 0:
        frames = np.stack([signal[0, s:s + 4, 0] * window for s in range(0, 13, step)])
        spectrum = np.fft.rfft(frames.astype(np.float64), axis=1)
        np.save(os.path.join(out, f"{name}.y.npy"),
                np.stack([spectrum.real, spectrum.imag], -1)[None].astype(np.float32))
