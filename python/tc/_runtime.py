"""Loading and running a model.so: tc.Model over the _tc extension.

Inputs cross into the runtime without a copy: numpy arrays, torch tensors
and any other array with DLPack (``__dlpack__``) or the buffer protocol are
wrapped where they lie, in host memory or, for a model loaded on a GPU, in
that GPU's memory (torch CUDA tensors, CuPy arrays). Outputs are the
runtime's own buffers, in host memory or left on the GPU, handed out as
numpy arrays, torch tensors or DLPack objects that own them (no copy), or
written into caller arrays with ``out=``.
"""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _tc
from ._tc import TcError

MAX_THREADS = 4096  # TC_MAX_THREADS of tc-runtime/runtime.h

# The numpy type of each of the runtime's element types (tc_dtype_name).
# numpy has no bfloat16 nor the 8-, 4- and 2-bit types: they travel as
# stand-ins, one element per item (layout: include/tc-runtime/module_abi.h):
# bf16 as uint16 bit patterns, the float8/float4 types as uint8 bit patterns
# (f4 in the low nibble), i4 i2 as int8 and u4 u2 as uint8 values.
_NUMPY_TYPES = {
    "f16": np.float16, "bf16": np.uint16, "f32": np.float32, "f64": np.float64,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "bool": np.bool_, "i4": np.int8, "i2": np.int8,
}


def numpy_dtype(name: str) -> np.dtype:
    """The numpy dtype that carries the runtime element type `name`."""
    if name not in _tc.dtype_names():
        raise TcError(f"unknown element type '{name}'")
    return np.dtype(_NUMPY_TYPES.get(name, np.uint8))


class TensorSpec(NamedTuple):
    """An input or output of a model, as its model.so describes it."""

    name: str
    dtype: np.dtype  # the numpy dtype that carries it (see numpy_dtype)
    shape: tuple  # extents; None where dynamic
    type: str  # the runtime's element type name ("f32", "bf16")
    symbols: tuple  # each extent's symbol ("" if static or anonymous)


def _spec(info) -> TensorSpec:
    return TensorSpec(info.name, numpy_dtype(info.dtype), tuple(info.shape),
                      info.dtype, tuple(info.symbols))


def _is_torch(value) -> bool:
    return type(value).__module__.startswith("torch")


# DLPack's device types of GPU memory (kDLCUDA, kDLROCM).
_GPU_DLPACK_DEVICES = (2, 10)


def _on_gpu(value) -> bool:
    """Whether `value` is an array in GPU memory (by DLPack's device)."""
    if _is_torch(value) and hasattr(value, "device"):
        return value.device.type == "cuda"
    device = getattr(value, "__dlpack_device__", None)
    try:
        return device is not None and int(device()[0]) in _GPU_DLPACK_DEVICES
    except Exception:  # noqa: BLE001 - not an array after all
        return False


def _input_array(value, spec: TensorSpec):
    """`value` as something the extension wraps without a copy."""
    if _is_torch(value) and hasattr(value, "device"):
        if value.device.type not in ("cpu", "cuda"):
            raise TcError(f"input '{spec.name}' is on {value.device}; tc takes host "
                          "memory, or the memory of the GPU the model runs on: "
                          "move it to the CPU (tensor.cpu()) first")
        if value.device.type == "cuda":
            # The runtime's stream waits for the GPU's default stream only:
            # work queued on another stream must be done before it reads.
            import torch
            stream = torch.cuda.current_stream(value.device)
            if stream != torch.cuda.default_stream(value.device):
                stream.synchronize()
        return value.detach() if value.requires_grad else value
    if isinstance(value, np.ndarray) or hasattr(value, "__dlpack__"):
        return value
    # Python scalars and (nested) lists become arrays of the input's type.
    try:
        return np.asarray(value, dtype=spec.dtype)
    except (TypeError, ValueError) as error:
        raise TcError(f"input '{spec.name}' is a {type(value).__name__}, which is no "
                      f"array of {spec.type} ({error})") from None


OutputType = str  # "auto", "numpy", "torch" or "dlpack"
_OUTPUT_TYPES = ("auto", "numpy", "torch", "dlpack")
OutputDevice = str  # "auto", "host" or "device"
_OUTPUT_DEVICES = ("auto", "host", "device")
_GPU_TUNING = ("off", "table", "tune")  # tc_runtime_options.gpu_tuning 0, 1, 2


def _check_choice(name: str, value, choices) -> None:
    if value not in choices:
        raise TcError(f"{name}={value!r}: expected one of {', '.join(choices)}")


class Model:
    """A loaded model.so bound to one device.

    Call it with the inputs by position or by name; it returns the outputs
    as a list. ``inputs`` and ``outputs`` describe the signature
    (TensorSpec: name, numpy dtype, shape with None where dynamic, the
    runtime's type name). A model.so is code: loading it runs its
    initializers, so load only files you compiled or otherwise trust.
    """

    def __init__(self, path: str, device: str = "cpu", threads: int = 0,
                 gpu_graphs: Optional[bool] = None, output_type: OutputType = "auto",
                 output_device: OutputDevice = "auto",
                 gpu_tuning: Optional[str] = None):
        """Loads `path` onto `device` ("cpu", "cuda:N", "hip:N" or "auto").

        threads: CPU threads of the device, 0 for every core, 1 to run on
        the calling thread only. gpu_graphs: replay runs on a GPU as
        CUDA/HIP graphs (one launch per run from the second run at a
        shape), True or False; None (the default) replays for a model
        compiled with mode="reduce-overhead" (its ``mode``). output_type: "numpy", "torch", "dlpack" (an object with
        ``__dlpack__``), or "auto": torch tensors when any input is one,
        else numpy arrays for host outputs and DLPack objects for outputs
        on a GPU. output_device, for a model that runs on a GPU: "host"
        copies the outputs back, "device" leaves them in the GPU's memory,
        "auto" leaves them there when any input was given there (as torch
        does: CUDA tensors in, CUDA tensors out). gpu_tuning, for a model
        with tunable GPU kernels (compiled with gpu_candidates or
        mode="max-autotune"): "off" runs the heuristic kernels, "table" the
        choices of the GPU's tuning table in the cache directory (tc-tune,
        tune_gpu), "tune" also tunes at the first run the kernels the table
        lacks; None (the default) is "tune" for a max-autotune model, else
        "table".
        """
        if isinstance(threads, bool) or not isinstance(threads, int) or \
                not 0 <= threads <= MAX_THREADS:
            raise TcError(f"threads={threads!r}: expected an integer from 0 (all "
                          f"cores) to {MAX_THREADS}")
        _check_choice("output_type", output_type, _OUTPUT_TYPES)
        _check_choice("output_device", output_device, _OUTPUT_DEVICES)
        graphs = -1 if gpu_graphs is None else int(bool(gpu_graphs))
        if gpu_tuning is not None:
            _check_choice("gpu_tuning", gpu_tuning, _GPU_TUNING)
        tuning = -1 if gpu_tuning is None else _GPU_TUNING.index(gpu_tuning)
        self._model = _tc.Model(str(path), device, threads, graphs, tuning)
        self.path = str(path)
        self.output_type = output_type
        self.output_device = output_device
        self.inputs = [_spec(info) for info in self._model.inputs]
        self.outputs = [_spec(info) for info in self._model.outputs]

    @property
    def device(self) -> str:
        """The device it runs on ("cpu", "cuda:0")."""
        return self._model.device

    @property
    def num_threads(self) -> int:
        return self._model.num_threads

    @property
    def graph_runs(self) -> int:
        """How many runs replayed a graph (gpu_graphs=True on a GPU)."""
        return self._model.graph_runs

    @property
    def gpu_choices(self) -> list:
        """The alternative each tunable GPU kernel runs on the model's device
        (-1: its heuristic kernel); empty for a model without them."""
        return list(self._model.gpu_choices)

    @property
    def gpu_tuning_table(self) -> str:
        """The tuning table of the model's GPU ("" on the CPU)."""
        return self._model.gpu_tuning_table

    def tune_gpu(self, *arrays, budget_seconds: float = 60.0, rounds: int = 5,
                 retune: bool = False, use_table: bool = True, **named) -> dict:
        """Times the alternatives of the model's tunable GPU kernels on its
        GPU with these inputs (by position or by name, as a call takes them)
        and makes each kernel run its fastest (tc_module_tune_gpu):
        budget_seconds bounds the timing, rounds is the number of timed
        rounds, retune times the kernels the tuning table already knows, and
        use_table reads the GPU's table first and writes the winners to it.
        Returns the report: sites, keys, keys_from_table, keys_tuned,
        keys_changed, runs, heuristic_ms, tuned_ms (per run, the timed keys'
        kernels), seconds, budget_exhausted."""
        inputs = self._bind(arrays, named)
        values = [_input_array(value, spec) for value, spec in zip(inputs, self.inputs)]
        return self._model.tune_gpu(values, float(budget_seconds), int(rounds),
                                    bool(retune), bool(use_table))

    @property
    def mode(self) -> str:
        """The mode it was compiled in: "default", "reduce-overhead" (runs
        keep the CPU threads awake and replay GPU graphs) or
        "max-autotune"."""
        return self._model.mode

    @property
    def targets(self) -> list:
        """The GPU targets the model.so carries kernels for."""
        return self._model.targets

    @property
    def shape_buckets(self) -> list:
        """The shape buckets compiled into the model.so (tc-compile
        --shape-bucket), each "name=extent,...": inputs with those extents run
        code specialized for them, others the generic code."""
        return self._model.shape_buckets

    def __call__(self, *arrays, **named) -> list:
        """Runs the model; inputs by position or by name; returns a list.

        Every input is given exactly once: more positional inputs than the
        model has, a keyword that names no input, or an input given both by
        position and by name raise TcError."""
        return self.run(self._bind(arrays, named))

    def run(self, inputs: Union[Sequence, Mapping[str, Any]], *,
            out: Optional[Sequence] = None,
            output_type: Optional[OutputType] = None,
            output_device: Optional[OutputDevice] = None) -> list:
        """Runs on `inputs` (a sequence in the model's order, or a mapping
        from input names). With ``out`` (one array or None per output), each
        given output is written into its array, which must be writable
        memory of the output's shape and dtype (host memory, or the model's
        GPU's), and comes back as that array. output_type and output_device
        override the model's for this run."""
        if isinstance(inputs, Mapping):
            inputs = self._bind((), dict(inputs))
        inputs = list(inputs)
        if len(inputs) != len(self.inputs):
            raise TcError(f"{len(inputs)} inputs given but the model has "
                          f"{len(self.inputs)} ({self._names()})")
        arrays = [_input_array(value, spec) for value, spec in zip(inputs, self.inputs)]
        kind = output_type or self.output_type
        _check_choice("output_type", kind, _OUTPUT_TYPES)
        place = output_device or self.output_device
        _check_choice("output_device", place, _OUTPUT_DEVICES)
        on_device = self.device != "cpu" and (
            place == "device" or (place == "auto" and any(_on_gpu(a) for a in arrays)))
        if kind == "auto":
            kind = ("torch" if any(_is_torch(a) for a in arrays)
                    else "dlpack" if on_device else "numpy")
        targets = self._out_targets(out)
        results = self._model.run(arrays, kind, targets, on_device)
        if out is None:
            return results
        return [given if given is not None else result
                for given, result in zip(out, results)]

    def _out_targets(self, out):
        if out is None:
            return None
        out = list(out)
        if len(out) != len(self.outputs):
            raise TcError(f"out= has {len(out)} entries but the model has "
                          f"{len(self.outputs)} outputs")
        for k, (target, spec) in enumerate(zip(out, self.outputs)):
            if target is None:
                continue
            writable = (target.flags.writeable if isinstance(target, np.ndarray)
                        else not getattr(target, "requires_grad", False))
            if not writable:
                raise TcError(f"out[{k}] ('{spec.name}') is not writable")
        return [None if t is None else (t.detach() if _is_torch(t) else t) for t in out]

    def _names(self) -> str:
        return ", ".join(spec.name for spec in self.inputs) or "none"

    def _bind(self, arrays: Sequence, named: Mapping[str, Any]) -> list:
        names = [spec.name for spec in self.inputs]
        if len(arrays) > len(names):
            raise TcError(f"{len(arrays)} inputs given by position but the model "
                          f"has {len(names)} ({self._names()})")
        unknown = [key for key in named if key not in names]
        if unknown:
            raise TcError(f"unknown input {', '.join(repr(k) for k in unknown)} "
                          f"(the model's inputs: {self._names()})")
        twice = [key for key in named if names.index(key) < len(arrays)]
        if twice:
            raise TcError(f"input {', '.join(repr(k) for k in twice)} given both "
                          "by position and by name")
        values = list(arrays)
        for name in names[len(values):]:
            if name not in named:
                raise TcError(f"missing input '{name}'")
            values.append(named[name])
        return values

    def __repr__(self) -> str:
        return f"tc.Model({self.path!r}, device={self.device!r})"


def load(path: str, device: str = "cpu", threads: int = 0,
         gpu_graphs: Optional[bool] = None,
         output_type: OutputType = "auto", output_device: OutputDevice = "auto",
         gpu_tuning: Optional[str] = None) -> Model:
    """Loads a model.so (see Model). A model.so is code: loading it runs its
    initializers, so load only trusted files."""
    return Model(path, device, threads, gpu_graphs, output_type, output_device,
                 gpu_tuning)
