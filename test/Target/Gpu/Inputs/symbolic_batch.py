"""Copies an ONNX model with its inputs' and outputs' first dimension made
symbolic ('batch'), as exporters write dynamic axes.

Usage: symbolic_batch.py IN.onnx OUT.onnx
"""
import sys

import onnx

model = onnx.load(sys.argv[1])
for value in list(model.graph.input) + list(model.graph.output):
    dims = value.type.tensor_type.shape.dim
    if dims:
        dims[0].ClearField("dim_value")
        dims[0].dim_param = "batch"
del model.graph.value_info[:]
onnx.save(model, sys.argv[2])
