#!/usr/bin/env bash
# The sanitizer job: the whole project (runtime, tc-run, the importer, code
# generation and the tools) built with AddressSanitizer and
# UndefinedBehaviorSanitizer in its own build directory, then
#   - every GoogleTest suite (ctest), leaks checked;
#   - the lit suites of the tools, the dialects, the conversions, the
#     importer and the CPU target, which include the shared models and the
#     dynamic-axis exports end to end (test/Target/Gpu and test/python are
#     left out: the first for time, the second because Python itself is not
#     instrumented).
# MLIR and LLVM (Debian's libMLIR.so) are not instrumented; our code that
# runs inside them is. Exits non-zero on any report. utils/test.sh runs it
# (TC_SANITIZE=0 skips it); usage: utils/sanitize.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
tc_install_packages
tc_setup_venv

TC_SAN_BUILD="${TC_SAN_BUILD:-$TC_ROOT/build-sanitize}"
if [ ! -f "$TC_SAN_BUILD/build.ninja" ]; then
  tc_log "configuring $TC_SAN_BUILD (ASan + UBSan)"
  mkdir -p "$TC_SAN_BUILD"
  cmake -G Ninja -S "$TC_ROOT" -B "$TC_SAN_BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_USE_SANITIZER="Address;Undefined" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DPython3_EXECUTABLE="$TC_VENV/bin/python" > "$TC_SAN_BUILD/configure.log" 2>&1 ||
    { tail -n 30 "$TC_SAN_BUILD/configure.log"; exit 1; }
fi
tc_log "building the sanitized tools and tests ($TC_JOBS jobs)"
# TcUnitTests: every GoogleTest suite and what they load (test/unittests).
ninja -C "$TC_SAN_BUILD" -j "$TC_JOBS" tc-opt tc-translate tc-compile tc-run tc-tune \
  TcUnitTests 2>&1 | tail -n 3

# halt_on_error: a report fails the test it happens in, with its stack.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PATH="$TC_SAN_BUILD/bin:/usr/lib/llvm-22/bin:$PATH"
status=0
tc_log "sanitized GoogleTest suites (ctest)"
if ! ctest --test-dir "$TC_SAN_BUILD" --output-on-failure -j "$TC_JOBS" \
    > "$TC_SAN_BUILD/ctest.log" 2>&1; then
  grep -E "Failed|ERROR: AddressSanitizer|runtime error" "$TC_SAN_BUILD/ctest.log" | head -n 40
  status=1
fi
tail -n 3 "$TC_SAN_BUILD/ctest.log"
tc_log "sanitized lit suites: tools, Dialect, Conversion, Frontend, Pipelines, Target/Cpu"
if ! lit -s -v "$TC_SAN_BUILD/test/tools" "$TC_SAN_BUILD/test/Dialect" \
    "$TC_SAN_BUILD/test/Conversion" "$TC_SAN_BUILD/test/Frontend" "$TC_SAN_BUILD/test/Pipelines" \
    "$TC_SAN_BUILD/test/Target/Cpu" > "$TC_SAN_BUILD/lit.log" 2>&1; then
  grep -E "^(FAIL|UNRESOLVED):|ERROR: AddressSanitizer|runtime error|LeakSanitizer" \
    "$TC_SAN_BUILD/lit.log" | head -n 40
  # What a failing test printed (lit -v), so that CI's log says why.
  sed -n '/^\**\* TEST .* FAILED/,/^\*\{20\}$/p' \
    "$TC_SAN_BUILD/lit.log" | tail -n 120
  status=1
fi
grep -E "^(Total Discovered Tests|  Passed|  Failed|  Unsupported)" "$TC_SAN_BUILD/lit.log" || true
if [ $status -eq 0 ]; then tc_log "sanitizer job: clean"; else tc_log "sanitizer job: FAILED"; fi
exit $status
