#!/usr/bin/env python3
"""tc-compile --mode=reduce-overhead against the default mode and ONNX
Runtime, for requests that arrive with idle gaps between them.

A server rarely runs a model back to back: between two requests the CPU
device's workers go to sleep, and waking them costs each parallel kernel
of the next run. A reduce-overhead library keeps them awake (spinning)
during a run and for 50 ms after it; ONNX Runtime's workers spin by
default too. For each model, both tc libraries (compiled here, without the
cache) and ONNX Runtime run its test_data_set_0 inputs, are checked against
the reference outputs, then timed at each gap: every run is preceded by a
sleep of the gap, and the three take turns in blocks (each block after a
pause longer than the hot window, so that no one's spinning threads take
the cores of the next). Prints the median latency per run, and
reduce-overhead over default and over ONNX Runtime: the median over rounds
of the ratio of the two blocks of one round.

  .venv/bin/python benchmarks/reduce_overhead.py [--models DIR]
      [--shared DIR] [--names a,b] [--threads 2] [--gaps 0,2,10] [--write]

--models: benchmarks/models.py's output directory (real-size models);
--shared: the shared directory of small exported models. --write puts the
table in docs/modes-results.md.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import onnx

from common import load_inputs, load_outputs, mismatch, ort_session

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("TC_BUILD", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(BUILD, "python_packages"))
import tc  # noqa: E402

TOLERANCE = 1e-3
# Longer than the runtime's hot window (ThreadPool::kHotWindowNs, 50 ms),
# and than ONNX Runtime's spin after its last run.
SETTLE_S = 0.15
SMALL = ["tiny_bert", "tiny_gpt", "small_cnn_dynbatch", "mobilenet_v2"]
REAL = ["mobilenet_v2", "resnet18", "bert_base"]


def compile_library(onnx_path, output, mode):
    subprocess.run([os.path.join(BUILD, "bin", "tc-compile"), onnx_path, "-o", output,
                    "--no-cache", f"--mode={mode}"], check=True)


def time_with_gap(fn, gap_ms, runs):
    """The median ms of `runs` calls of fn, each after sleeping gap_ms."""
    times = []
    for _ in range(runs):
        if gap_ms:
            time.sleep(gap_ms / 1e3)
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def measure(runners, gap_ms, rounds, runs):
    """name -> list of block medians, the runners taking turns."""
    blocks = {name: [] for name in runners}
    for _ in range(rounds):
        for name, fn in runners.items():
            time.sleep(SETTLE_S)
            fn()
            blocks[name].append(time_with_gap(fn, gap_ms, runs))
    return blocks


def ratio(blocks, name, reference):
    return statistics.median(a / b for a, b in zip(blocks[name], blocks[reference]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="/work/bench/models")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared", "models"))
    ap.add_argument("--names", default=None, help="comma-separated; default: the shared "
                    "small models, then MobileNetV2, ResNet-18 and BERT-base from --models")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--gaps", default="0,2,10", help="ms of idle time before each run")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=20, help="timed runs per block")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    gaps = [float(g) for g in args.gaps.split(",")]

    entries = []
    if args.names:
        wanted = args.names.split(",")
    else:
        wanted = [n for n in SMALL if n != "mobilenet_v2"] + REAL
    for name in wanted:
        small = os.path.join(args.shared, name)
        real = os.path.join(args.models, name)
        directory = real if os.path.exists(os.path.join(real, "model.onnx")) else small
        if not os.path.exists(os.path.join(directory, "model.onnx")):
            sys.exit(f"{name}: no model.onnx in {real} or {small}")
        entries.append((name, directory))

    rows = []
    with tempfile.TemporaryDirectory() as work:
        for name, directory in entries:
            onnx_path = os.path.join(directory, "model.onnx")
            model = onnx.load(onnx_path, load_external_data=False)
            inputs = load_inputs(directory, model)
            references = load_outputs(directory)
            libraries = {}
            for mode in ("default", "reduce-overhead"):
                so = os.path.join(work, f"{name}-{mode}.so")
                compile_library(onnx_path, so, mode)
                libraries[mode] = tc.load(so, threads=args.threads)
            session = ort_session(onnx_path, args.threads)
            feed = dict(inputs)
            values = list(inputs.values())
            runners = {
                "default": lambda m=libraries["default"]: m(*values),
                "reduce-overhead": lambda m=libraries["reduce-overhead"]: m(*values),
                "ort": lambda: session.run(None, feed),
            }
            for label, fn in runners.items():
                problem = mismatch(fn(), references, TOLERANCE)
                if problem:
                    sys.exit(f"{name} ({label}): {problem}")
            for gap in gaps:
                blocks = measure(runners, gap, args.rounds, args.runs)
                row = [name, f"{gap:g}"] + \
                    [f"{statistics.median(blocks[k]):.3f}" for k in runners] + \
                    [f"{ratio(blocks, 'reduce-overhead', 'default'):.2f}",
                     f"{ratio(blocks, 'reduce-overhead', 'ort'):.2f}",
                     f"{ratio(blocks, 'default', 'ort'):.2f}"]
                rows.append(row)
                print(" | ".join(row), flush=True)
            del libraries, session

    header = ["model", "gap ms", "default ms", "reduce-overhead ms", "ORT ms",
              "r-o / default", "r-o / ORT", "default / ORT"]
    table = "| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n" + \
            "".join("| " + " | ".join(r) + " |\n" for r in rows)
    print(table)
    if args.write:
        import onnxruntime
        path = os.path.join(ROOT, "docs", "modes-results.md")
        with open(path, "w") as f:
            f.write("# Compile modes: measurements\n\n"
                    "Written by `benchmarks/reduce_overhead.py"
                    f"{' --write' if not args.names else ' --names ' + args.names + ' --write'}`"
                    f" on {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs "
                    f"({platform.processor() or platform.machine()}), "
                    f"{args.threads} threads, ONNX Runtime {onnxruntime.__version__}. "
                    "Each run follows an idle gap (a sleep); the median latency of "
                    f"{args.rounds} alternating blocks of {args.runs} runs; ratios are the "
                    "median over rounds of the two blocks of one round (below 1: "
                    "reduce-overhead is faster). The design is in "
                    "[modes.md](modes.md).\n\n" + table)


if __name__ == "__main__":
    main()
