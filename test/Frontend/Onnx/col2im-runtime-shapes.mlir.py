"""For col2im-runtime-shapes.mlir: Col2Im whose image_shape and block_shape
are graph inputs, on a 2-D image with strides, dilations and pads and on a
3-D one, with onnx's reference outputs for two shape sets each, and shapes
that do not fit the input; and model_const.onnx: constant shapes on an input
of dynamic shape (case a's 2-D ones).

Usage: col2im-runtime-shapes.mlir.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
nodes = [
    helper.make_node("Col2Im", ["x2", "image2", "block2"], ["y2"], name="col2im_2d",
                     strides=[2, 1], dilations=[1, 2], pads=[1, 0, 0, 1]),
    helper.make_node("Col2Im", ["x3", "image3", "block3"], ["y3"], name="col2im_3d"),
]
graph = helper.make_graph(
    nodes, "g",
    [helper.make_tensor_value_info("x2", TensorProto.FLOAT, [2, "cols2", "blocks2"]),
     helper.make_tensor_value_info("image2", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("block2", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("x3", TensorProto.FLOAT, [1, "cols3", "blocks3"]),
     helper.make_tensor_value_info("image3", TensorProto.INT64, [3]),
     helper.make_tensor_value_info("block3", TensorProto.INT64, [3])],
    [helper.make_tensor_value_info("y2", TensorProto.FLOAT, [2, "c2", "h2", "w2"]),
     helper.make_tensor_value_info("y3", TensorProto.FLOAT, [1, "c3", "d3", "h3", "w3"])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.save(model, os.path.join(out, "model.onnx"))
reference = ReferenceEvaluator(model)
rng = np.random.default_rng(0)


def blocks(image, block, strides=(1, 1, 1), dilations=(1, 1, 1), pads=(0,) * 6):
    n = len(image)
    count = 1
    for d in range(n):
        padded = image[d] + pads[d] + pads[n + d]
        count *= (padded - dilations[d] * (block[d] - 1) - 1) // strides[d] + 1
    return count


# (channels, image2, block2, image3, block3)
cases = {"a": (3, [5, 6], [2, 3], [3, 4, 5], [2, 2, 3]),
         "b": (2, [4, 9], [3, 2], [2, 5, 3], [1, 3, 2])}
for name, (c, image2, block2, image3, block3) in cases.items():
    l2 = blocks(image2, block2, (2, 1), (1, 2), (1, 0, 0, 1))
    l3 = blocks(image3, block3)
    feeds = {"x2": rng.standard_normal((2, c * int(np.prod(block2)), l2)).astype(np.float32),
             "image2": np.array(image2, np.int64), "block2": np.array(block2, np.int64),
             "x3": rng.standard_normal((1, c * int(np.prod(block3)), l3)).astype(np.float32),
             "image3": np.array(image3, np.int64), "block3": np.array(block3, np.int64)}
    for key, value in feeds.items():
        np.save(os.path.join(out, f"{name}.{key}.npy"), value)
    for key, value in zip(("y2", "y3"), reference.run(None, feeds)):
        np.save(os.path.join(out, f"{name}.{key}.npy"), value)
# Case a's input with case b's 2-D block: dimension 2 is not the block count.
np.save(os.path.join(out, "bad.block2.npy"), np.array(cases["b"][2], np.int64))

# Constant shapes, an input of dynamic shape: checked when it runs.
const_graph = helper.make_graph(
    [helper.make_node("Col2Im", ["x2", "image", "block"], ["y2"], name="col2im_const",
                      strides=[2, 1], dilations=[1, 2], pads=[1, 0, 0, 1])], "g",
    [helper.make_tensor_value_info("x2", TensorProto.FLOAT, [2, "cols2", "blocks2"])],
    [helper.make_tensor_value_info("y2", TensorProto.FLOAT, [2, "c2", 5, 6])],
    [helper.make_tensor("image", TensorProto.INT64, [2], cases["a"][1]),
     helper.make_tensor("block", TensorProto.INT64, [2], cases["a"][2])])
onnx.save(helper.make_model(const_graph, opset_imports=[helper.make_opsetid("", 18)]),
          os.path.join(out, "model_const.onnx"))
