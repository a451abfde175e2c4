// RUN: tc-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// A compiled model's signature (#tc.signature, TcAttrDefs.td) round-trips;
// optional fields are left out when absent and the mode when "default".
// CHECK: tc.signature = #tc.signature<name = "m",
// CHECK-SAME: inputs = [#tc.slot<"x" : tensor<?x3xui8>, symbols = ["batch", ""]>, #tc.slot<"k" : tensor<i64>>],
// CHECK-SAME: outputs = [#tc.slot<"y" : tensor<?x3xf16>, symbols = ["batch", ""]>],
// CHECK-SAME: targets = ["cpu", "cuda:sm_90"], compiler = "tc 0.1.0", cpu = "znver4",
// CHECK-SAME: features = ["avx2", "avx512f"], mode = "reduce-overhead", buckets = [{batch = 1 : i64}, {batch = 8 : i64}]>
module attributes {tc.signature = #tc.signature<name = "m",
    inputs = [#tc.slot<"x" : tensor<?x3xui8>, symbols = ["batch", ""]>,
              #tc.slot<"k" : tensor<i64>>],
    outputs = [#tc.slot<"y" : tensor<?x3xf16>, symbols = ["batch", ""]>],
    targets = ["cpu", "cuda:sm_90"], compiler = "tc 0.1.0", cpu = "znver4",
    features = ["avx2", "avx512f"], mode = "reduce-overhead",
    buckets = [ {batch = 1 : i64}, {batch = 8 : i64} ]>} {
}

// -----

// CHECK: #tc.signature<name = "plain", inputs = [], outputs = [#tc.slot<"y" : tensor<2xf32>>], targets = ["cpu"]>
module attributes {tc.signature = #tc.signature<name = "plain", inputs = [],
    outputs = [#tc.slot<"y" : tensor<2xf32>>], targets = ["cpu"], mode = "default">} {
}

// -----

// A bad slot fails to parse, and so does the signature around it.
module attributes {tc.signature = #tc.signature<name = "m",
    // expected-error @+2 {{'x' has element type 'complex<f32>', which compiled models cannot take or return}}
    // expected-error @+1 {{failed to parse Tc_SignatureAttr parameter 'inputs'}}
    inputs = [#tc.slot<"x" : tensor<2xcomplex<f32>>>], outputs = [], targets = ["cpu"]>} {
}

// -----

module attributes {tc.signature = #tc.signature<name = "m",
    // expected-error @+2 {{'x' has 1 dimension symbols for rank 2}}
    // expected-error @+1 {{failed to parse Tc_SignatureAttr parameter 'inputs'}}
    inputs = [#tc.slot<"x" : tensor<?x2xf32>, symbols = ["n"]>], outputs = [], targets = ["cpu"]>} {
}

// -----

module attributes {tc.signature = #tc.signature<name = "m",
    // expected-error @+2 {{'x': static dimension 1 cannot have a symbol}}
    // expected-error @+1 {{failed to parse Tc_SignatureAttr parameter 'inputs'}}
    inputs = [#tc.slot<"x" : tensor<?x2xf32>, symbols = ["n", "m"]>], outputs = [], targets = ["cpu"]>} {
}

// -----

// expected-error @+1 {{inputs and outputs are #tc.slot attributes}}
module attributes {tc.signature = #tc.signature<name = "m", inputs = ["x"], outputs = [], targets = ["cpu"]>} {
}

// -----

// expected-error @+1 {{targets: expected one string or more ("cpu", then GPU targets)}}
module attributes {tc.signature = #tc.signature<name = "m", inputs = [], outputs = [], targets = []>} {
}

// -----

// expected-error @+1 {{unknown mode 'fast' (default, reduce-overhead or max-autotune)}}
module attributes {tc.signature = #tc.signature<name = "m", inputs = [], outputs = [], targets = ["cpu"], mode = "fast">} {
}

// -----

// expected-error @+1 {{features without a cpu}}
module attributes {tc.signature = #tc.signature<name = "m", inputs = [], outputs = [], targets = ["cpu"], features = ["avx2"]>} {
}

// -----

// expected-error @+1 {{buckets: expected dictionaries of symbol = extent (a non-negative integer)}}
module attributes {tc.signature = #tc.signature<name = "m", inputs = [], outputs = [], targets = ["cpu"], buckets = [ {n = -1 : i64} ]>} {
}

// -----

// The module attribute holds a signature, not the text it becomes.
// expected-error @+1 {{'tc.signature' must be a #tc.signature}}
module attributes {tc.signature = "tc-module 1\nname m\n"} {
}
