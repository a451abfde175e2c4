#!/usr/bin/env python3
"""Accuracy and CPU latency of tc-compile --precision=tf32/bf16/fp16 against
fp32.

For each model of benchmarks/models.py (built into WORKDIR/models on first
use; ResNet-50 and BERT-base by default), compiles the model four times
(--precision=fp32, tf32, bf16, fp16), runs all four on the same SAMPLES random
inputs (images from a standard normal; token ids, an attention mask with a
random padded tail and segment ids), and reports against the fp32 results:

  - cosine: the smallest cosine similarity, over samples, of each output
    flattened (the direction of the logits / hidden states);
  - rel err: the largest |low - fp32| over the samples, relative to the
    largest |fp32|;
  - top-1: for classifiers, the share of samples whose arg-max class is the
    fp32 one;
  - ms: the median CPU latency, the four variants alternating in short
    blocks in this process (benchmarks/common.py), and its ratio to fp32.

Thresholds (docs/precision.md says why): cosine >= 0.99 for bf16,
>= 0.999 for fp16 and >= 0.9999 for tf32, top-1 agreement >= 90 %. The script exits non-zero when
a model misses one.

Usage: benchmarks/precision_accuracy.py [--models resnet50,bert_base]
       [--samples 16] [--runs 20] [--threads 2] [--workdir DIR] [--write]
"""
import argparse
import datetime
import os
import platform
import sys
import tempfile

import numpy as np
import onnx

from common import alternate, ensure_models

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.environ.get("TC_BUILD", os.path.join(ROOT, "build")),
                                "python_packages"))
import tc  # noqa: E402

PRECISIONS = ("fp32", "tf32", "bf16", "fp16")
COSINE_MIN = {"tf32": 0.9999, "bf16": 0.99, "fp16": 0.999}
TOP1_MIN = 0.9
CLASSIFIERS = {"resnet18", "resnet50", "mobilenet_v2", "efficientnet_b0",
               "convnext_tiny", "vit_b_16"}


def random_inputs(name, model, rng):
    """One sample: an array per graph input, from its ONNX type."""
    initializers = {i.name for i in model.graph.initializer}
    sample = {}
    for value in model.graph.input:
        if value.name in initializers:
            continue
        shape = [d.dim_value for d in value.type.tensor_type.shape.dim]
        if value.type.tensor_type.elem_type == onnx.TensorProto.FLOAT:
            sample[value.name] = rng.standard_normal(shape).astype(np.float32)
        elif "mask" in value.name:
            length = int(rng.integers(shape[-1] // 2, shape[-1] + 1))
            mask = np.zeros(shape, np.int64)
            mask[..., :length] = 1
            sample[value.name] = mask
        elif "type" in value.name or "segment" in value.name:
            sample[value.name] = rng.integers(0, 2, shape).astype(np.int64)
        else:  # token ids: the embedding's rows
            vocab = 30522 if name.startswith("bert") else 50257
            sample[value.name] = rng.integers(0, vocab, shape).astype(np.int64)
    return sample


def cosine(a, b):
    a, b = a.ravel().astype(np.float64), b.ravel().astype(np.float64)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-30))


def measure(name, path, workdir, samples, runs, threads, precisions, target):
    """The fp32 CPU compile is the reference; the other precisions compile
    for `target` (cpu, or gpu-emulation: the GPU kernels run on the CPU)."""
    model = onnx.load(path, load_external_data=False)
    models = {}
    for precision in ["fp32"] + precisions:
        so = os.path.join(workdir, f"{name}-{precision}-{target}.so")
        flags = [] if precision == "fp32" else [f"--precision={precision}",
                                                 f"--target={target}"]
        tc.compile_onnx(path, so, flags)
        models[precision] = tc.Model(so, threads=threads)
    rng = np.random.default_rng(0)
    inputs = [random_inputs(name, model, rng) for _ in range(samples)]
    results = {p: [m(**x) for x in inputs] for p, m in models.items()}
    rows = []
    for precision in precisions:
        row = {"model": name, "precision": precision, "outputs": []}
        for o, spec in enumerate(models["fp32"].outputs):
            ref = [r[o] for r in results["fp32"]]
            low = [r[o] for r in results[precision]]
            worst = min(cosine(a, b) for a, b in zip(low, ref))
            scale = max(float(np.abs(r).max()) for r in ref)
            err = max(float(np.abs(a - b).max()) for a, b in zip(low, ref)) / scale
            row["outputs"].append((spec.name, worst, err))
        if name in CLASSIFIERS:
            agree = [int(np.argmax(a[0]) == np.argmax(b[0]))
                     for a, b in zip(results[precision], results["fp32"])]
            row["top1"] = sum(agree) / len(agree)
        rows.append(row)
    # Latency: the variants alternate in blocks on the first sample.
    x = inputs[0]
    runners = {p: (lambda m=m: m(**x)) for p, m in models.items()}
    times = alternate(runners, runs)
    for row in rows:
        row["ms"] = times[row["precision"]]
        row["fp32_ms"] = times["fp32"]
    return rows


def passes(row):
    ok = all(c >= COSINE_MIN[row["precision"]] for _, c, _ in row["outputs"])
    return ok and row.get("top1", 1.0) >= TOP1_MIN


def table(rows):
    lines = ["| model | precision | output | cosine (min) | rel err (max) | top-1 | "
             "ms | vs fp32 |", "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        for i, (output, c, err) in enumerate(row["outputs"]):
            top1 = f"{row['top1'] * 100:.0f} %" if "top1" in row and i == 0 else ""
            timing = (f"{row['ms']:.1f} | {row['ms'] / row['fp32_ms']:.2f}"
                      if i == 0 else " | ")
            lines.append(f"| {row['model']} | {row['precision']} | {output} | {c:.5f} | "
                         f"{err:.2e} | {top1} | {timing} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="resnet50,bert_base")
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "tc-bench"))
    ap.add_argument("--precisions", default=",".join(PRECISIONS[1:]),
                    help="the precisions compared with fp32")
    ap.add_argument("--target", default="cpu",
                    help="where they run: cpu, or gpu-emulation (the GPU kernels on "
                         "the CPU; its latencies mean nothing)")
    ap.add_argument("--write", action="store_true",
                    help="write docs/precision-results.md")
    args = ap.parse_args()
    names = args.models.split(",")
    models_dir = ensure_models(args.workdir, names)
    rows = []
    for name in names:
        rows += measure(name, os.path.join(models_dir, name, "model.onnx"), args.workdir,
                        args.samples, args.runs, args.threads,
                        args.precisions.split(","), args.target)
    text = table(rows)
    print(text)
    failed = [f"{r['model']} {r['precision']}" for r in rows if not passes(r)]
    if args.write:
        date = datetime.date.today().isoformat()
        with open(os.path.join(ROOT, "docs", "precision-results.md"), "w") as f:
            f.write(f"# --precision: accuracy and CPU latency ({date})\n\n"
                    f"`benchmarks/precision_accuracy.py --models={args.models} "
                    f"--samples={args.samples} --threads={args.threads}` on "
                    f"{platform.processor() or platform.machine()}, {os.cpu_count()} "
                    "cores, against the fp32 compile of the same model on the same "
                    "random inputs (docs/precision.md explains the policy and the "
                    "thresholds).\n\n" + text + "\n")
    if failed:
        sys.exit("below the accuracy thresholds: " + ", ".join(failed))


if __name__ == "__main__":
    main()
