#!/usr/bin/env python3
"""tc against ONNX Runtime and IREE on the CPU, on eight real-size models.

The models are benchmarks/models.py's (torchvision ResNet-18/50,
MobileNetV2, EfficientNet-B0, ConvNeXt-Tiny, ViT-B/16, and plain PyTorch
BERT-base and GPT-2-small at sequence 128; random weights from a fixed seed,
torch.onnx.export, batch 1, fp32), built into --models with Debian's
/usr/bin/python3 (torch, torchvision) when missing.

For each model the script
  - compiles it with tc (tc.compile, --no-cache: the time is a cold compile);
  - imports it with iree-import-onnx and compiles it with iree-compile for
    the host (llvm-cpu, --iree-llvmcpu-target-cpu=host), IREE 3.13 from
    PyPI, which it installs into this Python's environment from
    benchmarks/requirements.txt when it is not importable;
  - then, in one fresh process per thread count, loads tc's model.so, an
    ONNX Runtime session (all graph optimizations, intra-op threads = N,
    inter-op threads = 1) and IREE's module (local-task driver with N
    workers), checks each one's outputs against test_data_set_0 (PyTorch's),
    and times them on those inputs in alternating blocks (benchmarks/
    common.py: a pause and an untimed run before each block, so that ONNX
    Runtime's spinning workers do not take the cores from the next block).
It prints the medians, tc / ORT and tc / IREE (the median over rounds of
the ratio of tc's block to the peer's block of the same round; below 1: tc
is faster), tc's compile time, and how close to the hardware the goal is:
*GFLOP* is the model's contraction work computed directly
(benchmarks/model_flops.py) and *0.8 ORT % peak* the share of the fp32 FMA
peak (benchmarks/fma_peak.py, one core, times the threads) that this work
needs to run in 0.8 x ONNX Runtime's time (above 100 %: only fewer
multiplies, such as Winograd's, or a narrower type can get there); a runtime that fails to compile, load or match the
reference gets the reason in its cell instead of a time. --write makes the
table docs/cpu-performance.md.

Compiled models are kept in --workdir (<model>/model.so, iree.vmfb) with
the compiler and model they came from, so a rerun recompiles only what
changed. Run it with the project virtualenv's Python:

  .venv/bin/python benchmarks/cpu_performance.py [--models DIR]
      [--names resnet18,bert_base] [--threads 1,2] [--runs N] [--no-iree]
      [--workdir DIR] [--write]
"""
import argparse
import importlib.metadata
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import onnx
import onnxruntime

from common import alternate_blocks, block_ratios, load_inputs, load_outputs, mismatch, ort_session
from fma_peak import measure_peak
from model_flops import contraction_flops

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(os.environ.get("TC_BUILD", os.path.join(ROOT, "build")), "python_packages"))
import tc  # noqa: E402

MODELS = ["resnet18", "resnet50", "mobilenet_v2", "efficientnet_b0",
          "convnext_tiny", "vit_b_16", "bert_base", "gpt2_small"]
TC_COMPILE = os.environ.get("TC_COMPILE") or os.path.join(ROOT, "build", "bin", "tc-compile")
BIN = os.path.dirname(sys.executable)  # iree-import-onnx, iree-compile
IREE_FLAGS = ["--iree-hal-target-device=local",
              "--iree-hal-local-target-device-backends=llvm-cpu",
              "--iree-llvmcpu-target-cpu=host"]
# Largest error allowed, relative to the reference output's largest magnitude.
TOLERANCE = 1e-4


def short(text, limit=70):
    """The line of a tool's error output that says what went wrong."""
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    line = next((line for line in lines if "error" in line.lower()), lines[-1] if lines else "?")
    line = line.replace("|", "/")
    return line if len(line) <= limit else line[:limit - 3] + "..."


def stamp(*paths):
    return [[os.path.abspath(p), os.path.getsize(p), os.path.getmtime(p)] for p in paths]


def cached(record_path, key, build):
    """build()'s record (a dict: what was built, or {"error": ...}), kept in
    record_path and reused while it was built from `key`."""
    if os.path.exists(record_path):
        with open(record_path) as f:
            record = json.load(f)
        if record.get("key") == key and all(os.path.exists(record[k])
                                            for k in ("so", "vmfb") if k in record):
            return record
    record = dict(build(), key=key)
    with open(record_path, "w") as f:
        json.dump(record, f)
    return record


def compile_tc(path, so):
    start = time.perf_counter()
    try:
        tc.compile_onnx(path, so, ["--no-cache"])
    except tc.TcError as e:
        return {"error": f"fail: {short(e)}"}
    return {"so": so, "compile_s": time.perf_counter() - start}


def compile_iree(path, workdir):
    mlir, vmfb = os.path.join(workdir, "iree.mlir"), os.path.join(workdir, "iree.vmfb")
    start = time.perf_counter()
    for step, argv in (("import", [os.path.join(BIN, "iree-import-onnx"), path, "-o", mlir]),
                       ("compile", [os.path.join(BIN, "iree-compile"), mlir, *IREE_FLAGS,
                                    "-o", vmfb])):
        p = subprocess.run(argv, capture_output=True, text=True)
        if p.returncode != 0:
            return {"error": f"fail: {step}: {short(p.stderr)}"}
    os.remove(mlir)
    return {"vmfb": vmfb, "compile_s": time.perf_counter() - start}


def importable(module):
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # its package is missing
        return False


def ensure_iree():
    """Installs benchmarks/requirements.txt unless IREE is importable;
    returns the compiler's version."""
    if not all(importable(m) for m in ("iree.compiler", "iree.runtime")):
        subprocess.run([sys.executable, "-m", "pip", "install", "-r",
                        os.path.join(HERE, "requirements.txt")], check=True)
    return importlib.metadata.version("iree-base-compiler")


def iree_runner(vmfb, threads, inputs):
    """A function that runs IREE's module on `inputs` on `threads` workers
    and returns its outputs as numpy arrays."""
    import iree.runtime as rt
    # Read when the local-task driver makes its workers, that is in Config.
    rt.flags.parse_flags(f"--task_topology_group_count={threads}")
    config = rt.Config("local-task")
    module = rt.VmModule.mmap(config.vm_instance, vmfb)
    context = rt.SystemContext(vm_modules=[module], config=config)
    entry = next(f for f in module.function_names
                 if not f.startswith("__") and not f.endswith("$async"))
    function = context.modules[module.name][entry]

    def run():
        results = function(*inputs)
        return [r.to_host() for r in (results if isinstance(results, tuple) else (results,))]
    return run


def measure(spec):
    """The child process: one model at one thread count. Prints a JSON
    object, runtime -> median ms or the reason it has none."""
    model_dir, threads = spec["dir"], spec["threads"]
    path = os.path.join(model_dir, "model.onnx")
    feeds = load_inputs(model_dir, onnx.load(path, load_external_data=False))
    references = load_outputs(model_dir)
    result, runners = {}, {}
    if spec.get("so"):
        model = tc.load(spec["so"], threads=threads)
        ordered = [feeds[info.name] for info in model.inputs]
        runners["tc"] = lambda: model(*ordered)
    session = ort_session(path, threads)
    runners["ort"] = lambda: session.run(None, feeds)
    if spec.get("vmfb"):
        try:
            runners["iree"] = iree_runner(spec["vmfb"], threads, list(feeds.values()))
        except Exception as e:  # noqa: BLE001 (any failure goes into the table)
            result["iree"] = f"fail: load: {short(e)}"
    for name, run in list(runners.items()):
        try:
            result[name] = mismatch(run(), references, TOLERANCE)
        except Exception as e:  # noqa: BLE001
            result[name] = f"fail: run: {short(e)}"
        if result[name]:
            del runners[name]
    blocks = alternate_blocks(runners, spec["runs"])
    result.update({name: statistics.median(b) for name, b in blocks.items()})
    # tc's time over each peer's, round by round (a drifting machine moves
    # the blocks of one round alike), the median over the rounds.
    for peer in ("ort", "iree"):
        if "tc" in blocks and peer in blocks:
            result["tc/" + peer] = block_ratios(blocks, peer)["tc"]
    print(json.dumps(result))


def run_child(spec):
    """measure() in a fresh process (IREE's worker count is process-wide);
    if it dies with IREE in it, again without."""
    p = subprocess.run([sys.executable, __file__, "--child", json.dumps(spec)],
                       capture_output=True, text=True)
    if p.returncode == 0:
        return json.loads(p.stdout.splitlines()[-1])
    if spec.get("vmfb"):
        result = run_child(dict(spec, vmfb=None))
        result["iree"] = f"fail: run crashed (exit {p.returncode})"
        return result
    sys.exit(f"measuring {spec['dir']} at {spec['threads']} threads failed:\n{p.stderr}")


def table(rows, iree, peak=None):
    def ms(v):
        return f"{v:.2f}" if isinstance(v, float) else v

    def ratio(r, peer):
        if isinstance(r.get("tc/" + peer), float):
            return f"{r['tc/' + peer]:.2f}"
        a, b = r["tc"], r.get(peer)
        return f"{a / b:.2f}" if isinstance(a, float) and isinstance(b, float) else "-"

    def needs(r, threads):
        # The share of the FMA peak the model's FLOPs need in 0.8 x ORT's time.
        if not peak or not r.get("gflop") or not isinstance(r.get("ort"), float):
            return "-"
        rate = r["gflop"] / (0.8 * r["ort"] / 1e3)
        return f"{100 * rate / (peak * threads):.0f} %"

    header = ["model", "threads", "tc ms", "ORT ms"] + (["IREE ms"] if iree else []) + \
             ["tc / ORT"] + (["tc / IREE"] if iree else []) + ["tc compile s"] + \
             (["GFLOP", "0.8 ORT % peak"] if peak else [])
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, threads, r, compile_s in rows:
        cells = [name, str(threads), ms(r["tc"]), ms(r["ort"])] + \
                ([ms(r["iree"])] if iree else []) + [ratio(r, "ort")] + \
                ([ratio(r, "iree")] if iree else []) + [compile_s] + \
                ([f"{r['gflop']:.2f}" if r.get("gflop") else "-", needs(r, threads)]
                 if peak else [])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def cpu_name():
    """/proc/cpuinfo's model name, family and model (a VM's name can be just
    the vendor's brand)."""
    fields = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    return (f"{fields.get('model name', 'unknown CPU')} (family {fields.get('cpu family', '?')}, "
            f"model {fields.get('model', '?')})")


def later_sections(path):
    """The page's own `## ` sections after the table (other measurements,
    such as benchmarks/dynamic_vs_static.py's), which a rewrite keeps."""
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        text = f.read()
    start = text.find("\n## ")
    return text[start:] if start >= 0 else ""


def write_doc(text, args, iree_version, peak):
    versions = f"ONNX Runtime {onnxruntime.__version__}" + \
               (f", IREE {iree_version}" if iree_version else "")
    path = os.path.join(ROOT, "docs", "cpu-performance.md")
    kept = later_sections(path)
    with open(path, "w") as f:
        f.write(f"""# CPU performance: tc against ONNX Runtime and IREE

This page is the present state, written by `benchmarks/cpu_performance.py
--write` (its docstring has the method); git has its history. The eight
models are benchmarks/models.py's: torchvision ResNet-18/50, MobileNetV2,
EfficientNet-B0, ConvNeXt-Tiny and ViT-B/16, and plain PyTorch BERT-base
and GPT-2-small at sequence 128 (random weights, fixed seed, opset 17,
batch 1, fp32). In one process per model and thread count, tc, ONNX
Runtime (all graph optimizations, intra-op threads = N, inter-op = 1) and
IREE (llvm-cpu for the host, local-task driver with N workers) run on the
same inputs in alternating blocks; each output is checked against
PyTorch's first. The times are medians of {args.runs} runs; tc / ORT and
tc / IREE are the medians, over the rounds of blocks, of tc's block over
the peer's block of the same round; below 1 means tc is faster (issue 20 asks for tc / ORT at most
0.8 everywhere). *tc compile s* is a cold `tc-compile` (no cache).
*GFLOP* is the model's contraction work computed directly
(`benchmarks/model_flops.py`: 2 x the multiply-adds of its Conv, MatMul
and Gemm nodes); *0.8 ORT % peak* is the share of the fp32 FMA peak
(`benchmarks/fma_peak.py`: {peak:.1f} GFLOP/s on one core of this machine,
times the threads) that this work needs to finish in 0.8 x ONNX Runtime's
time. Near or above 100 %, no fp32 kernel that does these multiplies can
meet that goal; only fewer multiplies (Winograd's, for 3x3 convolutions)
or a narrower type (bf16, issue 24) can.

Rerun (builds the models with Debian's python3-torch when missing and
installs IREE from benchmarks/requirements.txt into the virtualenv):

```sh
.venv/bin/python benchmarks/cpu_performance.py --models /work/bench/models --write
```

(`--models` is models.py's output directory, the one holding
`resnet18/model.onnx` and the others.)

Measured {time.strftime('%Y-%m-%d')} on {cpu_name()}, {os.cpu_count()} cores,
with {versions}: `benchmarks/cpu_performance.py {' '.join(sys.argv[1:])}`.

{text.rstrip()}
{kept}""")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=os.path.join(tempfile.gettempdir(), "tc-bench", "models"),
                    help="models.py's output directory (missing models are built)")
    ap.add_argument("--names", default=",".join(MODELS))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--no-iree", action="store_true")
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "tc-cpu-performance"))
    ap.add_argument("--write", action="store_true", help="write docs/cpu-performance.md")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return measure(json.loads(args.child))
    if not os.path.exists(TC_COMPILE):
        sys.exit(f"{TC_COMPILE} is missing: build tc first (utils/demo.sh, or TC_COMPILE=...)")
    names = args.names.split(",")
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.exit(f"unknown model(s): {', '.join(unknown)}; known: {', '.join(MODELS)}")
    missing = [n for n in names if not os.path.exists(os.path.join(args.models, n, "model.onnx"))]
    if missing:
        subprocess.run(["/usr/bin/python3", os.path.join(HERE, "models.py"), args.models,
                        *missing], check=True)
    iree_version = None if args.no_iree else ensure_iree()
    peak = measure_peak()
    print(f"fp32 FMA peak, one core: {peak:.1f} GFLOP/s", flush=True)

    rows = []
    for name in names:
        model_dir = os.path.join(args.models, name)
        path = os.path.join(model_dir, "model.onnx")
        workdir = os.path.join(args.workdir, name)
        os.makedirs(workdir, exist_ok=True)
        ours = cached(os.path.join(workdir, "tc.json"), stamp(path, TC_COMPILE),
                      lambda: compile_tc(path, os.path.join(workdir, "model.so")))
        spec = {"dir": model_dir, "runs": args.runs, "so": ours.get("so")}
        if iree_version:
            theirs = cached(os.path.join(workdir, "iree.json"),
                            [stamp(path), iree_version, IREE_FLAGS],
                            lambda: compile_iree(path, workdir))
            spec["vmfb"] = theirs.get("vmfb")
        compile_s = f"{ours['compile_s']:.1f}" if "compile_s" in ours else "-"
        gflop = contraction_flops(path)[0] / 1e9
        for threads in [int(t) for t in args.threads.split(",")]:
            result = run_child(dict(spec, threads=threads))
            result.setdefault("tc", ours.get("error"))
            result.setdefault("iree", iree_version and theirs.get("error"))
            result["gflop"] = gflop
            rows.append((name, threads, result, compile_s))
            print(table(rows[-1:], iree_version, peak).splitlines()[-1], flush=True)

    text = table(rows, iree_version, peak)
    print(text)
    if args.write:
        write_doc(text, args, iree_version, peak)


if __name__ == "__main__":
    main()
