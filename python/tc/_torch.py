"""PyTorch in the loop: nn.Modules through tc, and tc as a Dynamo backend.

A module is exported with ``torch.onnx.export`` (the torch.export-based
exporter), compiled with tc-compile through the compile cache and loaded;
the compiled callable takes and returns torch tensors (or numpy arrays)
with the module's own output structure. torch is imported only here, and
only when a module is compiled.
"""
from __future__ import annotations

import contextlib
import dataclasses
import inspect
import io
import logging
import os
import tempfile
import threading
import warnings
from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from ._tc import TcError
from ._runtime import Model
from ._compiler import (check_mode, compile_onnx, mode_flags, precision_flags,
                        target_flags)
from . import _stats

log = logging.getLogger("tc")


@dataclasses.dataclass(frozen=True)
class Options:
    """How tc.compile and the Dynamo backend compile and run a graph."""

    mode: str = "default"
    precision: str = "fp32"
    target: str = "cpu"  # tc-compile --target ("cpu", "cuda:sm_90", ...)
    device: Optional[str] = None  # where to run; None: cpu, or auto for GPUs
    threads: int = 0
    flags: tuple = ()  # more tc-compile flags
    calibrate: Optional[str] = None  # tc-compile --calibrate's directory

    def __post_init__(self):
        check_mode(self.mode, self.precision)
        if self.calibrate is not None and self.precision != "fp16":
            raise TcError("calibrate= finds activations beyond fp16's range: it "
                          "needs precision='fp16'")

    @property
    def compile_flags(self) -> list:
        """tc-compile's flags for these options."""
        calibrate = [] if self.calibrate is None else [
            f"--calibrate={os.fspath(self.calibrate)}"]
        return (target_flags(self.target) + precision_flags(self.precision)
                + mode_flags(self.mode) + calibrate + list(self.flags))

    @property
    def run_device(self) -> str:
        if self.device:
            return self.device
        return "cpu" if self.target in ("", "cpu") else "auto"


def _torch():
    try:
        import torch
    except ImportError as error:
        raise TcError("compiling an nn.Module needs torch (pip install torch)") from error
    return torch


def input_names(module, count: int) -> List[str]:
    """The ONNX input names: forward's parameter names where it has them."""
    try:
        parameters = [p for p in inspect.signature(module.forward).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        parameters = []
    names = [p.name for p in parameters[:count]]
    names += [f"input_{i}" for i in range(len(names), count)]
    return names


def export_onnx(module, example_inputs: Sequence, path: str,
                dynamic_dims: Sequence[Sequence[int]], names: Sequence[str],
                required: bool = True) -> None:
    """Writes `module` at `example_inputs` as ONNX; `dynamic_dims[i]` lists
    the dimensions of input i that stay symbolic. With required=False they
    are only allowed to be (torch.export keeps those the model lets vary and
    specializes the others, extents of 1 included)."""
    torch = _torch()
    shapes = None
    if any(dynamic_dims):
        hint = torch.export.Dim.DYNAMIC if required else torch.export.Dim.AUTO
        shapes = tuple({d: hint for d in dims} or None for dims in dynamic_dims)
        # torch.export matches dynamic_shapes to forward's parameters: a
        # forward(*inputs) takes them all as one tuple.
        kinds = [p.kind for p in inspect.signature(module.forward).parameters.values()]
        if kinds and kinds[0] == inspect.Parameter.VAR_POSITIONAL:
            shapes = (shapes,)
    quiet = io.StringIO()
    exporter_log = logging.getLogger("torch.onnx")
    level = exporter_log.level
    try:
        # The exporter reports its progress on stdout and in warnings and
        # log records ("torchvision is not installed"); tc reports failures.
        exporter_log.setLevel(logging.ERROR)
        with contextlib.redirect_stdout(quiet), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(module, tuple(example_inputs), path, input_names=list(names),
                              dynamo=True, dynamic_shapes=shapes, external_data=True)
    except Exception as error:  # torch.export's errors are many and varied
        # The exporter wraps the error that says what is wrong.
        cause = error
        while cause.__cause__ is not None:
            cause = cause.__cause__
        lines = str(cause).strip().splitlines()
        raise TcError(f"torch.onnx.export failed: {type(cause).__name__}: "
                      f"{lines[0] if lines else ''}") from error
    finally:
        exporter_log.setLevel(level)


def build(module, example_inputs: Sequence, dynamic_dims: Sequence[Sequence[int]],
          options: Options, names: Optional[Sequence[str]] = None,
          required: bool = True) -> Model:
    """Exports (see export_onnx), compiles (through the compile cache) and
    loads `module`."""
    names = names or input_names(module, len(example_inputs))
    with tempfile.TemporaryDirectory(prefix="tc-") as directory:
        onnx_path = os.path.join(directory, "model.onnx")
        export_onnx(module, example_inputs, onnx_path, dynamic_dims, names, required)
        flags = options.compile_flags
        if options.mode == "max-autotune":
            # Tuned on the example inputs: their shapes are the ones that
            # run, and a dynamic dimension has no other extent to tune for.
            inputs = os.path.join(directory, "autotune-inputs")
            os.makedirs(inputs)
            for name, value in zip(names, example_inputs):
                np.save(os.path.join(inputs, f"{name}.npy"), _as_numpy(value))
            flags = flags + [f"--autotune-inputs={inputs}"]
        so = compile_onnx(onnx_path, os.path.join(directory, "model.so"), flags)
        # Loaded before the directory goes: the mapping outlives the file.
        # A reduce-overhead library asks for graph replay itself.
        model = Model(so, options.run_device, options.threads, output_type="torch")
    _stats.count("models_compiled")
    return model


def _as_numpy(value) -> np.ndarray:
    """An example input (a torch tensor, on any device, or an array) as a
    host array."""
    if hasattr(value, "detach"):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def _as_tensors(values) -> tuple:
    torch = _torch()
    tensors = []
    for i, value in enumerate(values):
        if isinstance(value, torch.Tensor):
            tensors.append(value)
        elif isinstance(value, np.ndarray):
            tensors.append(torch.from_numpy(value))
        else:
            raise TcError(f"input {i} is a {type(value).__name__}; tc.compile'd "
                          "modules take torch tensors or numpy arrays")
    return tuple(tensors)


def _signature(tensors) -> tuple:
    return tuple((tuple(t.shape), t.dtype) for t in tensors)


class CompiledModule:
    """An nn.Module compiled with tc, called like the module.

    dynamic=True compiles once with every dimension symbolic; False compiles
    each new set of input shapes anew; None (torch.compile's default)
    compiles the first shapes statically and, when a call brings other
    shapes, recompiles once with the dimensions that changed symbolic, so
    that varying a batch or sequence length costs one recompile, not one per
    value.
    """

    def __init__(self, module, example_inputs, options: Options,
                 dynamic: Optional[bool], fullgraph: bool):
        self._module = module
        self._options = options
        self._dynamic = dynamic
        self._fullgraph = fullgraph
        self._lock = threading.Lock()
        self._static = {}  # input signature -> Model
        self._symbolic = None  # (Model, per-input symbolic dims) or None
        self._first = None  # the first signature compiled
        self._out_spec = None
        self._eager_reason = None
        if example_inputs is not None:
            self._model_for(_as_tensors(example_inputs))

    @property
    def models(self) -> list:
        """The tc.Models compiled so far (one per static signature, plus the
        one with symbolic dimensions)."""
        models = list(self._static.values())
        return models + ([self._symbolic[0]] if self._symbolic else [])

    def __call__(self, *args, **kwargs):
        if kwargs:
            args = self._positional(args, kwargs)
        tensors = _as_tensors(args)
        model = self._model_for(tensors)
        if model is None:  # fullgraph=False and tc could not take it
            return self._module(*tensors)
        outputs = model.run(list(tensors), output_type="torch")
        torch = _torch()
        result = torch.utils._pytree.tree_unflatten(outputs, self._out_spec)
        if args and all(isinstance(a, np.ndarray) for a in args):
            result = torch.utils._pytree.tree_map(lambda t: t.numpy(), result)
        return result

    def _positional(self, args, kwargs) -> tuple:
        """Keyword inputs in forward's order (the exported model's inputs)."""
        try:
            bound = inspect.signature(self._module.forward).bind(*args, **kwargs)
        except (TypeError, ValueError) as error:
            raise TcError(f"the inputs do not match forward's parameters: {error}") from None
        bound.apply_defaults()
        values = []
        for name, value in bound.arguments.items():
            kind = bound.signature.parameters[name].kind
            if kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD) \
                    or value is None:
                raise TcError(f"input '{name}': tc.compile'd modules take tensors by "
                              "position or by parameter name")
            values.append(value)
        return tuple(values)

    def _model_for(self, tensors) -> Optional[Model]:
        signature = _signature(tensors)
        model = self._static.get(signature)
        if model is not None:
            return model
        if self._symbolic and self._fits(self._symbolic[1], signature):
            return self._symbolic[0]
        with self._lock:
            if self._eager_reason is not None:
                return None
            try:
                return self._compile(tensors, signature)
            except TcError as error:
                if self._fullgraph:
                    raise
                self._eager_reason = str(error)
                _stats.fallback(f"tc.compile: {error}")
                return None

    def _fits(self, symbolic, signature) -> bool:
        first = self._first
        if len(signature) != len(first):
            return False
        for dims, (shape, dtype), (shape0, dtype0) in zip(symbolic, signature, first):
            if dtype != dtype0 or len(shape) != len(shape0):
                return False
            if any(a != b for d, (a, b) in enumerate(zip(shape, shape0)) if d not in dims):
                return False
        return True

    def _compile(self, tensors, signature) -> Model:
        torch = _torch()
        if self._out_spec is None:
            with torch.no_grad():
                eager = self._module(*tensors)
            leaves, self._out_spec = torch.utils._pytree.tree_flatten(eager)
            for leaf in leaves:
                if not isinstance(leaf, torch.Tensor):
                    raise TcError(f"the module returns a {type(leaf).__name__}; tc "
                                  "compiles modules whose outputs are tensors")
        if self._first is None:
            self._first = signature
        dynamic = self._dynamic
        if dynamic is False or (dynamic is None and signature == self._first):
            dims = [()] * len(tensors)
        elif dynamic is True:
            dims = [tuple(range(t.dim())) for t in tensors]
        else:
            dims = self._changed_dims(signature)
        if self._static or self._symbolic:
            _stats.count("recompiles")
        with torch.no_grad():
            # dynamic=True lets every dimension vary that the model allows to.
            model = build(self._module, tensors, dims, self._options,
                          required=dynamic is not True)
        if dynamic is True:
            dims = [[d for d, extent in enumerate(spec.shape) if extent is None]
                    for spec in model.inputs]
        if any(dims):
            self._symbolic = (model, [set(d) for d in dims])
        else:
            self._static[signature] = model
        return model

    def _changed_dims(self, signature) -> list:
        """The dimensions in which `signature` differs from the first
        compiled one, joined with those already symbolic."""
        if len(signature) != len(self._first) or any(
                len(s) != len(s0) or t != t0
                for (s, t), (s0, t0) in zip(signature, self._first)):
            raise TcError("the inputs changed in number, rank or dtype since the "
                          "first call; compile the module again for them")
        old = self._symbolic[1] if self._symbolic else [set() for _ in signature]
        return [tuple(sorted(set(d for d, (a, b) in enumerate(zip(s, s0)) if a != b) | o))
                for (s, _), (s0, _), o in zip(signature, self._first, old)]


def compile_module(module, example_inputs, options: Options, dynamic, fullgraph):
    torch = _torch()
    if not isinstance(module, torch.nn.Module):
        raise TcError(f"tc.compile takes an ONNX path or a torch.nn.Module, not "
                      f"{type(module).__name__}")
    modal = (torch.nn.modules.dropout._DropoutNd, torch.nn.modules.batchnorm._NormBase)
    if module.training and any(isinstance(m, modal) for m in module.modules()):
        warnings.warn("tc.compile: the module is in training mode, in which its "
                      "dropout or batch norm differ from inference; tc compiles what "
                      "export traces (call module.eval() first)", stacklevel=3)
    return CompiledModule(module, example_inputs, options, dynamic, fullgraph)
