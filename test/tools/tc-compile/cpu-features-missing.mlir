// A model compiled for a CPU with features this one lacks (Sapphire
// Rapids' AMX, where the host has none) is refused when loaded, naming
// them, instead of dying of SIGILL in a run.
// REQUIRES: cpu-lacks-amx
// RUN: %pyonnx %models dense_relu %t.onnx
// RUN: tc-compile %t.onnx -o %t.so --cpu=sapphirerapids --no-cache
// RUN: not tc-run %t.so --print-signature 2>&1 | FileCheck %s
// CHECK: tc-run: error: cannot run '{{.*}}.so': it was compiled for CPU 'sapphirerapids' and uses CPU features this CPU lacks: {{(.*, )?}}amx-tile, amx-bf16, amx-int8; recompile it
