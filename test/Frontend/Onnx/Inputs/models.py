"""Small ONNX models for the importer's lit tests.

Usage: models.py NAME OUT.onnx
       models.py --all DIR      (every model, e.g. as a fuzzing corpus)

Each function below builds one model with the onnx package's helpers; the
lit test that uses it checks the imported IR or the error it produces.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, inits=(), opset=17, name="g"):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def const(name, values, dtype=np.int64):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


def elementwise():
    nodes = [
        helper.make_node("Add", ["a", "b"], ["add"], name="add"),
        helper.make_node("Sub", ["add", "b"], ["sub"], name="sub"),
        helper.make_node("Mul", ["sub", "a"], ["mul"], name="mul"),
        helper.make_node("Div", ["mul", "b"], ["div"], name="div"),
        helper.make_node("Pow", ["div", "two"], ["pow"], name="pow"),
        helper.make_node("Relu", ["pow"], ["relu"], name="relu"),
        helper.make_node("Sigmoid", ["relu"], ["sig"], name="sig"),
        helper.make_node("LeakyRelu", ["sig"], ["leaky"], name="leaky", alpha=0.1),
        helper.make_node("Max", ["leaky", "a", "b"], ["max"], name="max"),
        helper.make_node("Mean", ["max", "a"], ["mean"], name="mean"),
        helper.make_node("Equal", ["mean", "a"], ["eq"], name="eq"),
        helper.make_node("Where", ["eq", "mean", "b"], ["where"], name="where"),
        helper.make_node("Clip", ["where", "lo", ""], ["clip"], name="clip"),
        helper.make_node("Gelu", ["clip"], ["gelu"], name="gelu", approximate="tanh"),
    ]
    inits = [const("two", 2.0, np.float32), const("lo", 0.5, np.float32)]
    return model(nodes, [vi("a", F, [4, 1]), vi("b", F, [8])],
                 [vi("gelu", F, [4, 8])], inits, opset=20)


def clip_opset6():
    nodes = [helper.make_node("Clip", ["x"], ["y"], name="relu6", min=0.0, max=6.0)]
    return model(nodes, [vi("x", F, [2, 3])], [vi("y", F, [2, 3])], opset=7)


def matmul():
    w = const("w", np.ones((16, 8)), np.float32)
    c = const("c", np.ones((8,)), np.float32)
    nodes = [
        helper.make_node("MatMul", ["x2", "w"], ["mm2"], name="mm2"),
        helper.make_node("MatMul", ["x3", "w"], ["mm3"], name="mm3"),
        helper.make_node("MatMul", ["v", "w"], ["vec"], name="vec"),
        helper.make_node("MatMul", ["q", "k"], ["bmm"], name="bmm"),
        helper.make_node("Gemm", ["x2", "wt", "c"], ["gemm"], name="gemm",
                         transB=1, alpha=0.5, beta=2.0),
    ]
    wt = const("wt", np.ones((8, 16)), np.float32)
    return model(nodes,
                 [vi("x2", F, [4, 16]), vi("x3", F, [2, 4, 16]),
                  vi("q", F, [2, 3, 5, 16]), vi("k", F, [2, 3, 16, 5]), vi("v", F, [16])],
                 [vi("mm2", F, [4, 8]), vi("mm3", F, [2, 4, 8]), vi("vec", F, [8]),
                  vi("bmm", F, [2, 3, 5, 5]), vi("gemm", F, [4, 8])],
                 [w, c, wt])


def dense_relu():
    """y = Relu(x @ W + b) over x[?n, 64], W 64 x 1024: a Gemm whose number
    of rows decides at run time which GPU matmul tile runs."""
    rng = np.random.default_rng(0)
    w = const("w", rng.standard_normal((64, 1024)) / 8, np.float32)
    b = const("b", rng.standard_normal((1024,)), np.float32)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["xw"], name="xw"),
             helper.make_node("Add", ["xw", "b"], ["z"], name="bias"),
             helper.make_node("Relu", ["z"], ["y"], name="relu")]
    return model(nodes, [vi("x", F, ["n", 64])], [vi("y", F, ["n", 1024])], [w, b])


def conv_pool():
    w = const("w", np.ones((8, 3, 3, 3)), np.float32)
    b = const("b", np.zeros((8,)), np.float32)
    dw = const("dw", np.ones((8, 1, 3, 3)), np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c1"], name="conv1",
                         pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Conv", ["c1", "dw"], ["c2"], name="depthwise", group=8,
                         auto_pad="SAME_UPPER", kernel_shape=[3, 3]),
        helper.make_node("MaxPool", ["c2"], ["p1"], name="maxpool",
                         kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
        helper.make_node("AveragePool", ["p1"], ["p2"], name="avgpool",
                         kernel_shape=[2, 2], pads=[0, 0, 1, 1], count_include_pad=1),
        helper.make_node("GlobalAveragePool", ["p2"], ["gap"], name="gap"),
    ]
    return model(nodes, [vi("x", F, [1, 3, 32, 32])], [vi("gap", F, [1, 8, 1, 1])],
                 [w, b, dw])


def reductions():
    nodes = [
        helper.make_node("ReduceSum", ["x", "ax"], ["sum"], name="sum", keepdims=0),
        helper.make_node("ReduceMean", ["x"], ["mean"], name="mean", axes=[-1]),
        helper.make_node("ReduceMax", ["x"], ["max"], name="max"),
        helper.make_node("ArgMax", ["x"], ["argmax"], name="argmax", axis=1, keepdims=0),
        helper.make_node("ReduceLogSumExp", ["x"], ["lse"], name="lse", axes=[1], keepdims=0),
    ]
    return model(nodes, [vi("x", F, [2, 3, 4])],
                 [vi("sum", F, [2, 4]), vi("mean", F, [2, 3, 1]), vi("max", F, [1, 1, 1]),
                  vi("argmax", I64, [2, 4]), vi("lse", F, [2, 4])],
                 [const("ax", [1])], opset=13)


def normalization():
    g = const("g", np.ones((16,)), np.float32)
    s = const("s", np.ones((3,)), np.float32)
    nodes = [
        helper.make_node("LayerNormalization", ["x", "g", "g"], ["ln"], name="ln",
                         epsilon=1e-6),
        helper.make_node("Softmax", ["ln"], ["sm"], name="softmax"),
        helper.make_node("BatchNormalization", ["img", "s", "s", "s", "s"], ["bn"],
                         name="bn"),
    ]
    return model(nodes, [vi("x", F, [2, 5, 16]), vi("img", F, [1, 3, 4, 4])],
                 [vi("sm", F, [2, 5, 16]), vi("bn", F, [1, 3, 4, 4])], [g, s])


def softmax_opset11():
    nodes = [helper.make_node("Softmax", ["x"], ["y"], name="softmax", axis=1)]
    return model(nodes, [vi("x", F, [2, 3, 4])], [vi("y", F, [2, 3, 4])], opset=11)


def shapes():
    nodes = [
        helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
        helper.make_node("Transpose", ["r"], ["t"], name="transpose"),
        helper.make_node("Unsqueeze", ["t", "axes"], ["u"], name="unsqueeze"),
        helper.make_node("Squeeze", ["u", "axes"], ["sq"], name="squeeze"),
        helper.make_node("Flatten", ["x"], ["flat"], name="flatten", axis=2),
        helper.make_node("Concat", ["x", "x"], ["cat"], name="concat", axis=-1),
        helper.make_node("Slice", ["cat", "starts", "ends", "sl_axes", "steps"], ["sl"],
                         name="slice"),
        helper.make_node("Gather", ["x", "idx"], ["ga"], name="gather", axis=1),
        helper.make_node("Expand", ["one", "eshape"], ["ex"], name="expand"),
        helper.make_node("Cast", ["x"], ["half"], name="cast", to=TensorProto.FLOAT16),
    ]
    inits = [const("shape", [0, -1]), const("axes", [0]),
             const("starts", [-1, 100]), const("ends", [-1000, -1000]),
             const("sl_axes", [2, 1]), const("steps", [-2, -1]),
             const("idx", [[0, 2]]), const("eshape", [2, 1, 4])]
    return model(nodes, [vi("x", F, [2, 3, 4]), vi("one", F, [3, 1])],
                 [vi("sq", F, [12, 2]), vi("flat", F, [6, 4]), vi("sl", F, [2, 3, 2]),
                  vi("ga", F, [2, 1, 2, 4]), vi("ex", F, [2, 3, 4]),
                  vi("half", TensorProto.FLOAT16, [2, 3, 4])], inits, opset=13)


def shape_arith():
    """The Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain of exporters."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="shape"),
        helper.make_node("Gather", ["s", "zero"], ["b"], name="batch", axis=0),
        helper.make_node("Unsqueeze", ["b", "axes"], ["b1"], name="unsq"),
        helper.make_node("Concat", ["b1", "minus1"], ["target"], name="cat", axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape"),
        helper.make_node("Shape", ["x"], ["tail"], name="shape_tail", start=-2),
        helper.make_node("ConstantOfShape", ["tail"], ["zeros"], name="zeros",
                         value=numpy_helper.from_array(np.array([0], np.int64))),
    ]
    inits = [const("zero", 0), const("axes", [0]), const("minus1", [-1])]
    return model(nodes, [vi("x", F, [6, 4, 5])],
                 [vi("y", F, [6, 20]), vi("zeros", I64, [4, 5])], inits)


def dynamic_batch():
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("Flatten", ["r"], ["y"], name="flatten")]
    return model(nodes, [vi("x", F, ["batch", 3, 4]), vi("z", F, ["batch", "seq"])],
                 [vi("y", F, ["batch", 12])])


def dynamic_axes_ops():
    """Ops of dynamic-axis exports whose results keep several dynamic sizes:
    Split along a static axis, Unsqueeze of a [batch, seq] mask, a causal
    Trilu over a [seq, seq] matrix."""
    nodes = [helper.make_node("Split", ["x"], ["q", "k"], name="split", axis=2),
             helper.make_node("Unsqueeze", ["mask", "axes"], ["m4"], name="unsqueeze"),
             helper.make_node("Trilu", ["scores"], ["causal"], name="trilu", upper=1)]
    return model(nodes, [vi("x", F, ["batch", "seq", 8]), vi("mask", TensorProto.INT64, ["batch", "seq"]),
                         vi("scores", F, ["seq", "seq"])],
                 [vi("q", F, ["batch", "seq", 4]), vi("k", F, ["batch", "seq", 4]),
                  vi("m4", TensorProto.INT64, ["batch", 1, 1, "seq"]), vi("causal", F, ["seq", "seq"])],
                 [const("axes", [1, 2])])


def weights():
    big = const("big", np.arange(64, dtype=np.float32).reshape(8, 8), np.float32)
    small = const("small", [1.0, 2.0], np.float32)
    nodes = [helper.make_node("MatMul", ["x", "big"], ["m"], name="mm"),
             helper.make_node("Add", ["m", "bias"], ["y"], name="add"),
             helper.make_node("Constant", [], ["bias"], name="bias_const",
                              value=numpy_helper.from_array(np.full((8,), 0.5, np.float32))),
             helper.make_node("Mul", ["y", "k"], ["z"], name="scale"),
             helper.make_node("Constant", [], ["k"], name="k", value_float=3.0)]
    return model(nodes, [vi("x", F, [2, 8])], [vi("z", F, [2, 8])], [big, small])


def external_data(out):
    m = weights()
    onnx.save_model(m, out, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=os.path.basename(out) + ".data", size_threshold=16)
    return None


def unsupported():
    nodes = [
        helper.make_node("FancyOp", ["x"], ["a"], name="fancy"),
        helper.make_node("Relu", ["a"], ["b"], name="after_fancy"),
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", auto_pad="WRONG"),
        helper.make_node("Gelu", ["x"], ["d"], name="gelu", approximate="cubic"),
        helper.make_node("Foo", ["x"], ["e"], name="vendor_op", domain="com.vendor"),
    ]
    w = const("w", np.ones((2, 3, 1, 1)), np.float32)
    return model(nodes, [vi("x", F, [1, 3, 4, 4])],
                 [vi("b", F, [1, 3, 4, 4]), vi("c", F, [1, 2, 4, 4]),
                  vi("d", F, [1, 3, 4, 4]), vi("e", F, [1, 3, 4, 4])], [w], opset=20)


def cycle():
    nodes = [helper.make_node("Relu", ["b"], ["a"], name="first"),
             helper.make_node("Relu", ["a"], ["b"], name="second")]
    return model(nodes, [vi("x", F, [2])], [vi("b", F, [2])])


def missing_value():
    nodes = [helper.make_node("Add", ["x", "ghost"], ["y"], name="add")]
    return model(nodes, [vi("x", F, [2])], [vi("y", F, [2])])


def duplicate_output():
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="r1"),
             helper.make_node("Neg", ["x"], ["y"], name="r2")]
    return model(nodes, [vi("x", F, [2])], [vi("y", F, [2])])


def bad_tensor_size():
    t = TensorProto(name="w", data_type=F, dims=[4, 4], raw_data=b"\0" * 12)
    nodes = [helper.make_node("Add", ["x", "w"], ["y"], name="add")]
    return model(nodes, [vi("x", F, [4, 4])], [vi("y", F, [4, 4])], [t])


def escaping_external():
    t = helper.make_tensor("w", F, [64], vals=[])
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "../../etc/passwd"), ("offset", "0"), ("length", "256")):
        e = t.external_data.add()
        e.key, e.value = k, v
    t.ClearField("float_data")
    nodes = [helper.make_node("Add", ["x", "w"], ["y"], name="add")]
    return model(nodes, [vi("x", F, [64])], [vi("y", F, [64])], [t])


def missing_external():
    m = escaping_external()
    for e in m.graph.initializer[0].external_data:
        if e.key == "location":
            e.value = "no_such_file.bin"
    return m


def negative_dim():
    return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                 [vi("x", F, [2, -3])], [vi("y", F, [2, 3])])


def future_opset():
    return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                 [vi("x", F, [2])], [vi("y", F, [2])], opset=99)


def string_input():
    return model([helper.make_node("Identity", ["x"], ["y"], name="id")],
                 [vi("x", TensorProto.STRING, [2])], [vi("y", TensorProto.STRING, [2])])


def undeclared_outputs():
    # Outputs declared without a shape and without a type.
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu"),
             helper.make_node("Neg", ["x"], ["z"], name="neg")]
    untyped = onnx.ValueInfoProto()
    untyped.name = "z"
    return model(nodes, [vi("x", F, ["n", 3])],
                 [helper.make_tensor_value_info("y", F, None), untyped])


def undeclared_shape_wrong_type():
    # An output without a shape whose declared element type is not the
    # computed one.
    return model([helper.make_node("Shape", ["x"], ["s"], name="shape")],
                 [vi("x", F, [2, 3])], [helper.make_tensor_value_info("s", F, None)])


def shape_mismatch():
    nodes = [helper.make_node("MatMul", ["a", "b"], ["y"], name="bad_matmul")]
    return model(nodes, [vi("a", F, [2, 3]), vi("b", F, [4, 5])], [vi("y", F, [2, 5])])


def malformed_nodes():
    """Nodes the spec rules out (ranks, zero strides, absurd sizes): each is
    reported against its node instead of crashing the importer."""
    nodes = [
        helper.make_node("Reshape", ["x", "s0"], ["rs"], name="scalar_shape"),
        helper.make_node("ConstantOfShape", ["s0"], ["cs"], name="scalar_fill"),
        helper.make_node("Conv", ["img", "w"], ["conv"], name="zero_stride",
                         strides=[0, 0], auto_pad="SAME_UPPER"),
        helper.make_node("Range", ["r0", "r1", "zero"], ["range"], name="zero_delta"),
        helper.make_node("AffineGrid", ["theta", "huge"], ["grid"], name="huge_grid"),
        helper.make_node("Attention", ["q", "x", "q"], ["attn"], name="flat_key",
                         q_num_heads=2, kv_num_heads=2),
        helper.make_node("Split", ["x"], ["p0", "p1"], name="split_many",
                         num_outputs=10**18),
    ]
    inits = [const("r0", 0.0, np.float32), const("r1", 4.0, np.float32),
             const("zero", 0.0, np.float32), const("huge", [2, 3, 2**56, 65536]),
             const("w", np.ones((2, 3, 3, 3)), np.float32)]
    return model(nodes,
                 [vi("x", F, [2, 4]), vi("s0", I64, []), vi("img", F, [1, 3, 8, 8]),
                  vi("theta", F, [2, 2, 3]), vi("q", F, [1, 3, 4])],
                 [vi(name, F, None) for name in
                  ("rs", "cs", "conv", "range", "grid", "attn", "p0", "p1")],
                 inits, opset=23)


BUILDERS = ["signal", "einsum_rotary", "qlinear", "elementwise", "clip_opset6", "matmul", "conv_pool", "reductions",
            "normalization", "softmax_opset11", "shapes", "shape_arith",
            "dynamic_batch", "dynamic_axes_ops", "weights", "unsupported", "cycle", "missing_value",
            "duplicate_output", "bad_tensor_size", "escaping_external",
            "missing_external", "negative_dim", "future_opset", "string_input",
            "shape_mismatch", "undeclared_outputs", "undeclared_shape_wrong_type",
            "legacy_broadcast", "layout", "composites",
            "attention", "losses_and_quant", "subbyte", "if_else", "loop_scan", "nonzero",
            "more_composites", "indexing", "integer_quant", "float8_casts",
            "float8_round_mode", "recurrent", "recurrent_long", "layout_extras",
            "pool_indices_bn_training", "shape_folding", "scan8_and_loop_scan", "sampling", "sampling_opset16",
            "sampling_errors", "malformed_nodes", "empty_batch_norms", "data_dependent",
            "random_ops", "runtime_slices", "image_decoder"]


def legacy_broadcast():
    """Opset 6: Add with broadcast=1 and axis aligns B inside A."""
    nodes = [helper.make_node("Add", ["a", "b"], ["y"], name="add", broadcast=1, axis=1),
             helper.make_node("Reshape", ["y"], ["r"], name="reshape", shape=[2, -1]),
             helper.make_node("Cast", ["r"], ["c"], name="cast", to="DOUBLE")]
    return model(nodes, [vi("a", F, [2, 3, 4]), vi("b", F, [3])],
                 [vi("c", TensorProto.DOUBLE, [2, 12])], opset=1)


def layout():
    nodes = [
        helper.make_node("Split", ["x", "sizes"], ["s0", "s1"], name="split", axis=1),
        helper.make_node("Pad", ["x", "pads", "pv"], ["p"], name="pad"),
        helper.make_node("Pad", ["x", "crop"], ["pe"], name="pad_edge", mode="edge"),
        helper.make_node("Tile", ["x", "reps"], ["t"], name="tile"),
        helper.make_node("DepthToSpace", ["img"], ["d2s"], name="d2s", blocksize=2, mode="CRD"),
        helper.make_node("Dropout", ["x"], ["drop", "mask"], name="dropout"),
    ]
    inits = [const("sizes", [1, 3]), const("pads", [0, 1, 0, 2]), const("pv", 7.0, np.float32),
             const("crop", [0, -1, 1, 0]), const("reps", [2, 1])]
    return model(nodes, [vi("x", F, [2, 4]), vi("img", F, [1, 8, 2, 3])],
                 [vi("s0", F, [2, 1]), vi("s1", F, [2, 3]), vi("p", F, [2, 7]),
                  vi("pe", F, [3, 3]), vi("t", F, [4, 4]), vi("d2s", F, [1, 2, 4, 6]),
                  vi("drop", F, [2, 4]), vi("mask", TensorProto.BOOL, [2, 4])], inits, opset=13)


def composites():
    s = const("s", np.ones((3,)), np.float32)
    nodes = [
        helper.make_node("IsNaN", ["x"], ["nan"], name="isnan"),
        helper.make_node("IsInf", ["x"], ["inf"], name="isinf", detect_negative=0),
        helper.make_node("HardSwish", ["x"], ["hs"], name="hardswish"),
        helper.make_node("InstanceNormalization", ["img", "s", "s"], ["in"], name="instnorm"),
        helper.make_node("RMSNormalization", ["x", "g"], ["rms"], name="rms"),
        helper.make_node("LayerNormalization", ["x", "g"], ["ln", "mean", "inv"], name="ln"),
    ]
    return model(nodes, [vi("x", F, [2, 4]), vi("img", F, [1, 3, 2, 2])],
                 [vi("nan", TensorProto.BOOL, [2, 4]), vi("inf", TensorProto.BOOL, [2, 4]),
                  vi("hs", F, [2, 4]), vi("in", F, [1, 3, 2, 2]), vi("rms", F, [2, 4]),
                  vi("ln", F, [2, 4]), vi("mean", F, [2, 1]), vi("inv", F, [2, 1])],
                 [s, const("g", np.ones((4,)), np.float32)], opset=23)


def empty_batch_norms():
    """GroupNormalization and LRN on an empty batch (N = 0)."""
    nodes = [
        helper.make_node("GroupNormalization", ["img", "gs", "gs"], ["gn"], name="groupnorm",
                         num_groups=2),
        helper.make_node("LRN", ["img"], ["lrn"], name="lrn", size=3),
    ]
    return model(nodes, [vi("img", F, [0, 4, 2, 2])],
                 [vi("gn", F, [0, 4, 2, 2]), vi("lrn", F, [0, 4, 2, 2])],
                 [const("gs", np.ones((4,)), np.float32)], opset=21)


def attention():
    """GQA with a boolean mask, causal masking and a KV cache (opset 23)."""
    nodes = [helper.make_node("Attention", ["q", "k", "v", "mask", "pk", "pv"],
                              ["y", "present_k", "present_v"], name="attn",
                              is_causal=1)]
    return model(nodes,
                 [vi("q", F, [1, 4, 3, 8]), vi("k", F, [1, 2, 3, 8]), vi("v", F, [1, 2, 3, 8]),
                  vi("mask", TensorProto.BOOL, [3, 5]), vi("pk", F, [1, 2, 2, 8]),
                  vi("pv", F, [1, 2, 2, 8])],
                 [vi("y", F, [1, 4, 3, 8]), vi("present_k", F, [1, 2, 5, 8]),
                  vi("present_v", F, [1, 2, 5, 8])], opset=23)


def losses_and_quant():
    nodes = [
        helper.make_node("SoftmaxCrossEntropyLoss", ["scores", "labels"], ["sce"],
                         name="sce", ignore_index=2),
        helper.make_node("QuantizeLinear", ["x", "scale", "zp"], ["q"], name="quant"),
        helper.make_node("DequantizeLinear", ["q", "scale", "zp"], ["dq"], name="dequant"),
        helper.make_node("Trilu", ["m"], ["tri"], name="trilu", upper=0),
        helper.make_node("Range", ["r0", "r1", "r2"], ["range"], name="range"),
        helper.make_node("Reshape", ["x", "shape"], ["rs"], name="runtime_reshape"),
        helper.make_node("Expand", ["col", "shape"], ["ex"], name="runtime_expand"),
    ]
    inits = [const("scale", 0.5, np.float32), const("zp", 10, np.uint8)]
    return model(nodes,
                 [vi("scores", F, [3, 5]), vi("labels", I64, [3]), vi("x", F, [2, 3]),
                  vi("m", F, [3, 3]), vi("r0", F, []), vi("r1", F, []), vi("r2", F, []),
                  vi("shape", I64, [2]), vi("col", F, [3, 1])],
                 [vi("sce", F, []), vi("q", TensorProto.UINT8, [2, 3]), vi("dq", F, [2, 3]),
                  vi("tri", F, [3, 3]), vi("range", F, [None]), vi("rs", F, [None, None]),
                  vi("ex", F, [None, None])], inits, opset=23)


def subbyte():
    """INT4 and UINT2 initializers: ONNX packs them, low bits first."""
    i4 = helper.make_tensor("w4", TensorProto.INT4, [5], vals=[-8, -1, 0, 3, 7])
    u2 = helper.make_tensor("w2", TensorProto.UINT2, [6], vals=[0, 1, 2, 3, 3, 1])
    nodes = [helper.make_node("Cast", ["w4"], ["f4"], name="c4", to=F),
             helper.make_node("Cast", ["w2"], ["f2"], name="c2", to=F)]
    return model(nodes, [], [vi("f4", F, [5]), vi("f2", F, [6])], [i4, u2], opset=25)


def float8_casts():
    """Cast/CastLike/QuantizeLinear `saturate` (default 1) reaches tc.cast
    for float8 results only; Cast round_mode other than "up" to FLOAT8E8M0
    is refused (see float8_round_mode)."""
    F8 = TensorProto.FLOAT8E4M3FN
    nodes = [helper.make_node("Cast", ["x"], ["sat"], name="sat", to=F8),
             helper.make_node("Cast", ["x"], ["raw"], name="raw", to=F8, saturate=0),
             helper.make_node("CastLike", ["x", "like"], ["like_raw"], name="like_raw",
                              saturate=0),
             helper.make_node("Cast", ["x"], ["i4"], name="i4", to=TensorProto.INT4),
             helper.make_node("Cast", ["x"], ["e8"], name="e8", to=TensorProto.FLOAT8E8M0),
             helper.make_node("QuantizeLinear", ["x", "scale", "zp"], ["q"], name="q",
                              saturate=0)]
    zp = helper.make_tensor("zp", F8, [], vals=[0.0])
    return model(nodes, [vi("x", F, [4]), vi("like", TensorProto.FLOAT8E5M2, [4])],
                 [vi("sat", F8, [4]), vi("raw", F8, [4]),
                  vi("like_raw", TensorProto.FLOAT8E5M2, [4]), vi("i4", TensorProto.INT4, [4]),
                  vi("e8", TensorProto.FLOAT8E8M0, [4]), vi("q", F8, [4])],
                 [const("scale", 2.0, np.float32), zp], opset=25)


def float8_round_mode():
    nodes = [helper.make_node("Cast", ["x"], ["e8"], name="nearest",
                              to=TensorProto.FLOAT8E8M0, round_mode="nearest")]
    return model(nodes, [vi("x", F, [4])], [vi("e8", TensorProto.FLOAT8E8M0, [4])], opset=25)


def if_else():
    """If with branches that read the outer x and return different shapes."""
    then_g = helper.make_graph(
        [helper.make_node("Add", ["x", "one"], ["t"], name="then_add")], "then", [],
        [vi("t", F, [2, 3])], [const("one", 1.0, np.float32)])
    else_g = helper.make_graph(
        [helper.make_node("ReduceSum", ["x", "ax"], ["e"], name="else_sum", keepdims=1)],
        "else", [], [vi("e", F, [1, 3])], [const("ax", [0])])
    nodes = [helper.make_node("If", ["c"], ["y"], name="branch",
                              then_branch=then_g, else_branch=else_g)]
    return model(nodes, [vi("c", TensorProto.BOOL, []), vi("x", F, [2, 3])],
                 [vi("y", F, [None, 3])], opset=13)


def loop_scan():
    """Loop with a trip count, a condition, a state and a scan output; Scan
    over axis 1 in reverse."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep_going"),
         helper.make_node("Add", ["y_in", "x"], ["y_out"], name="accumulate"),
         helper.make_node("Identity", ["y_out"], ["scan_out"], name="record")],
        "loop_body",
        [vi("i", I64, []), vi("cond_in", TensorProto.BOOL, []), vi("y_in", F, [2])],
        [vi("cond_out", TensorProto.BOOL, []), vi("y_out", F, [2]), vi("scan_out", F, [2])])
    scan_body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "col"], ["s_out"], name="scan_add"),
         helper.make_node("Identity", ["s_out"], ["s_scan"], name="scan_record")],
        "scan_body", [vi("s_in", F, [3]), vi("col", F, [3])],
        [vi("s_out", F, [3]), vi("s_scan", F, [3])])
    nodes = [
        helper.make_node("Loop", ["trips", "cond", "y0"], ["y", "ys"], name="loop", body=body),
        helper.make_node("Scan", ["s0", "m"], ["s", "ss"], name="scan", body=scan_body,
                         num_scan_inputs=1, scan_input_axes=[1], scan_input_directions=[1]),
    ]
    return model(nodes,
                 [vi("trips", I64, []), vi("cond", TensorProto.BOOL, []), vi("y0", F, [2]),
                  vi("x", F, [2]), vi("s0", F, [3]), vi("m", F, [3, 4])],
                 [vi("y", F, [2]), vi("ys", F, [None, 2]), vi("s", F, [3]),
                  vi("ss", F, [4, 3])], opset=16)


def more_composites():
    nodes = [
        helper.make_node("Hardmax", ["x"], ["hm"], name="hardmax"),
        helper.make_node("OneHot", ["idx", "depth", "vals"], ["oh"], name="onehot"),
        helper.make_node("EyeLike", ["x"], ["eye"], name="eye", k=1),
        helper.make_node("LpPool", ["img"], ["lp"], name="lppool", kernel_shape=[2, 2], p=2),
        helper.make_node("GroupNormalization", ["img", "gs", "gs"], ["gn"], name="groupnorm",
                         num_groups=2),
        helper.make_node("LRN", ["img"], ["lrn"], name="lrn", size=3),
    ]
    inits = [const("depth", 4), const("vals", [0.0, 1.0], np.float32),
             const("gs", np.ones((4,)), np.float32)]
    return model(nodes,
                 [vi("x", F, [2, 3]), vi("idx", I64, [2]), vi("img", F, [1, 4, 4, 4])],
                 [vi("hm", F, [2, 3]), vi("oh", F, [2, 4]), vi("eye", F, [2, 3]),
                  vi("lp", F, [1, 4, 3, 3]), vi("gn", F, [1, 4, 4, 4]),
                  vi("lrn", F, [1, 4, 4, 4])], inits, opset=21)


def indexing():
    nodes = [
        helper.make_node("TopK", ["x", "k"], ["vals", "idx"], name="topk", largest=0),
        helper.make_node("CumSum", ["x", "axis"], ["cs"], name="cumsum", exclusive=1),
        helper.make_node("ScatterND", ["d", "ni", "nu"], ["snd"], name="scatter_nd",
                         reduction="add"),
    ]
    inits = [const("k", [2]), const("axis", 1)]
    return model(nodes, [vi("x", F, [2, 5]), vi("d", F, [8]), vi("ni", I64, [3, 1]),
                         vi("nu", F, [3])],
                 [vi("vals", F, [2, 2]), vi("idx", I64, [2, 2]), vi("cs", F, [2, 5]),
                  vi("snd", F, [8])], inits, opset=18)


def data_dependent():
    """Ops whose result size is data, Det and TensorScatter."""
    B = TensorProto.BOOL
    nodes = [
        helper.make_node("Compress", ["x", "c"], ["cx"], name="compress", axis=1),
        helper.make_node("Compress", ["x", "c"], ["cf"], name="compress_flat"),
        helper.make_node("Unique", ["x"], ["uy", "ui", "uinv", "un"], name="unique", sorted=0),
        helper.make_node("Unique", ["x"], ["ua"], name="unique_axis", axis=-1),
        helper.make_node("NonMaxSuppression", ["boxes", "scores", "max", "iou"], ["sel"],
                         name="nms", center_point_box=1),
        helper.make_node("NonMaxSuppression", ["boxes", "scores"], ["sel0"], name="nms_defaults"),
        helper.make_node("Det", ["sq"], ["det"], name="det"),
        helper.make_node("TensorScatter", ["cache", "upd", "w"], ["ts"], name="tensor_scatter",
                         mode="circular"),
    ]
    inits = [const("max", 3), const("iou", 0.5, np.float32)]
    return model(nodes,
                 [vi("x", F, [4, 6]), vi("c", B, [3]), vi("boxes", F, [1, 8, 4]),
                  vi("scores", F, [1, 2, 8]), vi("sq", F, [2, 3, 3]),
                  vi("cache", F, [2, 4, 16, 8]), vi("upd", F, [2, 4, 1, 8]), vi("w", I64, [2])],
                 [vi("cx", F, [4, "n"]), vi("cf", F, ["m"]), vi("uy", F, ["u"]),
                  vi("ui", I64, ["u"]), vi("uinv", I64, [24]), vi("un", I64, ["u"]),
                  vi("ua", F, [4, "v"]), vi("sel", I64, ["s", 3]), vi("sel0", I64, ["t", 3]),
                  vi("det", F, [2]), vi("ts", F, [2, 4, 16, 8])], inits, opset=24)


def nonzero():
    """NonZero: a result whose extent is a count computed from the data."""
    nodes = [helper.make_node("NonZero", ["x"], ["y"], name="nz")]
    return model(nodes, [vi("x", F, [2, 3])], [vi("y", I64, [2, "n"])], opset=13)


def image_decoder():
    """ImageDecoder: host C code reading the encoded bytes, writing pixels."""
    nodes = [helper.make_node("ImageDecoder", ["x"], ["y"], name="decode",
                              pixel_format="RGB")]
    return model(nodes, [vi("x", TensorProto.UINT8, ["n"])],
                 [vi("y", TensorProto.UINT8, ["h", "w", 3])], opset=20)


def runtime_slices():
    """Slices with run-time bounds, of a dynamic dimension, and a
    training-mode Dropout whose mode is an input."""
    nodes = [
        helper.make_node("Slice", ["x", "s", "e"], ["rt"], name="runtime_bounds"),
        helper.make_node("Slice", ["x", "s0", "e0", "ax", "st"], ["rev"], name="reversed_dynamic"),
        helper.make_node("Slice", ["x", "s1", "e1", "ax"], ["part"], name="part_of_dynamic"),
        helper.make_node("Dropout", ["x", "ratio", "t"], ["drop", "mask"], name="dropout", seed=2.0),
    ]
    inits = [const("s0", [-1]), const("e0", [-(2**63)]), const("ax", [1]), const("st", [-1]),
             const("s1", [1]), const("e1", [-1]), const("ratio", 0.2, np.float32)]
    return model(nodes, [vi("x", F, [2, "n"]), vi("s", I64, [2]), vi("e", I64, [2]),
                         vi("t", TensorProto.BOOL, [])],
                 [vi("rt", F, ["a", "b"]), vi("rev", F, [2, "n"]), vi("part", F, [2, "m"]),
                  vi("drop", F, [2, "n"]), vi("mask", TensorProto.BOOL, [2, "n"])],
                 inits, opset=13)


def random_ops():
    """Random ops: seeds given and derived, and Bernoulli's comparison."""
    nodes = [
        helper.make_node("RandomUniform", [], ["ru"], name="uniform", shape=[2, 3],
                         low=-1.0, high=1.0, seed=4.0),
        helper.make_node("RandomNormalLike", ["x"], ["rn"], name="normal", mean=1.0, scale=2.0),
        helper.make_node("Bernoulli", ["x"], ["bern"], name="bernoulli",
                         dtype=TensorProto.INT32, seed=9.0),
    ]
    return model(nodes, [vi("x", F, ["b", 4])],
                 [vi("ru", F, [2, 3]), vi("rn", F, ["b", 4]),
                  vi("bern", TensorProto.INT32, ["b", 4])], opset=15)


def integer_quant():
    nodes = [
        helper.make_node("MatMulInteger", ["a", "b", "azp", "bzp"], ["mm"], name="mmi"),
        helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "scale", "zp"], name="dql"),
    ]
    inits = [const("azp", 3, np.uint8), const("bzp", [1, 2], np.uint8)]
    U8 = TensorProto.UINT8
    return model(nodes, [vi("a", U8, [4, 3]), vi("b", U8, [3, 2]), vi("x", F, [5])],
                 [vi("mm", TensorProto.INT32, [4, 2]), vi("q", U8, [5]),
                  vi("scale", F, []), vi("zp", U8, [])], inits, opset=13)


def sampling():
    nodes = [
        helper.make_node("GridSample", ["x", "grid"], ["gs"], name="gridsample",
                         mode="cubic", padding_mode="border", align_corners=1),
        helper.make_node("GridSample", ["v", "vgrid"], ["vgs"], name="volumetric",
                         mode="nearest", padding_mode="reflection"),
        helper.make_node("AffineGrid", ["theta", "size"], ["ag"], name="affinegrid"),
        helper.make_node("RoiAlign", ["x", "rois", "bi"], ["ra"], name="roialign",
                         mode="max", output_height=2, output_width=3, sampling_ratio=2),
        helper.make_node("DeformConv", ["x", "w", "off", "b", "mask"], ["dc"],
                         name="deformconv", kernel_shape=[2, 2]),
    ]
    inits = [const("size", [2, 3, 4, 5])]
    return model(nodes,
                 [vi("x", F, [1, 2, 4, 4]), vi("grid", F, [1, 3, 5, 2]),
                  vi("v", F, [1, 2, 3, 4, 5]), vi("vgrid", F, [1, 2, 2, 2, 3]),
                  vi("theta", F, [2, 2, 3]), vi("rois", F, [3, 4]), vi("bi", I64, [3]),
                  vi("w", F, [3, 2, 2, 2]), vi("off", F, [1, 8, 3, 3]), vi("b", F, [3]),
                  vi("mask", F, [1, 4, 3, 3])],
                 [vi("gs", F, [1, 2, 3, 5]), vi("vgs", F, [1, 2, 2, 2, 2]),
                  vi("ag", F, [2, 4, 5, 2]), vi("ra", F, [3, 2, 2, 3]),
                  vi("dc", F, [1, 3, 3, 3])], inits, opset=22)


def sampling_opset16():
    """GridSample-16 spells its default mode bilinear."""
    nodes = [helper.make_node("GridSample", ["x", "grid"], ["gs"], name="gridsample")]
    return model(nodes, [vi("x", F, [1, 2, 4, 4]), vi("grid", F, [1, 3, 5, 2])],
                 [vi("gs", F, [1, 2, 3, 5])], opset=16)


def sampling_errors():
    """Sampling corners tc reports instead of importing."""
    nodes = [
        helper.make_node("AffineGrid", ["theta", "size"], ["ag"], name="affine_rank"),
        helper.make_node("GridSample", ["x", "grid"], ["gs"], name="bad_mode", mode="area"),
        helper.make_node("Resize", ["x", "", "scales"], ["rs"], name="nearest_antialias",
                         mode="nearest", antialias=1),
    ]
    inits = [const("scales", [1.0, 1.0, 1.0, 0.5], np.float32)]
    return model(nodes, [vi("theta", F, [1, 2, 3]), vi("size", I64, [3]),
                         vi("x", F, [1, 1, 4, 4000]), vi("grid", F, [1, 2, 2, 2])],
                 [vi("ag", F, None), vi("gs", F, None), vi("rs", F, None)], inits, opset=20)


def bind_axes(out):
    """ReduceSum whose axes are a graph input, plus a TensorProto for them."""
    nodes = [helper.make_node("ReduceSum", ["x", "axes"], ["y"], name="sum", keepdims=1)]
    m = model(nodes, [vi("x", F, [2, 3, 4]), vi("axes", I64, [1])], [vi("y", F, [2, 1, 4])],
              opset=13)
    with open(out, "wb") as f:
        f.write(m.SerializeToString())
    for name, value in (("axes", [1]), ("bad", [[1.0]])):
        t = numpy_helper.from_array(np.array(value, np.int64 if name == "axes" else np.float32))
        with open(out + "." + name + ".pb", "wb") as f:
            f.write(t.SerializeToString())


def recurrent():
    """RNN forward with biases, GRU bidirectional with linear_before_reset,
    LSTM with peepholes, initial states and run-time sequence_lens."""
    r = np.random.RandomState(0)
    w = lambda name, shape: const(name, r.randn(*shape), np.float32)
    nodes = [
        helper.make_node("RNN", ["x", "rnn_w", "rnn_r", "rnn_b"], ["rnn_y", "rnn_h"],
                         name="rnn", hidden_size=2),
        helper.make_node("GRU", ["x", "gru_w", "gru_r", "gru_b"], ["", "gru_h"], name="gru",
                         hidden_size=2, direction="bidirectional", linear_before_reset=1),
        helper.make_node("LSTM", ["x", "lstm_w", "lstm_r", "", "lens", "h0", "c0", "lstm_p"],
                         ["", "lstm_h", "lstm_c"], name="lstm", hidden_size=2),
    ]
    inits = [w("rnn_w", (1, 2, 3)), w("rnn_r", (1, 2, 2)), w("rnn_b", (1, 4)),
             w("gru_w", (2, 6, 3)), w("gru_r", (2, 6, 2)), w("gru_b", (2, 12)),
             w("lstm_w", (1, 8, 3)), w("lstm_r", (1, 8, 2)), w("lstm_p", (1, 6))]
    return model(nodes,
                 [vi("x", F, [2, 1, 3]), vi("lens", TensorProto.INT32, [1]),
                  vi("h0", F, [1, 1, 2]), vi("c0", F, [1, 1, 2])],
                 [vi("rnn_y", F, [2, 1, 1, 2]), vi("rnn_h", F, [1, 1, 2]),
                  vi("gru_h", F, [2, 1, 2]), vi("lstm_h", F, [1, 1, 2]),
                  vi("lstm_c", F, [1, 1, 2])], inits, opset=22)


def recurrent_long():
    """More steps than the importer unrolls."""
    nodes = [helper.make_node("RNN", ["x", "w", "r"], ["", "h"], name="rnn", hidden_size=1)]
    return model(nodes, [vi("x", F, [1000, 1, 1]), vi("w", F, [1, 1, 1]),
                         vi("r", F, [1, 1, 1])], [vi("h", F, [1, 1, 1])], opset=22)


def layout_extras():
    nodes = [
        helper.make_node("ReverseSequence", ["seq", "lens"], ["rev"], name="revseq",
                         batch_axis=1, time_axis=0),
        helper.make_node("MaxUnpool", ["ux", "ui", "ushape"], ["unpooled"], name="unpool",
                         kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Col2Im", ["cols", "image", "block"], ["img"], name="col2im",
                         pads=[0, 1, 0, 1]),
    ]
    inits = [const("ushape", [1, 1, 5, 5]), const("image", [5, 5]), const("block", [1, 5])]
    return model(nodes,
                 [vi("seq", F, [4, 3]), vi("lens", I64, [3]), vi("ux", F, [1, 1, 2, 2]),
                  vi("ui", I64, [1, 1, 2, 2]), vi("cols", F, [1, 5, 15])],
                 [vi("rev", F, [4, 3]), vi("unpooled", F, [1, 1, 5, 5]),
                  vi("img", F, [1, 1, 5, 5])], inits, opset=18)


def pool_indices_bn_training():
    nodes = [
        helper.make_node("MaxPool", ["x"], ["y", "idx"], name="maxpool", kernel_shape=[2, 2],
                         strides=[2, 2], pads=[1, 1, 0, 0], storage_order=1),
        helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"],
                         ["bn", "run_mean", "run_var"], name="bn", training_mode=1,
                         momentum=0.8),
    ]
    return model(nodes, [vi("x", F, [1, 2, 3, 3]), vi("s", F, [2]), vi("b", F, [2]),
                         vi("m", F, [2]), vi("v", F, [2])],
                 [vi("y", F, [1, 2, 2, 2]), vi("idx", I64, [1, 2, 2, 2]),
                  vi("bn", F, [1, 2, 3, 3]), vi("run_mean", F, [2]),
                  vi("run_var", F, [2])], opset=15)


def shape_folding():
    """Expanded CenterCropPad: pads and slice bounds are arithmetic on
    Shape(x) and a constant target shape, which must fold."""
    nodes = [
        helper.make_node("Shape", ["x"], ["xs"], name="shape"),
        helper.make_node("Max", ["xs", "target"], ["padded_sh"], name="max"),
        helper.make_node("Sub", ["padded_sh", "xs"], ["amount"], name="sub"),
        helper.make_node("Div", ["amount", "two"], ["left"], name="div"),
        helper.make_node("Sub", ["amount", "left"], ["right"], name="sub2"),
        helper.make_node("Concat", ["left", "right"], ["pads"], name="concat", axis=0),
        helper.make_node("Pad", ["x", "pads"], ["padded"], name="pad"),
        helper.make_node("Min", ["xs", "target"], ["small"], name="min"),
        helper.make_node("Reshape", ["small", "flat"], ["y2"], name="reshape"),
    ]
    inits = [const("target", [4, 2]), const("two", [2]), const("flat", [2])]
    return model(nodes, [vi("x", F, [2, 3])],
                 [vi("padded", F, [4, 3]), vi("y2", I64, [2])], inits, opset=18)


def scan8_and_loop_scan():
    """Scan at opset 8 (batch axis first) and a Loop whose scan output has no
    declared shape."""
    body = helper.make_graph(
        [helper.make_node("Add", ["sum_in", "next"], ["sum_out"], name="add"),
         helper.make_node("Identity", ["sum_out"], ["scan_out"], name="record")],
        "scan_body", [vi("sum_in", F, [2]), vi("next", F, [2])],
        [vi("sum_out", F, [2]), vi("scan_out", F, [2])])
    loop_body = helper.make_graph(
        [helper.make_node("Identity", ["cond"], ["cond_out"], name="keep"),
         helper.make_node("Add", ["prev", "delta"], ["cur"], name="step"),
         helper.make_node("Identity", ["prev"], ["range"], name="emit")],
        "loop_body", [vi("i", I64, []), vi("cond", TensorProto.BOOL, []), vi("prev", F, [])],
        [vi("cond_out", TensorProto.BOOL, []), vi("cur", F, []),
         helper.make_tensor_value_info("range", F, None)])
    nodes = [
        helper.make_node("Scan", ["", "init", "xs"], ["y", "z"], name="scan", body=body,
                         num_scan_inputs=1),
        helper.make_node("Loop", ["trips", "", "start"], ["last", "values"], name="loop",
                         body=loop_body),
    ]
    return model(nodes, [vi("init", F, [1, 2]), vi("xs", F, [1, 3, 2]), vi("trips", I64, []),
                         vi("start", F, []), vi("delta", F, [])],
                 [vi("y", F, [1, 2]), vi("z", F, [1, 3, 2]), vi("last", F, []),
                  vi("values", F, [None])], opset=8)


def signal():
    """Windows, DFT, STFT and MelWeightMatrix with constant sizes. (onnx's
    shape inference gives STFT 4 bins where the op gives 3: left open.)"""
    nodes = [
        helper.make_node("HannWindow", ["four"], ["hann"], name="hann"),
        helper.make_node("BlackmanWindow", ["four"], ["blackman"], name="blackman", periodic=0),
        helper.make_node("DFT", ["x", "", "axis"], ["dft"], name="dft", onesided=1),
        helper.make_node("DFT", ["c", "", "axis"], ["idft"], name="idft", inverse=1),
        helper.make_node("STFT", ["sig", "step", "", "four"], ["stft"], name="stft"),
        helper.make_node("MelWeightMatrix", ["mel", "sixteen", "rate", "lo", "hi"], ["mw"],
                         name="mel"),
    ]
    inits = [const("four", 4), const("axis", 1), const("step", 2), const("mel", 3),
             const("sixteen", 16), const("rate", 8000), const("lo", 100.0, np.float32),
             const("hi", 4000.0, np.float32)]
    return model(nodes, [vi("x", F, [3, 4, 1]), vi("c", F, [3, 4, 2]), vi("sig", F, [1, 8, 1])],
                 [vi("hann", F, [4]), vi("blackman", F, [4]), vi("dft", F, [3, 3, 2]),
                  vi("idft", F, [3, 4, 2]), vi("stft", F, [1, 3, None, 2]), vi("mw", F, [9, 3])],
                 inits, opset=20)


def einsum_rotary():
    """Einsum equations (contraction, diagonal, implicit output) and
    RotaryEmbedding."""
    nodes = [
        helper.make_node("Einsum", ["a", "b"], ["mm"], name="bmm", equation="bij,bjk->bik"),
        helper.make_node("Einsum", ["sq"], ["diag"], name="diag", equation="...ii->...i"),
        helper.make_node("Einsum", ["m"], ["tr"], name="implicit", equation="ji"),
        helper.make_node("Einsum", ["v", "v"], ["dot"], name="dot", equation="i,i"),
        helper.make_node("RotaryEmbedding", ["x", "cos", "sin", "pos"], ["rot"], name="rope",
                         interleaved=1),
    ]
    return model(nodes, [vi("a", F, [2, 3, 4]), vi("b", F, [2, 4, 5]), vi("sq", F, [2, 3, 3]),
                         vi("m", F, [3, 4]), vi("x", F, [1, 2, 3, 4]), vi("cos", F, [8, 2]),
                         vi("sin", F, [8, 2]), vi("pos", I64, [1, 3]), vi("v", F, [5])],
                 [vi("mm", F, [2, 3, 5]), vi("diag", F, [2, 3]), vi("tr", F, [4, 3]),
                  vi("dot", F, []), vi("rot", F, [1, 2, 3, 4])], opset=23)


def qlinear():
    """QLinearMatMul, QLinearConv and blocked DequantizeLinear."""
    U8, I8 = TensorProto.UINT8, TensorProto.INT8
    nodes = [
        helper.make_node("QLinearMatMul", ["a", "s", "azp", "b", "s", "bzp", "s", "yzp"],
                         ["mm"], name="qmm"),
        helper.make_node("QLinearConv", ["x", "s", "azp", "w", "ws", "wzp", "s", "azp"],
                         ["conv"], name="qconv"),
        helper.make_node("DequantizeLinear", ["q", "bs", "bz"], ["dq"], name="blocked",
                         axis=1, block_size=2),
    ]
    inits = [const("azp", 3, np.uint8), const("bzp", [1], np.int8),
             const("yzp", [-2], np.int8), const("s", [0.5], np.float32),
             const("ws", [0.25, 0.5], np.float32), const("wzp", [1, 2], np.uint8)]
    return model(nodes, [vi("a", U8, [2, 4]), vi("b", I8, [4, 3]), vi("x", U8, [1, 1, 3, 3]),
                         vi("w", U8, [2, 1, 1, 1]), vi("q", U8, [2, 3]), vi("bs", F, [2, 2]),
                         vi("bz", U8, [2, 2])],
                 [vi("mm", I8, [2, 3]), vi("conv", U8, [1, 2, 3, 3]), vi("dq", F, [2, 3])],
                 inits, opset=21)


def main():
    if sys.argv[1] == "bind_axes":
        bind_axes(sys.argv[2])
        return
    if sys.argv[1] == "--all":
        # Every model into one directory: the fuzzer's seed corpus.
        os.makedirs(sys.argv[2], exist_ok=True)
        for name in BUILDERS:
            with open(os.path.join(sys.argv[2], name + ".onnx"), "wb") as f:
                f.write(globals()[name]().SerializeToString())
        return
    name, out = sys.argv[1], sys.argv[2]
    if name == "external_data":
        external_data(out)
        return
    if name == "not_onnx":
        with open(out, "w") as f:
            f.write("this is not a model\n")
        return
    if name == "truncated":
        data = weights().SerializeToString()
        with open(out, "wb") as f:
            f.write(data[: len(data) // 2])
        return
    m = globals()[name]()
    with open(out, "wb") as f:
        f.write(m.SerializeToString())


if __name__ == "__main__":
    main()
