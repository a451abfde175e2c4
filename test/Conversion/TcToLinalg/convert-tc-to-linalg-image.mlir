// RUN: tc-opt %s --convert-tc-to-linalg | FileCheck %s

// tc.image_decode calls the model's image helpers (linked in by tc-compile):
// decode into a handle, check its status (one run-time check per failure,
// naming the node), allocate the result at the decoded extents, copy the
// pixels into it. Pointers travel as i64.
// CHECK-DAG: func.func private @tc_image_decode_v1(i64, i64, i64) -> i64
// CHECK-DAG: func.func private @tc_image_status_v1(i64) -> i64
// CHECK-DAG: func.func private @tc_image_extent_v1(i64, i64) -> i64
// CHECK-DAG: func.func private @tc_image_finish_v1(i64, i64)
// CHECK-LABEL: func.func @decode(
// CHECK-SAME: %[[BYTES:.*]]: tensor<?xi8>
// CHECK: %[[BUFFER:.*]] = bufferization.to_buffer %[[BYTES]] read_only : tensor<?xi8> to memref<?xi8>
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[BUFFER]]
// CHECK: %[[ADDRESS:.*]] = arith.index_cast %[[PTR]] : index to i64
// CHECK: %[[SIZE:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[BGR:.*]] = arith.constant 1 : i64
// CHECK: %[[HANDLE:.*]] = call @tc_image_decode_v1(%[[ADDRESS]], %[[SIZE]], %[[BGR]])
// CHECK: %[[STATUS:.*]] = call @tc_image_status_v1(%[[HANDLE]])
// CHECK: cf.assert %{{.*}}, "node 'img' (ImageDecoder): decoding an image needs FreeImage
// CHECK: cf.assert %{{.*}}, "node 'img' (ImageDecoder): the data is not an image
// CHECK: cf.assert %{{.*}}, "node 'img' (ImageDecoder): out of memory
// CHECK: %[[H:.*]] = call @tc_image_extent_v1(%[[HANDLE]], %{{.*}})
// CHECK: %[[HI:.*]] = arith.index_cast %[[H]] : i64 to index
// CHECK: %[[W:.*]] = call @tc_image_extent_v1(%[[HANDLE]], %{{.*}})
// CHECK: %[[WI:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK: %[[PIXELS:.*]] = memref.alloc(%[[HI]], %[[WI]]) : memref<?x?x3xi8>
// CHECK: %[[OUT:.*]] = memref.extract_aligned_pointer_as_index %[[PIXELS]]
// CHECK: %[[OUT64:.*]] = arith.index_cast %[[OUT]] : index to i64
// CHECK: call @tc_image_finish_v1(%[[HANDLE]], %[[OUT64]])
// CHECK: %[[RESULT:.*]] = bufferization.to_tensor %[[PIXELS]] restrict writable
// CHECK: return %[[RESULT]]
func.func @decode(%bytes: tensor<?xui8>) -> tensor<?x?x3xui8> {
  %0 = tc.image_decode %bytes {pixel_format = "BGR"} : (tensor<?xui8>) -> tensor<?x?x3xui8> loc(#img)
  return %0 : tensor<?x?x3xui8>
}
#img = loc("img"("ImageDecoder"))
