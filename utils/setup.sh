#!/usr/bin/env bash
# Shared set-up for utils/demo.sh and utils/test.sh: installs what is missing
# (Debian packages, the project virtualenv), configures and builds. Sourced,
# not run. Idempotent: with nothing to install or rebuild it takes seconds.
set -euo pipefail

TC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TC_BUILD="${TC_BUILD:-$TC_ROOT/build}"
TC_VENV="${TC_VENV:-$TC_ROOT/.venv}"
TC_JOBS="${TC_JOBS:-$(nproc)}"
export TC_ROOT TC_BUILD TC_VENV

TC_APT_PACKAGES=(
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  libclang-rt-22-dev
  cmake ninja-build ccache libgtest-dev pkg-config
  libhiredis-dev redis-server
  libonnx-dev libprotobuf-dev protobuf-compiler
  rocm-device-libs
  libfreeimage3
  python3 python3-venv
  python3-torch python3-torchvision python3-onnx
)

tc_log() { printf '\033[1m[tc]\033[0m %s\n' "$*"; }

tc_install_packages() {
  local missing=()
  for pkg in "${TC_APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  tc_log "installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Debian's python3 (not whatever python3 is first on PATH) owns the venv, so
# the interpreter matches the system's libraries.
tc_setup_venv() {
  local stamp="$TC_VENV/.requirements.stamp"
  local req="$TC_ROOT/utils/requirements.txt"
  if [ ! -x "$TC_VENV/bin/python" ]; then
    tc_log "creating virtualenv $TC_VENV"
    /usr/bin/python3 -m venv "$TC_VENV"
  fi
  if [ ! -f "$stamp" ] || ! cmp -s "$req" "$stamp"; then
    tc_log "installing Python packages from $req"
    "$TC_VENV/bin/python" -m pip install -q --upgrade pip
    "$TC_VENV/bin/python" -m pip install -q -r "$req"
    cp "$req" "$stamp"
  fi
}

tc_configure() {
  if [ ! -f "$TC_BUILD/build.ninja" ]; then
    tc_log "configuring $TC_BUILD"
    cmake -G Ninja -S "$TC_ROOT" -B "$TC_BUILD" \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DLLVM_USE_LINKER=lld \
      -DPython3_EXECUTABLE="$TC_VENV/bin/python"
  fi
}

tc_build() {
  tc_log "building ($TC_JOBS jobs)"
  ninja -C "$TC_BUILD" -j "$TC_JOBS" "$@"
}

tc_setup() {
  tc_install_packages
  tc_setup_venv
  tc_configure
  tc_build "$@"
  export PATH="$TC_BUILD/bin:/usr/lib/llvm-22/bin:$PATH"
}
