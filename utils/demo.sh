#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the main job: compile ONNX models
# into model.so for the CPU and run them. An example CNN is built with the
# onnx package, compiled with tc-compile and run with tc-run against onnx's
# reference evaluator; the real models beside the repository
# (../shared/models, or TC_SHARED_MODELS) are compiled and checked against their reference
# outputs when present, the dynamic-batch one at two batch sizes from one
# .so. No GPU is needed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
tc_setup tc-opt tc-translate tc-compile tc-run

out="$TC_BUILD/demo"
mkdir -p "$out"
tc_log "an example ONNX model: a small CNN (conv, depthwise conv, pooling)"
"$TC_VENV/bin/python" "$TC_ROOT/test/Frontend/Onnx/Inputs/models.py" conv_pool "$out/cnn.onnx"
tc-compile "$out/cnn.onnx" --check
tc-compile "$out/cnn.onnx" -o "$out/cnn.so" --timing
tc-run "$out/cnn.so" --print-signature
# Random input; the expected output comes from onnx's reference evaluator.
"$TC_VENV/bin/python" - "$out" <<'PY'
import sys, numpy as np, onnx
from onnx.reference import ReferenceEvaluator
out = sys.argv[1]
model = onnx.load(f"{out}/cnn.onnx")
feeds = {}
for i, value in enumerate(model.graph.input):
    shape = [d.dim_value or 1 for d in value.type.tensor_type.shape.dim]
    feeds[value.name] = np.random.default_rng(i).standard_normal(shape).astype(np.float32)
    np.save(f"{out}/cnn.in{i}.npy", feeds[value.name])
for i, result in enumerate(ReferenceEvaluator(model).run(None, feeds)):
    np.save(f"{out}/cnn.out{i}.npy", result)
PY
tc-run "$out/cnn.so" --input="$out/cnn.in0.npy" --compare="$out/cnn.out0.npy" \
  --rtol=1e-3 --atol=1e-5 --benchmark=20

# Where the real models are: the same places test/lit.cfg.py looks.
shared=""
for candidate in "${TC_SHARED_MODELS:-}" "$TC_ROOT/../shared/models" /work/shared/models; do
  if [ -n "$candidate" ] && [ -d "$candidate" ]; then shared="$candidate"; break; fi
done
if [ -z "$shared" ]; then
  tc_log "no shared models found (set TC_SHARED_MODELS); only the example ran"
else
  for dir in "$shared"/*/; do
    name="$(basename "$dir")"
    tc_log "$name: compile and compare with its reference outputs"
    tc-compile "$dir/model.onnx" -o "$out/$name.so" --timing
    for data in "$dir"/test_data_set_*; do
      args=()
      for f in "$data"/input_*.pb; do args+=("--input=$f"); done
      for f in "$data"/output_*.pb; do args+=("--compare=$f"); done
      tc-run "$out/$name.so" "${args[@]}" --rtol=1e-3 --atol=1e-4
    done
  done
fi
tc_log "demo done; outputs in $out"
