#!/usr/bin/env bash
# The Python package as users install it: builds the wheel around this build
# (pyproject.toml with TC_PREBUILT: only the extension is compiled, the
# runtime and tools are packaged as built), installs it with its [torch]
# extra into a fresh virtualenv (the versions of utils/requirements.txt),
# and runs python/README.md's examples there, from a directory outside the
# repository and with no tc environment variables, checking that they print
# what the page shows. Usage: utils/python-wheel-check.sh (after a build).
#
# utils/python-wheel-check.sh --from-source does what a user's plain
# `pip install .` does instead: the wheel's CMake build compiles all of tc
# (about 10 minutes on 2 cores with a warm ccache, far longer without; not
# part of utils/test.sh), and python/tests' pytest suite then runs against
# the installed package too.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

from_source=0
if [ "${1:-}" = "--from-source" ]; then
  from_source=1
elif [ $# -gt 0 ]; then
  echo "usage: $0 [--from-source]" >&2
  exit 2
fi
venv="$TC_BUILD/wheel-venv"
work="$(mktemp -d)"
# The venv goes when the check ends: it holds GBs the later stages may need.
trap 'rm -rf "$work" "$venv"' EXIT
rm -rf "$venv"
df -h "$TC_BUILD" | tail -n 1 | awk '{print "free disk before the check: " $4}'
/usr/bin/python3 -m venv "$venv"
site_packages="$("$venv/bin/python" -c 'import site; print(site.getsitepackages()[0])')"
# torch with its CUDA libraries and triton is 5 GB, more than a CI disk may
# have free a second time. The fresh venv sees the project venv's copies of
# the distributions torch needs (and only those) through a .pth file, so
# pip finds them satisfied; everything else, tc's wheel and its other
# dependencies, it installs itself.
"$TC_VENV/bin/python" "$TC_ROOT/utils/share_distributions.py" torch \
  "$venv/shared-torch" > "$site_packages/shared-torch.pth"
build=(--config-settings=cmake.define.TC_PREBUILT="$TC_BUILD"
       --config-settings=build-dir="$TC_BUILD/wheel-build")
if [ "$from_source" = 1 ]; then
  rm -rf "$TC_BUILD/wheel-source-build"
  build=(--config-settings=build-dir="$TC_BUILD/wheel-source-build")
  # The tests' own needs (torchvision, ONNX Runtime as their reference).
  "$TC_VENV/bin/python" "$TC_ROOT/utils/share_distributions.py" torchvision \
    "$venv/shared-torchvision" > "$site_packages/shared-torchvision.pth"
fi
tc_log "pip install '.[torch]' into a fresh virtualenv ($venv)$([ "$from_source" = 1 ] && echo ", tc built from source")"
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  -c "$TC_ROOT/utils/requirements.txt" "$TC_ROOT[torch]" "${build[@]}"
cd "$work"
env -u PYTHONPATH -u TC_COMPILE -u TC_RUN -u TC_RUNTIME_LIB TC_CACHE_DIR="$work/cache" \
  "$venv/bin/python" -c 'import tc, importlib.metadata as m; print("tc", tc.__version__, "from", tc.__file__); assert m.version("tc") == tc.__version__'
# torch finds the backend through the wheel's entry point, tc not imported.
env -u PYTHONPATH -u TC_COMPILE -u TC_RUN -u TC_RUNTIME_LIB TC_CACHE_DIR="$work/cache" \
  "$venv/bin/python" -c 'import sys, torch
f = torch.compile(lambda x: x * 2 + 1, backend="tc", options={"fallback": False})
with torch.no_grad():
    assert f(torch.ones(3)).tolist() == [3.0, 3.0, 3.0]
print("torch.compile(backend=\"tc\") through the entry point:", "tc" in sys.modules)'
env -u PYTHONPATH -u TC_COMPILE -u TC_RUN -u TC_RUNTIME_LIB TC_CACHE_DIR="$work/cache" \
  "$venv/bin/python" "$TC_ROOT/utils/readme_examples.py" "$TC_ROOT/python/README.md" \
  --python "$venv/bin/python" --cwd "$work"
if [ "$from_source" = 1 ]; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    -c "$TC_ROOT/utils/requirements.txt" pytest onnxruntime
  env -u PYTHONPATH -u TC_COMPILE -u TC_RUN -u TC_RUNTIME_LIB TC_CACHE_DIR="$work/cache" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider "$TC_ROOT/python/tests"
fi
