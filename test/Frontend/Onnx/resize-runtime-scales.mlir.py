"""For resize-runtime-scales.mlir: Resize and Upsample whose scales or sizes
are graph inputs (also antialiased), on an image whose height and width are
dynamic, with onnx's reference outputs for two image sizes and two parameter sets.

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
    # Antialiased downscales: the filter widens with a scale read at run
    # time, so its taps loop.
    helper.make_node("Resize", ["x", "", "aa_scales"], ["aa_linear"], name="aa_linear",
                     mode="linear", antialias=1, axes=[2, 3]),
    helper.make_node("Resize", ["x", "", "", "aa_sizes"], ["aa_cubic"], name="aa_cubic",
                     mode="cubic", antialias=1, exclude_outside=1, axes=[3, 2]),
    # A constant downscale by 40 along a long row: 80 taps, too many to
    # unroll.
    helper.make_node("Resize", ["long", "", "wide"], ["aa_wide"], name="aa_wide",
                     mode="linear", antialias=1),
]
fixed = helper.make_tensor("fixed", TensorProto.FLOAT, [4], [1, 1, 2, 1.5])
wide = helper.make_tensor("wide", TensorProto.FLOAT, [3], [1, 1, 0.025])
outputs = ("linear", "cubic", "nearest", "aa_linear", "aa_cubic", "aa_wide")
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, "h", "w"]),
     helper.make_tensor_value_info("scales", TensorProto.FLOAT, [2]),
     helper.make_tensor_value_info("sizes", TensorProto.INT64, [4]),
     helper.make_tensor_value_info("aa_scales", TensorProto.FLOAT, [2]),
     helper.make_tensor_value_info("aa_sizes", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("long", TensorProto.FLOAT, [2, 3, 300])],
    [helper.make_tensor_value_info(n, TensorProto.FLOAT,
                                   [f"{n}{d}" for d in range(3 if n == "aa_wide" else 4)])
     for n in outputs],
    [fixed, wide])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
onnx.save(model, os.path.join(out, "model.onnx"))
reference = ReferenceEvaluator(model)
rng = np.random.default_rng(0)
# (image size, scales, sizes, antialiased scales, antialiased sizes (w, h))
cases = {
    "a": ((5, 7), [2.0, 0.5], [1, 2, 9, 12], [0.6, 0.3], [2, 3]),
    "b": ((4, 3), [1.7, 3.0], [1, 1, 12, 2], [0.45, 1.5], [3, 1]),
}
for name, ((h, w), scales, sizes, aa_scales, aa_sizes) in cases.items():
    feeds = {"x": rng.standard_normal((1, 2, h, w)).astype(np.float32),
             "scales": np.array(scales, np.float32),
             "sizes": np.array(sizes, np.int64),
             "aa_scales": np.array(aa_scales, np.float32),
             "aa_sizes": np.array(aa_sizes, np.int64),
             "long": rng.standard_normal((2, 3, 300)).astype(np.float32)}
    for key, value in feeds.items():
        np.save(os.path.join(out, f"{name}.{key}.npy"), value)
    for key, value in zip(outputs, reference.run(None, feeds)):
        np.save(os.path.join(out, f"{name}.{key}.out.npy"), value)
np.save(os.path.join(out, "bad.scales.npy"), np.array([2.0, -1.0], np.float32))
