"""GPU memory in and out of tc.Model without copies, against the fake CUDA
driver of the runtime's tests (test/unittests/Runtime/FakeCuda: two fake
H200s whose "device memory" is host memory, counting every copy) and its
hand-written GPU module fake_gpu_scale.so (y = x * 2 + 1).

The fake driver is loaded into a subprocess of its own before the runtime
opens libcuda.so.1 (the loader then reuses it by its soname), so that no
other test sees a GPU.
"""
import os
import pathlib
import subprocess
import sys
import textwrap

import importlib.util

import pytest


def _runtime_test_dir():
    # (Found without importing tc here: tc registers its torch.compile
    # backend when imported after torch, which the other tests rely on.)
    package = importlib.util.find_spec("tc").origin
    build = os.environ.get("TC_BUILD") or str(pathlib.Path(package).resolve().parents[2])
    directory = pathlib.Path(build) / "test" / "unittests" / "Runtime"
    if not (directory / "FakeCuda" / "libcuda.so.1").exists():
        pytest.skip("the runtime's fake CUDA driver is not built here")
    return directory


SCRIPT = textwrap.dedent("""
    import ctypes, sys
    import numpy as np
    fakes = sys.argv[1]
    driver = ctypes.CDLL(fakes + "/FakeCuda/libcuda.so.1", mode=ctypes.RTLD_GLOBAL)

    class State(ctypes.Structure):  # FakeCuda/fake_cuda.h
        _fields_ = [(name, ctypes.c_int) for name in (
            "contexts_created", "contexts_destroyed", "retains0", "retains1",
            "streams_live", "modules_loaded", "modules_live", "allocations_live",
            "launches", "graph_launches", "graphs_live", "copies_to_device",
            "copies_to_host", "copies_on_device")]
    driver.fake_cuda_state_get.restype = ctypes.POINTER(State)
    state = driver.fake_cuda_state_get().contents

    import tc
    module = fakes + "/fake_gpu_scale.so"
    gpu = tc.load(module, device="cuda:0")
    x = np.arange(300, dtype=np.float32)

    # Left on the GPU: a DLPack object on (kDLCUDA, 0), nothing copied back.
    to_host = state.copies_to_host
    (y,) = gpu.run([x], output_device="device")
    assert tuple(y.__dlpack_device__()) == (2, 0), y.__dlpack_device__()
    assert state.copies_to_host == to_host

    # Fed to the next run where it lies: no copy in; "auto" keeps the
    # output on the GPU because the input was there.
    to_device, on_device = state.copies_to_device, state.copies_on_device
    (z,) = gpu.run([y])
    assert tuple(z.__dlpack_device__()) == (2, 0)
    assert (state.copies_to_device, state.copies_on_device) == (to_device, on_device)

    # Back to the host on request.
    (w,) = gpu.run([z], output_device="host")
    assert isinstance(w, np.ndarray)
    expected = ((x * 2 + 1) * 2 + 1) * 2 + 1
    np.testing.assert_array_equal(w, expected)

    # out= into GPU memory: the runtime copies on the GPU.
    (target,) = gpu.run([x], output_device="device")
    gpu.run([np.zeros(300, np.float32)], out=[target])
    (back,) = gpu.run([target], output_device="host")
    np.testing.assert_array_equal(back, np.full(300, 3, np.float32))

    def refused(call, message):
        try:
            call()
        except tc.TcError as error:
            assert message in str(error), error
        else:
            raise AssertionError(f"no TcError ({message})")

    # numpy cannot hold GPU memory.
    refused(lambda: gpu.run([x], output_device="device", output_type="numpy"),
            "numpy cannot hold GPU memory")

    # GPU memory given to a model on the CPU, or on another GPU.
    cpu = tc.load(module, device="cpu")
    refused(lambda: cpu.run([y]), "input 'x' is on cuda:0 but the model runs on the CPU")
    other = tc.load(module, device="cuda:1")
    refused(lambda: other.run([y]), "input 'x' is on cuda:0 but the model runs on cuda:1")

    # Every block goes back when the arrays and models go.
    del y, z, target, gpu, other
    import gc; gc.collect()
    assert state.allocations_live == 0, state.allocations_live
    print("ok")
""")


def test_gpu_memory_in_and_out_without_copies():
    fakes = _runtime_test_dir()
    env = dict(os.environ)
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(fakes)],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("ok")


TUNING_SCRIPT = textwrap.dedent("""
    import ctypes, os, sys
    import numpy as np
    fakes = sys.argv[1]
    ctypes.CDLL(fakes + "/FakeCuda/libcuda.so.1", mode=ctypes.RTLD_GLOBAL)
    import tc
    module = fakes + "/fake_gpu_scale_tunable.so"
    x = np.arange(6, dtype=np.float32)

    # Tuned from Python: the fake GPU's alternative 0 (4 us against the
    # heuristic kernel's 10) wins, and goes into the GPU's table.
    gpu = tc.load(module, device="cuda:0")
    assert gpu.gpu_choices == [-1], gpu.gpu_choices
    report = gpu.tune_gpu(x, rounds=2)
    assert report["keys_tuned"] == 1 and report["keys_changed"] == 1, report
    assert report["runs"] == 9, report
    assert abs(report["tuned_ms"] - 0.004) < 1e-6, report
    assert gpu.gpu_choices == [0], gpu.gpu_choices
    assert gpu.gpu_tuning_table.startswith(os.environ["TC_CACHE_DIR"])
    np.testing.assert_array_equal(gpu(x)[0], x * 2 + 1)

    # A later load applies the table, unless told not to.
    assert tc.load(module, device="cuda:1").gpu_choices == [0]
    assert tc.load(module, device="cuda:1", gpu_tuning="off").gpu_choices == [-1]
    try:
        tc.load(module, device="cuda:0", gpu_tuning="always")
    except tc.TcError as error:
        assert "gpu_tuning='always'" in str(error), error
    else:
        raise AssertionError("no TcError")
    try:
        tc.load(module, device="cpu").tune_gpu(x)
    except tc.TcError as error:
        assert "not on 'cpu'" in str(error), error
    else:
        raise AssertionError("no TcError")
    print("ok")
""")


def test_gpu_kernels_tuned_from_python(tmp_path):
    fakes = _runtime_test_dir()
    env = dict(os.environ, TC_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-c", TUNING_SCRIPT, str(fakes)],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("ok")
