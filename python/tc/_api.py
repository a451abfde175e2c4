"""tc.compile and tc.stats: the front door of the package."""
from __future__ import annotations

import os
from typing import Any, Optional, Sequence, Union

from ._tc import TcError
from ._runtime import Model
from ._compiler import compile_onnx
from . import _stats


def compile(model: Any, example_inputs: Optional[Sequence] = None, *,
            mode: str = "default", precision: str = "fp32",
            dynamic: Optional[bool] = None, target: str = "cpu",
            fullgraph: bool = True, device: Optional[str] = None,
            threads: int = 0, flags: Sequence[str] = (),
            output: Optional[str] = None,
            calibrate: Optional[Union[str, os.PathLike]] = None):
    """Compiles a model with tc and returns a callable that runs it.

    model: an ONNX file (path) or a ``torch.nn.Module``. A module is exported
    with ``torch.onnx.export`` at ``example_inputs`` (a tuple of tensors or
    numpy arrays; without them, at the first call's inputs), compiled by
    tc-compile through the compile cache (the same module and options
    compile once per machine), and loaded.

    Returns, for a module, a ``CompiledModule``: called like the module, it
    takes and returns torch tensors (numpy arrays in, numpy arrays out)
    with the module's output structure. For an ONNX path, a ``tc.Model``
    (inputs by position or name, a list of outputs).

    Options:
      mode: "default"; "reduce-overhead" keeps the CPU threads awake
        between runs (no wake-up latency; they spin for 50 ms after a run)
        and replays runs as CUDA/HIP graphs on a GPU; "max-autotune" times candidate configurations of the CPU
        kernels on this machine (on the example inputs for a module) and
        keeps the fastest, in a tuning table in the compile cache
        (docs/autotuning.md).
      precision: "fp32" (the model's own types), "tf32" (the factors of
        matmuls, convolutions and attention rounded to TF32, as
        torch.backends.cuda.matmul.allow_tf32 does), or "fp16"/"bf16":
        matmuls, convolutions and attention compute in that type with f32
        accumulation; everything else in f32, inputs and outputs keeping
        their types (tc-compile --precision; docs/precision.md).
      calibrate: with precision="fp16", a directory of sample inputs (one
        per subdirectory: input_<i>.pb files, or <input name>.npy) that the
        fp32 model runs on first; contractions whose activations exceed
        fp16's range keep f32 (tc-compile --calibrate).
      dynamic: for modules. True: every input dimension symbolic, one
        compile. False: one static compile per set of input shapes. None
        (default): static first, then one recompile with the dimensions
        that changed made symbolic.
      target: "cpu", or GPU targets for tc-compile's --target
        ("cuda:sm_90", "rocm:gfx942", comma separated); the model then runs
        on `device` ("auto" by default: the first GPU).
      fullgraph: for modules. True: a module tc cannot compile raises
        TcError. False: it runs eagerly, the reason logged once and counted
        in tc.stats().
      threads: CPU threads (0: every core). flags: more tc-compile flags.
      output: for an ONNX path, where to write the model.so (default: next
        to the model).

    Example::

        model = torchvision.models.resnet18().eval()
        compiled = tc.compile(model, (torch.randn(1, 3, 224, 224),))
        logits = compiled(torch.randn(1, 3, 224, 224))
    """
    from ._torch import Options
    options = Options(mode=mode, precision=precision, target=target, device=device,
                      threads=threads, flags=tuple([flags] if isinstance(flags, str) else flags),
                      calibrate=None if calibrate is None else os.fspath(calibrate))
    if isinstance(model, (str, os.PathLike)):
        if example_inputs is not None:
            raise TcError("example_inputs are for nn.Modules: an ONNX model's input "
                          "shapes come from the file (use flags=['--bind=NAME=FILE.pb'] "
                          "to fix a shape input)")
        if dynamic is not None:
            raise TcError("dynamic= is for nn.Modules: an ONNX model's dimensions are "
                          "symbolic where the file says so")
        so = compile_onnx(model, output, options.compile_flags)
        _stats.count("models_compiled")
        return Model(so, options.run_device, threads)
    if output is not None:
        raise TcError("output= is for ONNX paths; a module's model.so lives in the "
                      "compile cache")
    from ._torch import compile_module
    return compile_module(model, example_inputs, options, dynamic, fullgraph)


def stats(reset: bool = False) -> dict:
    """Counters of this process: models_compiled (tc-compile runs, cache hits
    included), recompiles (a module compiled again for new shapes or
    changed weights), dynamo_graphs (graphs torch.compile handed tc),
    eager_fallbacks and fallback_reasons (graphs that ran eagerly, and why).
    reset=True clears them after reading."""
    snapshot = _stats.snapshot()
    if reset:
        _stats.reset()
    return snapshot
