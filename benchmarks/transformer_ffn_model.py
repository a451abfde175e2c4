#!/usr/bin/env python3
"""Writes a BERT-base sized feed-forward block (x[128, 768] -> MatMul 768 x 3072
-> Relu -> MatMul 3072 x 768, random weights) as OUT/ffn/model.onnx with an
input in OUT/ffn/test_data_set_0, the layout cpu_vs_onnxruntime.py --models
reads. Large contractions with constant weights are what the shared models
lack (their weights are small).

--dynamic-rows makes the row axis symbolic ("seq"), as transformers are
usually exported; --rows N sets the rows of the written input (default 128).

Usage: benchmarks/transformer_ffn_model.py OUT [--dynamic-rows] [--rows N]
       benchmarks/cpu_vs_onnxruntime.py --models OUT
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--dynamic-rows", action="store_true")
    parser.add_argument("--rows", type=int, default=128)
    args = parser.parse_args()
    out = os.path.join(args.out, "ffn")
    os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((768, 3072)) * 0.03).astype(np.float32)
    w2 = (rng.standard_normal((3072, 768)) * 0.03).astype(np.float32)
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"], name="up"),
             helper.make_node("Relu", ["h"], ["r"], name="act"),
             helper.make_node("MatMul", ["r", "w2"], ["y"], name="down")]
    rows = "seq" if args.dynamic_rows else args.rows
    graph = helper.make_graph(
        nodes, "ffn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, 768])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows, 768])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, os.path.join(out, "model.onnx"))
    x = rng.standard_normal((args.rows, 768)).astype(np.float32)
    with open(os.path.join(out, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())


if __name__ == "__main__":
    main()
