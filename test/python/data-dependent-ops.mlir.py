# Driven by data-dependent-ops.mlir. Each model is compiled with tc and run
# on the CPU; outputs are compared with onnx.reference.ReferenceEvaluator.
import os
import sys

import numpy as np
import onnx
import tc
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

work = sys.argv[1]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(7)
F, I64 = TensorProto.FLOAT, TensorProto.INT64


def build(name, nodes, inputs, outputs, opset=17):
    graph = helper.make_graph(nodes, name, inputs, outputs)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10
    path = os.path.join(work, name + ".onnx")
    onnx.save(m, path)
    return m, tc.load(tc.compile_onnx(path, os.path.join(work, name + ".so")), threads=2)


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def check(name, nodes, inputs, outputs, feeds, opset=17):
    m, compiled = build(name, nodes, inputs, outputs, opset)
    want = ReferenceEvaluator(m).run(None, feeds)
    got = compiled(**feeds)
    for g, w in zip(got, want):
        w = np.asarray(w)
        if g.shape != w.shape or g.dtype != w.dtype or not np.allclose(g, w, 1e-4, 1e-5):
            print(name, "MISMATCH", g.shape, w.shape, g.dtype, w.dtype)
            return
    print(name, "ok")


x = rng.standard_normal((40, 30)).astype(np.float32)
cond = rng.random(30) < 0.4
check("compress", [helper.make_node("Compress", ["x", "c"], ["y"], axis=1)],
      [vi("x", F, [40, 30]), vi("c", TensorProto.BOOL, [30])], [vi("y", F, [40, "n"])],
      {"x": x, "c": cond})
cond_short = rng.random(500) < 0.5
check("compress_flat", [helper.make_node("Compress", ["x", "c"], ["y"])],
      [vi("x", F, [40, 30]), vi("c", TensorProto.BOOL, [500])], [vi("y", F, ["n"])],
      {"x": x, "c": cond_short})

ints = rng.integers(-50, 50, size=3000).astype(np.int64)
outs = ["y", "i", "inv", "n"]
for name, attrs in (("unique_sorted", {}), ("unique_unsorted", {"sorted": 0})):
    check(name, [helper.make_node("Unique", ["x"], outs, **attrs)],
          [vi("x", I64, [3000])],
          [vi("y", I64, ["u"]), vi("i", I64, ["u"]), vi("inv", I64, [3000]),
           vi("n", I64, ["u"])], {"x": ints})
rows = rng.integers(0, 3, size=(4, 200, 2)).astype(np.int64)
check("unique_axis", [helper.make_node("Unique", ["x"], outs, axis=1)],
      [vi("x", I64, [4, 200, 2])],
      [vi("y", I64, [4, "u", 2]), vi("i", I64, ["u"]), vi("inv", I64, [200]),
       vi("n", I64, ["u"])], {"x": rows})
floats = rng.choice(np.float32([0.5, -1.25, 3.0, 7.5, -0.0]), size=200)
check("unique_float", [helper.make_node("Unique", ["x"], outs, sorted=0)],
      [vi("x", F, [200])],
      [vi("y", F, ["u"]), vi("i", I64, ["u"]), vi("inv", I64, [200]),
       vi("n", I64, ["u"])], {"x": floats})

corners = rng.random((2, 300, 2)).astype(np.float32) * 10
sizes = rng.random((2, 300, 2)).astype(np.float32) * 3 + 0.1
boxes = np.ascontiguousarray(np.concatenate([corners, corners + sizes], axis=2)[:, :, [0, 1, 2, 3]])
scores = rng.random((2, 3, 300)).astype(np.float32)
nms_inputs = [vi("b", F, [2, 300, 4]), vi("s", F, [2, 3, 300]), vi("m", I64, [1]),
              vi("iou", F, [1]), vi("st", F, [1])]
feeds = {"b": boxes, "s": scores, "m": np.array([25], np.int64),
         "iou": np.array([0.3], np.float32), "st": np.array([0.2], np.float32)}
check("nms", [helper.make_node("NonMaxSuppression", ["b", "s", "m", "iou", "st"], ["r"])],
      nms_inputs, [vi("r", I64, ["n", 3])], feeds)
check("nms_center", [helper.make_node("NonMaxSuppression", ["b", "s", "m", "iou"], ["r"],
                                      center_point_box=1)],
      nms_inputs[:4], [vi("r", I64, ["n", 3])],
      {k: v for k, v in feeds.items() if k != "st"})

mats = rng.standard_normal((6, 5, 7, 7)).astype(np.float32)
mats[0, 0, 3] = mats[0, 0, 1]  # singular
check("det", [helper.make_node("Det", ["x"], ["d"])], [vi("x", F, [6, 5, 7, 7])],
      [vi("d", F, [6, 5])], {"x": mats})

cache = rng.standard_normal((3, 2, 10, 4)).astype(np.float32)
update = rng.standard_normal((3, 2, 4, 4)).astype(np.float32)
for mode, where in (("linear", [0, 6, 3]), ("circular", [8, 0, 9])):
    check("tensor_scatter_" + mode,
          [helper.make_node("TensorScatter", ["c", "u", "w"], ["y"], mode=mode, axis=2)],
          [vi("c", F, [3, 2, 10, 4]), vi("u", F, [3, 2, 4, 4]), vi("w", I64, [3])],
          [vi("y", F, [3, 2, 10, 4])],
          {"c": cache, "u": update, "w": np.array(where, np.int64)}, opset=24)

# Slices with bounds given at run time (negative, out of range, empty,
# reversed), on a dynamic dimension too.
sx = rng.standard_normal((5, 9)).astype(np.float32)
bad = []
for steps, cases in (([1, 2], (([1, -7], [4, 100]), ([9, -20], [2, 3]), ([0, 5], [5, 5]))),
                     ([-2, -3], (([-1, 8], [-100, 0]), ([3, 100], [1, -100])))):
    axes = helper.make_tensor("a", I64, [2], [0, 1])
    step = helper.make_tensor("st", I64, [2], steps)
    graph = helper.make_graph(
        [helper.make_node("Slice", ["x", "s", "e", "a", "st"], ["y"])], "slice",
        [vi("x", F, [5, "n"]), vi("s", I64, [2]), vi("e", I64, [2])],
        [vi("y", F, ["p", "q"])], [axes, step])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    name = f"runtime_slice{len(bad)}{steps[0]}"
    path = os.path.join(work, name + ".onnx")
    onnx.save(m, path)
    model = tc.load(tc.compile_onnx(path, os.path.join(work, name + ".so")))
    for starts, ends in cases:
        feeds = {"x": sx, "s": np.array(starts, np.int64), "e": np.array(ends, np.int64)}
        (want,) = ReferenceEvaluator(m).run(None, feeds)
        (got,) = model(**feeds)
        if got.shape != want.shape or not np.array_equal(got, want):
            bad.append((steps, starts, ends))
# A contiguous view of an input returned as the output: the library copies
# it (this once called memrefCopy, which a model library lacks).
m, model = build("view_output", [helper.make_node("Slice", ["x", "s", "e"], ["y"])],
                 [vi("x", F, ["n"]), vi("s", I64, [1]), vi("e", I64, [1])], [vi("y", F, ["m"])])
for n, start, end in ((10, 2, 7), (0, 0, 5), (6, -4, 100)):
    feeds = {"x": np.arange(n, dtype=np.float32), "s": np.array([start]), "e": np.array([end])}
    (got,) = model(**feeds)
    if not np.array_equal(got, ReferenceEvaluator(m).run(None, feeds)[0]):
        bad.append(("view", n, start, end))
print("runtime_slice", "ok" if not bad else f"MISMATCH {bad}")

# Random ops: moments within 6 standard errors (fixed seeds: the check is
# deterministic, and a broken generator fails it).
n = 200000
_, model = build("uniform", [helper.make_node("RandomUniform", [], ["u"], shape=[n],
                                              low=-1.0, high=3.0, seed=5.0)],
                 [], [vi("u", F, [n])])
(u,) = model()
mean_ok = abs(u.mean() - 1.0) < 6 * np.sqrt(16 / 12 / n)
var_ok = abs(u.var() - 16 / 12) < 0.02
range_ok = u.min() >= -1.0 and u.max() < 3.0
lag = np.corrcoef(u[:-1], u[1:])[0, 1]
print("uniform mean", round(float(u.mean()), 3),
      "ok" if mean_ok and var_ok and range_ok and abs(lag) < 0.01 else "BAD")

like = np.zeros((400, 500), np.float32)
_, model = build("normal", [helper.make_node("RandomNormalLike", ["x"], ["z"], mean=2.0,
                                             scale=0.5)],
                 [vi("x", F, [400, 500])], [vi("z", F, [400, 500])])
(z,) = model(like)
(z_again,) = model(like)
skew = float(((z - z.mean()) ** 3).mean() / z.std() ** 3)
normal_ok = (abs(z.mean() - 2.0) < 6 * 0.5 / np.sqrt(z.size) and abs(z.std() - 0.5) < 0.005
             and abs(skew) < 0.05 and abs((np.abs(z - 2.0) < 0.5).mean() - 0.6827) < 0.005)
print("normal mean", round(float(z.mean()), 3), "ok" if normal_ok else "BAD")

p = np.tile(np.float32([0.0, 1.0, 0.3, 0.9]), (50000, 1))
_, model = build("bernoulli", [helper.make_node("Bernoulli", ["p"], ["y"], seed=3.0)],
                 [vi("p", F, [50000, 4])], [vi("y", F, [50000, 4])], opset=15)
(y,) = model(p)
rates = y.mean(axis=0)
bern_ok = (rates[0] == 0 and rates[1] == 1 and abs(rates[2] - 0.3) < 6 * np.sqrt(0.21 / 50000)
           and abs(rates[3] - 0.9) < 6 * np.sqrt(0.09 / 50000))
print("bernoulli", "ok" if bern_ok else f"BAD {rates}")

# Dropout with training_mode given at run time: drops about `ratio` of the
# elements and scales the others by 1 / (1 - ratio) in training, and is
# the identity otherwise.
ratio = helper.make_tensor("r", F, [], [0.25])
graph = helper.make_graph(
    [helper.make_node("Dropout", ["x", "r", "t"], ["y", "mask"], seed=1.0)], "dropout",
    [vi("x", F, [100000]), vi("t", TensorProto.BOOL, [])],
    [vi("y", F, [100000]), vi("mask", TensorProto.BOOL, [100000])], [ratio])
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(m, os.path.join(work, "dropout.onnx"))
model = tc.load(tc.compile_onnx(os.path.join(work, "dropout.onnx"),
                           os.path.join(work, "dropout.so")))
xs = rng.random(100000).astype(np.float32) + 0.5
y, mask = model(xs, np.array(True))
dropped = 1 - mask.mean()
train_ok = (abs(dropped - 0.25) < 6 * np.sqrt(0.1875 / 1e5) and (y[~mask] == 0).all()
            and np.allclose(y[mask], xs[mask] / 0.75))
y, mask = model(xs, np.array(False))
print("dropout", "ok" if train_ok and mask.all() and np.array_equal(y, xs) else "BAD")

# A node without a seed draws the same numbers on every call of a model.
print("deterministic", "ok" if np.array_equal(z, z_again) else "BAD")
