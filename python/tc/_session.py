"""tc.InferenceSession: ONNX Runtime's session API over a tc-compiled model.

For code written against onnxruntime.InferenceSession: the same
constructor (path or bytes, sess_options, providers), get_inputs /
get_outputs with ORT's type strings and symbolic dimension names, and
run(output_names, input_feed) returning numpy arrays.
"""
from __future__ import annotations

import os
import tempfile
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ._tc import TcError
from ._runtime import Model
from ._compiler import compile_onnx, target_flags

# ONNX Runtime's spelling of each runtime element type.
_ORT_TYPES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float", "f64": "double",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "bool": "bool", "f8e4m3fn": "float8e4m3fn", "f8e4m3fnuz": "float8e4m3fnuz",
    "f8e5m2": "float8e5m2", "f8e5m2fnuz": "float8e5m2fnuz", "f8e8m0fnu": "float8e8m0",
    "f4e2m1fn": "float4e2m1", "i4": "int4", "u4": "uint4", "i2": "int2", "u2": "uint2",
}

# providers -> the runtime's device kinds
_PROVIDERS = {"CPUExecutionProvider": "cpu", "CUDAExecutionProvider": "cuda",
              "ROCMExecutionProvider": "hip"}


class NodeArg:
    """An input or output as onnxruntime.NodeArg shows it."""

    def __init__(self, spec):
        self.name = spec.name
        self.type = f"tensor({_ORT_TYPES.get(spec.type, spec.type)})"
        # ORT gives a symbolic extent's name, or None when it has none.
        self.shape = [extent if extent is not None else (symbol or None)
                      for extent, symbol in zip(spec.shape, spec.symbols)]

    def __repr__(self) -> str:
        return f"NodeArg(name='{self.name}', type='{self.type}', shape={self.shape})"


def _device(providers, provider_options) -> tuple:
    """The device spec for the first provider, and the providers kept."""
    if not providers:
        return "cpu", ["CPUExecutionProvider"]
    names = []
    for i, provider in enumerate(providers):
        name, options = (provider if isinstance(provider, tuple) else (provider, {}))
        if provider_options and i < len(provider_options):
            options = {**options, **provider_options[i]}
        if name not in _PROVIDERS:
            raise TcError(f"provider '{name}': tc runs {', '.join(_PROVIDERS)}")
        names.append((name, options))
    name, options = names[0]
    kind = _PROVIDERS[name]
    device = kind if kind == "cpu" else f"{kind}:{int(options.get('device_id', 0))}"
    return device, [n for n, _ in names]


class InferenceSession:
    """Compiles an ONNX model with tc (through the compile cache) and runs it
    with onnxruntime.InferenceSession's API.

    path_or_bytes: an .onnx file, the model's bytes, or an already compiled
    model.so. sess_options: an onnxruntime.SessionOptions or anything with
    ``intra_op_num_threads`` (0: every core). providers: CPUExecutionProvider,
    CUDAExecutionProvider or ROCMExecutionProvider (the first is used; a GPU
    needs ``target=`` naming its architecture, e.g. "cuda:sm_90").
    target, flags: tc-compile's --target and more flags.
    """

    def __init__(self, path_or_bytes, sess_options=None, providers=None,
                 provider_options=None, *, target: Optional[str] = None,
                 flags: Sequence[str] = ()):
        device, self._providers = _device(providers, provider_options)
        if device != "cpu" and not target:
            raise TcError(f"provider {self._providers[0]} needs target= naming the GPU "
                          "architecture to compile for (e.g. 'cuda:sm_90', 'rocm:gfx942')")
        threads = int(getattr(sess_options, "intra_op_num_threads", 0) or 0)
        with tempfile.TemporaryDirectory(prefix="tc-session-") as directory:
            path = path_or_bytes
            if isinstance(path_or_bytes, (bytes, bytearray)):
                path = os.path.join(directory, "model.onnx")
                with open(path, "wb") as f:
                    f.write(path_or_bytes)
            path = os.fspath(path)
            if not path.endswith(".so"):
                path = compile_onnx(path, os.path.join(directory, "model.so"),
                                    target_flags(target or "cpu") + list(flags))
            self._model = Model(path, device, threads, output_type="numpy")

    def get_inputs(self) -> List[NodeArg]:
        return [NodeArg(spec) for spec in self._model.inputs]

    def get_outputs(self) -> List[NodeArg]:
        return [NodeArg(spec) for spec in self._model.outputs]

    def get_providers(self) -> List[str]:
        return list(self._providers)

    def run(self, output_names: Optional[Sequence[str]], input_feed: Dict[str, Any],
            run_options=None) -> list:
        """Runs on `input_feed` (input name -> array); returns the outputs
        named in `output_names` (all, in the model's order, when None or
        empty) as numpy arrays."""
        # As ONNX Runtime does, arrays in any layout are accepted (a strided
        # one is copied); tc.Model itself refuses them rather than copy.
        feeds = {name: np.ascontiguousarray(value) if isinstance(value, np.ndarray) else value
                 for name, value in dict(input_feed).items()}
        results = self._model.run(feeds)
        names = [spec.name for spec in self._model.outputs]
        if not output_names:
            return results
        picked = []
        for name in output_names:
            if name not in names:
                raise TcError(f"unknown output '{name}' (the model's outputs: "
                              f"{', '.join(names)})")
            picked.append(results[names.index(name)])
        return picked
