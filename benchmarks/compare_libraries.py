#!/usr/bin/env python3
"""Two or more tc libraries of one model against each other (and ONNX
Runtime), in one process: the A/B check of a compiler change on a noisy
machine, where only ratios measured side by side mean anything.

Each library runs the model's test_data_set_0 inputs and is checked
against its reference outputs first; then all of them and ONNX Runtime are
timed in alternating rounds of blocks (benchmarks/common.py). Prints each
one's median ms and its time over the first library's: the median, over
the rounds, of the ratio of the two blocks of one round (a machine whose
speed drifts within minutes moves both alike), with its range.

  .venv/bin/python benchmarks/compare_libraries.py --model DIR A.so B.so
      [--threads N] [--runs N]

DIR holds model.onnx and test_data_set_0 (benchmarks/models.py's output).
"""
import argparse
import os
import statistics
import sys

import onnx

from common import BLOCK, alternate_blocks, load_inputs, load_outputs, mismatch, ort_session, round_ratios

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(os.environ.get("TC_BUILD", os.path.join(ROOT, "build")), "python_packages"))
import tc  # noqa: E402

TOLERANCE = 1e-3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="directory with model.onnx and test_data_set_0")
    ap.add_argument("libraries", nargs="+", help="tc-compile outputs of that model")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    path = os.path.join(args.model, "model.onnx")
    inputs = load_inputs(args.model, onnx.load(path, load_external_data=False))
    wanted = load_outputs(args.model)
    feeds = list(inputs.values())
    session = ort_session(path, args.threads)
    runners = {}
    for library in args.libraries:
        model = tc.load(library, threads=args.threads)
        problem = mismatch(model(*feeds), wanted, TOLERANCE)
        if problem:
            sys.exit(f"{library}: {problem}")
        runners[library] = (lambda m: lambda: m(*feeds))(model)
    runners["onnxruntime"] = lambda: session.run(None, inputs)
    blocks = alternate_blocks(runners, args.runs)
    ratios = round_ratios(blocks, args.libraries[0])
    print(f"{args.threads} thread(s), {len(blocks[args.libraries[0]])} rounds of "
          f"{BLOCK} runs; x first: the median over rounds of the ratio within a round")
    for name, times in blocks.items():
        r = ratios[name]
        print(f"{statistics.median(times):9.2f} ms  {statistics.median(r):5.2f} x first  "
              f"(rounds {min(r):.2f}-{max(r):.2f})  {name}")


if __name__ == "__main__":
    main()
