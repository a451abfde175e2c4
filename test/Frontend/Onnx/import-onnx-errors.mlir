// Unsupported pieces are all reported together, each with node, op type and
// reason; malformed models give one clear error. Exit code 1 either way.

// RUN: %pyonnx %models unsupported %t.onnx
// RUN: not tc-translate --import-onnx %t.onnx 2>&1 | FileCheck %s --check-prefix=UNSUP
// UNSUP: error: 4 unsupported pieces in the model:
// UNSUP-NEXT: fancy (FancyOp): unknown operator
// UNSUP-NEXT: conv (Conv): auto_pad='WRONG'
// UNSUP-NEXT: gelu (Gelu): approximate='cubic'
// UNSUP-NEXT: vendor_op (com.vendor.Foo): operators of domain 'com.vendor' are not supported
// The Relu after the unknown op is not reported again.
// UNSUP-NOT: after_fancy

// RUN: %pyonnx %models not_onnx %t.txt
// RUN: not tc-translate --import-onnx %t.txt 2>&1 | FileCheck %s --check-prefix=NOTONNX
// NOTONNX: error: not a valid ONNX model: the protobuf is malformed or truncated

// RUN: %pyonnx %models truncated %t.trunc
// RUN: not tc-translate --import-onnx %t.trunc 2>&1 | FileCheck %s --check-prefix=NOTONNX

// RUN: %pyonnx %models cycle %t.cycle
// RUN: not tc-translate --import-onnx %t.cycle 2>&1 | FileCheck %s --check-prefix=CYCLE
// CYCLE: error: the graph has a cycle through node 'first' (Relu)

// RUN: %pyonnx %models missing_value %t.missing
// RUN: not tc-translate --import-onnx %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: node 'add' (Add) reads value 'ghost', which no graph input, initializer or node produces

// RUN: %pyonnx %models duplicate_output %t.dup
// RUN: not tc-translate --import-onnx %t.dup 2>&1 | FileCheck %s --check-prefix=DUP
// DUP: error: value 'y' is defined twice (again as an output of node 'r2' (Neg))

// RUN: %pyonnx %models bad_tensor_size %t.size
// RUN: not tc-translate --import-onnx %t.size 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: error: tensor 'w' of shape [4, 4] and type FLOAT needs 64 bytes but holds 12

// RUN: %pyonnx %models escaping_external %t.esc
// RUN: not tc-translate --import-onnx %t.esc 2>&1 | FileCheck %s --check-prefix=ESC
// ESC: error: tensor 'w': external-data location '../../etc/passwd' must be a relative path inside the model's directory

// RUN: %pyonnx %models missing_external %t.noext
// RUN: not tc-translate --import-onnx %t.noext 2>&1 | FileCheck %s --check-prefix=NOEXT
// NOEXT: error: tensor 'w': cannot read external-data file '{{.*}}no_such_file.bin': No such file or directory

// RUN: %pyonnx %models negative_dim %t.neg
// RUN: not tc-translate --import-onnx %t.neg 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: value 'x' has a negative or absurd dimension -3

// RUN: %pyonnx %models future_opset %t.future
// RUN: not tc-translate --import-onnx %t.future 2>&1 | FileCheck %s --check-prefix=OPSET
// OPSET: <model> (opset_import): default-domain opset 99 is outside the supported range [1, 25]

// RUN: %pyonnx %models string_input %t.str
// RUN: not tc-translate --import-onnx %t.str 2>&1 | FileCheck %s --check-prefix=STR
// STR: x (graph input/output): element type STRING is not supported

// RUN: %pyonnx %models shape_mismatch %t.mm
// RUN: not tc-translate --import-onnx %t.mm 2>&1 | FileCheck %s --check-prefix=MM
// MM: bad_matmul (MatMul): invalid node: 'tc.matmul' op contraction size mismatch: lhs dimension 1 is 3 but rhs dimension 0 is 4

// RUN: not tc-translate --import-onnx %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: cannot open input file '{{.*}}does-not-exist': No such file or directory

// Nodes the spec rules out are reported, never a crash: an input of the
// wrong rank (named with its value), a zero stride, a range without end, a
// constant too large to build, num_outputs that is not the outputs' count.
// RUN: %pyonnx %models malformed_nodes %t.malformed
// RUN: not tc-translate --import-onnx %t.malformed 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: error: 7 unsupported pieces in the model:
// MALFORMED-NEXT: scalar_shape (Reshape): invalid node: input #1 (s0) must be 1-D, it is 0-D
// MALFORMED-NEXT: scalar_fill (ConstantOfShape): invalid node: input #0 (s0) must be 1-D, it is 0-D
// MALFORMED-NEXT: zero_stride (Conv): invalid node: kernel sizes, strides and dilations must be >= 1
// MALFORMED-NEXT: zero_delta (Range): invalid node: the range has no finite length
// MALFORMED-NEXT: huge_grid (AffineGrid): it would need a constant of more than the limit of 16777216 elements
// MALFORMED-NEXT: flat_key (Attention): invalid node: input #1 (x) must be 3-D, it is 2-D
// MALFORMED-NEXT: split_many (Split): invalid node: num_outputs is 1000000000000000000 but the node has 2 outputs

