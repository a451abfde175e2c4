#!/usr/bin/env python3
"""Matmuls whose weights come from memory, tc against ONNX Runtime: a chain
of ViT-B/16 MLP blocks (x[197, 768] -> MatMul 768 x 3072 -> MatMul
3072 x 768, random weights, fixed seed), 40 blocks with their own weights
(376 MB, more than the last-level cache: each run reads them from memory,
as a transformer's run does) and one block (9.4 MB x 2, cached from run to
run). The cold chain's time per block against the warm block's shows what
fetching the weights costs each compiler; benchmarks/compare_libraries.py
on the written models compares two tc libraries.

  .venv/bin/python benchmarks/cold_weights.py [--threads N] [--blocks N]
      [--workdir DIR]

Each output is checked against ONNX Runtime's; tc (tc.load) and ONNX
Runtime run in alternating blocks in this process (benchmarks/common.py).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from common import alternate, mismatch, ort_session

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("TC_BUILD", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(BUILD, "python_packages"))
import tc  # noqa: E402

TOLERANCE = 1e-3


def chain_model(blocks, rows=197, width=768, hidden=3072):
    rng = np.random.default_rng(0)
    nodes, weights, x = [], [], "x"
    for i in range(blocks):
        up = (rng.standard_normal((width, hidden)) / np.sqrt(width)).astype(np.float32)
        down = (rng.standard_normal((hidden, width)) / np.sqrt(hidden)).astype(np.float32)
        weights += [numpy_helper.from_array(up, f"up{i}"), numpy_helper.from_array(down, f"down{i}")]
        nodes += [helper.make_node("MatMul", [x, f"up{i}"], [f"h{i}"]),
                  helper.make_node("MatMul", [f"h{i}", f"down{i}"], [f"y{i}"])]
        x = f"y{i}"
    graph = helper.make_graph(
        nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, width])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [rows, width])], weights)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--blocks", type=int, default=40, help="blocks of the cold chain")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    workdir = args.workdir or tempfile.mkdtemp(prefix="tc-cold-")
    x = np.random.default_rng(1).standard_normal((197, 768)).astype(np.float32)
    print(f"{args.threads} thread(s), medians of {args.runs} runs; ms per block")
    print("| weights | blocks | tc ms | ORT ms | tc / ORT |")
    print("|---|---|---|---|---|")
    for name, blocks in (("cold", args.blocks), ("warm", 1)):
        directory = os.path.join(workdir, name)
        os.makedirs(os.path.join(directory, "test_data_set_0"), exist_ok=True)
        path = os.path.join(directory, "model.onnx")
        onnx.save(chain_model(blocks), path)
        session = ort_session(path, args.threads)
        reference = session.run(None, {"x": x})
        with open(os.path.join(directory, "test_data_set_0", "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, "x").SerializeToString())
        with open(os.path.join(directory, "test_data_set_0", "output_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(reference[0], session.get_outputs()[0].name)
                    .SerializeToString())
        library = os.path.join(directory, "model.so")
        subprocess.run([os.path.join(BUILD, "bin", "tc-compile"), path, "-o", library], check=True)
        model = tc.load(library, threads=args.threads)
        problem = mismatch(model(x), reference, TOLERANCE)
        if problem:
            sys.exit(f"{name}: {problem}")
        times = alternate({"tc": lambda: model(x), "ort": lambda: session.run(None, {"x": x})},
                          args.runs if blocks > 1 else 5 * args.runs)
        tc_ms = times["tc"] / blocks
        ort_ms = times["ort"] / blocks
        print(f"| {name} | {blocks} | {tc_ms:.2f} | {ort_ms:.2f} | {tc_ms / ort_ms:.2f} |")


if __name__ == "__main__":
    main()
