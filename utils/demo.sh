#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the main job: today the part of
# the pipeline that exists end to end. examples/mlp.mlir (a small
# dynamic-looking tc graph, as an exporter leaves it) goes through shape
# inference and canonicalization, is grouped into a fusion kernel, verified,
# and printed. ONNX import (tc-translate --import-onnx) and model.so
# generation (tc-compile) take over this job as they land.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
tc_setup tc-opt tc-translate

out="$TC_BUILD/demo"
mkdir -p "$out"
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
