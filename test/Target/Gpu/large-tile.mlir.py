"""A batched product large enough for the 128 x 128 matrix-core tile, with
tails in M, N and K, and numpy references that round as the policy does.
See large-tile.mlir."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
import onnx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from low_precision import bf16, f16  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(25)

# 16 products of 300 x 40 by 40 x 700: 3 x 6 x 16 = 288 blocks of 128 x 128
# (M's last tile 44 rows, N's 60 columns; K three steps, the last 8 deep),
# with a Relu in the epilogue (a bias would cancel some outputs, and the
# one-unit differences of rounding f32 sums would then be large relative
# ones).
a = rng.standard_normal((16, 300, 40)).astype(np.float32)
b = (rng.standard_normal((16, 40, 700)) * 0.2).astype(np.float32)
nodes = [
    helper.make_node("MatMul", ["a", "b"], ["p"], name="large"),
    helper.make_node("Relu", ["p"], ["y"], name="relu"),
]
graph = helper.make_graph(
    nodes, "large_tile",
    [helper.make_tensor_value_info("a", TensorProto.FLOAT, a.shape)],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16, 300, 700])],
    [numpy_helper.from_array(b, "b")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "a.npy"), a)
for tag, r in (("bf16", bf16), ("fp16", f16)):
    y = np.maximum(r(np.matmul(r(a).astype(np.float64), r(b))), 0)
    np.save(os.path.join(out, f"y.{tag}.npy"), y.astype(np.float32))
