#!/usr/bin/env python3
"""Import time and peak memory of tc's ONNX importer on a large model.

Builds a ~450 MB MLP (2048x2048 float32 MatMul layers with biases and GELU)
in a temporary directory, then runs `tc-compile --check` on it under
/usr/bin/time and reports wall time, peak resident memory and the ratio of
peak memory to the model's size. The targets: under 10 s, and peak memory
under twice the model's size.

Usage: import_large_model.py --tc-compile BUILD/bin/tc-compile [--mb 450]
       [--external-data]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def build(path, megabytes, external):
    width = 2048
    layer_bytes = width * width * 4 + width * 4
    layers = max(1, int(megabytes * 1024 * 1024 // layer_bytes))
    rng = np.random.default_rng(0)
    nodes, inits = [], []
    x = "x"
    for i in range(layers):
        w = rng.standard_normal((width, width), dtype=np.float32) * 0.02
        b = np.zeros((width,), np.float32)
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        nodes += [helper.make_node("MatMul", [x, f"w{i}"], [f"m{i}"], name=f"mm{i}"),
                  helper.make_node("Add", [f"m{i}", f"b{i}"], [f"a{i}"], name=f"add{i}"),
                  helper.make_node("Gelu", [f"a{i}"], [f"g{i}"], name=f"gelu{i}")]
        x = f"g{i}"
    graph = helper.make_graph(
        nodes, "large_mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", width])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, ["batch", width])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 9
    if external:
        onnx.save_model(model, path, save_as_external_data=True,
                        all_tensors_to_one_file=True, location="weights.bin")
    else:
        onnx.save_model(model, path)
    size = os.path.getsize(path)
    if external:
        size += os.path.getsize(os.path.join(os.path.dirname(path), "weights.bin"))
    return layers, size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tc-compile", required=True)
    ap.add_argument("--mb", type=float, default=450)
    ap.add_argument("--external-data", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.onnx")
        layers, size = build(path, args.mb, args.external_data)
        p = subprocess.run(["/usr/bin/time", "-v", args.tc_compile, path, "--check"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print(p.stdout, p.stderr, file=sys.stderr)
            return 1
        wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", p.stderr)
        seconds = float(wall.group(3)) + 60 * float(wall.group(2)) + \
            3600 * float(wall.group(1) or 0)
        rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
        rss = rss_kb * 1024
        kind = "external data" if args.external_data else "embedded weights"
        print(f"model: {layers} layers, {size / 2**20:.0f} MiB ({kind})")
        print(f"import: {seconds:.2f} s wall, peak RSS {rss / 2**20:.0f} MiB, "
              f"peak / model size = {rss / size:.2f}")
        ok = seconds < 10 and rss < 2 * size
        print("within targets (< 10 s, < 2x model size)" if ok else "OUTSIDE TARGETS")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
