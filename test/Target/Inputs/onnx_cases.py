"""Writes a test model and its data: the ONNX graph of `nodes` (float
inputs `feeds`, float outputs `refs`, initializers `inits`) as
OUT/model.onnx, and each feed and reference as OUT/<name>.npy, the files
the .mlir tests give tc-run. Imported by the .mlir.py model scripts of
test/Target/Cpu."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper


def value_info(name, value, shape=None):
    """A float tensor's value info, of `value`'s shape unless given."""
    return helper.make_tensor_value_info(
        name, TensorProto.FLOAT, list(value.shape) if shape is None else shape)


def save_cases(out, graph_name, nodes, feeds, refs, inits, info=value_info):
    """OUT/model.onnx (opset 17) and OUT/<name>.npy for feeds and refs;
    `info(name, value)` gives each input's and output's value info."""
    os.makedirs(out, exist_ok=True)
    graph = helper.make_graph(
        nodes, graph_name, [info(n, v) for n, v in feeds.items()],
        [info(n, v) for n, v in refs.items()], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, os.path.join(out, "model.onnx"))
    for name, value in {**feeds, **refs}.items():
        np.save(os.path.join(out, name + ".npy"), value)
