// ImageDecoder in a compiled model: the codecs (FreeImage, dlopened by the
// helper that tc-compile links into the library) decode an image whose size
// is only known at run time; bad data and a missing codec library are
// errors naming the node, with exit 1.
// RUN: %pyonnx %s.py %t
// RUN: tc-translate --import-onnx %t/gray.onnx --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=IMPORT
// IMPORT: tc.image_decode %arg0 {pixel_format = "Grayscale"} : (tensor<?xui8>) -> tensor<?x?x1xui8> loc("decode"("ImageDecoder"))
// RUN: not tc-translate --import-onnx %t/cmyk.onnx 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: decode (ImageDecoder): pixel_format 'CMYK' (expected RGB, BGR or Grayscale)
// RUN: tc-compile %t/rgb.onnx -o %t/rgb.so
// RUN: tc-compile %t/bgr.onnx -o %t/bgr.so
// RUN: tc-compile %t/gray.onnx -o %t/gray.so
// RUN: tc-run %t/rgb.so --input=bytes=%t/ppm.npy --compare=pixels=%t/rgb.npy | FileCheck %s --check-prefix=RGB
// RGB: output 'pixels': OK: u8[5, 7, 3]
// RUN: tc-run %t/rgb.so --input=bytes=%t/png.npy --compare=pixels=%t/png_rgb.npy | FileCheck %s --check-prefix=PNG
// PNG: output 'pixels': OK: u8[3, 4, 3]
// RUN: tc-run %t/bgr.so --input=bytes=%t/ppm.npy --compare=pixels=%t/bgr.npy | FileCheck %s --check-prefix=BGR
// BGR: output 'pixels': OK: u8[5, 7, 3]
// RUN: tc-run %t/gray.so --input=bytes=%t/ppm.npy --compare=pixels=%t/gray.npy | FileCheck %s --check-prefix=GRAY
// GRAY: output 'pixels': OK: u8[5, 7, 1]
// RUN: not tc-run %t/rgb.so --input=bytes=%t/junk.npy 2>&1 | FileCheck %s --check-prefix=JUNK
// JUNK: tc-run: error: running '{{.*}}rgb.so': model '{{.*}}': node 'decode' (ImageDecoder): the data is not an image in a format FreeImage decodes
// RUN: not tc-run %t/rgb.so --input=bytes=%t/empty.npy 2>&1 | FileCheck %s --check-prefix=JUNK
// A library that cannot be loaded in place of FreeImage:
// RUN: env LD_LIBRARY_PATH=%t/broken not tc-run %t/rgb.so --input=bytes=%t/ppm.npy 2>&1 | FileCheck %s --check-prefix=NOLIB
// NOLIB: node 'decode' (ImageDecoder): decoding an image needs FreeImage (libfreeimage.so.3, Debian's libfreeimage3), which could not be loaded
