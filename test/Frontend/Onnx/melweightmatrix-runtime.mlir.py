"""For melweightmatrix-runtime.mlir: MelWeightMatrix whose five parameters
are graph inputs, with onnx's reference outputs for two parameter sets, and
parameters the run rejects.

Usage: melweightmatrix-runtime.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
names = ("bins", "length", "rate", "low", "high")
graph = helper.make_graph(
    [helper.make_node("MelWeightMatrix", list(names), ["w"], name="mel")], "g",
    [helper.make_tensor_value_info(n, TensorProto.INT64, []) for n in names[:3]] +
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, []) for n in names[3:]],
    [helper.make_tensor_value_info("w", TensorProto.FLOAT, ["spectrogram_bins", "mel_bins"])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.save(model, os.path.join(out, "model.onnx"))
reference = ReferenceEvaluator(model)
cases = {
    "a": (8, 16, 8192, 0.0, 4096.0),
    "b": (5, 64, 16000, 300.0, 7000.0),
    "zero": (0, 16, 8192, 0.0, 4096.0),
    "wide": (8, 16, 8192, 0.0, 8192.0),
}
for case, values in cases.items():
    feeds = {n: np.array(v, np.int64 if i < 3 else np.float32)
             for i, (n, v) in enumerate(zip(names, values))}
    for key, value in feeds.items():
        np.save(os.path.join(out, f"{case}.{key}.npy"), value)
    if case in ("a", "b"):
        np.save(os.path.join(out, f"{case}.w.npy"), reference.run(None, feeds)[0])
