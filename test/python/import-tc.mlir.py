# Driven by import-tc.mlir: the model is test/Frontend/Onnx/Inputs/models.py's
# `weights`, z = (x @ arange(64).reshape(8, 8) + 0.5) * 3.
import sys

import numpy as np
import tc

onnx_path, so_path = sys.argv[1], sys.argv[2]
model = tc.load(tc.compile_onnx(onnx_path, so_path), threads=2)
print("inputs", [(spec.name, spec.dtype, spec.shape) for spec in model.inputs])
print("outputs", [(spec.name, spec.dtype, spec.shape) for spec in model.outputs])
print("version", tc.__version__)
x = np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32)
expected = (x @ np.arange(64, dtype=np.float32).reshape(8, 8) + 0.5) * 3
(z,) = model(x)
print("max error", float(np.abs(z - expected).max() > 1e-3 * np.abs(expected).max()) * 1.0)
(z2,) = model(x=x)
print("by name", "ok" if np.array_equal(z, z2) else "differs")
for bad in (lambda: model(), lambda: model(x.astype(np.float64)),
            lambda: tc.load("/nonexistent/nothing.so"),
            # Inputs given twice, unknown, or too many: never silently run.
            lambda: model(x, x=x), lambda: model(x, bogus=1),
            lambda: model(x=x, input_ids=x), lambda: model(x, x),
            # Thread counts the runtime cannot have, and ones that wrap in C.
            lambda: tc.load(so_path, threads=100000),
            lambda: tc.load(so_path, threads=2**31), lambda: tc.load(so_path, threads=-1),
            # Layouts, types and output buffers the runtime cannot take as they are.
            lambda: model(np.ascontiguousarray(x.T).T), lambda: model(x.astype(np.complex64)),
            lambda: model.run([x], out=[np.empty((2, 7), np.float32)]),
            lambda: model.run([x], out=[np.empty((2, 8), np.int32)]),
            lambda: model.run([x], output_type="pandas")):
    try:
        bad()
    except tc.TcError as e:
        print("error:", e)
