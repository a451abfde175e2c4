#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the main job: the part of the
# pipeline that exists end to end today. An example ONNX model is built with
# the onnx package, checked and imported by tc-compile, and taken through
# shape inference and canonicalization; the real models beside the
# repository (../shared/models) are checked when present; examples/mlp.mlir
# shows the graph passes and examples/mlp-fused.mlir the fusion dialect.
# model.so generation (tc-compile's default) takes over as it lands.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
tc_setup tc-opt tc-translate tc-compile

out="$TC_BUILD/demo"
mkdir -p "$out"
tc_log "an example ONNX model: a small CNN (conv, depthwise conv, pooling)"
"$TC_VENV/bin/python" "$TC_ROOT/test/Frontend/Onnx/Inputs/models.py" conv_pool "$out/cnn.onnx"
tc-compile "$out/cnn.onnx" --check
tc-compile "$out/cnn.onnx" --emit=tc -o "$out/cnn.tc.mlir"
grep -E "func.func|tc\.(conv|max_pool|avg_pool|reduce_mean)" "$out/cnn.tc.mlir" | cut -c1-160
shared="$TC_ROOT/../shared/models"
if [ -d "$shared" ]; then
  for model in "$shared"/*/model.onnx; do
    tc-compile "$model" --check --timing
  done
fi
tc_log "input: examples/mlp.mlir"
tc_log "tc-opt -tc-infer-shapes -canonicalize"
tc-opt "$TC_ROOT/examples/mlp.mlir" -tc-infer-shapes -canonicalize \
  -o "$out/mlp.opt.mlir"
cat "$out/mlp.opt.mlir"
tc_log "fused form (examples/mlp-fused.mlir) inlined back with -fusion-inline-groups"
tc-opt "$TC_ROOT/examples/mlp-fused.mlir" -canonicalize -fusion-inline-groups \
  -o "$out/mlp.inlined.mlir"
cat "$out/mlp.inlined.mlir"
tc_log "round trip through tc-translate"
tc-translate --tc-roundtrip "$out/mlp.opt.mlir" > /dev/null
tc_log "demo done; outputs in $out"
