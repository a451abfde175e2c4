"""Writes the hostile files of hostile.test into argv[1]: tiny tensor files
whose headers claim huge shapes, and damaged copies of a fake module
(argv[2]) — truncated, with a zeroed tail, with a flipped byte, unsealed."""
import os
import sys

from onnx import TensorProto

out, module = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


# A 128-byte .npy whose header says 5e9 float32 elements (20 GB).
header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (5000000000,), }"
header += b" " * (128 - 10 - len(header) - 1) + b"\n"
write("huge.npy", b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header)
# Extents whose product overflows 64 bits.
header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }"
header += b" " * (192 - 10 - len(header) - 1) + b"\n"
write("overflow.npy", b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header)
# A .pb with dims [500000000] and 4 bytes of raw_data (2 GB claimed).
write("huge_raw.pb", TensorProto(name="a", data_type=TensorProto.FLOAT, dims=[500000000],
                                 raw_data=b"\0\0\0\0").SerializeToString())
# The same shape with 2 values in float_data.
tensor = TensorProto(name="a", data_type=TensorProto.FLOAT, dims=[500000000])
tensor.float_data.extend([1.0, 2.0])
write("huge_typed.pb", tensor.SerializeToString())
# i4 packs two elements a byte: 1e9 elements claimed, 1 byte given.
write("huge_packed.pb", TensorProto(name="a", data_type=22, dims=[1000000000],
                                    raw_data=b"\x12").SerializeToString())

with open(module, "rb") as f:
    sealed = f.read()
write("truncated.so", sealed[: len(sealed) * 6 // 10])
write("zeroed_tail.so", sealed[: len(sealed) // 2] + b"\0" * (len(sealed) - len(sealed) // 2))
flipped = bytearray(sealed)
flipped[len(sealed) // 2] ^= 0x40
write("flipped.so", bytes(flipped))
write("unsealed.so", sealed[:-32])
