"""Depthwise convolutions and pooling windows, whose register tiles span
several output rows (--tc-cpu-vectorize-contractions) and whose workgroups
split channels (--tc-cpu-distribute), with numpy references. See
depthwise-convs.mlir."""
import os
import sys

import numpy as np
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from onnx_cases import save_cases  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(5)


def windows(x, kernel, strides, pads, dilations, fill):
    """x [N, C, H, W] padded with `fill`, and for each kernel offset the
    strided view of the windows' elements, [N, C, OH, OW]."""
    x = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])],
               constant_values=fill)
    outs = [(x.shape[2 + i] - dilations[i] * (kernel[i] - 1) - 1) // strides[i] + 1
            for i in range(2)]
    for k in np.ndindex(*kernel):
        yield k, x[:, :, k[0] * dilations[0]:k[0] * dilations[0] + strides[0] * (outs[0] - 1) + 1:strides[0],
                   k[1] * dilations[1]:k[1] * dilations[1] + strides[1] * (outs[1] - 1) + 1:strides[1]]


def depthwise(x, w, b, strides, pads, dilations):
    """Conv with group = C and w [C * M, 1, KH, KW] (M outputs per channel)."""
    m = w.shape[0] // x.shape[1]
    y = 0
    for k, window in windows(x, w.shape[2:], strides, pads, dilations, 0.0):
        y = y + np.repeat(window, m, axis=1) * w[:, 0, k[0], k[1]].reshape(1, -1, 1, 1)
    return y + b.reshape(1, -1, 1, 1) if b is not None else y


inits, nodes, feeds, refs = [], [], {}, {}


def case(name, x_shape, multiplier, kernel, strides, pads, dilations, bias, clip=False):
    x = rng.standard_normal(x_shape).astype(np.float32)
    c = x_shape[1]
    w = rng.standard_normal((c * multiplier, 1, *kernel)).astype(np.float32)
    b = rng.standard_normal(c * multiplier).astype(np.float32) if bias else None
    inits.append(numpy_helper.from_array(w, name + "_w"))
    inputs = ["x_" + name, name + "_w"]
    if bias:
        inits.append(numpy_helper.from_array(b, name + "_b"))
        inputs.append(name + "_b")
    conv_out = "c_" + name if clip else "y_" + name
    nodes.append(helper.make_node("Conv", inputs, [conv_out], name=name, group=c,
                                  strides=strides, pads=pads, dilations=dilations))
    y = depthwise(x, w, b, strides, pads, dilations)
    if clip:
        inits.append(numpy_helper.from_array(np.array(0, np.float32), name + "_lo"))
        inits.append(numpy_helper.from_array(np.array(6, np.float32), name + "_hi"))
        nodes.append(helper.make_node("Clip", [conv_out, name + "_lo", name + "_hi"],
                                      ["y_" + name], name=name + "_clip"))
        y = np.clip(y, 0, 6)
    feeds["x_" + name] = x
    refs["y_" + name] = y.astype(np.float32)


def pool(name, op, x_shape, kernel, strides, pads):
    x = rng.standard_normal(x_shape).astype(np.float32)
    nodes.append(helper.make_node(op, ["x_" + name], ["y_" + name], name=name,
                                  kernel_shape=kernel, strides=strides, pads=pads))
    fill = -np.inf if op == "MaxPool" else 0.0
    parts = [v for _, v in windows(x, kernel, strides, pads, [1, 1], fill)]
    if op == "MaxPool":
        y = np.max(parts, axis=0)
    else:  # count_include_pad = 0: divide by the window's elements inside the image
        ones = [v for _, v in windows(np.ones_like(x), kernel, strides, pads, [1, 1], 0.0)]
        y = np.sum(parts, axis=0) / np.sum(ones, axis=0)
    feeds["x_" + name] = x
    refs["y_" + name] = y.astype(np.float32)


# MobileNet's 3x3 with bias and ReLU6, odd sizes everywhere: 37 channels,
# 23 rows (tiles of four and a rest of three), 29 columns (16 + 8 + 5).
case("dw3", (1, 37, 23, 29), 1, (3, 3), [1, 1], [1, 1, 1, 1], [1, 1], True, clip=True)
# Stride 2 with asymmetric padding: 31x30 -> 16x15.
case("dw3s2", (1, 24, 31, 30), 1, (3, 3), [2, 2], [1, 1, 1, 0], [1, 1], False)
# EfficientNet's 5x5 at batch 2, on 14x13.
case("dw5", (2, 12, 14, 13), 1, (5, 5), [1, 1], [2, 2, 2, 2], [1, 1], True)
# Dilation 2 and two outputs per channel (group = C, 2C filters).
case("dwdil", (1, 8, 19, 21), 2, (3, 3), [1, 1], [2, 2, 2, 2], [2, 2], True)
# Narrow images with channels in whole blocks compute channel-blocked
# (--tc-cpu-block-depthwise-convs): 48 channels in blocks of 16, 5x5 at
# batch 2 with bias and ReLU6 on 14x13; 64 channels in blocks of 32,
# stride 2 with asymmetric padding, 15x14 -> 7x7; dilation 2 on 11x12.
case("blk5", (2, 48, 14, 13), 1, (5, 5), [1, 1], [2, 2, 2, 2], [1, 1], True, clip=True)
case("blks2", (1, 64, 15, 14), 1, (3, 3), [2, 2], [1, 1, 0, 1], [1, 1], False)
case("blkdil", (1, 32, 11, 12), 1, (3, 3), [1, 1], [2, 2, 2, 2], [2, 2], True)
# Pooling windows: ResNet's stem max pool, and an average pool that does
# not count the padding.
pool("maxpool", "MaxPool", (1, 20, 27, 27), [3, 3], [2, 2], [1, 1, 1, 1])
pool("avgpool", "AveragePool", (1, 9, 17, 18), [3, 3], [1, 1], [1, 1, 1, 1])

save_cases(out, "depthwise", nodes, feeds, refs, inits)
print(" ".join(f"{n}:{list(v.shape)}" for n, v in refs.items()))
