#!/usr/bin/env python3
"""Single ResNet-shaped operators, tc against ONNX Runtime: the kernels the
CPU pipeline computes specially, each in a one-node ONNX model (random
weights and input, fixed seed, batch 1, fp32).

  - 3x3 convolutions with unit strides and padding 1 at ResNet's four
    stages, which tc computes by Winograd (F(4x4, 3x3), or F(2x2, 3x3) on
    7x7), also compiled with --winograd=false (the direct convolution);
  - 1x1 convolutions with stride 2 (ResNet's downsampling), a dense copy of
    the strided positions and a matmul;
  - a classifier at batch 1, Gemm 1280 -> 1000 (MobileNetV2's), a
    matrix-vector product over packed weights;
  - 1x1 convolutions in NCHW at ResNet-50's stages, whose image tc packs
    into panels inside each workgroup;
  - matmuls with constant weights: ViT-B/16's MLP at 197 tokens and
    ConvNeXt-Tiny's over its first and last stages' positions;
  - MobileNetV2's depthwise 3x3 convolutions, unit-stride and stride 2;
  - a transpose from NHWC back to NCHW (112x112x64).
    Alone, ONNX Runtime runs them in NCHW; in the model it runs them in its
    channel-blocked layout (NCHWc) and is faster, so their ORT column is
    not the in-model figure (benchmarks/kernel_profile.py gives that).

Each output is checked against ONNX Runtime's first (largest difference
within 1e-3 of the largest value); then tc (tc.load, the runtime's Python
API) and ONNX Runtime are timed in alternating blocks in this one process
(benchmarks/common.py). Prints median ms and tc / ORT (below 1: tc faster).

  .venv/bin/python benchmarks/single_ops.py [--threads N] [--runs N]
      [--only TEXT] [--workdir DIR]
  .venv/bin/python benchmarks/single_ops.py --export DIR [--only TEXT]
      (model directories for an A/B of two compilers' libraries with
      benchmarks/compare_libraries.py)
"""
import argparse
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from common import alternate, ort_session

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(os.environ.get("TC_BUILD", os.path.join(ROOT, "build")), "python_packages"))
import tc  # noqa: E402

TOLERANCE = 1e-3


def conv_model(c, f, size, kernel, stride, pad, group=1):
    rng = np.random.default_rng(0)
    fan_in = c // group * kernel * kernel
    w = (rng.standard_normal((f, c // group, kernel, kernel)) / np.sqrt(fan_in)).astype(np.float32)
    out = (size + 2 * pad - kernel) // stride + 1
    node = helper.make_node("Conv", ["x", "w"], ["y"], strides=[stride, stride],
                            pads=[pad] * 4, group=group)
    graph = helper.make_graph(
        [node], "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, size, size])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, f, out, out])],
        [numpy_helper.from_array(w, "w")])
    x = rng.standard_normal((1, c, size, size)).astype(np.float32)
    return graph, x


def gemv_model(k, n):
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((n, k)) / np.sqrt(k)).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    node = helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)
    graph = helper.make_graph(
        [node], "gemv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, n])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    return graph, rng.standard_normal((1, k)).astype(np.float32)


def matmul_model(m, k, n):
    """x[m, k] @ w[k, n], w a constant: a transformer's projection or MLP
    matmul over m tokens (ConvNeXt's over an image's positions)."""
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32)
    node = helper.make_node("MatMul", ["x", "w"], ["y"])
    graph = helper.make_graph(
        [node], "matmul", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [m, n])],
        [numpy_helper.from_array(w, "w")])
    return graph, rng.standard_normal((m, k)).astype(np.float32)


def transpose_model(h, w, c):
    """An NHWC image returned to NCHW: the transpose a channels-last
    region leaves before an NCHW operator (ResNet-50's max pool)."""
    rng = np.random.default_rng(0)
    node = helper.make_node("Transpose", ["x"], ["y"], perm=[0, 3, 1, 2])
    graph = helper.make_graph(
        [node], "transpose", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, h, w, c])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, c, h, w])])
    return graph, rng.standard_normal((1, h, w, c)).astype(np.float32)


# name, model builder, whether --winograd=false is a second tc variant.
CASES = [
    ("conv3x3 64->64 56x56", lambda: conv_model(64, 64, 56, 3, 1, 1), True),
    ("conv3x3 128->128 28x28", lambda: conv_model(128, 128, 28, 3, 1, 1), True),
    ("conv3x3 256->256 14x14", lambda: conv_model(256, 256, 14, 3, 1, 1), True),
    ("conv3x3 512->512 7x7", lambda: conv_model(512, 512, 7, 3, 1, 1), True),
    # ResNet's stride-2 3x3 convolutions (each stage's first) and stem.
    ("conv3x3/2 128->128 56->28", lambda: conv_model(128, 128, 56, 3, 2, 1), False),
    ("conv3x3/2 256->256 28->14", lambda: conv_model(256, 256, 28, 3, 2, 1), False),
    ("conv3x3/2 512->512 14->7", lambda: conv_model(512, 512, 14, 3, 2, 1), False),
    ("conv7x7/2 3->64 224->112", lambda: conv_model(3, 64, 224, 7, 2, 3), False),
    # ResNet-50's layer1 expansion (a matmul over the image).
    ("conv1x1 64->256 56x56", lambda: conv_model(64, 256, 56, 1, 1, 0), False),
    ("conv1x1 256->64 56x56", lambda: conv_model(256, 64, 56, 1, 1, 0), False),
    ("conv1x1 512->256 28x28", lambda: conv_model(512, 256, 28, 1, 1, 0), False),
    ("conv1x1 1024->512 14x14", lambda: conv_model(1024, 512, 14, 1, 1, 0), False),
    ("conv1x1/2 256->512 56->28", lambda: conv_model(256, 512, 56, 1, 2, 0), False),
    ("conv1x1/2 512->1024 28->14", lambda: conv_model(512, 1024, 28, 1, 2, 0), False),
    ("conv1x1/2 1024->2048 14->7", lambda: conv_model(1024, 2048, 14, 1, 2, 0), False),
    # MobileNetV2's pointwise convolutions on its small images.
    ("pw1x1 320->1280 7x7", lambda: conv_model(320, 1280, 7, 1, 1, 0), False),
    ("pw1x1 160->960 7x7", lambda: conv_model(160, 960, 7, 1, 1, 0), False),
    ("pw1x1 960->320 7x7", lambda: conv_model(960, 320, 7, 1, 1, 0), False),
    ("pw1x1 960->160 7x7", lambda: conv_model(960, 160, 7, 1, 1, 0), False),
    ("pw1x1 64->384 14x14", lambda: conv_model(64, 384, 14, 1, 1, 0), False),
    ("pw1x1 384->64 14x14", lambda: conv_model(384, 64, 14, 1, 1, 0), False),
    ("gemm 1x1280 -> 1000", lambda: gemv_model(1280, 1000), False),
    # Transformer and ConvNeXt MLP matmuls (ViT-B/16's 197 tokens; ConvNeXt-
    # Tiny's first and last stages, 56x56 and 7x7 positions).
    ("matmul 197x768 @ 768x3072", lambda: matmul_model(197, 768, 3072), False),
    ("matmul 197x3072 @ 3072x768", lambda: matmul_model(197, 3072, 768), False),
    ("matmul 3136x96 @ 96x384", lambda: matmul_model(3136, 96, 384), False),
    ("matmul 49x768 @ 768x3072", lambda: matmul_model(49, 768, 3072), False),
    ("matmul 49x3072 @ 3072x768", lambda: matmul_model(49, 3072, 768), False),
    # MobileNetV2's depthwise convolutions.
    ("dw3x3 32 112x112", lambda: conv_model(32, 32, 112, 3, 1, 1, group=32), False),
    ("dw3x3/2 96 112->56", lambda: conv_model(96, 96, 112, 3, 2, 1, group=96), False),
    ("dw3x3 144 56x56", lambda: conv_model(144, 144, 56, 3, 1, 1, group=144), False),
    ("dw3x3/2 144 56->28", lambda: conv_model(144, 144, 56, 3, 2, 1, group=144), False),
    ("dw3x3/2 192 28->14", lambda: conv_model(192, 192, 28, 3, 2, 1, group=192), False),
    ("dw3x3/2 576 14->7", lambda: conv_model(576, 576, 14, 3, 2, 1, group=576), False),
    ("transpose NHWC->NCHW 112x112x64", lambda: transpose_model(112, 112, 64), False),
]


def export(out, only):
    """Each operator whose name contains `only` as a model directory."""
    for name, build, _ in CASES:
        if only not in name:
            continue
        graph, x = build()
        slug = name.replace(" ", "_").replace("/", "s").replace(">", "").replace("@", "by")
        data = os.path.join(out, slug, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        path = os.path.join(out, slug, "model.onnx")
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
        y = ort_session(path, 1).run(None, {"x": x})[0]
        for file, tensor in (("input_0.pb", numpy_helper.from_array(x, "x")),
                             ("output_0.pb", numpy_helper.from_array(y, "y"))):
            with open(os.path.join(data, file), "wb") as f:
                f.write(tensor.SerializeToString())
        print(os.path.join(out, slug))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--only", default="",
                    help="only the operators whose name contains this text")
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "tc-single-ops"))
    ap.add_argument("--export", metavar="DIR",
                    help="instead write each operator as DIR/<name>/model.onnx and "
                         "test_data_set_0 (ONNX Runtime's output as the reference), "
                         "for benchmarks/compare_libraries.py")
    args = ap.parse_args()
    if args.export:
        export(args.export, args.only)
        return
    os.makedirs(args.workdir, exist_ok=True)
    print(f"{args.threads} thread(s), medians of {args.runs} runs")
    print("| operator | tc ms | tc direct ms | ORT ms | tc / ORT |")
    print("|---|---|---|---|---|")
    for index, (name, build, direct) in enumerate(CASES):
        if args.only not in name:
            continue
        graph, x = build()
        path = os.path.join(args.workdir, f"op{index}.onnx")
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
        session = ort_session(path, args.threads)
        want = session.run(None, {"x": x})[0]
        runners = {"ort": lambda: session.run(None, {"x": x})}
        variants = {"tc": []} | ({"direct": ["--winograd=false"]} if direct else {})
        for variant, flags in variants.items():
            so = os.path.join(args.workdir, f"op{index}-{variant}.so")
            tc.compile_onnx(path, so, ["--no-cache", *flags])
            model = tc.load(so, threads=args.threads)
            got = np.asarray(model(x)[0])
            error = np.max(np.abs(got - want)) / np.max(np.abs(want))
            if not error <= TOLERANCE:
                sys.exit(f"{name} ({variant}): off by {error:.1e} of the largest value")
            runners[variant] = (lambda m: lambda: m(x))(model)
        ms = alternate(runners, args.runs)
        direct_ms = f"{ms['direct']:.3f}" if "direct" in ms else "-"
        print(f"| {name} | {ms['tc']:.3f} | {direct_ms} | {ms['ort']:.3f} | "
              f"{ms['tc'] / ms['ort']:.2f} |")


if __name__ == "__main__":
    main()
