#!/usr/bin/env bash
# Sets up what is missing, builds, and runs every test suite:
#   lit (check-tc), GoogleTest via ctest, the ONNX import sweep over the
#   backend test data (fails on a regression), and the generated-docs check.
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

tc_log "ONNX import sweep (backend test data; regressions fail)"
if ! "$TC_VENV/bin/python" "$TC_ROOT/utils/onnx_import_sweep.py" \
    --tc-translate "$TC_BUILD/bin/tc-translate" --check --jobs "$TC_JOBS" \
    2>&1 | tee "$TC_BUILD/import-sweep.log"; then
  status=1
fi

tc_log "generated reference docs are current"
if ! "$TC_ROOT/utils/update-docs.sh" --check; then
  status=1
fi

if [ $status -eq 0 ]; then tc_log "all tests passed"; else tc_log "TESTS FAILED"; fi
exit $status
