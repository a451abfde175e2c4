"""A model whose layers repeat with their own weights, for
constants-object.mlir: three [96, 96] MatMul + bias + ReLU layers (36 KB
weights, 384-byte biases), the first weight used again by a fourth layer,
with a numpy reference."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(3)
x = rng.standard_normal((256, 96)).astype(np.float32)
weights = [(rng.standard_normal((96, 96)) * 0.2).astype(np.float32) for _ in range(3)]
biases = [rng.standard_normal(96).astype(np.float32) for _ in range(4)]
nodes, initializers, h, y = [], [], "x", x.astype(np.float64)
for i, w in enumerate(weights + [weights[0]]):
    name = f"w{i}" if i < 3 else "w0"
    nodes += [helper.make_node("MatMul", [h, name], [f"m{i}"], name=f"matmul{i}"),
              helper.make_node("Add", [f"m{i}", f"b{i}"], [f"a{i}"], name=f"bias{i}"),
              helper.make_node("Relu", [f"a{i}"], [f"h{i}"], name=f"relu{i}")]
    h = f"h{i}"
    y = np.maximum(y @ w + biases[i], 0)
initializers = [numpy_helper.from_array(w, f"w{i}") for i, w in enumerate(weights)]
initializers += [numpy_helper.from_array(b, f"b{i}") for i, b in enumerate(biases)]
graph = helper.make_graph(
    nodes, "layers", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [256, 96])],
    [helper.make_tensor_value_info(h, TensorProto.FLOAT, [256, 96])], initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), y.astype(np.float32))
