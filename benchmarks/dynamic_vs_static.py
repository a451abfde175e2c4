#!/usr/bin/env python3
"""The price of dynamic shapes: BERT-base exported with dynamic batch and
sequence axes (as torch.onnx.export writes them: the sizes flow through
Shape/Gather/Concat into Reshape and Expand), against a static-shape
compile of the same export (its inputs fixed to batch 1, sequence 128, so
that tc folds the shape arithmetic), timed at batch 1, sequence 128. With
--model resnet18 (or another CNN of benchmarks/models.py, read from
--models DIR): that static export against a copy with a symbolic batch axis
(what torch.onnx.export writes for a torchvision CNN with a dynamic batch:
its Flatten needs no shape arithmetic), timed at batch 1.

A third library is the dynamic model with a shape bucket for the timed
shape (tc-compile --shape-bucket=batch=1[,sequence=128]): one library for
every shape whose timed shape runs code specialized for it.

All three are compiled with tc-compile (timed), checked against PyTorch's
outputs, and run by tc-run in alternating blocks in this one script; prints
median latencies and their ratios to the static compile (dynamic / static:
the goal is at most 1.10).

Usage: benchmarks/dynamic_vs_static.py [--workdir DIR] [--runs N]
       [--blocks N] [--threads N] [--model NAME --models DIR]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build", "bin")


def run(argv):
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed:\n{p.stdout}{p.stderr}")
    return p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "tc-bench-dynamic"))
    ap.add_argument("--runs", type=int, default=5, help="timed runs per block")
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--model", default="bert-base")
    ap.add_argument("--models", help="benchmarks/models.py's directory, for a CNN")
    args = ap.parse_args()
    work = args.workdir
    os.makedirs(work, exist_ok=True)
    if args.model == "bert-base":
        dynamic, static, inputs, compares, title = bert_base(work)
        bucket = "batch=1,sequence=128"
    else:
        dynamic, static, inputs, compares, title = cnn(work, args.models, args.model)
        bucket = "batch=1"
    names = ("dynamic", "static", "bucketed")
    builds = {"dynamic": (dynamic, []), "static": (static, []),
              "bucketed": (dynamic, [f"--shape-bucket={bucket}"])}
    libraries, compile_s = {}, {}
    for name in names:
        path, flags = builds[name]
        libraries[name] = os.path.join(work, f"{name}.so")
        start = time.perf_counter()
        run([os.path.join(BUILD, "tc-compile"), path, "-o", libraries[name], "--no-cache",
             *flags])
        compile_s[name] = time.perf_counter() - start
        out = run([os.path.join(BUILD, "tc-run"), libraries[name], *inputs, *compares,
                   "--rtol=1e-3", "--atol=1e-4"])
        if out.count(": OK:") != len(compares):
            sys.exit(f"{name}: outputs do not match PyTorch:\n{out}")
    medians = {name: [] for name in names}
    for block in range(args.blocks):
        # Each library takes each place in the order in turn.
        order = names[block % 3:] + names[:block % 3]
        for name in order:
            out = run([os.path.join(BUILD, "tc-run"), libraries[name], *inputs,
                       f"--threads={args.threads}", f"--benchmark={args.runs}"])
            medians[name].append(float(re.search(r"median ([0-9.]+) ms", out).group(1)))
    median = {name: statistics.median(medians[name]) for name in names}
    print(f"{title}, {args.threads} threads, "
          f"{args.blocks} alternating blocks of {args.runs} runs")
    print("| compile | compile s | median ms | / static |\n|---|---|---|---|")
    for name in names:
        label = f"dynamic, bucket {bucket}" if name == "bucketed" else name
        print(f"| {label} | {compile_s[name]:.1f} | {median[name]:.1f} | "
              f"{median[name] / median['static']:.3f} |")
    print(f"dynamic / static: {median['dynamic'] / median['static']:.3f} (goal <= 1.10)")
    print(f"dynamic with the bucket / static: "
          f"{median['bucketed'] / median['static']:.3f}")


def cnn(work, models, name):
    """A benchmarks/models.py CNN (static batch 1) and a copy whose inputs'
    and outputs' first axis is the symbolic "batch"."""
    if not models:
        sys.exit("--models DIR is needed for a CNN")
    static = os.path.join(models, name, "model.onnx")
    model = onnx.load(static)
    for value in list(model.graph.input) + list(model.graph.output):
        dim = value.type.tensor_type.shape.dim[0]
        dim.Clear()
        dim.dim_param = "batch"
    del model.graph.value_info[:]
    dynamic = os.path.join(work, f"{name}-dynamic.onnx")
    onnx.save(model, dynamic)
    case = os.path.join(models, name, "test_data_set_0")
    return (dynamic, static, [f"--input={os.path.join(case, 'input_0.pb')}"],
            [f"--compare={os.path.join(case, 'output_0.pb')}"], f"{name}, batch 1")


def bert_base(work):
    """BERT-base exported with dynamic axes, and the same export with its
    inputs fixed to 1 x 128."""
    dynamic = os.path.join(work, "bert-base", "model.onnx")
    if not os.path.exists(dynamic):
        run(["/usr/bin/python3",
             os.path.join(ROOT, "test", "Target", "Cpu", "Inputs", "dynamic_exports.py"),
             work, "--bert-base"])
    static = os.path.join(work, "bert-base-static.onnx")
    model = onnx.load(dynamic)
    for value in model.graph.input:
        for dim, size in zip(value.type.tensor_type.shape.dim, (1, 128)):
            dim.Clear()
            dim.dim_value = size
    del model.graph.value_info[:]
    onnx.save(model, static)

    case = os.path.join(work, "bert-base", "b1s128")
    inputs = [f"--input={os.path.join(case, f'input_{i}.npy')}" for i in range(3)]
    compares = [f"--compare={os.path.join(case, f'output_{i}.npy')}" for i in range(2)]
    return dynamic, static, inputs, compares, "BERT-base, batch 1, sequence 128"


if __name__ == "__main__":
    main()
