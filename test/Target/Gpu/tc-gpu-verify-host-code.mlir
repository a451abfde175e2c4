// RUN: tc-opt %s --tc-gpu-verify-host-code --split-input-file -verify-diagnostics

// A shape read from tensor data on the host is reported at its location
// (which names the ONNX node in a compiled model).
func.func @main(%shape: memref<2xi64>) -> index {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'memref.load' reads or writes tensor elements on the host; GPU targets keep tensors in device memory and do not support this yet}}
  %0 = memref.load %shape[%c0] : memref<2xi64>
  %2 = arith.index_cast %0 : i64 to index
  return %2 : index
}

// -----

// Shapes from descriptors, allocations and launches are host code; element
// accesses inside the kernels are not checked.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<?xf32>
      memref.store %v, %x[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<?xf32>) -> memref<?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %y = memref.alloc(%n) : memref<?xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<?xf32>)
    return %y : memref<?xf32>
  }
}

// -----

// Handing a buffer's address to a host helper (the image decoder) would
// make the host read device memory.
func.func private @tc_image_decode_v1(i64, i64, i64) -> i64
func.func @main(%bytes: memref<?xi8>, %n: i64) -> i64 {
  // expected-error @+1 {{'memref.extract_aligned_pointer_as_index' reads or writes tensor elements on the host}}
  %p = memref.extract_aligned_pointer_as_index %bytes : memref<?xi8> -> index
  %a = arith.index_cast %p : index to i64
  %h = func.call @tc_image_decode_v1(%a, %n, %n) : (i64, i64, i64) -> i64
  return %h : i64
}

// -----

// Host cells (what --tc-gpu-transfer-host-values downloads into) are host
// memory; comparing buffer addresses (the deallocation's alias checks)
// reads no element.
func.func @main(%a: memref<?xi8>, %b: memref<?xi8>) -> i1 {
  %cell = memref.alloca() : memref<i64>
  %c = arith.constant 3 : i64
  memref.store %c, %cell[] : memref<i64>
  %v = memref.load %cell[] : memref<i64>
  %pa = memref.extract_aligned_pointer_as_index %a : memref<?xi8> -> index
  %pb = memref.extract_aligned_pointer_as_index %b : memref<?xi8> -> index
  %same = arith.cmpi eq, %pa, %pb : index
  return %same : i1
}

// -----

// A declaration has nothing to map.
// RUN: tc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tc-gpu-map-kernels))' 2>&1 | FileCheck %s --check-prefix=MAP
// MAP: func.func private @tc_image_decode_v1(i64, i64, i64) -> i64
