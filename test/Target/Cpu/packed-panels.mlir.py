"""Contractions whose lanes-side input is an activation with rows far apart,
which --tc-cpu-vectorize-contractions packs panel by panel into a stack
buffer, with numpy references. See packed-panels.mlir."""
import os
import sys

import numpy as np
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from onnx_cases import save_cases  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(5)
inits, nodes, feeds, refs = [], [], {}, {}

# A 1x1 convolution in NCHW on a 32x48 image (rows of 1536 positions, 6 KB
# apart), 512 -> 40 channels (five row tiles), bias and ReLU.
x = rng.standard_normal((1, 512, 32, 48)).astype(np.float32)
w = (rng.standard_normal((40, 512, 1, 1)) / 22).astype(np.float32)
b = rng.standard_normal(40).astype(np.float32)
inits += [numpy_helper.from_array(w, "pw_w"), numpy_helper.from_array(b, "pw_b")]
nodes += [helper.make_node("Conv", ["x_pw", "pw_w", "pw_b"], ["c_pw"], name="pw"),
          helper.make_node("Relu", ["c_pw"], ["y_pw"], name="pw_relu")]
feeds["x_pw"] = x
refs["y_pw"] = np.maximum(
    np.einsum("nchw,fc->nfhw", x.astype(np.float64), w[:, :, 0, 0]) + b.reshape(1, -1, 1, 1),
    0).astype(np.float32)

# The same at batch 2 on a 24x32 image (768 positions), 192 -> 52 channels
# (six full row tiles and a partial one of 4), no bias.
x = rng.standard_normal((2, 192, 24, 32)).astype(np.float32)
w = (rng.standard_normal((52, 192, 1, 1)) / 14).astype(np.float32)
inits.append(numpy_helper.from_array(w, "pw2_w"))
nodes.append(helper.make_node("Conv", ["x_pw2", "pw2_w"], ["y_pw2"], name="pw2"))
feeds["x_pw2"] = x
refs["y_pw2"] = np.einsum("nchw,fc->nfhw", x.astype(np.float64), w[:, :, 0, 0]).astype(np.float32)

# A matmul of two activations, 70 x 600 by 600 x 600 (rows 2.4 KB apart;
# 70 rows = 8 tiles of 8 and 6; lanes in workgroups of 40, parts of 32
# and 8).
a = rng.standard_normal((70, 600)).astype(np.float32)
bm = rng.standard_normal((600, 600)).astype(np.float32)
nodes.append(helper.make_node("MatMul", ["x_a", "x_b"], ["y_mm"], name="mm"))
feeds["x_a"], feeds["x_b"] = a, bm
refs["y_mm"] = (a.astype(np.float64) @ bm).astype(np.float32)

# A 1x1 convolution in NCHW on a 28x28 image, 128 -> 96 channels, bias and
# ReLU: 784 positions split evenly only in chunks of 16, so its workgroups
# take 112 positions (tiles of 32 and one of 16) and half of the channels.
x = rng.standard_normal((1, 128, 28, 28)).astype(np.float32)
w = (rng.standard_normal((96, 128, 1, 1)) / 11).astype(np.float32)
b = rng.standard_normal(96).astype(np.float32)
inits += [numpy_helper.from_array(w, "pw3_w"), numpy_helper.from_array(b, "pw3_b")]
nodes += [helper.make_node("Conv", ["x_pw3", "pw3_w", "pw3_b"], ["c_pw3"], name="pw3"),
          helper.make_node("Relu", ["c_pw3"], ["y_pw3"], name="pw3_relu")]
feeds["x_pw3"] = x
refs["y_pw3"] = np.maximum(
    np.einsum("nchw,fc->nfhw", x.astype(np.float64), w[:, :, 0, 0]) + b.reshape(1, -1, 1, 1),
    0).astype(np.float32)

save_cases(out, "panels", nodes, feeds, refs, inits)
