# Builds the models and data of image-decoder.mlir: ImageDecoder over a
# 1-D uint8 input of any length, in each pixel format; a binary PPM and a
# PNG (written here with zlib, so no imaging library is needed) with their
# expected pixels.
import os, struct, sys, zlib
import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(os.path.join(out, "broken"), exist_ok=True)
open(os.path.join(out, "broken", "libfreeimage.so.3"), "wb").close()

for name, fmt, channels in (("rgb", "RGB", 3), ("bgr", "BGR", 3),
                            ("gray", "Grayscale", 1), ("cmyk", "CMYK", 4)):
    graph = helper.make_graph(
        [helper.make_node("ImageDecoder", ["bytes"], ["pixels"], name="decode",
                          pixel_format=fmt)],
        "image",
        [helper.make_tensor_value_info("bytes", TensorProto.UINT8, ["n"])],
        [helper.make_tensor_value_info("pixels", TensorProto.UINT8,
                                       [None, None, channels])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)]),
              os.path.join(out, f"{name}.onnx"))

def save(name, array):
    np.save(os.path.join(out, name), array)

rng = np.random.default_rng(3)
image = rng.integers(0, 256, size=(5, 7, 3), dtype=np.uint8)
ppm = b"P6\n7 5\n255\n" + image.tobytes()
save("ppm.npy", np.frombuffer(ppm, np.uint8))
save("rgb.npy", image)
save("bgr.npy", image[:, :, ::-1].copy())
r, g, b = (image[:, :, i].astype(np.uint32) for i in range(3))
save("gray.npy", ((19595 * r + 38470 * g + 7471 * b + 0x8000) >> 16)
     .astype(np.uint8)[:, :, None])

# A 4x3 RGBA PNG: the alpha channel is dropped.
rgba = rng.integers(0, 256, size=(3, 4, 4), dtype=np.uint8)
def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
rows = b"".join(b"\x00" + rgba[y].tobytes() for y in range(3))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 3, 8, 6, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
save("png.npy", np.frombuffer(png, np.uint8))
save("png_rgb.npy", rgba[:, :, :3].copy())

save("junk.npy", np.frombuffer(b"this is not an image", np.uint8))
save("empty.npy", np.zeros(0, np.uint8))
