"""tc: compile ONNX models and PyTorch modules to a model.so and run them.

Three ways in:

- ``tc.compile(module_or_path, example_inputs)``: an ``nn.Module`` (exported
  through ``torch.onnx.export``) or an ONNX file, compiled through the
  compile cache; returns a callable that takes and returns torch tensors or
  numpy arrays.
- ``torch.compile(model, backend="tc")``: tc as a TorchDynamo backend.
- ``tc.InferenceSession(path).run(output_names, feeds)``: ONNX Runtime's API.

Lower level: ``tc.compile_onnx(path, output)`` runs tc-compile and returns
the model.so's path; ``tc.load(path)`` loads one as a ``tc.Model``.
Tensors cross into and out of the runtime without copies (DLPack).
"""
from __future__ import annotations

try:
    from . import _tc
except ImportError as error:  # pragma: no cover - a broken install
    raise ImportError(
        "tc's native module (_tc) is missing: build tc (its build tree has the "
        "package in build/python_packages) or pip install it") from error

from ._tc import TcError
from ._runtime import Model, TensorSpec, load, numpy_dtype
from ._compiler import compile_onnx
from ._api import compile, stats
from ._session import InferenceSession
from ._dynamo import backend as dynamo_backend

__version__: str = _tc.version()
"""tc's version, as the runtime library reports it (tc_version)."""

__all__ = ["compile", "compile_onnx", "load", "Model", "TensorSpec", "TcError",
           "InferenceSession", "stats", "numpy_dtype", "dynamo_backend", "__version__"]


def _register_with_torch() -> None:
    # An installed wheel declares the backend as an entry point, which torch
    # finds by itself; this covers a tc imported from a build tree after
    # torch. Importing tc never imports torch.
    import sys
    if "torch" not in sys.modules:
        return
    from importlib.metadata import entry_points
    if "tc" in entry_points(group="torch_dynamo_backends").names:
        return  # torch loads it (and registering twice is an error)
    try:
        from ._dynamo import register
        register()
    except Exception:  # pragma: no cover - a torch without Dynamo
        pass


_register_with_torch()
