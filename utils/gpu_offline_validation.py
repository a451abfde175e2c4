#!/usr/bin/env python3
"""Offline validation of the GPU kernels, without a GPU.

Every conformance case that passes on the CPU (docs/conformance.tsv) and every
shared model (../shared/models, when present) is compiled with
`tc-compile --emit=gpu-kernels` for the GPU targets (default: cuda:sm_80,
cuda:sm_90, rocm:gfx90a, rocm:gfx942). tc-compile checks each binary offline:
for NVIDIA, ptxas assembled the PTX and the cubin defines every kernel; for
AMD, the HSACO is an AMDGPU HSA code object v5 for the chip with its
amdhsa.kernels metadata and a kernel descriptor per kernel. Per case and
target:

  ok           kernels compiled and checked, host code lowered
  host-code    the model hands tensor data to host code in a way GPU targets
               do not support (ImageDecoder's buffers are copied through host
               memory, --tc-gpu-stage-host-buffers); tc-compile
               names the ONNX node (single values the host needs, such as a
               shape given as data or a loop condition, are downloaded)
  error        another compile error (recorded)
  crash        tc-compile was killed by a signal or timed out: always a bug

Results go to docs/gpu-offline.tsv and the counts per target to the GPU
section of docs/conformance.md, only with --update. With --check, the run
fails when a case and target listed as ok no longer are, or on a crash.

Usage: gpu_offline_validation.py [--tc-compile BUILD/bin/tc-compile]
       [--targets LIST] [--check] [--update] [--jobs N] [--filter SUBSTRING]
"""
import argparse
import collections
import concurrent.futures
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import onnx

from onnx_backend_cases import data_dir, parameter_inputs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFORMANCE_TSV = os.path.join(ROOT, "docs", "conformance.tsv")
TSV = os.path.join(ROOT, "docs", "gpu-offline.tsv")
DOC = os.path.join(ROOT, "docs", "conformance.md")
BEGIN, END = "<!-- gpu-offline: begin -->", "<!-- gpu-offline: end -->"
TARGETS = "cuda:sm_80,cuda:sm_90,rocm:gfx90a,rocm:gfx942"
STATUSES = ["ok", "host-code", "error", "crash"]
TIMEOUT_S = 300


def shared_models_dir():
    for candidate in (os.environ.get("TC_SHARED_MODELS"),
                      os.path.join(ROOT, "..", "shared", "models"), "/work/shared/models"):
        if candidate and os.path.isdir(candidate):
            return os.path.abspath(candidate)
    return None


def list_models(filter_text):
    """(name, model path, bind arguments) of every model to compile."""
    models = []
    with open(CONFORMANCE_TSV) as f:
        for line in f:
            if line.startswith("#"):
                continue
            name, status = line.rstrip("\n").split("\t")[:2]
            if status != "pass":
                continue
            case_dir = os.path.join(data_dir(), name)
            path = os.path.join(case_dir, "model.onnx")
            first = os.path.join(case_dir, "test_data_set_0")
            binds = []
            if os.path.isdir(first):
                model = onnx.load(path, load_external_data=False)
                binds = [f"--bind={n}={p}" for n, p in parameter_inputs(model, first)]
            models.append((name, path, binds))
    shared = shared_models_dir()
    if shared:
        for entry in sorted(os.listdir(shared)):
            path = os.path.join(shared, entry, "model.onnx")
            if os.path.exists(path):
                models.append((f"models/{entry}", path, []))
    return [m for m in models if not filter_text or filter_text in m[0]]


def one_line(text, limit=300):
    text = " ".join(text.split())
    # Numbers and temporary paths vary from run to run; the tracked detail
    # should not.
    text = re.sub(r"/tmp/\S+", "<tmp>", text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def validate(tc_compile, targets, model, work_root):
    """{target: (status, detail)} for one model."""
    name, path, binds = model
    out = tempfile.mkdtemp(prefix="gpu-", dir=work_root)
    argv = [tc_compile, path, f"--target={','.join(targets)}", "--emit=gpu-kernels",
            "-o", out] + binds
    try:
        p = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {t: ("crash", f"tc-compile timed out after {TIMEOUT_S} s") for t in targets}
    if p.returncode < 0 or p.returncode not in (0, 1):
        why = (f"killed by {signal.Signals(-p.returncode).name}" if p.returncode < 0
               else f"exit status {p.returncode}")
        return {t: ("crash", one_line(f"tc-compile {why}: {p.stderr[-200:]}"))
                for t in targets}
    results = {}
    # The host code is shared by the targets: its failure is every target's.
    host_ok = re.search(r"^host code: ok$", p.stdout, re.M)
    for t in targets:
        if re.search(rf"^{re.escape(t)}: ok, ", p.stdout, re.M):
            if host_ok:
                results[t] = ("ok", "")
            else:
                errors = [l for l in p.stderr.splitlines() if "error:" in l]
                results[t] = ("error", one_line("host code: " + (errors[0] if errors
                                                                 else "no message")))
            continue
        mine = re.search(rf"^tc-compile: error: {re.escape(t)}: (.*)$", p.stderr, re.M)
        errors = [l for l in p.stderr.splitlines() if "error:" in l]
        detail = mine.group(1) if mine else (errors[0] if errors else "no message")
        status = "host-code" if "on the host" in detail else "error"
        results[t] = (status, one_line(detail))
    return results


def load_tsv():
    table = {}
    if os.path.exists(TSV):
        with open(TSV) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                name, target, status, detail = (line.rstrip("\n").split("\t") + [""])[:4]
                table[(name, target)] = (status, detail)
    return table


def write_outputs(table, targets):
    with open(TSV, "w") as f:
        f.write("# case\ttarget\tstatus\tdetail (utils/gpu_offline_validation.py --update)\n")
        for (name, target) in sorted(table):
            status, detail = table[(name, target)]
            f.write(f"{name}\t{target}\t{status}\t{detail}\n")
    counts = collections.defaultdict(collections.Counter)
    for (name, target), (status, _) in table.items():
        counts[target][status] += 1
    lines = [BEGIN, "## GPU kernels, checked offline", "",
             "`utils/gpu_offline_validation.py` compiles every case above that passes "
             "on the CPU, and the shared models, with `tc-compile --emit=gpu-kernels` "
             "for each GPU target, and checks the binaries without a GPU: ptxas "
             "assembles the PTX and the cubin defines every kernel (NVIDIA); the HSACO "
             "is an AMDGPU HSA code object v5 for the chip, with amdhsa.kernels "
             "metadata and a kernel descriptor per kernel (AMD). Single values the "
             "host code needs (a shape given as data, a loop condition, a count) are "
             "downloaded from the device; buffers host C code reads or writes "
             "(ImageDecoder) are copied through host memory around the call. "
             "**host-code**: the model hands tensor data to host code in a way the "
             "GPU targets do not support. Per case: "
             "[gpu-offline.tsv](gpu-offline.tsv). These checks need no GPU; the "
             "runs on an NVIDIA H200 (on 2026-11-30 all 1681 cases that can run there "
             "passed; 9 ImageDecoder cases need FreeImage, absent there) are in "
             "[gpu-results.md](gpu-results.md) and "
             "[gpu-h200.tsv](gpu-h200.tsv).", "",
             "| target | compiled | ok | host-code | error | crash |",
             "|---|---|---|---|---|---|"]
    for target in targets:
        c = counts[target]
        lines.append(f"| {target} | {sum(c.values())} | {c['ok']} | {c['host-code']} | "
                     f"{c['error']} | {c['crash']} |")
    emulation = os.path.join(ROOT, "docs", "gpu-emulation.tsv")
    if os.path.exists(emulation):
        c = collections.Counter()
        for line in open(emulation):
            if not line.startswith("#") and line.strip():
                c[line.split("\t")[1]] += 1
        scope = sum(c.values()) - c["excluded"]
        lines += ["", "Numerics of the GPU code generation, without a GPU: "
                  "`utils/onnx_conformance.py --target=gpu-emulation` compiles every "
                  "case through the same kernels and host code with the kernels run on "
                  "the CPU, and compares with the expected outputs "
                  "([gpu-emulation.tsv](gpu-emulation.tsv)): "
                  f"**{c['pass']} pass** of {scope} in scope, {c['mismatch']} mismatch, "
                  f"{c['compile-error']} compile-error, "
                  f"{c['compile-unsupported']} compile-unsupported, {c['run-error']} run-error, "
                  f"{c['crash']} crash. CI runs them again with every kernel's blocks "
                  "and threads in reverse order (`--target=gpu-emulation:reverse`), "
                  "against the same table: a kernel whose results depend on the order "
                  "of its threads or blocks (a race) fails in one of the two runs."]
    lines += ["", END]
    section = "\n".join(lines) + "\n"
    text = open(DOC).read() if os.path.exists(DOC) else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END) + 1:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(DOC, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tc-compile", default=os.path.join(ROOT, "build", "bin", "tc-compile"))
    ap.add_argument("--targets", default=TARGETS)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--filter", metavar="SUBSTRING")
    args = ap.parse_args()
    if not os.access(args.tc_compile, os.X_OK):
        ap.error(f"{args.tc_compile} is not an executable: build it or pass its path")
    tc_compile = os.path.abspath(args.tc_compile)
    targets = args.targets.split(",")
    models = list_models(args.filter)
    print(f"gpu offline validation: {len(models)} models x {len(targets)} targets, "
          f"{args.jobs} jobs", flush=True)
    start = time.time()
    results = {}
    step = max(1, len(models) // 10)
    with tempfile.TemporaryDirectory(prefix="tc-gpu-offline-") as work_root, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(validate, tc_compile, targets, m, work_root): m[0]
                   for m in models}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            name = futures[future]
            for target, result in future.result().items():
                results[(name, target)] = result
                if result[0] == "crash":
                    print(f"CRASH {name} {target}: {result[1]}", flush=True)
            if done % step == 0 or done == len(models):
                print(f"  {done}/{len(models)} models, {time.time() - start:.0f} s",
                      flush=True)
    counts = collections.defaultdict(collections.Counter)
    for (name, target), (status, _) in results.items():
        counts[target][status] += 1
    for target in targets:
        print(f"{target}: " + ", ".join(f"{s} {counts[target][s]}" for s in STATUSES
                                        if counts[target][s]))
    status = 1 if any(c["crash"] for c in counts.values()) else 0
    tracked = load_tsv()
    if args.check:
        regressions = sorted(k for k, (s, _) in tracked.items()
                             if s == "ok" and k in results and results[k][0] != "ok")
        for name, target in regressions:
            print(f"REGRESSION {name} {target}: was ok, now {results[(name, target)][0]}: "
                  f"{results[(name, target)][1]}")
        if regressions:
            status = 1
        improved = [k for k, (s, _) in results.items()
                    if s == "ok" and tracked.get(k, ("",))[0] != "ok"]
        if improved:
            print(f"{len(improved)} case/target pairs are ok that the tracked table does "
                  f"not list as ok: run utils/gpu_offline_validation.py --update")
    if args.update:
        table = dict(tracked) if args.filter else {}
        table.update(results)
        write_outputs(table, targets)
        print(f"wrote {os.path.relpath(TSV, ROOT)} and {os.path.relpath(DOC, ROOT)}")
    print(f"gpu offline validation took {time.time() - start:.0f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
