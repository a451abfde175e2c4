#!/usr/bin/env python3
"""GPU kernel tuning on a lent GPU: a real model's tunable kernels timed on
the device (tc-tune), checked against tc's CPU results, and the tuned
library timed against the heuristic one.

Two steps, as with utils/gpu-check.sh (compile here, run there):

  here:   .venv/bin/python utils/gpu_tuning_check.py prepare [--out gpu-tune]
              [--model ../shared/models/mobilenet_v2/model.onnx] [--arch sm_90]
          compiles the model in fp16 for cuda:ARCH with --gpu-candidates=3
          (its contraction kernels in three alternative configurations
          each), and copies tc-run, tc-tune, libTcRuntime, an input and the
          CPU's output of the same library (the reference) into OUT, which
          git ignores and the device tool can carry. The device tool carries
          64 MiB, and a library holds its weights twice (fp32 for the CPU
          code, fp16 for the GPU's): MobileNetV2 fits (about 21 MB),
          ResNet-18 (about 70 MB) and larger models do not.
  there:  python3 gpu-tune/gpu_tuning_check.py run gpu-tune [--device cuda:0]
          needs only python3 and numpy. It checks the heuristic kernels and
          every alternative against the reference (tc-run --gpu-choice),
          tunes with tc-tune into a fresh cache directory (its report and
          each kernel key's choice), and times tc-run with the heuristic
          kernels (--gpu-tuning=off) against the tuned ones (the table), in
          alternating rounds, with and without graphs. Writes its lines and
          a table to $OUT (or DIR/results). A few minutes.
"""
import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def prepare(args):
    build = os.path.abspath(args.build)
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    for sub in ("bin", "lib"):
        os.makedirs(os.path.join(out, sub))
    for tool in ("tc-run", "tc-tune"):
        shutil.copy(os.path.join(build, "bin", tool), os.path.join(out, "bin"))
    for lib in glob.glob(os.path.join(build, "lib", "libTcRuntime.so*")):
        dest = os.path.join(out, "lib", os.path.basename(lib))
        if os.path.islink(lib):
            os.symlink(os.readlink(lib), dest)
        else:
            shutil.copy(lib, dest)
    so = os.path.join(out, "model.so")
    subprocess.run([os.path.join(build, "bin", "tc-compile"), args.model,
                    "--precision=fp16", f"--target=cuda:{args.arch}",
                    "--gpu-candidates=3", "-o", so, "--no-cache"], check=True)
    # An input of the model's static signature, and the CPU's output of
    # the same library: what every GPU run must match.
    signature = subprocess.run([os.path.join(out, "bin", "tc-run"), so,
                                "--print-signature"], capture_output=True,
                               text=True, check=True).stdout
    import numpy as np
    rng = np.random.default_rng(0)
    inputs = []
    for name, dtype, dims in re.findall(r"input '([^']*)': (\w+)\[([0-9, ]*)\]",
                                        signature):
        shape = [int(d) for d in dims.split(",")] if dims.strip() else []
        path = os.path.join(out, f"input_{len(inputs)}.npy")
        if dtype.startswith("f"):
            np.save(path, rng.uniform(-1, 1, shape).astype(np.float32))
        else:
            np.save(path, np.ones(shape, dtype=np.int64))
        inputs.append(f"--input={name}=" + os.path.basename(path))
    if not inputs:
        sys.exit("the model's inputs must have static shapes")
    outputs = re.findall(r"output '([^']*)':", signature)
    os.makedirs(os.path.join(out, "reference"))
    files = [f"reference/output_{i}.npy" for i in range(len(outputs))]
    subprocess.run([os.path.join(out, "bin", "tc-run"), so, "--device=cpu"]
                   + inputs + [f"--output={n}={f}" for n, f in zip(outputs, files)],
                   cwd=out, check=True)
    with open(os.path.join(out, "inputs.txt"), "w") as f:
        f.write("\n".join(inputs) + "\n")
    with open(os.path.join(out, "compares.txt"), "w") as f:
        f.write("\n".join(f"--compare={n}={p}" for n, p in zip(outputs, files)) + "\n")
    shutil.copy(os.path.abspath(__file__), out)
    size = sum(os.path.getsize(p) for p in glob.glob(os.path.join(out, "**"),
                                                     recursive=True)
               if os.path.isfile(p) and not os.path.islink(p))
    print(f"{out}: {size / 2**20:.1f} MiB")
    if size > args.budget_mib * 2**20:
        print(f"more than the device tool carries (--budget-mib {args.budget_mib:g}): "
              "a library holds its weights for the CPU and, in fp16, for the GPU; "
              "take a smaller model")
        return 1
    return 0


def run(args):
    work = os.path.abspath(args.dir)
    out_dir = os.environ.get("OUT") or os.path.join(work, "results")
    os.makedirs(out_dir, exist_ok=True)
    log = open(os.path.join(out_dir, "gpu-tuning.txt"), "w", buffering=1)

    def say(line):
        print(line, flush=True)
        log.write(line + "\n")

    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(work, "lib") + ":" + env.get(
        "LD_LIBRARY_PATH", "")
    env["TC_CACHE_DIR"] = os.path.join(work, "cache")
    shutil.rmtree(env["TC_CACHE_DIR"], ignore_errors=True)
    inputs = open(os.path.join(work, "inputs.txt")).read().split()
    compares = open(os.path.join(work, "compares.txt")).read().split()
    tc_run = [os.path.join(work, "bin", "tc-run"), "model.so",
              f"--device={args.device}"] + inputs

    def tc(extra, timeout=300):
        p = subprocess.run(tc_run + extra, capture_output=True, text=True,
                           env=env, cwd=work, timeout=timeout)
        return p.returncode, p.stdout + p.stderr

    # fp16 against the CPU's fp16: the tolerance of the precision tests.
    tolerance = ["--rtol=2e-2", "--atol=2e-2"]
    failures = 0
    for label, extra in [("heuristic", ["--gpu-tuning=off"])] + [
            (f"alternative {c}", ["--gpu-tuning=off", f"--gpu-choice={c}"])
            for c in range(3)]:
        rc, text = tc(extra + compares + tolerance)
        ok = rc == 0 and text.count(": OK") == len(compares)
        failures += not ok
        detail = [l for l in text.splitlines() if "output '" in l or "error" in l]
        say(f"check {label}: {'OK' if ok else 'FAILED'}: " + "; ".join(detail)[:300])

    p = subprocess.run([os.path.join(work, "bin", "tc-tune"), "model.so",
                        f"--device={args.device}", f"--budget={args.budget}"]
                       + inputs, capture_output=True, text=True, env=env,
                       cwd=work, timeout=600)
    for line in (p.stdout + p.stderr).splitlines():
        say("tc-tune: " + line)
    if p.returncode != 0:
        return 1
    rc, text = tc(compares + tolerance)
    ok = rc == 0 and text.count(": OK") == len(compares)
    failures += not ok
    say(f"check tuned: {'OK' if ok else 'FAILED'}: " +
        "; ".join(l for l in text.splitlines() if "gpu kernels" in l or "output '" in l)[:300])

    def median_ms(extra):
        rc, text = tc(extra + [f"--benchmark={args.runs}", "--warmup=10"])
        m = re.search(r"median ([0-9.]+) ms", text)
        return float(m.group(1)) if rc == 0 and m else None

    say("| graphs | heuristic ms | tuned ms | tuned / heuristic |")
    say("|---|---|---|---|")
    for graphs in ("--no-gpu-graphs", "--gpu-graphs"):
        heuristic, tuned = [], []
        for _ in range(args.rounds):
            heuristic.append(median_ms(["--gpu-tuning=off", graphs]))
            tuned.append(median_ms(["--gpu-tuning=table", graphs]))
        if None in heuristic or None in tuned:
            say(f"| {graphs} | failed | failed | - |")
            failures += 1
            continue
        h, t = statistics.median(heuristic), statistics.median(tuned)
        say(f"| {graphs} | {h:.3f} | {t:.3f} | {t / h:.2f} |")
    say(f"failures: {failures}")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="step", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--out", default=os.path.join(ROOT, "gpu-tune"))
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--model", default=os.path.join(
        os.path.dirname(ROOT), "shared", "models", "mobilenet_v2", "model.onnx"))
    p.add_argument("--budget-mib", type=float, default=60)
    p.add_argument("--arch", default="sm_90")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--device", default="cuda:0")
    r.add_argument("--runs", type=int, default=50)
    r.add_argument("--rounds", type=int, default=3)
    r.add_argument("--budget", type=float, default=120)
    args = ap.parse_args()
    return prepare(args) if args.step == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
