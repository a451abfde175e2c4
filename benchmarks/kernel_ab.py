#!/usr/bin/env python3
"""Two tc libraries of one model compared kernel by kernel: each runs
`tc-run --profile-json` in alternating rounds; per kernel key (the first
Conv/Gemm node it computes, else its last node) the minimum over rounds of
its ms per run, then the differences, largest first. The A/B check of a
change to one kind of kernel on a noisy machine (compare_libraries.py
compares whole runs).

  .venv/bin/python benchmarks/kernel_ab.py --model DIR A.so B.so
      [--threads 1] [--rounds 5] [--runs 20] [--top 25]
"""
import argparse
import json
import os
import subprocess
import tempfile

from common import numbered

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TC_RUN = os.environ.get("TC_RUN", os.path.join(ROOT, "build", "bin", "tc-run"))


def profile(so, inputs, threads, runs, report):
    """{kernel key: ms per run} of one profiled benchmark of `so`."""
    subprocess.run([TC_RUN, so, f"--threads={threads}", f"--benchmark={runs}",
                    f"--profile-json={report}"] + [f"--input={f}" for f in inputs],
                   check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "OMP_PROC_BIND": "false"})
    with open(report) as f:
        kernels = json.load(f)["kernels"]
    times = {}
    for k in kernels:
        convs = [n for n in k["nodes"] if n.endswith(("Conv", "Gemm"))]
        key = convs[0] if convs else (k["nodes"][-1] if k["nodes"] else k["kernel"])
        times[key] = times.get(key, 0.0) + k["ms_per_run"]
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="holds test_data_set_0")
    ap.add_argument("libraries", nargs=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    inputs = numbered(os.path.join(args.model, "test_data_set_0"), "input")
    best = [{}, {}]
    totals = [[], []]
    with tempfile.TemporaryDirectory() as work:
        report = os.path.join(work, "profile.json")
        for _ in range(args.rounds):
            for i, so in enumerate(args.libraries):
                times = profile(so, inputs, args.threads, args.runs, report)
                totals[i].append(sum(times.values()))
                for key, ms in times.items():
                    best[i][key] = min(best[i].get(key, float("inf")), ms)
    print(f"kernels total, min over {args.rounds} rounds: "
          f"A {min(totals[0]):.3f} ms, B {min(totals[1]):.3f} ms")
    rows = sorted(((best[0].get(k, 0.0) - best[1].get(k, 0.0), k)
                   for k in set(best[0]) | set(best[1])), reverse=True)
    print("    A ms     B ms    A - B  kernel")
    shown = rows if len(rows) <= 2 * args.top else rows[:args.top] + rows[-args.top:]
    for diff, key in shown:
        print(f"{best[0].get(key, 0.0):8.3f} {best[1].get(key, 0.0):8.3f} {diff:+8.3f}  {key}")


if __name__ == "__main__":
    main()
