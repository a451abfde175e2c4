"""For maxunpool-runtime-output-shape.mlir: MaxUnpool with its output_shape
a graph input; references (the inferred 4x4 unpooling, zero-padded at the
end of each dimension, as ONNX's reference does) for 5x5 and 4x6, and a
shape smaller than the inferred one.

Usage: maxunpool-runtime-output-shape.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
graph = helper.make_graph(
    [helper.make_node("MaxUnpool", ["x", "i", "shape"], ["y"], name="unpool",
                      kernel_shape=[2, 2], strides=[2, 2])], "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 2]),
     helper.make_tensor_value_info("i", TensorProto.INT64, [1, 1, 2, 2]),
     helper.make_tensor_value_info("shape", TensorProto.INT64, [4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", "c", "h", "w"])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)]),
          os.path.join(out, "model.onnx"))
x = np.array([[[[5, 6], [7, 8]]]], np.float32)
indices = np.array([[[[5, 7], [13, 15]]]], np.int64)
inferred = np.zeros(16, np.float32)
inferred[indices.ravel()] = x.ravel()
inferred = inferred.reshape(1, 1, 4, 4)
for name, shape in (("a", [1, 1, 5, 5]), ("b", [1, 1, 4, 6]), ("bad", [1, 1, 3, 4])):
    np.save(os.path.join(out, f"{name}.x.npy"), x)
    np.save(os.path.join(out, f"{name}.i.npy"), indices)
    np.save(os.path.join(out, f"{name}.shape.npy"), np.array(shape, np.int64))
    if shape[2] >= 4:
        pads = [(0, want - have) for want, have in zip(shape, inferred.shape)]
        np.save(os.path.join(out, f"{name}.y.npy"), np.pad(inferred, pads))
