#!/usr/bin/env python3
"""Builds the artifacts utils/gpu-check.sh runs on a machine with an NVIDIA
GPU and no LLVM (compile here, run there).

Into DIR (default: gpu-check/ in the repository, which git ignores and the
device tool can carry): tc-run and libTcRuntime; every shared model
(../shared/models) compiled with --target=cuda:ARCH, its ONNX file and
test data (axis 0 made symbolic, so that one .so serves batch 1 and
16); every conformance case that tc-offline-validates for cuda:ARCH
(docs/gpu-offline.tsv), compiled the same way with the tc-run arguments of
the CPU conformance run (inputs, expected outputs, tolerances) in
manifest.json; and the onnx2torch wheel, so that the check can compare
with torch.compile on the same ONNX graphs. The cases go into one
compressed archive to stay far under the device tool's 64 MiB.

The device tool carries at most 64 MiB: the script prints the total and
fails above --budget-mib (default 60); --sample N keeps every k-th case so
that N remain (the shared models alone are about 40 MiB, mobilenet_v2's
weights twice: in model.so and in model.onnx for the comparisons).

Usage: gpu_check_prepare.py [--out DIR] [--arch sm_90] [--jobs N]
       [--filter SUBSTRING] [--sample N] [--budget-mib 60]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile

import onnx

from gpu_check import load_pb
from gpu_offline_validation import shared_models_dir
from onnx_backend_cases import data_dir, graph_inputs, op_types, parameter_inputs
from onnx_conformance import has_random_op, tolerances

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_case(tc_compile, arch, name, case_dir, out_dir):
    """(name, manifest entry or None, error)."""
    model_path = os.path.join(case_dir, "model.onnx")
    model = onnx.load(model_path, load_external_data=False)
    data_sets = sorted(glob.glob(os.path.join(case_dir, "test_data_set_*")))
    if not data_sets:
        return name, None, "no test data"
    ds = data_sets[0]
    bound = parameter_inputs(model, ds)
    dest = os.path.join(out_dir, name.replace("/", "__"))
    os.makedirs(dest, exist_ok=True)
    argv = [tc_compile, model_path, f"--target=cuda:{arch}", "-o",
            os.path.join(dest, "model.so")] + [f"--bind={n}={p}" for n, p in bound]
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        shutil.rmtree(dest, ignore_errors=True)
        return name, None, (p.stderr.strip().splitlines() or ["?"])[-1]
    names = {n for n, _ in bound}
    ops = op_types(model)
    rtol, atol, _ = tolerances(name, ops)
    args = [f"--rtol={rtol:g}", f"--atol={atol:g}"]
    for index, input_name in enumerate(graph_inputs(model)):
        path = os.path.join(ds, f"input_{index}.pb")
        if input_name not in names and os.path.exists(path):
            shutil.copy(path, os.path.join(dest, f"input_{index}.pb"))
            args.append(f"--input={input_name}=" + f"input_{index}.pb")
    for index in range(len(model.graph.output)):
        path = os.path.join(ds, f"output_{index}.pb")
        if not os.path.exists(path):
            break
        shutil.copy(path, os.path.join(dest, f"output_{index}.pb"))
        args.append(f"--compare=output_{index}.pb")
    entry = {"name": name, "dir": os.path.basename(dest), "args": args}
    # Random draws cannot match the reference's: the check compares shapes,
    # dtypes and the set of values instead, as the CPU conformance run does.
    if has_random_op(model, ops):
        entry["random"] = "bernoulli" if "Bernoulli" in ops else "finite"
    return name, entry, ""


def runs_at_batch(model, src, batch):
    """Whether ONNX Runtime (CPU) runs `model` on src's test inputs with
    their batch axis tiled to `batch`: exporters often bake the batch into
    Reshape shapes, and such a graph runs at its exported batch only."""
    import numpy as np
    import onnxruntime as ort
    try:
        session = ort.InferenceSession(model.SerializeToString(),
                                       providers=["CPUExecutionProvider"])
        feeds = {}
        names = [i.name for i in session.get_inputs()]
        for index, name in enumerate(names):
            path = os.path.join(src, "test_data_set_0", f"input_{index}.pb")
            feeds[name] = np.repeat(load_pb(path)[1][:1], batch, axis=0)
        session.run(None, feeds)
        return True
    except Exception:
        return False


def with_symbolic_batch(src, dest):
    """Writes src's model.onnx and meta.json into dest with axis 0 of every
    graph input and output symbolic ("batch"), so that one model.so (and
    the same ONNX graph for the peers) runs at batch 1 and 16; the test
    data keeps its own batch. A model whose graph runs at its exported
    batch only (checked with ONNX Runtime) is copied as it is."""
    model = onnx.load(os.path.join(src, "model.onnx"))
    original = onnx.load(os.path.join(src, "model.onnx"))
    meta = json.load(open(os.path.join(src, "meta.json")))
    dynamic = meta.get("dynamic_axes") or {}
    weights = {init.name for init in model.graph.initializer}
    for value in list(model.graph.input) + list(model.graph.output):
        if value.name in weights:
            continue
        dims = value.type.tensor_type.shape.dim
        if len(dims) and not dims[0].dim_param:
            dims[0].dim_param = "batch"
            dynamic.setdefault(value.name, {})["0"] = "batch"
    # Shapes inferred for the static batch would contradict the new one.
    del model.graph.value_info[:]
    if not all(runs_at_batch(model, src, batch) for batch in (1, 16)):
        print(f"{os.path.basename(src)}: runs at its exported batch only "
              "(a batch baked into the graph); kept static")
        model, dynamic = original, meta.get("dynamic_axes") or {}
    onnx.save(model, os.path.join(dest, "model.onnx"))
    meta["dynamic_axes"] = dynamic
    with open(os.path.join(dest, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "gpu-check"))
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--filter")
    ap.add_argument("--sample", type=int, default=0,
                    help="keep about this many cases, evenly spread")
    ap.add_argument("--budget-mib", type=float, default=60)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    tc_compile = os.path.join(args.build, "bin", "tc-compile")
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    for sub in ("bin", "lib", "models", "wheels"):
        os.makedirs(os.path.join(out, sub))
    shutil.copy(os.path.join(args.build, "bin", "tc-run"), os.path.join(out, "bin"))
    for lib in glob.glob(os.path.join(args.build, "lib", "libTcRuntime.so*")):
        dest = os.path.join(out, "lib", os.path.basename(lib))
        if os.path.islink(lib):
            os.symlink(os.readlink(lib), dest)
        else:
            shutil.copy(lib, dest)

    # The shared models: compiled, with their ONNX file and test data.
    shared = shared_models_dir()
    models = []
    for entry in sorted(os.listdir(shared)) if shared else []:
        src = os.path.join(shared, entry)
        if not os.path.exists(os.path.join(src, "model.onnx")):
            continue
        dest = os.path.join(out, "models", entry)
        os.makedirs(dest)
        with_symbolic_batch(src, dest)
        for ds in glob.glob(os.path.join(src, "test_data_set_*")):
            shutil.copytree(ds, os.path.join(dest, os.path.basename(ds)))
        p = subprocess.run([tc_compile, os.path.join(dest, "model.onnx"),
                            f"--target=cuda:{args.arch}", "-o",
                            os.path.join(dest, "model.so")],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"{entry}: tc-compile failed:\n{p.stderr}")
        models.append(entry)
    print(f"shared models: {', '.join(models) or 'none found'}")

    # Conformance cases that validate offline for this architecture.
    wanted = []
    with open(os.path.join(ROOT, "docs", "gpu-offline.tsv")) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if (len(fields) >= 3 and fields[1] == f"cuda:{args.arch}" and
                    fields[2] == "ok" and not fields[0].startswith("models/") and
                    (not args.filter or args.filter in fields[0])):
                wanted.append(fields[0])
    if args.sample and len(wanted) > args.sample:
        step = len(wanted) / args.sample
        wanted = [wanted[int(i * step)] for i in range(args.sample)]
    cases_dir = os.path.join(out, "cases")
    os.makedirs(cases_dir)
    manifest, failed = [], []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(compile_case, tc_compile, args.arch, name,
                               os.path.join(data_dir(), name), cases_dir)
                   for name in wanted]
        for future in concurrent.futures.as_completed(futures):
            name, entry, error = future.result()
            if entry:
                manifest.append(entry)
            else:
                failed.append(f"{name}: {error}")
    manifest.sort(key=lambda e: e["name"])
    with open(os.path.join(cases_dir, "manifest.json"), "w") as f:
        json.dump({"arch": args.arch, "cases": manifest}, f, indent=0)
    with tarfile.open(os.path.join(out, "cases.tar.xz"), "w:xz") as tar:
        tar.add(cases_dir, arcname="cases")
    shutil.rmtree(cases_dir)
    print(f"conformance cases: {len(manifest)} compiled, {len(failed)} failed")
    for line in failed[:20]:
        print(f"  {line}")

    # onnx2torch, for torch.compile on the same graphs (pure Python).
    p = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q",
                        "-d", os.path.join(out, "wheels"), "onnx2torch"],
                       capture_output=True, text=True)
    print("onnx2torch wheel: " + ("ok" if p.returncode == 0 else
                                  "not downloaded: " + p.stderr.strip()[-200:]))
    # The runtime through ctypes, for the check's in-process case workers
    # (the tc package's extension is built for this machine's Python).
    shutil.copy(os.path.join(ROOT, "utils", "gpu_check_runtime.py"), out)
    shutil.copy(os.path.join(ROOT, "utils", "gpu_check.py"), out)
    shutil.copy(os.path.join(ROOT, "utils", "gpu-check.sh"), out)
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, files in os.walk(out) for f in files
               if not os.path.islink(os.path.join(d, f)))
    print(f"{out}: {size / 2**20:.1f} MiB (budget {args.budget_mib:g} MiB)")
    if size / 2**20 > args.budget_mib:
        print("over the budget: run again with --sample N")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
