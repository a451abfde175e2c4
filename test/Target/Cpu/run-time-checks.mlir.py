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
