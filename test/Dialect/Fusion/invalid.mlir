// RUN: tc-opt %s -split-input-file -verify-diagnostics

func.func @empty_name(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fusion.group' op needs a non-empty name}}
  fusion.group "" elementwise (%a = %x : tensor<4xf32>) reason("r") {
    fusion.yield
  }
  return
}

// -----

func.func @unknown_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{unknown fusion group kind 'fancy'}}
  fusion.group "g" fancy (%a = %x : tensor<4xf32>) reason("r") {
    fusion.yield
  }
  return
}

// -----

func.func @input_types(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected 2 input types, got 1}}
  fusion.group "g" elementwise (%a = %x, %b = %x : tensor<4xf32>) reason("r") {
    fusion.yield
  }
  return
}

// -----

func.func @argument_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fusion.group' op has 2 inputs but its body takes 1 arguments}}
  "fusion.group"(%x, %x) <{name = "g", kind = 0 : i32, reason = "r"}> ({
  ^bb0(%a: tensor<4xf32>):
    "fusion.yield"() : () -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----

func.func @argument_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fusion.group' op body argument #0 has type 'tensor<4xf16>' but input #0 has type 'tensor<4xf32>'}}
  "fusion.group"(%x) <{name = "g", kind = 0 : i32, reason = "r"}> ({
  ^bb0(%a: tensor<4xf16>):
    "fusion.yield"() : () -> ()
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @yield_count(%x: tensor<4xf32>) {
  %r:2 = fusion.group "g" elementwise (%a = %x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) reason("r") {
    // expected-error @+1 {{'fusion.yield' op yields 1 values but the group has 2 results}}
    fusion.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_type(%x: tensor<4xf32>) {
  %r = fusion.group "g" elementwise (%a = %x : tensor<4xf32>) -> tensor<4xf16> reason("r") {
    // expected-error @+1 {{'fusion.yield' op value #0 has type 'tensor<4xf32>' but group result #0 has type 'tensor<4xf16>'}}
    fusion.yield %a : tensor<4xf32>
  }
  return
}

// -----

// Everything a group reads must come in through its inputs.
func.func @isolated(%x: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = fusion.group "g" elementwise () -> tensor<4xf32> reason("r") {
    // expected-error @+1 {{'tc.exp' op using value defined outside the region}}
    %0 = tc.exp %x : tensor<4xf32>
    fusion.yield %0 : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_outside(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fusion.yield' op expects parent op 'fusion.group'}}
  fusion.yield %x : tensor<4xf32>
}

// -----

func.func @bad_kind_value(%x: tensor<4xf32>) {
  // expected-error @+1 {{invalid properties {kind = 42 : i32, name = "g", reason = "r"} for op fusion.group: Invalid attribute `kind` in property conversion: 42 : i32}}
  "fusion.group"(%x) <{name = "g", kind = 42 : i32, reason = "r"}> ({
  ^bb0(%a: tensor<4xf32>):
    "fusion.yield"() : () -> ()
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @unknown_strategy(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{unknown kernel strategy 'magic' (known: register-tile, tiled-contraction)}}
  %m = linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "magic", tile = [8, 32], workgroups = 4>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

func.func @bad_tile(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{a register-tile config takes tile = [rows, lanes], both positive}}
  %m = linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [8, 0], workgroups = 4>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

func.func @register_tile_stages(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{a register-tile config has no stages}}
  %m = linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "register-tile", tile = [8, 32], workgroups = 4, stages = 2>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

func.func @four_stages(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{a tiled-contraction config's stages are 2 or 3 (or absent: the build's default)}}
  %m = linalg.matmul {fusion.config = #fusion.kernel_config<strategy = "tiled-contraction", tile = [32, 32, 16], workgroups = 0, stages = 4>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

func.func @config_not_a_config(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'fusion.config' must be a #fusion.kernel_config}}
  %m = linalg.matmul {fusion.config = 8 : i64}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

func.func @unknown_attribute(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{unknown fusion attribute 'fusion.tile'}}
  %m = linalg.matmul {fusion.tile = 8 : i64}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

func.func @candidates_not_configs(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'fusion.candidates' must be a non-empty array of #fusion.kernel_config}}
  %m = linalg.matmul {fusion.candidates = [8 : i64]}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

func.func @candidates_empty(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'fusion.candidates' must be a non-empty array of #fusion.kernel_config}}
  %m = linalg.matmul {fusion.candidates = []}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}
