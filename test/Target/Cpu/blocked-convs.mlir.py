"""Convolutions over images narrower than 8 columns with output channels in
multiples of 32, which --tc-cpu-block-conv-channels computes in channel
blocks, with numpy references. See blocked-convs.mlir."""
import os
import sys

import numpy as np
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from onnx_cases import save_cases  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)


def conv(x, w, b, strides, pads, dilations):
    """Cross-correlation of x [N, C, D...] with w [F, C, K...] in float64."""
    spatial = x.ndim - 2
    x = np.pad(x.astype(np.float64),
               [(0, 0), (0, 0)] + [(pads[i], pads[spatial + i]) for i in range(spatial)])
    kernel = w.shape[2:]
    outs = [(x.shape[2 + i] - dilations[i] * (kernel[i] - 1) - 1) // strides[i] + 1
            for i in range(spatial)]
    y = np.zeros((x.shape[0], w.shape[0], *outs))
    for k in np.ndindex(*kernel):
        window = x[(slice(None), slice(None)) + tuple(
            slice(k[i] * dilations[i], k[i] * dilations[i] + strides[i] * (outs[i] - 1) + 1,
                  strides[i]) for i in range(spatial))]
        y += np.einsum("nc...,fc->nf...", window, w[(slice(None), slice(None)) + k])
    if b is not None:
        y += b.reshape((1, -1) + (1,) * spatial)
    return y


inits, nodes, feeds, refs = [], [], {}, {}


def case(name, x_shape, f, kernel, strides, pads, dilations, bias, relu=False):
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = (rng.standard_normal((f, x_shape[1], *kernel)) * 0.2).astype(np.float32)
    b = rng.standard_normal(f).astype(np.float32) if bias else None
    inits.append(numpy_helper.from_array(w, name + "_w"))
    inputs = ["x_" + name, name + "_w"]
    if bias:
        inits.append(numpy_helper.from_array(b, name + "_b"))
        inputs.append(name + "_b")
    conv_out = "c_" + name if relu else "y_" + name
    nodes.append(helper.make_node("Conv", inputs, [conv_out], name=name, strides=strides,
                                  pads=pads, dilations=dilations))
    y = conv(x, w, b, strides, pads, dilations)
    if relu:
        nodes.append(helper.make_node("Relu", [conv_out], ["y_" + name], name=name + "_relu"))
        y = np.maximum(y, 0)
    feeds["x_" + name] = x
    refs["y_" + name] = y.astype(np.float32)


# ResNet's last stage: 3x3, padding 1, 7x7, bias and ReLU.
case("c3x3", (1, 24, 7, 7), 64, (3, 3), [1, 1], [1, 1, 1, 1], [1, 1], True, relu=True)
# Its downsample: 1x1 with stride 2 from an odd 13x13 (7x7 out), no bias
# (a dense copy of the strided positions, then a pointwise convolution on
# 49 pixels, blocked).
case("down", (1, 40, 13, 13), 32, (1, 1), [2, 2], [0, 0, 0, 0], [1, 1], False)
# Non-square, dilated, asymmetric padding, batch 2: 5x6 -> 5x3.
case("dilated", (2, 8, 5, 6), 96, (3, 3), [1, 1], [2, 1, 2, 0], [2, 2], True)
# One spatial dimension: [N, C, 5] with a kernel of 3, stride 2.
case("line", (1, 16, 5), 32, (3,), [2], [1, 1], [1], True)
# Strided 3x3 on images too wide for the rule above but under 16 columns
# out (ResNet's stride-2 convolutions to 14x14): 27x27 -> 14x14 in rows of
# 7, bias and ReLU; batch 2 with asymmetric padding, 25x23 -> 12x12 in rows
# of 6.
case("s2", (1, 20, 27, 27), 64, (3, 3), [2, 2], [1, 1, 1, 1], [1, 1], True, relu=True)
case("s2odd", (2, 12, 25, 23), 32, (3, 3), [2, 2], [1, 1, 0, 1], [1, 1], False)
# Wider strided ones (from 16 input channels) read a channels-last copy of
# their padded input: 31x31 -> 16x16 with bias and ReLU; batch 2, dilated
# along the width, asymmetric padding, 40x51 -> 20x24.
case("s2wide", (1, 16, 31, 31), 32, (3, 3), [2, 2], [1, 1, 1, 1], [1, 1], True, relu=True)
case("s2widedil", (2, 24, 40, 51), 64, (3, 3), [2, 2], [0, 1, 2, 0], [1, 2], False)
# Pointwise ones over 7x7 and 6x6 images (49 and 36 pixels, rows of 7 and
# 6), with bias and ReLU; batch 2 without bias.
case("pw7", (1, 48, 7, 7), 64, (1, 1), [1, 1], [0, 0, 0, 0], [1, 1], True, relu=True)
case("pw6", (2, 24, 6, 6), 32, (1, 1), [1, 1], [0, 0, 0, 0], [1, 1], False)
# One 11 columns wide has no row count without a partial tile: kept in the
# image-width tile.
case("s2kept", (1, 8, 21, 21), 32, (3, 3), [2, 2], [1, 1, 1, 1], [1, 1], True)

save_cases(out, "blocked", nodes, feeds, refs, inits)
