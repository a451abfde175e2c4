"""Shared models of the tc package's tests (python/tests).

Run with the package on the path, as utils/test.sh does:
    PYTHONPATH=build/python_packages .venv/bin/python -m pytest python/tests
Compiles go to a compile cache of the test session's own.
"""
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper


@pytest.fixture(scope="session", autouse=True)
def _own_compile_cache(tmp_path_factory):
    os.environ["TC_CACHE_DIR"] = str(tmp_path_factory.mktemp("compile-cache"))


def affine_onnx(path, batch="n"):
    """z = (x @ W + 0.5) * 3 with W = arange(64).reshape(8, 8); x is [batch, 8]."""
    weight = numpy_helper.from_array(np.arange(64, dtype=np.float32).reshape(8, 8), "w")
    half = numpy_helper.from_array(np.array(0.5, np.float32), "half")
    three = numpy_helper.from_array(np.array(3.0, np.float32), "three")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["xw"]),
         helper.make_node("Add", ["xw", "half"], ["y"]),
         helper.make_node("Mul", ["y", "three"], ["z"])],
        "affine",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 8])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [batch, 8])],
        [weight, half, three])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, path)
    return path


def affine_reference(x):
    return (x @ np.arange(64, dtype=np.float32).reshape(8, 8) + 0.5) * 3


@pytest.fixture(scope="session")
def affine(tmp_path_factory):
    """(onnx path, compiled model.so path) of affine_onnx."""
    import tc
    directory = tmp_path_factory.mktemp("affine")
    onnx_path = affine_onnx(str(directory / "affine.onnx"))
    return onnx_path, tc.compile_onnx(onnx_path, str(directory / "affine.so"))
