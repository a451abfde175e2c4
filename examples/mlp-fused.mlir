// The same MLP after shape inference, partitioned by hand into the groups a
// fusion pass forms: each matmul anchors a group with its elementwise
// epilogue, and softmax anchors its own.
func.func @main(%x: tensor<8x4x16xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
                %w2: tensor<128x10xf32>) -> tensor<8x10xf32> {
  %flat = tc.reshape %x : (tensor<8x4x16xf32>) -> tensor<8x64xf32>
  %h = fusion.group "matmul_0" matmul (%a = %flat, %w = %w1, %b = %b1
      : tensor<8x64xf32>, tensor<64x128xf32>, tensor<128xf32>) -> tensor<8x128xf32>
      reason("matmul anchor with bias + gelu epilogue") {
    %0 = tc.matmul %a, %w : (tensor<8x64xf32>, tensor<64x128xf32>) -> tensor<8x128xf32>
    %1 = tc.add %0, %b : (tensor<8x128xf32>, tensor<128xf32>) -> tensor<8x128xf32>
    %2 = tc.gelu %1 : tensor<8x128xf32>
    fusion.yield %2 : tensor<8x128xf32>
  }
  %logits = fusion.group "matmul_1" matmul (%a = %h, %w = %w2
      : tensor<8x128xf32>, tensor<128x10xf32>) -> tensor<8x10xf32> reason("matmul anchor") {
    %0 = tc.matmul %a, %w : (tensor<8x128xf32>, tensor<128x10xf32>) -> tensor<8x10xf32>
    fusion.yield %0 : tensor<8x10xf32>
  }
  %probs = fusion.group "softmax_0" softmax (%a = %logits : tensor<8x10xf32>)
      -> tensor<8x10xf32> reason("softmax anchor") {
    %0 = tc.softmax %a {axis = 1 : i64} : tensor<8x10xf32>
    fusion.yield %0 : tensor<8x10xf32>
  }
  return %probs : tensor<8x10xf32>
}
