// A two-layer MLP head as an exporter leaves it: sizes the graph determines
// are still "?", a reshape chain, and an add of zero.
func.func @main(%x: tensor<8x4x16xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
                %w2: tensor<128x10xf32>) -> tensor<?x?xf32> {
  %flat0 = tc.reshape %x : (tensor<8x4x16xf32>) -> tensor<512xf32>
  %flat = tc.reshape %flat0 : (tensor<512xf32>) -> tensor<?x64xf32>
  %h0 = tc.matmul %flat, %w1 : (tensor<?x64xf32>, tensor<64x128xf32>) -> tensor<?x?xf32>
  %h1 = tc.add %h0, %b1 : (tensor<?x?xf32>, tensor<128xf32>) -> tensor<?x?xf32>
  %h2 = tc.gelu %h1 : tensor<?x?xf32>
  %zero = tc.constant dense<0.0> : tensor<f32>
  %h3 = tc.add %h2, %zero : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %logits = tc.matmul %h3, %w2 : (tensor<?x?xf32>, tensor<128x10xf32>) -> tensor<?x?xf32>
  %probs = tc.softmax %logits {axis = 1 : i64} : tensor<?x?xf32>
  return %probs : tensor<?x?xf32>
}
