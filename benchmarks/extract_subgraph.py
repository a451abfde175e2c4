#!/usr/bin/env python3
"""Cuts a part of a model out as a model of its own, for an A/B of two
compilers' libraries on it (benchmarks/compare_libraries.py) or a look at
its kernels (tc-compile --dump-ir, tc-run --profile): the nodes between
the given tensors, with random inputs (fixed seed; integer inputs zero)
and ONNX Runtime's outputs as the reference, in the layout the other
scripts read (OUT/model.onnx, OUT/test_data_set_0).

  .venv/bin/python benchmarks/extract_subgraph.py MODEL OUT \
      --inputs T1,T2,... --outputs T3,...

ViT-B/16's attention in its fourth layer, from the tensors before the
transposes of Q, K and V to the one after the values are weighted:

  P=/encoder/layers/encoder_layer_3/self_attention/
  .venv/bin/python benchmarks/extract_subgraph.py vit_b_16/model.onnx att \
      --inputs ${P}Transpose_1_output_0,${P}Reshape_1_output_0,${P}Transpose_2_output_0 \
      --outputs ${P}Transpose_4_output_0
"""
import argparse
import os

import numpy as np
import onnx
import onnx.utils
from onnx import numpy_helper

from common import ort_session


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--inputs", required=True, help="comma-separated tensor names")
    ap.add_argument("--outputs", required=True, help="comma-separated tensor names")
    args = ap.parse_args()
    data = os.path.join(args.out, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    path = os.path.join(args.out, "model.onnx")
    onnx.utils.extract_model(args.model, path, args.inputs.split(","),
                             args.outputs.split(","))
    model = onnx.load(path)
    rng = np.random.default_rng(0)
    feeds = {}
    for value in model.graph.input:
        tensor = value.type.tensor_type
        shape = [d.dim_value for d in tensor.shape.dim]
        if any(d <= 0 for d in shape):
            raise SystemExit(f"{value.name}: the extracted input has no static shape ({shape})")
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        feeds[value.name] = (rng.standard_normal(shape).astype(dtype)
                             if np.issubdtype(dtype, np.floating) else np.zeros(shape, dtype))
    results = ort_session(path, 1).run(None, feeds)
    for i, (name, value) in enumerate(feeds.items()):
        with open(os.path.join(data, f"input_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(value, name).SerializeToString())
    for i, (value, result) in enumerate(zip(model.graph.output, results)):
        with open(os.path.join(data, f"output_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(result, value.name).SerializeToString())
    print(f"{path}: {len(model.graph.node)} nodes, {len(feeds)} inputs, "
          f"{len(results)} outputs")


if __name__ == "__main__":
    main()
