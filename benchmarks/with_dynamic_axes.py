#!/usr/bin/env python3
"""Copies models with their first two input and output axes made symbolic
("batch", "seq"), as transformers are usually exported, with their test
data, so that cpu_vs_onnxruntime.py measures the dynamic-shape code.

Usage: benchmarks/with_dynamic_axes.py OUT MODEL_DIR...
       benchmarks/cpu_vs_onnxruntime.py --models OUT
(e.g. MODEL_DIR = ../shared/models/tiny_bert)
"""
import os
import shutil
import sys

import onnx


def main():
    out = sys.argv[1]
    for source in sys.argv[2:]:
        name = os.path.basename(os.path.normpath(source))
        model = onnx.load(os.path.join(source, "model.onnx"))
        for value in list(model.graph.input) + list(model.graph.output):
            dims = value.type.tensor_type.shape.dim
            for dim, symbol in zip(dims, ("batch", "seq")):
                dim.dim_param = symbol
        # Shapes inferred for the static axes would contradict the new ones.
        del model.graph.value_info[:]
        target = os.path.join(out, name)
        os.makedirs(target, exist_ok=True)
        onnx.save(model, os.path.join(target, "model.onnx"))
        data = os.path.join(target, "test_data_set_0")
        shutil.rmtree(data, ignore_errors=True)
        shutil.copytree(os.path.join(source, "test_data_set_0"), data)


if __name__ == "__main__":
    main()
