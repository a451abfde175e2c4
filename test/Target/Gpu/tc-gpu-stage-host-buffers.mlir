// RUN: tc-opt %s --tc-gpu-stage-host-buffers --split-input-file --verify-diagnostics | FileCheck %s

// The image decoder's calls (TcToLinalg's Image.cpp): decode reads the
// encoded bytes through operand 0, finish writes the pixels through operand
// 1. Each gets a host buffer of the device buffer's byte size (at least 1),
// checked (naming the node), filled before the reading call, copied back
// after the writing one, freed right after each call.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[DATA:.*]]: memref<?xi8>)
// CHECK:       %[[INTPTR:.*]] = memref.extract_aligned_pointer_as_index %[[DATA]]
// CHECK:       %[[DEVICE:.*]] = arith.index_cast %[[INTPTR]] : index to i64
// CHECK:       %[[N:.*]] = memref.dim %[[DATA]]
// CHECK:       %[[COUNT:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK:       %[[BYTES:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK:       %[[SIZE:.*]] = arith.maxui %[[BYTES]], %{{.*}} : i64
// CHECK:       %[[HOST:.*]] = tc_gpu.stage_alloc %[[SIZE]]
// CHECK:       %[[OK:.*]] = arith.cmpi ne, %[[HOST]], %{{.*}} : i64
// CHECK:       cf.assert %[[OK]], "node 'decode' (ImageDecoder): out of host memory for a copy of a device tensor that host code reads or writes"
// CHECK:       tc_gpu.stage_copy %[[HOST]], %[[DEVICE]], %[[BYTES]] {download}
// CHECK:       %[[HANDLE:.*]] = call @tc_image_decode_v1(%[[HOST]], %{{.*}}, %{{.*}}) : (i64, i64, i64) -> i64
// CHECK-NEXT:  tc_gpu.stage_free %[[HOST]]
// CHECK:       %[[PIXELS:.*]] = memref.alloc
// CHECK:       %[[PIXPTR:.*]] = memref.extract_aligned_pointer_as_index %[[PIXELS]]
// CHECK:       %[[PIXDEV:.*]] = arith.index_cast %[[PIXPTR]] : index to i64
// CHECK-COUNT-3: memref.dim %[[PIXELS]]
// CHECK:       %[[PIXBYTES:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK:       %[[OUT:.*]] = tc_gpu.stage_alloc
// CHECK:       cf.assert
// CHECK-NOT:   tc_gpu.stage_copy
// CHECK:       call @tc_image_finish_v1(%[[HANDLE]], %[[OUT]]) : (i64, i64) -> ()
// CHECK-NEXT:  tc_gpu.stage_copy %[[PIXDEV]], %[[OUT]], %[[PIXBYTES]]{{$}}
// CHECK-NEXT:  tc_gpu.stage_free %[[OUT]]
// CHECK-NOT:   tc.reads_buffer
// CHECK-NOT:   tc.writes_buffer
#decode = loc("decode"("ImageDecoder"))
func.func private @tc_image_decode_v1(i64, i64, i64) -> i64
func.func private @tc_image_finish_v1(i64, i64)
func.func @main(%data: memref<?xi8>) -> memref<?x?x3xi8> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %data, %c0 : memref<?xi8>
  %size = arith.index_cast %n : index to i64
  %p = memref.extract_aligned_pointer_as_index %data : memref<?xi8> -> index
  %pi = arith.index_cast %p : index to i64
  %f = arith.constant 0 : i64
  %h = func.call @tc_image_decode_v1(%pi, %size, %f) {tc.reads_buffer = 0 : i64} : (i64, i64, i64) -> i64 loc(#decode)
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %pixels = memref.alloc(%c4, %c5) : memref<?x?x3xi8>
  %q = memref.extract_aligned_pointer_as_index %pixels : memref<?x?x3xi8> -> index
  %qi = arith.index_cast %q : index to i64
  func.call @tc_image_finish_v1(%h, %qi) {tc.writes_buffer = 1 : i64} : (i64, i64) -> () loc(#decode)
  return %pixels : memref<?x?x3xi8>
}

// -----

// An address that is no buffer's is an error, not a guess.
func.func private @tc_image_decode_v1(i64, i64, i64) -> i64
func.func @opaque(%address: i64, %size: i64) -> i64 {
  %f = arith.constant 0 : i64
  // expected-error @+1 {{cannot tell which buffer a host helper reads or writes}}
  %h = func.call @tc_image_decode_v1(%address, %size, %f) {tc.reads_buffer = 0 : i64} : (i64, i64, i64) -> i64
  return %h : i64
}
