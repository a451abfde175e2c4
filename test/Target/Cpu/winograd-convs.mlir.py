"""3x3 convolutions that --tc-cpu-winograd-conv computes with F(4x4, 3x3),
with float64 numpy references. See winograd-convs.mlir."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from onnx_cases import save_cases  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(23)


def conv(x, w, b, pads):
    """Cross-correlation of x [N, C, H, W] with w [F, C, 3, 3], unit strides."""
    x = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])])
    oh, ow = x.shape[2] - 2, x.shape[3] - 2
    y = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,fc->nfhw", x[:, :, i:i + oh, j:j + ow], w[:, :, i, j])
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


inits, nodes, feeds, refs, dynamic = [], [], {}, {}, set()


def case(name, x_shape, f, pads, bias, relu=False, residual=False, dynamic_batch=False):
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = (rng.standard_normal((f, x_shape[1], 3, 3)) * 0.2).astype(np.float32)
    b = rng.standard_normal(f).astype(np.float32) if bias else None
    inits.append(numpy_helper.from_array(w, name + "_w"))
    inputs = ["x_" + name, name + "_w"]
    if bias:
        inits.append(numpy_helper.from_array(b, name + "_b"))
        inputs.append(name + "_b")
    y = conv(x, w, b, pads)
    last = "c_" + name
    nodes.append(helper.make_node("Conv", inputs, [last], name=name, pads=pads))
    if residual:
        r = rng.standard_normal(y.shape).astype(np.float32)
        feeds["r_" + name] = r
        nodes.append(helper.make_node("Add", [last, "r_" + name], ["a_" + name],
                                      name=name + "_add"))
        last = "a_" + name
        y = y + r
    if relu:
        nodes.append(helper.make_node("Relu", [last], ["o_" + name], name=name + "_relu"))
        last = "o_" + name
        y = np.maximum(y, 0)
    nodes.append(helper.make_node("Identity", [last], ["y_" + name], name=name + "_out"))
    feeds["x_" + name] = x
    refs["y_" + name] = y.astype(np.float32)
    if dynamic_batch:
        dynamic.update({"x_" + name, "y_" + name})


# ResNet's block: 16x16 (16 tiles), padding 1, bias and ReLU.
case("block", (1, 64, 16, 16), 64, [1, 1, 1, 1], True, relu=True)
# Tails: 13x11 at batch 2 (tiles past the image's last rows and columns),
# 96 input channels (3 lane blocks) to 32.
case("tails", (2, 96, 13, 11), 32, [1, 1, 1, 1], True)
# No padding: 18x18 -> 16x16; asymmetric padding 15x17 -> 16x16 (top 2,
# left 0, bottom 1, right 1); a residual Add and ReLU after it.
case("valid", (1, 32, 18, 18), 64, [0, 0, 0, 0], False)
case("skewed", (1, 32, 15, 17), 32, [2, 0, 1, 1], True, relu=True, residual=True)
# ResNet's last stage, 7x7, at batch 2: 8 tiles of 4x4 but 32 of 2x2, so
# F(2x2, 3x3). (At batch 1 its transformed filter, 16/9 of the filter, is
# estimated to take longer to read than the direct convolution's
# multiply-adds: tc-cpu-winograd-conv-cost.mlir.)
case("small", (2, 32, 7, 7), 64, [1, 1, 1, 1], True, relu=True)
# Too few tiles (5x5: 9 of 2x2): the direct convolution.
case("few", (1, 32, 5, 5), 32, [1, 1, 1, 1], True)
# A batch axis exported dynamic (run at batch 2): the 14x14 one in F(4x4),
# counting the tiles of batch 1 (16); the 5x5 one direct, in channel blocks
# (--tc-cpu-block-conv-channels).
case("dynamic", (2, 32, 14, 14), 64, [1, 1, 1, 1], True, relu=True, dynamic_batch=True)
case("dynfew", (2, 32, 5, 5), 32, [1, 1, 1, 1], False, dynamic_batch=True)

def info(name, value):
    shape = list(value.shape)
    if name in dynamic:
        shape[0] = "n"
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


save_cases(out, "winograd", nodes, feeds, refs, inits, info)
