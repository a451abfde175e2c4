# Builds the model of run-time-checks.mlir: a[n] + b[m] (two unrelated
# dynamic extents, so only the model can tell whether they agree), then Relu.
import os, sys
import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
f = TensorProto.FLOAT
graph = helper.make_graph(
    [helper.make_node("Add", ["a", "b"], ["s"], name="add_0"),
     helper.make_node("Relu", ["s"], ["sum"], name="relu_0")],
    "checks",
    [helper.make_tensor_value_info("a", f, ["n"]),
     helper.make_tensor_value_info("b", f, ["m"])],
    [helper.make_tensor_value_info("sum", f, [None])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "model.onnx"))
a = np.arange(-2, 3, dtype=np.float32)
np.save(os.path.join(out, "a5.npy"), a)
np.save(os.path.join(out, "b5.npy"), np.ones(5, np.float32))
np.save(os.path.join(out, "b1.npy"), np.ones(1, np.float32))
np.save(os.path.join(out, "b7.npy"), np.ones(7, np.float32))
np.save(os.path.join(out, "sum5.npy"), np.maximum(a + 1, 0))

# gather.onnx: rows of x[5, 3] at run-time indices (negative ones count from
# the end); an index outside [-5, 5) is an error (ONNX), not a clamped row.
graph = helper.make_graph(
    [helper.make_node("Gather", ["x", "i"], ["rows"], name="lookup", axis=0)],
    "gather",
    [helper.make_tensor_value_info("x", f, [5, 3]),
     helper.make_tensor_value_info("i", TensorProto.INT64, ["k"])],
    [helper.make_tensor_value_info("rows", f, ["k", 3])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "gather.onnx"))
x = np.arange(15, dtype=np.float32).reshape(5, 3)
np.save(os.path.join(out, "x.npy"), x)
good = np.array([0, -1, 4, -5], np.int64)
np.save(os.path.join(out, "good.npy"), good)
np.save(os.path.join(out, "rows.npy"), x[good])
np.save(os.path.join(out, "past_end.npy"), np.array([1, 5], np.int64))
np.save(os.path.join(out, "before_start.npy"), np.array([-6], np.int64))

# baked.onnx: x[batch, 8] reshaped to a shape exported at batch 2 ([2, 8]),
# then added back to x, as exporters that bake the batch into a Reshape
# write it. At batch 2 it runs; at any other batch the Reshape's element
# count fails and the run stops there (the Add after it would index the
# [2, 8] tensor with x's rows).
graph = helper.make_graph(
    [helper.make_node("Reshape", ["x", "shape"], ["r"], name="baked_reshape"),
     helper.make_node("Add", ["x", "r"], ["y"], name="residual")],
    "baked",
    [helper.make_tensor_value_info("x", f, ["batch", 8])],
    [helper.make_tensor_value_info("y", f, ["batch", 8])],
    [helper.make_tensor("shape", TensorProto.INT64, [2], [2, 8])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "baked.onnx"))
for batch in (1, 2, 1000):
    xb = np.arange(batch * 8, dtype=np.float32).reshape(batch, 8)
    np.save(os.path.join(out, f"x{batch}.npy"), xb)
np.save(os.path.join(out, "y2.npy"), 2 * np.arange(16, dtype=np.float32).reshape(2, 8))
