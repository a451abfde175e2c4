# Builds the model of aliased-outputs.mlir: a and b are both x, c is a
# constant, d is x through a reshape pair (a view of the input).
import os, sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
c = np.array([1.0, 2.0, 3.0], np.float32)
nodes = [
    helper.make_node("Identity", ["x"], ["a"]),
    helper.make_node("Identity", ["x"], ["b"]),
    helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(c)),
    helper.make_node("Constant", [], ["s6"], value=numpy_helper.from_array(np.array([6], np.int64))),
    helper.make_node("Constant", [], ["s23"], value=numpy_helper.from_array(np.array([2, 3], np.int64))),
    helper.make_node("Reshape", ["x", "s6"], ["flat"]),
    helper.make_node("Reshape", ["flat", "s23"], ["d"]),
]
f = TensorProto.FLOAT
graph = helper.make_graph(
    nodes, "aliased", [helper.make_tensor_value_info("x", f, [2, 3])],
    [helper.make_tensor_value_info(n, f, s) for n, s in
     (("a", [2, 3]), ("b", [2, 3]), ("c", [3]), ("d", [2, 3]))])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "x.npy"), np.arange(6, dtype=np.float32).reshape(2, 3))
np.save(os.path.join(out, "c.npy"), c)
