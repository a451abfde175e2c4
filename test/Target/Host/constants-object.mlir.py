"""For constants-object.mlir and constants-mapped.mlir.

`constants-object.mlir.py DIR` writes a model whose layers repeat with their
own weights: three [96, 96] MatMul + bias + ReLU layers (36 KB weights,
384-byte biases), the first weight used again by a fourth layer, with a
numpy reference.

`constants-object.mlir.py --mapped MODEL.so X.npy Y.npy` loads MODEL.so with
`import tc`, runs it, checks the result, and prints how its weights are in
memory: the mapping of MODEL.so's appended weights (the file offset the
weights trailer records) read-only over the weights region."""
import os
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def mapped(library, x_path, y_path):
    import tc
    data = open(library, "rb").read()
    # The weights trailer sits before the 32-byte seal (module_weights.h).
    magic, offset, size, _ = struct.unpack("<8sQQQ", data[-64:-32])
    assert magic == b"TCWGHT\1\0", magic
    print(f"weights trailer: offset % 65536 = {offset % 65536}, "
          f"bytes {size}, file bytes after the weights: {len(data) - offset - size}")
    model = tc.load(library, threads=1)
    y = model(np.load(x_path))
    y = y[0] if isinstance(y, (list, tuple)) else y
    print("matches:", np.allclose(y, np.load(y_path), rtol=1e-4, atol=1e-5))
    real = os.path.realpath(library)
    for line in open("/proc/self/maps"):
        fields = line.split()
        if len(fields) < 6 or fields[5] != real or int(fields[2], 16) != offset:
            continue
        start, end = (int(a, 16) for a in fields[0].split("-"))
        print(f"mapped from the file: {fields[1]} at offset {offset}, "
              f"{end - start >= size and 'covering' or 'short of'} the weights, "
              f"address % 65536 = {start % 65536}")


if sys.argv[1] == "--mapped":
    mapped(*sys.argv[2:5])
    sys.exit(0)

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
