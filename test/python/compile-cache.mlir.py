import os
import shutil
import subprocess
import sys
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper

work = sys.argv[1]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.environ["TC_CACHE_DIR"] = os.path.join(work, "cache")
import tc  # noqa: E402

graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
model = os.path.join(work, "relu.onnx")
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), model)


def stats():
    out = subprocess.run([os.environ["TC_COMPILE"], "--cache-stats"], capture_output=True,
                         text=True, check=True).stdout
    s = dict(line.split(": ", 1) for line in out.splitlines())
    return f"misses {s['misses']} hits {s['hits']}"


first = tc.compile_onnx(model, os.path.join(work, "a.so"))
print("first:", stats())
second = tc.compile_onnx(model, os.path.join(work, "b.so"))
same = open(first, "rb").read() == open(second, "rb").read()
y = tc.load(second)(np.array([-1, 2, -3, 4], np.float32))
y = y[0]
assert y.tolist() == [0, 2, 0, 4], y
print("second:", stats() + (", same library, runs" if same else ", DIFFERENT"))
tc.compile_onnx(model, os.path.join(work, "c.so"), "--no-cache")
print("no-cache:", stats())
entry, = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(work, "cache"))
          for f in fs if f.endswith(".so")]
os.unlink(first)
os.unlink(second)  # both are links to the entry
with open(entry, "r+b") as f:
    f.truncate(100)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    tc.compile_onnx(model, os.path.join(work, "d.so"))
print(f"damaged: {'one warning' if len(caught) == 1 else len(caught)}: {caught[0].message}")
