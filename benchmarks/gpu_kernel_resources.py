#!/usr/bin/env python3
"""What the GPU kernels of real models use, checked without a GPU.

Compiles each model (built by benchmarks/models.py: random weights, fixed
seed) with `tc-compile --precision=P --target=... --emit=gpu-kernels`, then
reads the binaries:

- NVIDIA: `ptxas -v` on the PTX gives each kernel's registers and spill
  bytes; the PTX gives its mma.sync instructions;
- AMD: the code object's metadata gives each kernel's VGPRs and spill
  counts (llvm-readobj --notes); the disassembly its v_mfma (CDNA) or
  v_wmma (RDNA) instructions.

Prints one row per model, precision and target: kernels, kernels with
matrix instructions and their count, the most registers, and the kernels
that spill (named). A benchmark, not a test: the figures go to the note
and docs, dated.

Usage: gpu_kernel_resources.py [--workdir DIR] [--names resnet50,bert_base]
       [--precisions fp16,bf16] [--targets cuda:sm_80,cuda:sm_90,rocm:gfx942]
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ensure_models  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-22/bin"


def ptxas_path():
    for root in (os.environ.get("TC_CUDA_PATH"), os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if root and os.path.exists(os.path.join(root, "bin", "ptxas")):
            return os.path.join(root, "bin", "ptxas")
    sys.exit("no ptxas (set TC_CUDA_PATH)")


def nvidia(ptx_path, chip):
    """{kernel: (registers, spill bytes, mma.sync count)}."""
    text = open(ptx_path).read()
    mma = collections.Counter()
    current = None
    for line in text.splitlines():
        m = re.match(r"\s*\.visible \.entry (\w+)\(", line) or re.match(r"\s*\.entry (\w+)\(", line)
        if m:
            current = m.group(1)
        elif current and "mma.sync" in line:
            mma[current] += 1
    out = subprocess.run([ptxas_path(), "-v", f"-arch={chip}", ptx_path, "-o", os.devnull],
                         capture_output=True, text=True, check=True).stderr
    kernels = {}
    name = None
    for line in out.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            name = m.group(1)
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and name:
            spills = int(m.group(1)) + int(m.group(2))
            kernels.setdefault(name, [0, 0, mma[name]])[1] = spills
        m = re.search(r"Used (\d+) registers", line)
        if m and name:
            kernels.setdefault(name, [0, 0, mma[name]])[0] = int(m.group(1))
    return {k: tuple(v) for k, v in kernels.items()}


def amd(hsaco_path, chip):
    """{kernel: (VGPRs, spill count, v_mfma or v_wmma count)}."""
    notes = subprocess.run([os.path.join(LLVM_BIN, "llvm-readobj"), "--notes", hsaco_path],
                           capture_output=True, text=True, check=True).stdout
    kernels = {}
    # One entry per kernel under amdhsa.kernels, each a "  - ." line (its
    # first key: .agpr_count on CDNA, .args on RDNA).
    for block in re.split(r"\n  - \.", notes)[1:]:
        name = re.search(r"\.name:\s+(\w+)", block)
        vgprs = re.search(r"\.vgpr_count:\s+(\d+)", block)
        spills = sum(int(v) for v in re.findall(r"\.[sv]gpr_spill_count:\s+(\d+)", block))
        if name:
            kernels[name.group(1)] = [int(vgprs.group(1)) if vgprs else 0, spills, 0]
    text = subprocess.run([os.path.join(LLVM_BIN, "llvm-objdump"), "-d", f"--mcpu={chip}",
                           hsaco_path], capture_output=True, text=True, check=True).stdout
    current = None
    for line in text.splitlines():
        m = re.match(r"[0-9a-f]+ <(\w+)>:", line)
        if m:
            current = m.group(1)
        elif current in kernels and ("v_mfma" in line or "v_wmma" in line):
            kernels[current][2] += 1
    return {k: tuple(v) for k, v in kernels.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "tc-bench"))
    ap.add_argument("--names", default="resnet50,bert_base")
    ap.add_argument("--precisions", default="fp16,bf16")
    ap.add_argument("--targets", default="cuda:sm_80,cuda:sm_90,rocm:gfx942")
    ap.add_argument("--tc-compile", default=os.path.join(ROOT, "build", "bin", "tc-compile"))
    args = ap.parse_args()
    names = args.names.split(",")
    models = ensure_models(args.workdir, names)
    print("| model | precision | target | kernels | with matrix instructions | "
          "matrix instructions | most registers | kernels that spill |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        for precision in args.precisions.split(","):
            out = os.path.join(args.workdir, "kernels", f"{name}-{precision}")
            subprocess.run(["rm", "-rf", out], check=True)
            subprocess.run([args.tc_compile, os.path.join(models, name, "model.onnx"),
                            f"--precision={precision}", f"--target={args.targets}",
                            "--emit=gpu-kernels", "-o", out, "--no-cache"],
                           check=True, stdout=subprocess.DEVNULL)
            for target in args.targets.split(","):
                vendor, chip = target.split(":")
                stem = os.path.join(out, f"{vendor}-{chip}")
                kernels = (nvidia(stem + ".ptx", chip) if vendor == "cuda"
                           else amd(stem + ".hsaco", chip))
                matrix = [k for k, v in kernels.items() if v[2]]
                spilling = sorted(k for k, v in kernels.items() if v[1])
                print(f"| {name} | {precision} | {target} | {len(kernels)} | {len(matrix)} | "
                      f"{sum(v[2] for v in kernels.values())} | "
                      f"{max((v[0] for v in kernels.values()), default=0)} | "
                      f"{', '.join(spilling) if spilling else 'none'} |", flush=True)


if __name__ == "__main__":
    main()
