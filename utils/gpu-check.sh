#!/usr/bin/env bash
# The GPU check, on a machine with an NVIDIA GPU (CUDA driver, python3 with
# numpy, onnx, onnxruntime, torch; no LLVM, no tc build): runs the artifacts
# that utils/gpu_check_prepare.py compiled on our machines (tc-run, the
# shared models, the conformance cases that validate offline) on the GPU,
# compares them with the reference outputs and with tc's own CPU results,
# and prints a latency table beside ONNX Runtime's CUDA provider and
# torch.compile (default, reduce-overhead and max-autotune) on the same ONNX
# graphs, tc with and without --gpu-graphs.
# Finishes within 10 minutes (--budget). Full results go to $OUT (or
# DIR/results).
#   here:   .venv/bin/python utils/gpu_check_prepare.py        (-> gpu-check/)
#   there:  utils/gpu-check.sh gpu-check [--device=cuda:0]
# With --device=cpu it runs the same flow on the CPU (a dry run here).
set -uo pipefail
dir="${1:-gpu-check}"
shift || true
exec "${PYTHON:-python3}" "$(dirname "${BASH_SOURCE[0]}")/gpu_check.py" --dir "$dir" "$@"
