"""Writes the .npy and .pb tensors of the tc-run lit tests into argv[1].

The fake modules they feed (test/unittests/Runtime/FakeModules):
  add:  a f32[?batch, 4], b f32[4] -> out = a + b
  misc: code i32[], "x y" f64[?n, ?], flag bool[?n] -> y i64[?n], empty f32[0]
"""
import os
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def path(name):
    return os.path.join(out, name)


def save_pb(name, tensor):
    with open(path(name), "wb") as f:
        f.write(tensor.SerializeToString())


a = np.arange(12, dtype=np.float32).reshape(3, 4)
b = np.array([1, 2, 3, 4], dtype=np.float32)
np.save(path("a.npy"), a)
np.save(path("b.npy"), b)
np.save(path("out.npy"), a + b)
np.save(path("out_close.npy"), a + b + np.float32(1e-4))
np.save(path("out_far.npy"), (a + b) * np.float32(1.01))
np.save(path("out_nan.npy"), np.full((3, 4), np.nan, dtype=np.float32))
np.save(path("out_shape.npy"), (a + b).reshape(4, 3))
np.save(path("a_f64.npy"), a.astype(np.float64))
np.save(path("a_bad_extent.npy"), np.zeros((3, 5), dtype=np.float32))
np.save(path("a_rank1.npy"), np.zeros((4,), dtype=np.float32))
np.save(path("a_fortran.npy"), np.asfortranarray(a))
np.save(path("a_bigendian.npy"), a.astype(">f4"))
np.save(path("object.npy"), np.array([1, "x"], dtype=object), allow_pickle=True)
np.save(path("complex.npy"), np.zeros(4, dtype=np.complex64))
with open(path("a_v2.npy"), "wb") as f:  # format 2.0 (uint32 header length)
    np.lib.format.write_array(f, a, version=(2, 0))
with open(path("a_v3.npy"), "wb") as f:
    np.lib.format.write_array(f, a, version=(3, 0))
with open(path("truncated.npy"), "wb") as f:
    f.write(open(path("a.npy"), "rb").read()[:-8])
with open(path("garbage.npy"), "wb") as f:
    f.write(b"not numpy at all")

# .pb: raw_data (numpy_helper), packed typed fields (helper.make_tensor),
# and float_data written one value per tag (unpacked), by hand.
save_pb("a_raw.pb", numpy_helper.from_array(a, "a"))
save_pb("b_typed.pb", helper.make_tensor("b", TensorProto.FLOAT, [4],
                                         b.tolist()))
unpacked = struct.pack("<BB", (1 << 3) | 0, 4)  # dims: 4
unpacked += struct.pack("<BB", (2 << 3) | 0, TensorProto.FLOAT)
for value in b:
    unpacked += struct.pack("<Bf", (4 << 3) | 5, value)
with open(path("b_unpacked.pb"), "wb") as f:
    f.write(unpacked)
save_pb("out_typed.pb", helper.make_tensor("out", TensorProto.FLOAT, [3, 4],
                                           (a + b).flatten().tolist()))

# misc inputs: code, "x y" (f64, double_data), flag (bool, int32_data).
x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.5]])
save_pb("code0.pb", helper.make_tensor("code", TensorProto.INT32, [], [0]))
save_pb("code1.pb", helper.make_tensor("code", TensorProto.INT32, [], [1]))
save_pb("xy.pb", helper.make_tensor("x y", TensorProto.DOUBLE, [3, 2],
                                    x.flatten().tolist()))
save_pb("flag.pb", helper.make_tensor("flag", TensorProto.BOOL, [3],
                                      [True, False, True]))
save_pb("flag2.pb", helper.make_tensor("flag", TensorProto.BOOL, [2],
                                       [True, True]))
save_pb("y.pb", helper.make_tensor("y", TensorProto.INT64, [3], [3, -1, 11]))
np.save(path("y.npy"), np.array([3, -1, 11], dtype=np.int64))
np.save(path("y_wrong.npy"), np.array([3, 0, 11], dtype=np.int64))
np.save(path("empty.npy"), np.zeros((0,), dtype=np.float32))
np.save(path("code0.npy"), np.array(0, dtype=np.int32))
np.save(path("flag.npy"), np.array([True, False, True]))
# make_tensor stores f16 / bf16 values as their bits, one per int32_data.
save_pb("f16.pb", helper.make_tensor("h", TensorProto.FLOAT16, [2],
                                     [1.5, -2.0]))
save_pb("i8.pb", helper.make_tensor("i", TensorProto.INT8, [3], [-1, 2, -3]))
save_pb("u64.pb", helper.make_tensor("u", TensorProto.UINT64, [1],
                                     [2**64 - 1]))
save_pb("bf16.pb", helper.make_tensor("z", TensorProto.BFLOAT16, [2],
                                      [1.5, -2.0]))
np.save(path("bf16_bits.npy"), np.array([0x3FC0, 0x4040], dtype=np.uint16))
np.save(path("f16.npy"), np.array([0.5, 65504], dtype=np.float16))
np.save(path("i8.npy"), np.array([-128, 127], dtype=np.int8))
np.save(path("u64.npy"), np.array([1, 2**63], dtype=np.uint64))
save_pb("string.pb", helper.make_tensor("s", TensorProto.STRING, [1],
                                        [b"hi"]))
with open(path("truncated.pb"), "wb") as f:
    f.write(open(path("a_raw.pb"), "rb").read()[:-3])
raw_short = numpy_helper.from_array(a, "a")
raw_short.raw_data = raw_short.raw_data[:-4]
save_pb("raw_short.pb", raw_short)

# Narrow types (fake 'narrow': e f8e4m3fn, h f4e2m1fn, s i4, t u2,
# z f8e8m0fnu, echoed). onnx packs 4-bit values two per byte and 2-bit values
# four per byte, low bits first, in raw_data and in int32_data alike.
import ml_dtypes

e_values = np.array([1.5, -2.0, 448.0, np.nan], dtype=ml_dtypes.float8_e4m3fn)
save_pb("e_raw.pb", helper.make_tensor("e", TensorProto.FLOAT8E4M3FN, [4],
                                       e_values.tobytes(), raw=True))
save_pb("e_typed.pb", helper.make_tensor("e", TensorProto.FLOAT8E4M3FN, [4],
                                         e_values.astype(np.float32)))
h_values = [0.5, -6.0, 3.0]  # f4 codes 0x1, 0xf, 0x5
save_pb("h_raw.pb", helper.make_tensor("h", TensorProto.FLOAT4E2M1, [3],
                                       bytes([0xF1, 0x05]), raw=True))
save_pb("h_typed.pb", helper.make_tensor("h", TensorProto.FLOAT4E2M1, [3], h_values))
s_values = [-8, 7, -1]  # odd count: the last byte has one element
save_pb("s_raw.pb", helper.make_tensor("s", TensorProto.INT4, [3],
                                       bytes([0x78, 0x0F]), raw=True))
save_pb("s_typed.pb", helper.make_tensor("s", TensorProto.INT4, [3], s_values))
t_values = [3, 0, 1, 2, 1]
save_pb("t_raw.pb", helper.make_tensor("t", TensorProto.UINT2, [5],
                                       bytes([0x93, 0x01]), raw=True))
save_pb("t_typed.pb", helper.make_tensor("t", TensorProto.UINT2, [5], t_values))
t_short = helper.make_tensor("t", TensorProto.UINT2, [5], bytes([0x93, 0x01]), raw=True)
t_short.raw_data = bytes([0x93])  # one byte short
save_pb("t_short.pb", t_short)
z_values = np.array([1.0, 0.25, 2.0 ** 127], dtype=ml_dtypes.float8_e8m0fnu)
save_pb("z_raw.pb", helper.make_tensor("z", TensorProto.FLOAT8E8M0, [3],
                                       z_values.tobytes(), raw=True))
# .npy stand-ins: uint8 bit patterns, int8/uint8 small integers (a uint8 i4
# holds the nibble; tc-run sign-extends it).
np.save(path("e_bits.npy"), e_values.view(np.uint8))
np.save(path("h_bits.npy"), np.array([0x1, 0xF, 0x5], dtype=np.uint8))
np.save(path("s_i8.npy"), np.array(s_values, dtype=np.int8))
np.save(path("s_nibbles.npy"), np.array([8, 7, 15], dtype=np.uint8))
np.save(path("t_u8.npy"), np.array(t_values, dtype=np.uint8))
np.save(path("z_bits.npy"), z_values.view(np.uint8))
np.save(path("e_close.npy"), np.array([1.625, -2.0, 448.0, np.nan],
                                      dtype=ml_dtypes.float8_e4m3fn).view(np.uint8))
