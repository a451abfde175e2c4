#!/usr/bin/env bash
# Copies the dialect and pass reference generated from ODS (`ninja tc-doc`)
# into docs/reference/. With --check, fails if the committed copy is stale.
set -euo pipefail
TC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TC_BUILD="${TC_BUILD:-$TC_ROOT/build}"
ninja -C "$TC_BUILD" tc-doc > /dev/null
gen="$TC_BUILD/docs"
dst="$TC_ROOT/docs/reference"
pages=(Dialects/TcDialect.md Dialects/FusionDialect.md Dialects/TcGpuDialect.md Dialects/TcCpuDialect.md Passes/TcPasses.md Passes/FusionPasses.md
       Passes/TcConversionPasses.md Passes/TcCpuPasses.md Passes/TcGpuPasses.md)
if [ "${1:-}" = "--check" ]; then
  for page in "${pages[@]}"; do
    if ! cmp -s "$gen/$page" "$dst/$(basename "$page")"; then
      echo "docs/reference/$(basename "$page") is stale: run utils/update-docs.sh" >&2
      exit 1
    fi
  done
  echo "docs/reference is up to date"
  exit 0
fi
mkdir -p "$dst"
for page in "${pages[@]}"; do cp "$gen/$page" "$dst/"; done
echo "updated $dst"
