# Builds the model of narrow-casts.mlir: casts between f32/f64/f16/i32 and
# every narrow type (float8, float4, 4- and 2-bit integers), with expected
# values from ml_dtypes (which ONNX's reference uses) over random values,
# specials and all 256 bit patterns. Narrow tensors are saved as their .npy
# stand-ins (uint8 bit patterns, int8/uint8 values).
import os, sys
import ml_dtypes as m
import numpy as np
import onnx
from onnx import TensorProto as T, helper, numpy_helper

out = sys.argv[1]
if len(sys.argv) > 2:  # run: tc-run with every input and expected output
    import subprocess
    with open(os.path.join(out, "args")) as f:
        args = f.read().split()
    sys.exit(subprocess.run([sys.argv[2], os.path.join(out, "model.so")] + args).returncode)
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
specials = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 448, 464, 465, 480,
            240, 248, 57344, 61440, 61441, 6, 7, 5, 2.5, 0.25, 0.75, 2**-9,
            1.5 * 2**-9, 2**-17, 3 * 2**-19, 2**-127, 1e-40, 3e38, 1e6, -1e6]
x = np.concatenate([
    np.array(specials, np.float64),
    rng.standard_normal(2000) * 10.0 ** rng.integers(-10, 7, 2000),
    np.arange(-40, 40, 0.25),
])
x32 = x.astype(np.float32)
with np.errstate(over="ignore"):
    x16 = x32.astype(np.float16)
ints = rng.integers(-300, 300, 200).astype(np.int32)
patterns = np.arange(256, dtype=np.uint8)

F8 = {"e4m3fn": (T.FLOAT8E4M3FN, m.float8_e4m3fn),
      "e4m3fnuz": (T.FLOAT8E4M3FNUZ, m.float8_e4m3fnuz),
      "e5m2": (T.FLOAT8E5M2, m.float8_e5m2),
      "e5m2fnuz": (T.FLOAT8E5M2FNUZ, m.float8_e5m2fnuz)}


def saturated(values, dtype):
    info = m.finfo(dtype)
    return np.clip(values, float(info.min), float(info.max)).astype(dtype)


def e8m0(values):
    # ONNX Cast round_mode "up", saturating (the spec: infinity -> largest).
    bits = values.astype(np.float32).view(np.uint32)
    exponent = ((bits >> 23) & 0xFF).astype(np.int64)
    fraction = bits & 0x7FFFFF
    up = np.where(exponent == 0, fraction > 0x400000, fraction != 0)
    code = np.minimum(exponent + up, 0xFE)
    code[np.isnan(values)] = 0xFF
    return code.astype(np.uint8)


nodes, inputs, outputs, arrays = [], [], [], {}


def inp(name, elem, value):
    inputs.append(helper.make_tensor_value_info(name, elem, value.shape))
    arrays[name] = value


def cast(src, name, to, expected, **attrs):
    nodes.append(helper.make_node("Cast", [src], [name], to=to, **attrs))
    outputs.append(helper.make_tensor_value_info(name, to, expected.shape))
    arrays[name] = expected


inp("x", T.FLOAT, x32)
inp("xd", T.DOUBLE, x)
inp("xh", T.FLOAT16, x16)
inp("n", T.INT32, ints)
for key, (code, dtype) in F8.items():
    cast("x", f"sat_{key}", code, saturated(x32, dtype).view(np.uint8))
    cast("x", f"raw_{key}", code, x32.astype(dtype).view(np.uint8), saturate=0)
    cast("xd", f"d_{key}", code, saturated(x, dtype).view(np.uint8))
    cast("xh", f"h_{key}", code, saturated(x16, dtype).view(np.uint8))
    cast("n", f"n_{key}", code, saturated(ints.astype(np.float64), dtype).view(np.uint8))
    inp(f"p_{key}", code, patterns)
    cast(f"p_{key}", f"f_{key}", T.FLOAT, patterns.view(dtype).astype(np.float32))
cast("x", "f4", T.FLOAT4E2M1, x32.astype(m.float4_e2m1fn).view(np.uint8))
inp("p_f4", T.FLOAT4E2M1, patterns[:16])
cast("p_f4", "f_f4", T.FLOAT, patterns[:16].view(m.float4_e2m1fn).astype(np.float32))
cast("x", "e8m0", T.FLOAT8E8M0, e8m0(x32), saturate=1)
inp("p_e8m0", T.FLOAT8E8M0, patterns)
cast("p_e8m0", "f_e8m0", T.FLOAT, patterns.view(m.float8_e8m0fnu).astype(np.float32))
for name, code, dtype, np_dtype in (("i4", T.INT4, m.int4, np.int8),
                                    ("u4", T.UINT4, m.uint4, np.uint8),
                                    ("i2", T.INT2, m.int2, np.int8),
                                    ("u2", T.UINT2, m.uint2, np.uint8)):
    finite = np.where(np.isfinite(x32) & (np.abs(x32) < 2**31), x32, 0)
    cast("x", f"x_{name}", code, finite.astype(dtype).astype(np_dtype))
    cast("n", f"n_{name}", code, ints.astype(dtype).astype(np_dtype))
    values = ints.astype(dtype)
    inp(f"v_{name}", code, values.astype(np_dtype))
    cast(f"v_{name}", f"w_{name}", T.FLOAT, values.astype(np.float32))
    cast(f"v_{name}", f"k_{name}", T.INT64, values.astype(np.int64))

graph = helper.make_graph(nodes, "narrow", inputs, outputs)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 25)])
onnx.save(model, os.path.join(out, "model.onnx"))
with open(os.path.join(out, "args"), "w") as f:
    for i in inputs:
        f.write(f"--input={i.name}={out}/{i.name}.npy\n")
    for o in outputs:
        f.write(f"--compare={o.name}={out}/{o.name}.npy\n")
for name, value in arrays.items():
    np.save(os.path.join(out, f"{name}.npy"), value)
