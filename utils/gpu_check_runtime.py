"""The runtime C API through ctypes, for utils/gpu_check.py on the GPU machine.

The tc package (python/tc) binds the runtime with a compiled extension,
built for this machine's Python; the lent GPU machine has another Python
and no compiler, so the GPU check carries this ctypes binding instead:
load a model.so, run it on numpy arrays by input name, replay GPU graphs.
The library is TC_RUNTIME_LIB (gpu_check.py sets it to the carried copy).
"""
import ctypes
import os

import numpy as np

_MAX_THREADS = 4096  # TC_MAX_THREADS of runtime.h
_DTYPES = {1: np.float16, 3: np.float32, 4: np.float64, 5: np.int8, 6: np.int16,
           7: np.int32, 8: np.int64, 9: np.uint8, 10: np.uint16, 11: np.uint32,
           12: np.uint64, 13: np.bool_}
_CODES = {np.dtype(v): k for k, v in _DTYPES.items()}
# Stand-ins of the types numpy lacks (include/tc-runtime/module_abi.h).
_STAND_INS = {2: np.uint16, 14: np.uint8, 15: np.uint8, 16: np.uint8, 17: np.uint8,
              18: np.uint8, 19: np.uint8, 20: np.int8, 21: np.uint8, 22: np.int8,
              23: np.uint8}
_DTYPES.update(_STAND_INS)


class TcError(RuntimeError):
    """An error reported by the runtime or the compiler."""


class _ArgInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_int32), ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("dim_symbols", ctypes.POINTER(ctypes.c_char_p))]


class _Options(ctypes.Structure):
    _fields_ = [("num_threads", ctypes.c_int32), ("gpu_graphs", ctypes.c_int32),
                ("gpu_tuning", ctypes.c_int32), ("cache_dir", ctypes.c_char_p)]


def _library():
    path = os.environ.get("TC_RUNTIME_LIB")
    if not path:
        raise TcError("set TC_RUNTIME_LIB to the libTcRuntime.so to use")
    lib = ctypes.CDLL(path)
    p, vp = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)
    lib.tc_status_message.restype = ctypes.c_char_p
    lib.tc_status_message.argtypes = [p]
    lib.tc_status_free.argtypes = [p]
    for name, args in {
        "tc_runtime_create": [ctypes.POINTER(_Options), vp],
        "tc_device_create": [p, ctypes.c_char_p, vp],
        "tc_module_load": [p, ctypes.c_char_p, vp],
        "tc_module_input_info": [p, ctypes.c_size_t, ctypes.POINTER(_ArgInfo)],
        "tc_module_output_info": [p, ctypes.c_size_t, ctypes.POINTER(_ArgInfo)],
        "tc_tensor_wrap": [ctypes.c_int, ctypes.c_int32, ctypes.POINTER(ctypes.c_int64),
                           p, ctypes.c_size_t, p, p, vp],
        "tc_module_run": [p, p, vp, ctypes.c_size_t, vp, ctypes.c_size_t],
    }.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = p
    for name in ("tc_runtime_release", "tc_device_release", "tc_module_release",
                 "tc_tensor_release"):
        getattr(lib, name).argtypes = [p]
        getattr(lib, name).restype = None
    lib.tc_module_num_inputs.argtypes = lib.tc_module_num_outputs.argtypes = [p]
    lib.tc_module_num_inputs.restype = lib.tc_module_num_outputs.restype = ctypes.c_size_t
    lib.tc_tensor_rank.argtypes = [p]
    lib.tc_tensor_rank.restype = ctypes.c_int32
    lib.tc_tensor_dims.argtypes = [p]
    lib.tc_tensor_dims.restype = ctypes.POINTER(ctypes.c_int64)
    lib.tc_tensor_data.argtypes = [p]
    lib.tc_tensor_data.restype = p
    lib.tc_tensor_dtype.argtypes = [p]
    lib.tc_tensor_dtype.restype = ctypes.c_int
    lib.tc_tensor_byte_size.argtypes = [p]
    lib.tc_tensor_byte_size.restype = ctypes.c_size_t
    lib.tc_device_graph_runs.argtypes = [p]
    lib.tc_device_graph_runs.restype = ctypes.c_int64
    return lib


_lib = None


def _check(status):
    if status:
        message = _lib.tc_status_message(status).decode()
        _lib.tc_status_free(status)
        raise TcError(message)


class Model:
    """A loaded model.so bound to one device."""

    def __init__(self, path, device="cpu", threads=0, gpu_graphs=False):
        """Loads `path`. A model.so is code: loading it runs its initializers,
        so load only files you compiled or otherwise trust."""
        global _lib
        if isinstance(threads, bool) or not isinstance(threads, int) or \
                not 0 <= threads <= _MAX_THREADS:
            raise TcError(f"threads={threads!r}: expected an integer from 0 (all "
                          f"cores) to {_MAX_THREADS}")
        if _lib is None:
            _lib = _library()
        self._runtime, self._device, self._module = (ctypes.c_void_p() for _ in range(3))
        # gpu_tuning -1 (as the module's mode asks), the default cache dir.
        options = _Options(threads, 1 if gpu_graphs else 0, -1, None)
        _check(_lib.tc_runtime_create(ctypes.byref(options),
                                      ctypes.byref(self._runtime)))
        _check(_lib.tc_device_create(self._runtime, device.encode(),
                                     ctypes.byref(self._device)))
        _check(_lib.tc_module_load(self._runtime, os.fsencode(path),
                                   ctypes.byref(self._module)))
        self._codes = []  # the inputs' dtype codes
        self.inputs = self._describe(_lib.tc_module_input_info,
                                     _lib.tc_module_num_inputs(self._module))
        self.outputs = self._describe(_lib.tc_module_output_info,
                                      _lib.tc_module_num_outputs(self._module))

    @property
    def graph_runs(self):
        """How many runs replayed a graph (gpu_graphs=True on a GPU)."""
        return _lib.tc_device_graph_runs(self._device)

    def _describe(self, query, count):
        described = []
        for i in range(count):
            info = _ArgInfo()
            _check(query(self._module, i, ctypes.byref(info)))
            if query == _lib.tc_module_input_info:
                self._codes.append(info.dtype)
            shape = tuple(None if info.dims[d] < 0 else info.dims[d] for d in range(info.rank))
            described.append((info.name.decode(), np.dtype(_DTYPES[info.dtype]), shape))
        return described

    def __call__(self, **named):
        """Runs the model on its inputs, all given by name; returns a list."""
        names = [name for name, _, _ in self.inputs]
        if sorted(named) != sorted(names):
            raise TcError(f"inputs {sorted(named)} given; the model's are {names}")
        values = [named[name] for name in names]
        keep, handles = [], (ctypes.c_void_p * len(values))()
        try:
            for i, value in enumerate(values):
                # Not ascontiguousarray: it turns a 0-d array into a 1-d one.
                array = np.asarray(value, order="C")
                code = _CODES.get(array.dtype)
                wanted = self._codes[i] if i < len(self._codes) else None
                if wanted in _STAND_INS and array.dtype == np.dtype(_STAND_INS[wanted]):
                    code = wanted  # the stand-in of a type numpy lacks
                if code is None:
                    raise TcError(f"input {i}: unsupported dtype {array.dtype}")
                dims = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
                handle = ctypes.c_void_p()
                _check(_lib.tc_tensor_wrap(code, array.ndim, dims, array.ctypes.data,
                                           array.nbytes, None, None, ctypes.byref(handle)))
                keep.append(array)
                handles[i] = handle
            outputs = (ctypes.c_void_p * len(self.outputs))()
            _check(_lib.tc_module_run(self._module, self._device, handles, len(values),
                                      outputs, len(self.outputs)))
            return [self._take(outputs[k]) for k in range(len(self.outputs))]
        finally:
            for handle in handles:
                if handle:
                    _lib.tc_tensor_release(handle)

    @staticmethod
    def _take(handle):
        try:
            rank = _lib.tc_tensor_rank(handle)
            shape = tuple(_lib.tc_tensor_dims(handle)[d] for d in range(rank))
            dtype = np.dtype(_DTYPES[_lib.tc_tensor_dtype(handle)])
            size = _lib.tc_tensor_byte_size(handle)
            if size == 0:
                return np.zeros(shape, dtype)
            buffer = (ctypes.c_char * size).from_address(_lib.tc_tensor_data(handle))
            return np.frombuffer(buffer, dtype).reshape(shape).copy()
        finally:
            _lib.tc_tensor_release(handle)

    def __del__(self):
        if _lib is None:
            return
        for handle, release in ((getattr(self, "_module", None), _lib.tc_module_release),
                                (getattr(self, "_device", None), _lib.tc_device_release),
                                (getattr(self, "_runtime", None), _lib.tc_runtime_release)):
            if handle:
                release(handle)


def load(path, device="cpu", threads=0, gpu_graphs=False):
    """Loads a model.so; threads=0 uses every core. A model.so is code:
    loading it runs its initializers, so load only trusted files. gpu_graphs=True replays
    runs on a GPU as graphs (one launch per run from the second run at a
    shape; tc_runtime_options.gpu_graphs)."""
    return Model(path, device, threads, gpu_graphs)
