#!/usr/bin/env bash
# Sets up what is missing, builds, and runs every test suite:
#   lit (check-tc), GoogleTest via ctest, the Python package's pytest suite
#   and its wheel installed into a fresh virtualenv running
#   python/README.md's examples, the ONNX import sweep over the
#   backend test data (fails on a regression), the CPU conformance run over
#   the same data (compile, run, compare; fails on a regression), bound
#   and unbound (shape-parameter inputs given at run time), the
#   same run through the GPU code generation with the kernels emulated on
#   the CPU (numerics; fails on a regression), the offline validation of the
#   GPU kernels of every case that passes on the CPU (NVIDIA sm_80/sm_90 through ptxas, AMD gfx90a/gfx942 as code
#   objects; fails on a regression), a bounded fuzzing run of the
#   importer (TC_FUZZ_SECONDS, default 60) and of the runtime's input readers
#   (TC_FUZZ_RUNTIME_SECONDS, default 30), the sanitizer job
#   (utils/sanitize.sh; TC_SANITIZE=0 skips it), and the generated-docs check.
# Exits non-zero if anything fails. Usage: utils/test.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
tc_setup all tc-doc

status=0
tc_log "lit suite"
if ! lit -sv "$TC_BUILD/test" 2>&1 | tee "$TC_BUILD/lit.log" | grep -vE '^(PASS|UNSUPPORTED|XFAIL):'; then
  status=1
fi
grep -q "Failed Tests\|Unresolved Tests" "$TC_BUILD/lit.log" && status=1

tc_log "GoogleTest suites (ctest)"
if ! ctest --test-dir "$TC_BUILD" --output-on-failure -j "$TC_JOBS" 2>&1 | tee "$TC_BUILD/ctest.log" | tail -n 4; then
  status=1
fi

tc_log "the Python package: pytest (python/tests) on this build's package"
if ! PYTHONPATH="$TC_BUILD/python_packages" "$TC_VENV/bin/python" -m pytest -q \
    -p no:cacheprovider "$TC_ROOT/python/tests" 2>&1 | tee "$TC_BUILD/pytest.log" | tail -n 5; then
  status=1
fi

tc_log "the Python package as users install it: the wheel in a fresh virtualenv, python/README.md's examples"
if ! "$TC_ROOT/utils/python-wheel-check.sh" > "$TC_BUILD/wheel-check.log" 2>&1; then
  tail -n 40 "$TC_BUILD/wheel-check.log"
  status=1
fi
tail -n 1 "$TC_BUILD/wheel-check.log"

tc_log "ONNX import sweep (backend test data; regressions fail)"
if ! "$TC_VENV/bin/python" "$TC_ROOT/utils/onnx_import_sweep.py" \
    --tc-translate "$TC_BUILD/bin/tc-translate" --check --jobs "$TC_JOBS" \
    2>&1 | tee "$TC_BUILD/import-sweep.log"; then
  status=1
fi

tc_log "ONNX conformance on the CPU (backend test data; regressions fail)"
if ! "$TC_VENV/bin/python" "$TC_ROOT/utils/onnx_conformance.py" \
    --tc-compile "$TC_BUILD/bin/tc-compile" --tc-run "$TC_BUILD/bin/tc-run" \
    --check --jobs "$TC_JOBS" 2>&1 | tee "$TC_BUILD/conformance.log" | tail -n 12; then
  status=1
fi

tc_log "The same with shape parameters as run-time inputs, no --bind (the headline figure; regressions fail)"
if ! "$TC_VENV/bin/python" "$TC_ROOT/utils/onnx_conformance.py" --unbound \
    --tc-compile "$TC_BUILD/bin/tc-compile" --tc-run "$TC_BUILD/bin/tc-run" \
    --check --jobs "$TC_JOBS" 2>&1 | tee "$TC_BUILD/conformance-unbound.log" | tail -n 4; then
  status=1
fi

tc_log "ONNX conformance through the GPU code generation, kernels run on the CPU (regressions fail)"
if ! "$TC_VENV/bin/python" "$TC_ROOT/utils/onnx_conformance.py" --target=gpu-emulation \
    --tc-compile "$TC_BUILD/bin/tc-compile" --tc-run "$TC_BUILD/bin/tc-run" \
    --check --jobs "$TC_JOBS" 2>&1 | tee "$TC_BUILD/gpu-emulation.log" | tail -n 6; then
  status=1
fi

tc_log "The same, blocks and threads run last to first: a kernel that races fails here"
if ! "$TC_VENV/bin/python" "$TC_ROOT/utils/onnx_conformance.py" --target=gpu-emulation:reverse \
    --tc-compile "$TC_BUILD/bin/tc-compile" --tc-run "$TC_BUILD/bin/tc-run" \
    --check --jobs "$TC_JOBS" 2>&1 | tee "$TC_BUILD/gpu-emulation-reverse.log" | tail -n 6; then
  status=1
fi

tc_log "GPU kernels of the passing cases, checked offline (regressions fail)"
if [ ! -x "${TC_CUDA_PATH:-/usr/local/cuda}/bin/ptxas" ]; then
  tc_log "no CUDA toolkit at ${TC_CUDA_PATH:-/usr/local/cuda} (ptxas): NVIDIA kernels cannot be checked"
  status=1
elif ! "$TC_VENV/bin/python" "$TC_ROOT/utils/gpu_offline_validation.py" \
    --tc-compile "$TC_BUILD/bin/tc-compile" --check --jobs "$TC_JOBS" \
    2>&1 | tee "$TC_BUILD/gpu-offline.log" | tail -n 8; then
  status=1
fi

if [ -x "$TC_BUILD/bin/tc-onnx-import-fuzzer" ]; then
  seconds="${TC_FUZZ_SECONDS:-60}"
  tc_log "fuzzing the ONNX importer for ${seconds} s"
  corpus="$TC_BUILD/fuzz-corpus"
  "$TC_VENV/bin/python" "$TC_ROOT/test/Frontend/Onnx/Inputs/models.py" --all "$corpus"
  # Inputs that once crashed the importer (test/fuzz/regressions) run first.
  if ! (cd "$TC_BUILD" && "$TC_BUILD/bin/tc-onnx-import-fuzzer" \
        "$TC_ROOT"/test/fuzz/regressions/*-* > "$TC_BUILD/fuzz-regressions.log" 2>&1); then
    tail -n 40 "$TC_BUILD/fuzz-regressions.log"
    tc_log "a fuzzing regression input crashes the importer again"
    status=1
  fi
  if ! (cd "$TC_BUILD" && "$TC_BUILD/bin/tc-onnx-import-fuzzer" "$corpus" \
        -max_total_time="$seconds" -max_len=16384 -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 > "$TC_BUILD/fuzz.log" 2>&1); then
    tail -n 40 "$TC_BUILD/fuzz.log"
    tc_log "the fuzzer found a crash (reproducer in $TC_BUILD)"
    status=1
  else
    grep -E "^Done|stat::number_of_executed_units" "$TC_BUILD/fuzz.log" || true
  fi
fi

if [ -x "$TC_BUILD/bin/tc-runtime-input-fuzzer" ]; then
  seconds="${TC_FUZZ_RUNTIME_SECONDS:-30}"
  tc_log "fuzzing the runtime's input readers (.npy, .pb, metadata) for ${seconds} s"
  corpus="$TC_BUILD/fuzz-runtime-corpus"
  "$TC_VENV/bin/python" "$TC_ROOT/test/fuzz/make_runtime_corpus.py" "$corpus" > /dev/null
  if compgen -G "$TC_ROOT/test/fuzz/regressions/runtime-*" > /dev/null &&
     ! (cd "$TC_BUILD" && "$TC_BUILD/bin/tc-runtime-input-fuzzer" \
        -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        "$TC_ROOT"/test/fuzz/regressions/runtime-* > "$TC_BUILD/fuzz-runtime-regressions.log" 2>&1); then
    tail -n 40 "$TC_BUILD/fuzz-runtime-regressions.log"
    tc_log "a fuzzing regression input crashes the runtime's readers again"
    status=1
  fi
  if ! (cd "$TC_BUILD" && "$TC_BUILD/bin/tc-runtime-input-fuzzer" "$corpus" \
        -max_total_time="$seconds" -max_len=4096 -timeout=10 \
        -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
        > "$TC_BUILD/fuzz-runtime.log" 2>&1); then
    tail -n 40 "$TC_BUILD/fuzz-runtime.log"
    tc_log "the runtime input fuzzer found a crash (input saved in $TC_BUILD)"
    status=1
  fi
fi

if [ "${TC_SANITIZE:-1}" != 0 ]; then
  tc_log "the sanitizer job: ASan + UBSan build, GoogleTest and lit (TC_SANITIZE=0 skips it)"
  if ! "$TC_ROOT/utils/sanitize.sh" 2>&1 | tee "$TC_BUILD/sanitize.log" | tail -n 150; then
    status=1
  fi
fi

tc_log "generated reference docs are current"
if ! "$TC_ROOT/utils/update-docs.sh" --check; then
  status=1
fi

if [ $status -eq 0 ]; then tc_log "all tests passed"; else tc_log "TESTS FAILED"; fi
exit $status
