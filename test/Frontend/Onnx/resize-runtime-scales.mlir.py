"""For resize-runtime-scales.mlir: Resize and Upsample whose scales or sizes
are graph inputs, on an image whose height and width are dynamic, with
onnx's reference outputs for two image sizes and two parameter sets.

Usage: resize-runtime-scales.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
nodes = [
    # Scales over the last two axes, linear, half_pixel.
    helper.make_node("Resize", ["x", "", "scales"], ["linear"], name="linear",
                     mode="linear", axes=[2, 3]),
    # Sizes for every axis, cubic with align_corners, keeping the aspect.
    helper.make_node("Resize", ["x", "", "", "sizes"], ["cubic"], name="cubic",
                     mode="cubic", coordinate_transformation_mode="align_corners",
                     keep_aspect_ratio_policy="not_larger"),
    # Constant scales on the dynamic image (sizes floor(h * 2), floor(w * 1.5)).
    helper.make_node("Resize", ["x", "", "fixed"], ["nearest"], name="nearest",
                     mode="nearest", nearest_mode="floor",
                     coordinate_transformation_mode="asymmetric"),
]
fixed = helper.make_tensor("fixed", TensorProto.FLOAT, [4], [1, 1, 2, 1.5])
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, "h", "w"]),
     helper.make_tensor_value_info("scales", TensorProto.FLOAT, [2]),
     helper.make_tensor_value_info("sizes", TensorProto.INT64, [4])],
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, [f"{n}{d}" for d in range(4)])
     for n in ("linear", "cubic", "nearest")],
    [fixed])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
onnx.save(model, os.path.join(out, "model.onnx"))
reference = ReferenceEvaluator(model)
rng = np.random.default_rng(0)
cases = {
    "a": ((5, 7), [2.0, 0.5], [1, 2, 9, 12]),
    "b": ((4, 3), [1.7, 3.0], [1, 1, 12, 2]),
}
for name, ((h, w), scales, sizes) in cases.items():
    feeds = {"x": rng.standard_normal((1, 2, h, w)).astype(np.float32),
             "scales": np.array(scales, np.float32),
             "sizes": np.array(sizes, np.int64)}
    for key, value in feeds.items():
        np.save(os.path.join(out, f"{name}.{key}.npy"), value)
    for key, value in zip(("linear", "cubic", "nearest"), reference.run(None, feeds)):
        np.save(os.path.join(out, f"{name}.{key}.out.npy"), value)
np.save(os.path.join(out, "bad.scales.npy"), np.array([2.0, -1.0], np.float32))
