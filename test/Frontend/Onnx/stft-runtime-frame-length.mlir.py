"""For stft-runtime-frame-length.mlir: STFT whose frame_length is a graph
input: a real batch of two signals (onesided), a complex signal (two-sided,
constant step) and a windowed one whose frame_length must match its window;
numpy references for two frame lengths, and bad frame lengths.

Usage: stft-runtime-frame-length.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
nodes = [
    helper.make_node("STFT", ["real", "step", "", "length"], ["y_real"], name="real"),
    helper.make_node("STFT", ["complex", "three", "", "length"], ["y_complex"], name="complex",
                     onesided=0),
    helper.make_node("STFT", ["real", "step", "window", "window_length"], ["y_windowed"],
                     name="windowed"),
]
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("real", TensorProto.FLOAT, [2, 20, 1]),
     helper.make_tensor_value_info("complex", TensorProto.FLOAT, [1, 20, 2]),
     helper.make_tensor_value_info("step", TensorProto.INT64, []),
     helper.make_tensor_value_info("length", TensorProto.INT64, []),
     helper.make_tensor_value_info("window", TensorProto.FLOAT, [4]),
     helper.make_tensor_value_info("window_length", TensorProto.INT64, [])],
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, [b, f"{n}_frames", f"{n}_bins", 2])
     for n, b in (("y_real", 2), ("y_complex", 1), ("y_windowed", 2))],
    [helper.make_tensor("three", TensorProto.INT64, [], [3])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "model.onnx"))


def stft(x, step, length, onesided, window=None):
    """numpy's STFT of x [batch, n, 1 or 2]: [batch, frames, bins, 2]."""
    signal = x[..., 0].astype(np.float64)
    if x.shape[-1] == 2:
        signal = signal + 1j * x[..., 1]
    frames = np.stack([signal[:, s:s + length] for s in range(0, x.shape[1] - length + 1, step)], 1)
    if window is not None:
        frames = frames * window
    spectrum = np.fft.rfft(frames, axis=-1) if onesided else np.fft.fft(frames, axis=-1)
    return np.stack([spectrum.real, spectrum.imag], -1).astype(np.float32)


rng = np.random.default_rng(0)
real = rng.standard_normal((2, 20, 1)).astype(np.float32)
complex_ = rng.standard_normal((1, 20, 2)).astype(np.float32)
window = np.hanning(4).astype(np.float32)
for name, step, length in (("a", 4, 6), ("b", 7, 9), ("bad", 4, 21)):
    feeds = {"real": real, "complex": complex_, "step": np.array(step, np.int64),
             "length": np.array(length, np.int64), "window": window,
             "window_length": np.array(4, np.int64)}
    for key, value in feeds.items():
        np.save(os.path.join(out, f"{name}.{key}.npy"), value)
    if name != "bad":
        np.save(os.path.join(out, f"{name}.y_real.npy"), stft(real, step, length, True))
        np.save(os.path.join(out, f"{name}.y_complex.npy"), stft(complex_, 3, length, False))
        np.save(os.path.join(out, f"{name}.y_windowed.npy"), stft(real, step, 4, True, window))
np.save(os.path.join(out, "five.npy"), np.array(5, np.int64))
np.save(os.path.join(out, "zero.npy"), np.array(0, np.int64))
