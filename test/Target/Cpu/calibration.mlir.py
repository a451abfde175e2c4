"""A model whose activation goes beyond fp16's range (65504) at run time,
and calibration samples for tc-compile --calibrate. See calibration.mlir."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from low_precision import f16  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(7)

# "amplify" scales x by 1e5: its activations reach about 3e5, beyond fp16,
# though no weight does. "big" multiplies them: in fp16 they become
# infinity. "small" multiplies x itself and stays in range.
x = rng.standard_normal((8, 32)).astype(np.float32)
w_big = (rng.standard_normal((32, 16)) * 0.1).astype(np.float32)
w_small = (rng.standard_normal((32, 16)) * 0.1).astype(np.float32)
scale = np.array(1e5, np.float32)
nodes = [
    helper.make_node("Mul", ["x", "scale"], ["h"], name="amplify"),
    helper.make_node("MatMul", ["h", "w_big"], ["big"], name="big"),
    helper.make_node("MatMul", ["x", "w_small"], ["small"], name="small"),
]
graph = helper.make_graph(
    nodes, "calibration",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 32])],
    [helper.make_tensor_value_info("big", TensorProto.FLOAT, [8, 16]),
     helper.make_tensor_value_info("small", TensorProto.FLOAT, [8, 16])],
    [numpy_helper.from_array(w_big, "w_big"), numpy_helper.from_array(w_small, "w_small"),
     numpy_helper.from_array(scale, "scale")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
os.makedirs(out, exist_ok=True)
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "x.npy"), x)

# References: "big" kept in f32, "small" in fp16 (operands and result
# rounded, the sum exact).
np.save(os.path.join(out, "big.npy"), ((x * scale).astype(np.float64) @ w_big).astype(np.float32))
np.save(os.path.join(out, "small.npy"),
        f16(f16(x).astype(np.float64) @ f16(w_small)).astype(np.float32))

# Calibration samples: two in the ONNX test-data layout, one as .npy.
def tensor(name, array):
    return numpy_helper.from_array(array, name).SerializeToString()

for i in range(2):
    sample = os.path.join(out, "samples", f"set_{i}")
    os.makedirs(sample, exist_ok=True)
    with open(os.path.join(sample, "input_0.pb"), "wb") as f:
        f.write(tensor("x", rng.standard_normal((8, 32)).astype(np.float32)))
npy = os.path.join(out, "samples", "set_2")
os.makedirs(npy, exist_ok=True)
np.save(os.path.join(npy, "x.npy"), rng.standard_normal((8, 32)).astype(np.float32))

# A sample of the wrong shape, for the error.
bad = os.path.join(out, "bad", "set_0")
os.makedirs(bad, exist_ok=True)
np.save(os.path.join(bad, "x.npy"), np.zeros((4, 32), np.float32))
