"""The ONNX backend test cases, shared by the import sweep and the conformance
runner (utils/onnx_import_sweep.py, utils/onnx_conformance.py).

Both scripts must agree on which cases exist, which are out of scope and
which graph inputs are specialized at compile time, or their tables would not
be comparable; this module is that single definition.
"""
import os

import onnx

SUITES = ["node", "simple", "pytorch-converted", "pytorch-operator"]
TRAINING_OPS = {"Adagrad", "Adam", "Momentum", "Gradient"}
STRING_OPS = {"StringNormalizer", "StringConcat", "StringSplit", "RegexFullMatch",
              "TfIdfVectorizer"}

# (op type, input index) slots that decide shapes and so must be constant.
PARAMETER_SLOTS = {
    ("Reshape", 1), ("Expand", 1), ("Tile", 1), ("Pad", 1), ("Pad", 2), ("Pad", 3),
    ("Slice", 1), ("Slice", 2), ("Slice", 3), ("Slice", 4), ("Split", 1),
    ("Squeeze", 1), ("Unsqueeze", 1), ("Resize", 1), ("Resize", 2), ("Resize", 3),
    ("Upsample", 1), ("TopK", 1), ("OneHot", 1), ("CumSum", 1),
    ("ConstantOfShape", 0), ("Range", 0), ("Range", 1), ("Range", 2),
    ("Trilu", 1), ("Dropout", 1), ("Dropout", 2), ("CenterCropPad", 1),
    ("AffineGrid", 1),
    ("Col2Im", 1), ("Col2Im", 2), ("MaxUnpool", 2),
    ("HannWindow", 0), ("HammingWindow", 0), ("BlackmanWindow", 0), ("DFT", 1),
    ("DFT", 2), ("STFT", 1), ("STFT", 3), *(("MelWeightMatrix", k) for k in range(5)),
} | {(op, 1) for op in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
                         "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
                         "ReduceLogSumExp", "ReduceSumSquare")}


def data_dir():
    return os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")


def list_cases(suites=SUITES):
    """(suite, case) for every case directory that holds a model."""
    root = data_dir()
    return [(s, c) for s in suites for c in sorted(os.listdir(os.path.join(root, s)))
            if os.path.exists(os.path.join(root, s, c, "model.onnx"))]


def op_types(model):
    """Every op type of the model, subgraphs (If/Loop/Scan bodies) included."""
    ops = set()

    def walk(graph):
        for node in graph.node:
            ops.add(node.op_type)
            for a in node.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)
                for g in a.graphs:
                    walk(g)
    walk(model.graph)
    return ops


def exclusion(m):
    """Why a case is out of scope, or None."""
    ops = op_types(m)
    if ops & TRAINING_OPS:
        return "training"
    if any(o.startswith("Sequence") or o.startswith("Optional") or
           o in ("SplitToSequence", "ConcatFromSequence") for o in ops):
        return "sequence/optional"
    if ops & STRING_OPS:
        return "string"
    for v in list(m.graph.input) + list(m.graph.output):
        t = v.type
        if t.HasField("sequence_type") or t.HasField("optional_type") or \
                t.HasField("map_type"):
            return "sequence/optional"
        if t.HasField("tensor_type") and t.tensor_type.elem_type == onnx.TensorProto.STRING:
            return "string"
    if any(d.domain == "ai.onnx.preview.training" for d in m.opset_import):
        return "training"
    # The classical-ML operator set (TreeEnsemble, Binarizer, ...) is not the
    # default domain that our scope covers.
    if any(d.domain == "ai.onnx.ml" for d in m.opset_import):
        return "ai.onnx.ml domain"
    return None


def graph_inputs(model):
    """The inputs a caller feeds, in order: the test data's input_K.pb is the
    K-th of them. Inputs shadowed by an initializer only carry a default and
    have no data file."""
    inits = {i.name for i in model.graph.initializer}
    return [i.name for i in model.graph.input if i.name not in inits]


# Ops through which a shape parameter stays one: integer shape arithmetic
# (expanded functions compute pads or slice bounds from a shape input this
# way, e.g. CenterCropPad's Max(Shape(x), shape) -> Sub -> Div -> Pad).
SHAPE_ARITHMETIC = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Neg", "Abs",
                    "Concat", "Cast", "Unsqueeze", "Squeeze", "Identity"}


def parameter_inputs(model, data_set_dir):
    """(name, data file) of the graph inputs that the test data set gives and
    whose values reach only PARAMETER_SLOTS, directly or through
    SHAPE_ARITHMETIC nodes: the inputs to specialize to the test's values at
    compile time (tc-compile --bind)."""
    uses = {}
    for node in model.graph.node:
        for k, name in enumerate(node.input):
            uses.setdefault(name, []).append((node, k))
    graph_outputs = {o.name for o in model.graph.output}
    # Values read by subgraphs (If/Loop/Scan bodies) are data, not parameters.
    in_subgraphs = set()

    def walk(graph):
        for node in graph.node:
            in_subgraphs.update(node.input)
            for a in node.attribute:
                for g in ([a.g] if a.type == onnx.AttributeProto.GRAPH else []) + list(a.graphs):
                    walk(g)
    for node in model.graph.node:
        for a in node.attribute:
            for g in ([a.g] if a.type == onnx.AttributeProto.GRAPH else []) + list(a.graphs):
                walk(g)

    def is_parameter(name, direct, depth=0):
        slots = uses.get(name, [])
        if not slots or name in graph_outputs or depth > 32:
            return False
        if not direct and name in in_subgraphs:
            return False
        for node, k in slots:
            if (node.op_type, k) in PARAMETER_SLOTS:
                continue
            if direct or node.op_type not in SHAPE_ARITHMETIC:
                return False
            if not all(is_parameter(o, False, depth + 1) for o in node.output if o):
                return False
        return True

    bound = []
    for index, name in enumerate(graph_inputs(model)):
        data = os.path.join(data_set_dir, f"input_{index}.pb")
        if os.path.exists(data) and (is_parameter(name, True) or
                                     (name not in in_subgraphs and
                                      is_parameter(name, False))):
            bound.append((name, data))
    return bound
