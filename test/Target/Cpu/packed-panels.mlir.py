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


def pointwise_relu(name, shape, features):
    """A 1x1 convolution in NCHW of an input of `shape` to `features`
    channels, with bias and ReLU."""
    channels = shape[1]
    x = rng.standard_normal(shape).astype(np.float32)
    w = (rng.standard_normal((features, channels, 1, 1)) / np.sqrt(channels)).astype(np.float32)
    b = rng.standard_normal(features).astype(np.float32)
    inits.extend([numpy_helper.from_array(w, f"{name}_w"), numpy_helper.from_array(b, f"{name}_b")])
    nodes.extend([helper.make_node("Conv", [f"x_{name}", f"{name}_w", f"{name}_b"], [f"c_{name}"], name=name),
                  helper.make_node("Relu", [f"c_{name}"], [f"y_{name}"], name=f"{name}_relu")])
    feeds[f"x_{name}"] = x
    refs[f"y_{name}"] = np.maximum(
        np.einsum("nchw,fc->nfhw", x.astype(np.float64), w[:, :, 0, 0]) + b.reshape(1, -1, 1, 1),
        0).astype(np.float32)


# On a 32x48 image (rows of 1536 positions, 6 KB apart), 512 -> 40
# channels (five row tiles).
pointwise_relu("pw", (1, 512, 32, 48), 40)

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

# On a 28x28 image, 128 -> 96 channels: 784 positions split evenly only in
# chunks of 16, so its workgroups take 112 positions (tiles of 32 and one
# of 16) and half of the channels.
pointwise_relu("pw3", (1, 128, 28, 28), 96)

save_cases(out, "panels", nodes, feeds, refs, inits)
