"""Depthwise-separable blocks that --tc-channels-last computes in NHWC,
with float64 numpy references: odd channel counts (20, 37, 40, 120, 144),
strides, asymmetric padding, dilation, batch 2, biases and none, ReLU6,
SiLU, a squeeze-excitation scale, residual adds and a classifier. See
channels-last.mlir."""
import os
import sys

import numpy as np
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from onnx_cases import save_cases  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)
inits, nodes, feeds, refs = [], [], {}, {}
counter = [0]


def fresh(prefix):
    counter[0] += 1
    return f"{prefix}{counter[0]}"


def const(value):
    name = fresh("k")
    inits.append(numpy_helper.from_array(np.asarray(value, np.float32), name))
    return name


def conv(x, xv, f, kernel=1, stride=1, pads=(0, 0, 0, 0), dilation=1,
         group=1, bias=True):
    """A Conv node on `x` (value `xv`, float64 NCHW) and its reference."""
    c = xv.shape[1]
    w = (rng.standard_normal((f, c // group, kernel, kernel)) /
         np.sqrt(c // group * kernel * kernel)).astype(np.float32)
    b = rng.standard_normal(f).astype(np.float32) if bias else None
    inputs = [x, const(w)] + ([const(b)] if bias else [])
    y = fresh("c")
    nodes.append(helper.make_node("Conv", inputs, [y], name=y, group=group,
                                  kernel_shape=[kernel, kernel],
                                  strides=[stride, stride], pads=list(pads),
                                  dilations=[dilation, dilation]))
    padded = np.pad(xv, [(0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])])
    oh = (padded.shape[2] - dilation * (kernel - 1) - 1) // stride + 1
    ow = (padded.shape[3] - dilation * (kernel - 1) - 1) // stride + 1
    yv = np.zeros((xv.shape[0], f, oh, ow))
    per = f // group
    for g in range(group):
        xs = padded[:, g * (c // group):(g + 1) * (c // group)]
        for i in range(kernel):
            for j in range(kernel):
                window = xs[:, :, i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                            j * dilation:j * dilation + stride * (ow - 1) + 1:stride]
                yv[:, g * per:(g + 1) * per] += np.einsum(
                    "nchw,fc->nfhw", window, w[g * per:(g + 1) * per, :, i, j])
    if bias:
        yv += b.reshape(1, -1, 1, 1)
    return y, yv


def unary(op, x, xv):
    y = fresh("u")
    if op == "Relu6":
        nodes.append(helper.make_node("Clip", [x, const(0), const(6)], [y], name=y))
        return y, np.clip(xv, 0, 6)
    if op == "Sigmoid":
        nodes.append(helper.make_node("Sigmoid", [x], [y], name=y))
        return y, 1 / (1 + np.exp(-xv))
    raise ValueError(op)


def binary(op, a, av, b, bv):
    y = fresh("b")
    nodes.append(helper.make_node(op, [a, b], [y], name=y))
    return y, (av + bv if op == "Add" else av * bv)


def silu(x, xv):
    s, sv = unary("Sigmoid", x, xv)
    return binary("Mul", x, xv, s, sv)


def case(name, shape):
    x = rng.standard_normal(shape).astype(np.float32)
    feeds["x_" + name] = x
    return "x_" + name, x.astype(np.float64)


def output(name, y, yv):
    nodes.append(helper.make_node("Identity", [y], ["y_" + name], name="y_" + name))
    refs["y_" + name] = yv.astype(np.float32)


# MobileNetV2's inverted residual: 20 -> 120 channels (panels of 8 lanes
# for the expansion, one of 20 for the projection), 17x15.
x, xv = case("mbv2", (1, 20, 17, 15))
e, ev = unary("Relu6", *conv(x, xv, 120))
d, dv = unary("Relu6", *conv(e, ev, 120, kernel=3, pads=(1, 1, 1, 1), group=120))
p, pv = conv(d, dv, 20)
output("mbv2", *binary("Add", p, pv, x, xv))

# Its strided form: 24 -> 144 (nine panels of 16), stride 2 with
# asymmetric padding on 31x30, a projection to 40 without bias.
x, xv = case("stride", (1, 24, 31, 30))
e, ev = unary("Relu6", *conv(x, xv, 144))
d, dv = unary("Relu6", *conv(e, ev, 144, kernel=3, stride=2, pads=(1, 1, 1, 0), group=144))
output("stride", *conv(d, dv, 40, bias=False))

# EfficientNet's block at batch 2: 5x5 depthwise with SiLU on 13x11, a
# squeeze-excitation (spatial mean, 16 -> 4 -> 16 on 1x1, sigmoid, scale),
# a projection to 24.
x, xv = case("se", (2, 16, 13, 11))
d, dv = silu(*conv(x, xv, 16, kernel=5, pads=(2, 2, 2, 2), group=16))
m = fresh("m")
nodes.append(helper.make_node("GlobalAveragePool", [d], [m], name=m))
mv = dv.mean(axis=(2, 3), keepdims=True)
r, rv = silu(*conv(m, mv, 4))
s, sv = unary("Sigmoid", *conv(r, rv, 16))
sc, scv = binary("Mul", d, dv, s, sv)
output("se", *conv(sc, scv, 24))

# A stem on the image's 3 channels (channels-last too): 3x3 stride 2 with
# asymmetric padding on 21x22, ReLU6, a depthwise and a pointwise one.
x, xv = case("stem", (1, 3, 21, 22))
st, stv = unary("Relu6", *conv(x, xv, 16, kernel=3, stride=2, pads=(1, 1, 0, 1)))
d, dv = unary("Relu6", *conv(st, stv, 16, kernel=3, pads=(1, 1, 1, 1), group=16))
output("stem", *conv(d, dv, 24))

# Dilation 2 on 37 channels of 11x12, then a classifier: mean, flatten,
# Gemm (the transposes at the region's end are reshapes).
x, xv = case("head", (1, 37, 11, 12))
d, dv = conv(x, xv, 37, kernel=3, pads=(2, 2, 2, 2), dilation=2, group=37)
p, pv = unary("Relu6", *conv(d, dv, 64))
m = fresh("m")
nodes.append(helper.make_node("GlobalAveragePool", [p], [m], name=m))
flat = fresh("f")
nodes.append(helper.make_node("Flatten", [m], [flat], name=flat))
w = rng.standard_normal((10, 64)).astype(np.float32)
nodes.append(helper.make_node("Gemm", [flat, const(w)], ["y_head"], name="gemm", transB=1))
refs["y_head"] = (pv.mean(axis=(2, 3)) @ w.T.astype(np.float64)).astype(np.float32)

save_cases(out, "channels_last", nodes, feeds, refs, inits)
print(" ".join(f"{n}:{list(v.shape)}" for n, v in refs.items()))

# OUT/dyn: an export with a dynamic batch axis (run at batch 3), whose
# convolutions are channels-last too: an inverted residual with a
# squeeze-excitation scale.
inits, nodes, feeds, refs = [], [], {}, {}
x, xv = case("dyn", (3, 24, 9, 10))
e, ev = unary("Relu6", *conv(x, xv, 48))
d, dv = silu(*conv(e, ev, 48, kernel=3, pads=(1, 1, 1, 1), group=48))
m = fresh("m")
nodes.append(helper.make_node("GlobalAveragePool", [d], [m], name=m))
s, sv = unary("Sigmoid", *conv(m, dv.mean(axis=(2, 3), keepdims=True), 48))
sc, scv = binary("Mul", d, dv, s, sv)
p, pv = conv(sc, scv, 24)
output("dyn", *binary("Add", p, pv, x, xv))


def batch_axis(name, value):
    """Value info with a symbolic batch."""
    from onnx import TensorProto
    return helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                         ["batch", *value.shape[1:]])


save_cases(os.path.join(out, "dyn"), "channels_last_dynamic_batch", nodes,
           feeds, refs, inits, info=batch_axis)
