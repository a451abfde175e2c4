#!/usr/bin/env python3
"""tc-compile --mode=max-autotune against the default mode on the CPU.

For each model of benchmarks/models.py (built into WORKDIR/models on first
use with Debian's torch), in this one script:
  1. compiles it in the default mode (the heuristics' kernel
     configurations), and with --mode=max-autotune into a fresh tuning
     table of its own (WORKDIR/<model>/tuning.json), so that every kernel
     is tuned here rather than taken from an earlier model's table; the
     tuning runs the candidates with tc-run on all cores, on generated
     inputs;
  2. checks both libraries' outputs against the model's PyTorch reference
     (test_data_set_0; largest difference within 1e-3 of the largest value);
  3. times both with the Python runtime (tc.load) in alternating blocks
     (benchmarks/common.py), at each thread count.
Prints a Markdown table: median ms of each, tuned / default (below 1:
max-autotune faster), the kernels whose configuration changed, and the
time the tuning took; --write adds it to docs/autotuning-results.md as the
present state.

Usage: benchmarks/autotune.py [--models NAME,...] [--threads 1,2]
       [--runs N] [--budget SECONDS] [--workdir DIR] [--write]
"""
import argparse
import datetime
import os
import re
import subprocess
import sys
import tempfile
import time

from common import alternate, ensure_models, load_inputs, load_outputs, mismatch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("TC_BUILD", os.path.join(ROOT, "build"))
TC_COMPILE = os.path.join(BUILD, "bin", "tc-compile")
sys.path.insert(0, os.path.join(BUILD, "python_packages"))
import tc  # noqa: E402

MODELS = ["resnet18", "resnet50", "mobilenet_v2", "efficientnet_b0",
          "convnext_tiny", "vit_b_16", "bert_base", "gpt2_small"]
TOLERANCE = 1e-3
SUMMARY = re.compile(r"max-autotune: (\d+) tunable kernels \((\d+) distinct\).*?"
                     r"(?:(\d+) candidate compiles, (\d+) changed.*?)?; ([\d.]+) s")


def compile_model(path, out, extra):
    """(seconds, stderr) of one compile, which must succeed."""
    start = time.perf_counter()
    p = subprocess.run([TC_COMPILE, path, "-o", out, "--no-cache", *extra],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"compiling {path} {' '.join(extra)} failed:\n{p.stderr}")
    return time.perf_counter() - start, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--budget", type=float, default=600,
                    help="--autotune-budget per model, seconds")
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "tc-autotune"))
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    names = args.models.split(",")
    models_dir = ensure_models(args.workdir, names)
    rows = []
    for name in names:
        model_dir = os.path.join(models_dir, name)
        path = os.path.join(model_dir, "model.onnx")
        work = os.path.join(args.workdir, name)
        os.makedirs(work, exist_ok=True)
        table = os.path.join(work, "tuning.json")
        if os.path.exists(table):
            os.remove(table)
        default_so, tuned_so = os.path.join(work, "default.so"), os.path.join(work, "tuned.so")
        default_s, _ = compile_model(path, default_so, [])
        tuned_s, log = compile_model(path, tuned_so, ["--mode=max-autotune", f"--tuning-table={table}",
                                                      f"--autotune-budget={args.budget}"])
        summary = SUMMARY.search(log)
        if not summary:
            sys.exit(f"no max-autotune summary in the compile's output:\n{log}")
        kernels, keys, trials, changed, tuning_s = summary.groups()
        import onnx
        feeds = load_inputs(model_dir, onnx.load(path, load_external_data=False))
        references = load_outputs(model_dir)
        for threads in [int(t) for t in args.threads.split(",")]:
            runners = {}
            for label, so in (("default", default_so), ("tuned", tuned_so)):
                model = tc.load(so, threads=threads)
                ordered = [feeds[info.name] for info in model.inputs]
                problem = mismatch(model(*ordered), references, TOLERANCE)
                if problem:
                    sys.exit(f"{name} ({label}): {problem}")
                runners[label] = (lambda m, o: lambda: m(*o))(model, ordered)
            medians = alternate(runners, args.runs)
            rows.append((name, threads, medians["default"], medians["tuned"],
                         f"{changed or 0} of {keys}", float(tuning_s), default_s, tuned_s))
            print(f"{name} {threads} thread(s): default {medians['default']:.2f} ms, "
                  f"tuned {medians['tuned']:.2f} ms, {changed or 0} of {keys} kernels changed, "
                  f"tuning {float(tuning_s):.1f} s", file=sys.stderr)
    lines = ["| model | threads | default ms | max-autotune ms | tuned / default | "
             "kernels changed (of distinct) | tuning s | compile s (default / max-autotune) |",
             "|---|---|---|---|---|---|---|---|"]
    for name, threads, d, t, changed, tuning_s, default_s, tuned_s in rows:
        lines.append(f"| {name} | {threads} | {d:.2f} | {t:.2f} | {t / d:.2f} | {changed} | "
                     f"{tuning_s:.1f} | {default_s:.1f} / {tuned_s:.1f} |")
    text = "\n".join(lines)
    print(text)
    if args.write:
        page = os.path.join(ROOT, "docs", "autotuning-results.md")
        with open(page, "w") as f:
            f.write("# max-autotune on the CPU: results\n\n")
            f.write(f"Measured {datetime.date.today().isoformat()} by `benchmarks/autotune.py "
                    f"--threads {args.threads} --runs {args.runs}` on this project's 2-core "
                    "machine (medians of alternating blocks in one process, fp32, batch 1). "
                    "Tuning ran the candidates on both cores, on generated inputs, into a fresh "
                    "table per model.\n\n")
            f.write(text + "\n")


if __name__ == "__main__":
    main()
