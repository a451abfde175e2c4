#!/usr/bin/env python3
"""The floating-point work of a model's contractions, as computed directly.

Counts 2 x multiply-adds of every Conv, ConvTranspose, MatMul and Gemm of
an ONNX model (shapes from ONNX shape inference; a symbolic dimension
counts as 1): the FLOPs a direct or GEMM-based kernel does. Winograd
convolutions do fewer multiplies, so a rate computed from this count can
exceed the hardware's peak. Divided by a time and by
benchmarks/fma_peak.py's rate, it says how close to the fp32 FMA ceiling a
run is, and whether a target time can be met in fp32 at all.

  .venv/bin/python benchmarks/model_flops.py MODEL.onnx [...]
"""
import argparse
import collections
import math

import onnx
from onnx import shape_inference


def _shapes(model):
    shapes = {}
    graph = model.graph
    for value in list(graph.value_info) + list(graph.input) + list(graph.output):
        dims = value.type.tensor_type.shape.dim
        shapes[value.name] = [d.dim_value if d.HasField("dim_value") else 1 for d in dims]
    for init in graph.initializer:
        shapes[init.name] = list(init.dims)
    return shapes


def _attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def contraction_flops(path):
    """(total FLOPs, {op type: FLOPs}) of the model at `path`."""
    model = shape_inference.infer_shapes(onnx.load(path))
    shapes = _shapes(model)
    by_op = collections.Counter()
    for node in model.graph.node:
        try:
            if node.op_type in ("Conv", "ConvTranspose"):
                weight = shapes[node.input[1]]
                # Conv: output [N, F, ...] from weight [F, C/g, k...];
                # ConvTranspose: each input position times weight [C, F/g, k...].
                if node.op_type == "Conv":
                    positions = math.prod(shapes[node.output[0]][2:]) * shapes[node.output[0]][0]
                    macs = positions * math.prod(weight)
                else:
                    x = shapes[node.input[0]]
                    macs = x[0] * math.prod(x[2:]) * math.prod(weight)
            elif node.op_type == "MatMul":
                a, b = shapes[node.input[0]], shapes[node.input[1]]
                out = shapes[node.output[0]]
                k = a[-1]
                macs = math.prod(out) * k
            elif node.op_type == "Gemm":
                a = shapes[node.input[0]]
                k = a[0] if _attr(node, "transA", 0) else a[-1]
                macs = math.prod(shapes[node.output[0]]) * k
            else:
                continue
        except KeyError:
            continue  # a shape inference could not give
        by_op[node.op_type] += 2 * macs
    return sum(by_op.values()), dict(by_op)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    for path in args.models:
        total, by_op = contraction_flops(path)
        parts = ", ".join(f"{op} {flops / 1e9:.2f}" for op, flops in sorted(by_op.items()))
        print(f"{path}: {total / 1e9:.2f} GFLOP ({parts})")


if __name__ == "__main__":
    main()
