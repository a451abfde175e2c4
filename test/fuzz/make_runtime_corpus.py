"""Writes the seed corpus of tc-runtime-input-fuzzer into argv[1]: .npy and
TensorProto files of every dtype tc-run reads and module metadata texts,
each behind the byte that selects its reader (0 .npy, 1 .pb, 2 metadata)."""
import io
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def seed(name, selector, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes([selector]) + data)


rng = np.random.default_rng(0)
for dtype in ["float16", "float32", "float64", "int8", "int16", "int32", "int64",
              "uint8", "uint16", "uint32", "uint64", "bool"]:
    array = rng.integers(0, 3, (2, 3)).astype(dtype)
    buffer = io.BytesIO()
    np.save(buffer, array)
    seed(f"npy-{dtype}", 0, buffer.getvalue())
    seed(f"pb-raw-{dtype}", 1, numpy_helper.from_array(array, "x").SerializeToString())
buffer = io.BytesIO()
np.save(buffer, np.zeros((0, 4), np.float32))
seed("npy-empty", 0, buffer.getvalue())
seed("pb-floats", 1, helper.make_tensor("x", TensorProto.FLOAT, [2, 2], [1, 2, 3, 4]).SerializeToString())
seed("pb-int4", 1, TensorProto(name="x", data_type=22, dims=[3], raw_data=b"\x21\x03").SerializeToString())
seed("pb-int64s", 1, helper.make_tensor("x", TensorProto.INT64, [3], [1, -2, 3]).SerializeToString())
seed("metadata-add", 2, b"tc-module 1\nname add\ninput a f32 2 ?batch 4\ninput b f32 1 4\n"
     b"output out f32 2 ?batch 4\ntarget cpu x86-64\n")
seed("metadata-misc", 2, b"tc-module 1\nname misc%20model\ninput code i32 0\n"
     b"input x%20y f64 2 ?n ?\ninput flag bool 1 ?n\noutput y i64 1 ?n\noutput empty f32 1 0\n"
     b"target cpu x86-64\ntarget cuda:sm_90\n")
print(f"{len(os.listdir(out))} seeds in {out}")
