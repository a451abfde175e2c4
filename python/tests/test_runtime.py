"""tc.Model: zero-copy tensors in and out, out=, errors, threads, version."""
import concurrent.futures
import importlib.metadata
import re

import numpy as np
import pytest
import torch

import tc
from conftest import affine_reference


@pytest.fixture(scope="module")
def model(affine):
    return tc.load(affine[1], threads=2)


def test_signature_comes_from_the_runtime(model):
    (x,) = model.inputs
    assert (x.name, x.dtype, x.shape, x.type, x.symbols) == \
        ("x", np.dtype(np.float32), (None, 8), "f32", ("n", ""))
    assert [spec.name for spec in model.outputs] == ["z"]
    assert model.device == "cpu" and model.num_threads == 2


def test_shape_buckets_are_listed_and_run(affine, tmp_path):
    path = tc.compile_onnx(affine[0], str(tmp_path / "bucketed.so"),
                           flags=["--shape-bucket=n=2"])
    bucketed = tc.load(path)
    assert bucketed.shape_buckets == ["n=2"]
    assert tc.load(affine[1]).shape_buckets == []
    for rows in (2, 3):  # the bucket's code, then the generic code
        x = np.arange(rows * 8, dtype=np.float32).reshape(rows, 8)
        np.testing.assert_allclose(bucketed(x)[0], affine_reference(x), rtol=1e-6)


def test_version_matches_the_c_api():
    assert tc.__version__ == tc._tc.version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", tc.__version__)
    try:  # an installed wheel's metadata carries the same version
        assert importlib.metadata.version("tc") == tc.__version__
    except importlib.metadata.PackageNotFoundError:
        pass  # the build tree's package has no metadata


def test_numpy_in_numpy_out(model):
    x = np.random.default_rng(0).standard_normal((3, 8)).astype(np.float32)
    (z,) = model(x)
    assert isinstance(z, np.ndarray) and z.dtype == np.float32
    np.testing.assert_allclose(z, affine_reference(x), rtol=1e-5, atol=1e-3)
    (by_name,) = model(x=x)
    np.testing.assert_array_equal(z, by_name)


def test_outputs_are_the_runtimes_buffers_without_copies(model):
    x = np.ones((2, 8), np.float32)
    (z,) = model(x)
    # The numpy array views the runtime's buffer (it does not own a copy),
    # and handing it on through DLPack keeps the same memory.
    assert not z.flags.owndata
    t = torch.from_dlpack(z)
    assert t.data_ptr() == z.ctypes.data
    back = np.from_dlpack(t)
    assert back.ctypes.data == z.ctypes.data
    (capsule_owner,) = model.run([x], output_type="dlpack")
    assert np.from_dlpack(capsule_owner).ctypes.data != z.ctypes.data  # a new run
    np.testing.assert_array_equal(np.from_dlpack(capsule_owner), z)


def test_read_only_and_empty_inputs(model):
    x = np.ones((2, 8), np.float32)
    x.flags.writeable = False  # read where it lies: the run only reads inputs
    (z,) = model(x)
    np.testing.assert_allclose(z, affine_reference(x), rtol=1e-5)
    (empty,) = model(np.zeros((0, 8), np.float32))
    assert empty.shape == (0, 8) and empty.dtype == np.float32
    (listed,) = model([[1.0] * 8])  # nested lists become arrays of the input's type
    np.testing.assert_allclose(listed, affine_reference(np.ones((1, 8), np.float32)), rtol=1e-5)


def test_torch_in_torch_out(model):
    x = torch.randn(4, 8)
    (z,) = model(x)
    assert isinstance(z, torch.Tensor) and z.dtype == torch.float32
    np.testing.assert_allclose(z.numpy(), affine_reference(x.numpy()), rtol=1e-5, atol=1e-3)
    # Tensors that require grad are read as they are (detached, no copy).
    (g,) = model(torch.ones(1, 8, requires_grad=True))
    assert not g.requires_grad


def test_out_writes_into_caller_buffers(model):
    x = np.full((2, 8), 0.25, np.float32)
    target = np.empty((2, 8), np.float32)
    (z,) = model.run([x], out=[target])
    assert z is target
    np.testing.assert_allclose(target, affine_reference(x), rtol=1e-5)
    tensor = torch.empty(2, 8)
    (zt,) = model.run([x], out=[tensor])
    assert zt is tensor and torch.equal(tensor, torch.from_numpy(target))


@pytest.mark.parametrize("bad, message", [
    (lambda m: m(np.zeros((2, 8), np.float64)),
     "input 'x' has dtype f64 but the module expects f32"),
    (lambda m: m(np.zeros((2, 9), np.float32)), "input 'x' axis 1 is 9 but the module expects 8"),
    (lambda m: m(np.zeros((8, 2), np.float32).T),
     "input 'x' is not contiguous (shape (2, 8), strides (1, 2) in elements)"),
    (lambda m: m(torch.zeros(8, 2).t()), "input 'x' is not contiguous"),
    (lambda m: m(torch.zeros(2, 8, device="meta")), "input 'x' is on meta; tc takes host memory"),
    (lambda m: m(np.zeros((2, 8), np.complex64)), "input 'x' has dtype complex64, which tc has no type for"),
    (lambda m: m(object()), "input 'x' is a object, which is no array of f32"),
    (lambda m: m(), "missing input 'x'"),
    (lambda m: m(np.zeros((2, 8), np.float32), bogus=1), "unknown input 'bogus' (the model's inputs: x)"),
    (lambda m: m.run([np.zeros((2, 8), np.float32)], out=[np.empty((2, 7), np.float32)]),
     "out[0] ('z') has shape (2, 7) but the output has shape (2, 8)"),
    (lambda m: m.run([np.zeros((2, 8), np.float32)], out=[np.zeros((2, 8), np.int64)]),
     "out[0] ('z') has dtype int64 but the output is f32"),
])
def test_bad_inputs_raise_tc_errors_naming_them(model, bad, message):
    with pytest.raises(tc.TcError) as error:
        bad(model)
    assert message in str(error.value)


def test_read_only_out_is_refused(model):
    target = np.empty((2, 8), np.float32)
    target.flags.writeable = False
    with pytest.raises(tc.TcError, match=r"out\[0\] \('z'\) is not writable"):
        model.run([np.zeros((2, 8), np.float32)], out=[target])


def test_load_errors(affine):
    with pytest.raises(tc.TcError, match="nothing.so"):
        tc.load("/nonexistent/nothing.so")
    with pytest.raises(tc.TcError, match="threads=-1: expected an integer from 0"):
        tc.load(affine[1], threads=-1)
    with pytest.raises(tc.TcError, match="no device kind 'tpu'|tpu"):
        tc.load(affine[1], device="tpu:0")


def test_eight_threads_share_one_model(model):
    rng = np.random.default_rng(1)
    inputs = [rng.standard_normal((5, 8)).astype(np.float32) for _ in range(8)]
    expected = [model(x)[0].copy() for x in inputs]

    def work(k):
        return all(np.array_equal(model(inputs[k])[0], expected[k]) for _ in range(50))

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert all(pool.map(work, range(8)))


def test_fp16_calibration_keeps_large_activations_in_f32(affine, tmp_path):
    # x @ W reaches about 1e6 here, beyond fp16's range, though no weight
    # does: only a calibration run shows it.
    x = np.full((2, 8), 3000.0, np.float32)
    sample = tmp_path / "samples" / "s0"
    sample.mkdir(parents=True)
    np.save(sample / "x.npy", x)
    plain = tc.compile(affine[0], precision="fp16", output=str(tmp_path / "plain.so"))
    assert not np.isfinite(plain(x)[0]).all()
    calibrated = tc.compile(affine[0], precision="fp16", calibrate=tmp_path / "samples",
                            output=str(tmp_path / "calibrated.so"))
    np.testing.assert_allclose(calibrated(x)[0], affine_reference(x), rtol=1e-3)
    with pytest.raises(tc.TcError, match="calibrate="):
        tc.compile(affine[0], precision="bf16", calibrate=tmp_path / "samples")
