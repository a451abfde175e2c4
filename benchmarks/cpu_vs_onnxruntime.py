#!/usr/bin/env python3
"""tc against ONNX Runtime on the CPU, on the shared models.

Compiles every model under ../shared/models with tc-compile (timing the
compile), then runs tc (through `import tc`) and ONNX Runtime on the same
inputs (test_data_set_0) in this one process, alternating short blocks of
runs of the two so that machine noise hits both alike, at 1 and 2 threads. Prints the
median latencies and their ratio (tc / ORT: below 1 means tc is faster).
ORT gets its full graph optimizations and intra-op threads = the thread
count, inter-op threads = 1.

Blocks, not single runs: ONNX Runtime's workers spin for a while after a
run returns, and with as many threads as cores they take the cores from a
tc run that starts right then, and that run would time the contention.
Each block therefore starts after a pause (SETTLE_S), and the first run
of each block is not timed (benchmarks/common.py).

Usage: benchmarks/cpu_vs_onnxruntime.py [--runs N] [--threads 1,2]
       [--models DIR] [--workdir DIR]
"""
import argparse
import glob
import os
import sys
import tempfile
import time

import onnx

from common import alternate, load_inputs, ort_session

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.environ.get("TC_BUILD", os.path.join(ROOT, "build")), "python_packages"))
import tc  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "models"))
    parser.add_argument("--workdir", default=None)
    args = parser.parse_args()
    workdir = args.workdir or tempfile.mkdtemp(prefix="tc-bench-")
    threads = [int(t) for t in args.threads.split(",")]

    rows = []
    for model_dir in sorted(glob.glob(os.path.join(args.models, "*", ""))):
        name = os.path.basename(os.path.normpath(model_dir))
        path = os.path.join(model_dir, "model.onnx")
        start = time.perf_counter()
        so = tc.compile_onnx(path, os.path.join(workdir, name + ".so"))
        compile_s = time.perf_counter() - start
        model = onnx.load(path)
        feeds = load_inputs(model_dir, model)
        for n in threads:
            ours = tc.load(so, threads=n)
            session = ort_session(path, n)
            ordered = [feeds[info.name] for info in ours.inputs]
            medians = alternate({"tc": lambda: ours(*ordered),
                                 "ort": lambda: session.run(None, feeds)}, args.runs)
            t, o = medians["tc"], medians["ort"]
            rows.append((name, n, t, o, t / o, compile_s))
            del ours

    print(f"{'model':<22}{'threads':>8}{'tc ms':>10}{'ORT ms':>10}{'tc/ORT':>9}{'compile s':>11}")
    for name, n, t, o, ratio, compile_s in rows:
        print(f"{name:<22}{n:>8}{t:>10.3f}{o:>10.3f}{ratio:>9.2f}{compile_s:>11.2f}")


if __name__ == "__main__":
    main()
