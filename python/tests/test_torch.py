"""PyTorch in the loop: tc.compile on nn.Modules and torch.compile(backend="tc").

Real models at small inputs: torchvision's ResNet-18 and a small
transformer encoder (embedding, two nn.TransformerEncoderLayers, a head),
random weights from a fixed seed, compared with eager PyTorch.
"""
import os

import numpy as np
import pytest
import torch
import torchvision

import tc


def close(actual, expected, rtol=1e-4, atol=1e-4):
    scale = float(expected.abs().max())
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol * max(scale, 1.0))


@pytest.fixture(scope="module")
def resnet18():
    torch.manual_seed(0)
    return torchvision.models.resnet18(num_classes=100).eval()


class TinyEncoder(torch.nn.Module):
    """Tokens -> embeddings (+ learned positions) -> 2 encoder layers -> logits."""

    def __init__(self, vocab=500, width=64, heads=4, layers=2, length=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, width)
        self.position = torch.nn.Parameter(torch.randn(1, length, width) * 0.02)
        layer = torch.nn.TransformerEncoderLayer(width, heads, 4 * width, dropout=0.0,
                                                 batch_first=True, norm_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.head = torch.nn.Linear(width, vocab)

    def forward(self, tokens):
        h = self.embed(tokens) + self.position[:, : tokens.shape[1]]
        return self.head(self.encoder(h))


@pytest.fixture(scope="module")
def encoder():
    torch.manual_seed(0)
    return TinyEncoder().eval()


def eager(module, *inputs):
    with torch.no_grad():
        return module(*inputs)


def test_resnet18_through_tc_compile(resnet18):
    x = torch.randn(2, 3, 64, 64)
    compiled = tc.compile(resnet18, (x,), threads=2)
    close(compiled(x), eager(resnet18, x))
    # numpy in, numpy out
    y = compiled(x.numpy())
    assert isinstance(y, np.ndarray)
    close(torch.from_numpy(y), eager(resnet18, x))


def test_resnet18_through_torch_compile(resnet18):
    tc.stats(reset=True)
    compiled = torch.compile(resnet18, backend="tc")
    x = torch.randn(1, 3, 64, 64)
    with torch.no_grad():
        close(compiled(x), eager(resnet18, x))
        # A second batch size: Dynamo hands over a graph with a symbolic
        # batch, which tc compiles once for all batch sizes.
        for batch in (3, 4):
            xb = torch.randn(batch, 3, 64, 64)
            close(compiled(xb), eager(resnet18, xb))
    stats = tc.stats()
    assert stats["dynamo_graphs"] == 2 and stats["eager_fallbacks"] == 0, stats


def test_transformer_through_tc_compile(encoder):
    tokens = torch.randint(0, 500, (2, 32))
    compiled = tc.compile(encoder, (tokens,), threads=2)
    close(compiled(tokens), eager(encoder, tokens))
    close(compiled(tokens=tokens), eager(encoder, tokens))  # by parameter name


def test_transformer_through_torch_compile(encoder):
    tc.stats(reset=True)
    compiled = torch.compile(encoder, backend="tc")
    tokens = torch.randint(0, 500, (1, 32))
    with torch.no_grad():
        close(compiled(tokens), eager(encoder, tokens))
    assert tc.stats()["eager_fallbacks"] == 0, tc.stats()


def test_dynamic_none_recompiles_once_for_a_changing_dimension():
    tc.stats(reset=True)
    torch.manual_seed(1)
    mlp = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(),
                              torch.nn.Linear(32, 4)).eval()
    compiled = tc.compile(mlp, (torch.randn(2, 16),))
    for batch in (2, 5, 7, 1):
        x = torch.randn(batch, 16)
        close(compiled(x), eager(mlp, x))
    # The first shape statically, then one compile with a symbolic batch.
    assert len(compiled.models) == 2
    assert tc.stats()["recompiles"] == 1
    static = tc.compile(mlp, (torch.randn(2, 16),), dynamic=False)
    static(torch.randn(3, 16))
    assert len(static.models) == 2
    symbolic = tc.compile(mlp, (torch.randn(2, 16),), dynamic=True)
    for batch in (3, 9):
        symbolic(torch.randn(batch, 16))
    assert len(symbolic.models) == 1 and symbolic.models[0].inputs[0].shape[0] is None


def test_eight_threads_share_one_compiled_module(resnet18):
    import concurrent.futures
    compiled = tc.compile(resnet18, (torch.randn(1, 3, 32, 32),), threads=2)
    inputs = [torch.randn(1, 3, 32, 32) for _ in range(8)]
    expected = [compiled(x) for x in inputs]

    def work(k):
        return all(torch.equal(compiled(inputs[k]), expected[k]) for _ in range(5))

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert all(pool.map(work, range(8)))


class Attention(torch.nn.Module):
    """nn.MultiheadAttention with a key padding mask: its fused fast path
    under Dynamo (torch._native_multi_head_attention)."""

    def __init__(self):
        super().__init__()
        self.attention = torch.nn.MultiheadAttention(32, 4, batch_first=True)

    def forward(self, x, padding):
        out, weights = self.attention(x, x, x, key_padding_mask=padding)
        return out, weights


def test_fused_attention_through_torch_compile():
    torch.manual_seed(3)
    module = Attention().eval()
    compiled = torch.compile(module, backend="tc", options={"fallback": False})
    x = torch.randn(2, 6, 32)
    padding = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    with torch.no_grad():
        out, weights = compiled(x, padding)
        expected_out, expected_weights = module(x, padding)
    close(out, expected_out)
    close(weights, expected_weights)


class WithSvd(torch.nn.Module):
    def forward(self, x):
        return torch.linalg.svdvals(x) + 1  # no ONNX operator computes it


def test_what_tc_cannot_take_runs_eagerly_when_allowed():
    tc.stats(reset=True)
    x = torch.randn(4, 4)
    with pytest.raises(tc.TcError, match="torch.onnx.export failed"):
        tc.compile(WithSvd(), (x,))
    fallback = tc.compile(WithSvd(), (x,), fullgraph=False)
    torch.testing.assert_close(fallback(x), WithSvd()(x))
    compiled = torch.compile(WithSvd(), backend="tc")
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), WithSvd()(x))
    stats = tc.stats()
    assert stats["eager_fallbacks"] == 2 and len(stats["fallback_reasons"]) == 2, stats
    strict = torch.compile(WithSvd(), backend="tc", options={"fallback": False})
    with pytest.raises(Exception, match="torch.onnx.export failed"):
        with torch.no_grad():
            strict(x)


def test_weights_changed_in_place_are_seen():
    torch.manual_seed(2)
    linear = torch.nn.Linear(8, 8).eval()
    compiled = torch.compile(linear, backend="tc")
    x = torch.randn(3, 8)
    with torch.no_grad():
        close(compiled(x), linear(x))
        linear.weight.mul_(2.0)  # the frozen copy is stale now
        close(compiled(x), linear(x))


def test_autograd_graphs_run_eagerly():
    tc.stats(reset=True)
    linear = torch.nn.Linear(4, 4)
    compiled = torch.compile(linear, backend="tc")
    y = compiled(torch.randn(2, 4))
    assert y.requires_grad  # eager, so that backward works
    assert "needs autograd" in " ".join(tc.stats()["fallback_reasons"])


def test_modes_and_precisions_tc_lacks_are_refused(resnet18):
    with pytest.raises(tc.TcError, match="mode='fastest'"):
        tc.compile(resnet18, mode="fastest")
    with pytest.raises(tc.TcError, match="precision='fp8'"):
        tc.compile(resnet18, precision="fp8")


@pytest.mark.parametrize("precision", ["tf32", "bf16", "fp16"])
def test_16_bit_precision_keeps_f32_outputs_and_the_answer(resnet18, precision):
    x = torch.randn(2, 3, 64, 64)
    expected = resnet18(x).detach()
    compiled = tc.compile(resnet18, (x,), precision=precision)
    y = compiled(x)
    assert y.dtype == torch.float32 and y.shape == expected.shape
    cosine = torch.nn.functional.cosine_similarity(y.flatten(), expected.flatten(), dim=0)
    assert cosine > 0.999
    # The policy applied: the fp32 compile matches far more closely.
    exact = tc.compile(resnet18, (x,))(x)
    assert (y - expected).abs().max() > 10 * (exact - expected).abs().max()
    with pytest.raises(tc.TcError, match="mode='fastest'"):
        tc.compile(resnet18, mode="fastest")


def test_inference_session_matches_onnxruntime(tmp_path, resnet18):
    import onnxruntime
    x = torch.randn(1, 3, 64, 64)
    path = str(tmp_path / "resnet18.onnx")
    torch.onnx.export(resnet18, (x,), path, input_names=["image"], output_names=["logits"],
                      dynamo=True, dynamic_shapes=({0: torch.export.Dim.DYNAMIC},))
    ours = tc.InferenceSession(path)
    theirs = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    assert [(a.name, a.type) for a in ours.get_inputs()] == \
        [(a.name, a.type) for a in theirs.get_inputs()]
    assert ours.get_inputs()[0].shape[1:] == [3, 64, 64]
    feed = {"image": np.random.default_rng(0).standard_normal((2, 3, 64, 64)).astype(np.float32)}
    (mine,) = ours.run(["logits"], feed)
    (reference,) = theirs.run(["logits"], feed)
    np.testing.assert_allclose(mine, reference, rtol=1e-4, atol=1e-4)
    with pytest.raises(tc.TcError, match="unknown output 'probs'"):
        ours.run(["probs"], feed)
    with pytest.raises(tc.TcError, match="provider 'TensorrtExecutionProvider'"):
        tc.InferenceSession(path, providers=["TensorrtExecutionProvider"])


def test_max_autotune_tunes_on_the_example_inputs():
    # A dynamic batch has no extent of its own to tune for: the example
    # inputs give it. The tuned kernels compute the same results, and the
    # tuning table lands in the compile cache.
    torch.manual_seed(0)
    module = torch.nn.Sequential(
        torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(32, 32, 3, stride=2, padding=1)).eval()
    x = torch.randn(2, 16, 24, 24)
    compiled = tc.compile(module, (x,), mode="max-autotune", dynamic=True)
    close(compiled(x), eager(module, x))
    tables = os.listdir(os.path.join(os.environ["TC_CACHE_DIR"], "tuning"))
    assert any(t.startswith("cpu-") and t.endswith(".json") for t in tables)


def test_reduce_overhead_marks_the_library_and_computes_the_same():
    # The library carries the mode (its runs keep the CPU threads awake),
    # computes what eager does at 2 threads, and is a cache entry apart from
    # the default compile's.
    torch.manual_seed(0)
    module = torch.nn.Sequential(
        torch.nn.Linear(64, 128), torch.nn.GELU(), torch.nn.Linear(128, 8)).eval()
    x = torch.randn(4, 64)
    compiled = tc.compile(module, (x,), mode="reduce-overhead", threads=2)
    for _ in range(3):
        close(compiled(x), eager(module, x))
    assert [m.mode for m in compiled.models] == ["reduce-overhead"]
    plain = tc.compile(module, (x,), threads=2)
    close(plain(x), eager(module, x))
    assert [m.mode for m in plain.models] == ["default"]
