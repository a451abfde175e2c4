#!/usr/bin/env python3
"""tc-compile's cold start and compile cache on the real-size models.

For each model of benchmarks/models.py (built into WORKDIR/models on first
use with Debian's torch), measures in this one script:
  cold     a compile with an empty cache (the model's own compile, plus the
           cache store);
  cached   the same compile again: a hit in the local cache;
  remote   (with --redis, or TC_REMOTE_CACHE already set) a compile with an
           empty local cache and the entry in the remote cache;
with the peak resident memory of the cold compile (tc-compile and its
children: the linker) against the model's size, and the same for a
one-node model: the compiler's own floor (its libraries' relocated data,
its dialects, LLVM's code generation), which any compile pays. Prints a Markdown table;
--write adds it to docs/compile-time.md as the present state.

--timeline instead prints each model's private memory over one compile
beside its --timing stage table, to see which stage holds the peak.

Usage: benchmarks/compile_time.py [--models NAME,...] [--workdir DIR]
       [--target cpu|cpu,cuda:sm_90,rocm:gfx942] [--redis] [--write]
       [--timeline]
"""
import argparse
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from common import ensure_models

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["resnet18", "resnet50", "mobilenet_v2", "efficientnet_b0",
          "convnext_tiny", "vit_b_16", "bert_base", "gpt2_small"]


def timed(argv, env):
    """(seconds, stderr) of one run, which must succeed."""
    start = time.perf_counter()
    p = subprocess.run(argv, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed:\n{p.stderr}")
    return seconds, p.stderr


def peak_memory(argv, env, timeline=False):
    """(peak RSS, peak private memory) in bytes of one run of argv and its
    children, measured in a fresh child so earlier runs do not count. RSS is
    the largest process's (getrusage), which includes the ~120 MB of
    tc-compile's own code that the shared libraries map from their files;
    private memory is the anonymous memory (RssAnon) of the process tree
    summed, sampled every 10 ms: what the compile itself allocates. With
    `timeline`, also the samples, as (seconds, bytes, processes), and the
    run's stderr (its --timing table)."""
    probe = ("import resource, subprocess, sys, time, os\n"
             "def anon(pid):\n"
             "    try:\n"
             "        for line in open(f'/proc/{pid}/status'):\n"
             "            if line.startswith('RssAnon'):\n"
             "                return int(line.split()[1]) * 1024\n"
             "    except OSError:\n"
             "        pass\n"
             "    return 0\n"
             "def tree(pid):\n"
             "    pids = [pid]\n"
             "    try:\n"
             "        for task in os.listdir(f'/proc/{pid}/task'):\n"
             "            for child in open(f'/proc/{pid}/task/{task}/children').read().split():\n"
             "                pids += tree(int(child))\n"
             "    except OSError:\n"
             "        pass\n"
             "    return pids\n"
             "start = time.perf_counter()\n"
             "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
             "peak = 0\n"
             "while p.poll() is None:\n"
             "    pids = tree(p.pid)\n"
             "    total = sum(anon(q) for q in pids)\n"
             "    peak = max(peak, total)\n"
             "    print('sample', time.perf_counter() - start, total, len(pids))\n"
             "    time.sleep(0.01)\n"
             "err = p.stderr.read()\n"
             "if p.returncode:\n"
             "    sys.exit(err.decode())\n"
             "sys.stderr.write(err.decode())\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, peak)\n")
    run = subprocess.run([sys.executable, "-c", probe, *argv], env=env,
                         capture_output=True, text=True, check=True)
    lines = run.stdout.splitlines()
    rss, private = lines[-1].split()
    if not timeline:
        return int(rss), int(private)
    samples = [(float(t), int(b), int(n)) for _, t, b, n in
               (line.split() for line in lines if line.startswith("sample "))]
    return int(rss), int(private), samples, run.stderr


def print_timeline(name, argv, env):
    """One --no-cache compile of `argv` with --timing: its private memory
    over time (every 100 ms, and the peak) beside the stage table, to see
    which stage holds the peak."""
    _, private, samples, log = peak_memory(argv + ["--timing"], env, timeline=True)
    at = max(samples, key=lambda s: s[1])
    print(f"{name}: peak private {private / 1e6:.1f} MB at {at[0]:.2f} s "
          f"({at[2]} processes)")
    shown = -1.0
    for t, total, processes in samples:
        if t - shown >= 0.1 or (t, total, processes) == at:
            shown = t
            print(f"  {t:6.2f} s {total / 1e6:6.1f} MB {processes} "
                  + "#" * int(total / 1e6))
    print(log)


def write_one_node_model(path):
    """A model with one Relu on a [1, 8] float input."""
    import onnx
    from onnx import TensorProto, helper
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "one_node",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)


def start_redis():
    """A redis-server on a free loopback port; returns (process, url)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no",
                                "--proto-max-bulk-len", "2gb"],
                               stdout=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    sys.exit("redis-server did not start")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "tc-bench"))
    ap.add_argument("--target", default="cpu")
    ap.add_argument("--tc-compile", default=os.path.join(ROOT, "build", "bin", "tc-compile"))
    ap.add_argument("--redis", action="store_true",
                    help="start a redis-server on loopback and time remote hits")
    ap.add_argument("--write", action="store_true", help="write docs/compile-time.md")
    ap.add_argument("--timeline", action="store_true",
                    help="only print each model's private memory over one compile, "
                         "beside its --timing stages")
    args = ap.parse_args()
    names = args.models.split(",")
    models_dir = ensure_models(args.workdir, names)
    redis = None
    env = dict(os.environ)
    if args.timeline:
        for name in names:
            model = os.path.join(models_dir, name, "model.onnx")
            print_timeline(name, [args.tc_compile, model, "-o",
                                  os.path.join(args.workdir, f"{name}.so"),
                                  f"--target={args.target}", "--no-cache"], env)
        return
    if args.redis:
        redis, env["TC_REMOTE_CACHE"] = start_redis()
    remote = "TC_REMOTE_CACHE" in env
    rows = []
    floor_model = os.path.join(args.workdir, "one-node.onnx")
    write_one_node_model(floor_model)
    _, floor = peak_memory([args.tc_compile, floor_model, "-o",
                            os.path.join(args.workdir, "one-node.so"),
                            f"--target={args.target}", "--no-cache"], env)
    print(f"peak private memory of a one-node model's compile: {floor / 1e6:.0f} MB",
          flush=True)
    try:
        for name in names:
            model = os.path.join(models_dir, name, "model.onnx")
            size = os.path.getsize(model)
            out = os.path.join(args.workdir, f"{name}.so")
            cache = os.path.join(args.workdir, f"cache-{name}")
            shutil.rmtree(cache, ignore_errors=True)
            argv = [args.tc_compile, model, "-o", out, f"--target={args.target}",
                    f"--cache-dir={cache}"]
            # The peak RSS of a real compile: --no-cache, so neither the
            # local nor the remote cache answers it.
            rss, private = peak_memory(argv[:-1] + ["--no-cache"], env)
            cold, _ = timed(argv, env)
            cached, log = timed(argv + ["--timing"], env)
            if "cache hit" not in log:
                sys.exit(f"{name}: the second compile was not a cache hit:\n{log}")
            row = [name, f"{size / 1e6:.0f}", f"{cold:.1f}", f"{cached:.3f}"]
            if remote:
                shutil.rmtree(cache)
                hit, log = timed(argv + ["--timing"], env)
                if "remote cache hit" not in log:
                    sys.exit(f"{name}: no remote hit:\n{log}")
                row.append(f"{hit:.2f}")
            row += [f"{rss / 1e6:.0f}", f"{private / 1e6:.0f}", f"{private / size:.2f}",
                    f"{max(private - floor, 0) / size:.2f}"]
            rows.append(row)
            print(" | ".join(row), flush=True)
            shutil.rmtree(cache, ignore_errors=True)
    finally:
        if redis:
            redis.terminate()
            redis.wait()
    header = ["model", "MB", "cold s", "cached s"] + (["remote s"] if remote else []) + \
             ["peak RSS MB", "peak private MB", "private / model", "above floor / model"]
    table = "| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n" + \
            "".join("| " + " | ".join(r) + " |\n" for r in rows)
    table += (f"\nThe floor, the peak private memory of compiling a one-node model "
              f"(one Relu), was {floor / 1e6:.0f} MB in this run; *above floor / "
              f"model* is what a model adds to it, against its size.\n")
    if args.target != "cpu":
        table += ("\nWith GPU targets the peak includes the vendor tools tc-compile "
                  "runs as child processes (ptxas for CUDA, ld.lld for ROCm), whose "
                  "memory grows with the number of kernels, not with the weights: "
                  "for the small models, those and the GPU code generation, not the "
                  "weights, make most of the peak.\n")
    print(table)
    if args.write:
        write_section(args.target, remote, table)


def write_section(target, remote, table):
    """docs/compile-time.md holds one section per --target; this run's
    replaces its own."""
    path = os.path.join(ROOT, "docs", "compile-time.md")
    heading = f"## --target={target}"
    body = (f"{heading}\n\n"
            f"`benchmarks/compile_time.py --target={target}{' --redis' if remote else ''} "
            f"--write`, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs.\n\n" + table)
    sections = {}
    if os.path.exists(path):
        text = open(path).read()
        for part in text.split("\n## ")[1:]:
            sections["## " + part.split("\n", 1)[0]] = "## " + part.rstrip() + "\n"
    sections[heading] = body
    with open(path, "w") as f:
        f.write("# Compile time and the compile cache\n\n"
                "Written by `benchmarks/compile_time.py`, on this project's 2-core "
                "machine. *cold*: a compile with an empty cache (the cache store "
                "included); *cached*: the same compile again, a local hit (the model "
                "hashed, the entry's seal checked, a hard link); *remote*: an empty "
                "local cache and the entry in Redis on loopback (`--redis`); *peak "
                "RSS*: tc-compile or its linker child at their largest, in a compile "
                "without the cache, of which about 120 MB is tc-compile's own code "
                "(libMLIR's and libLLVM's pages, mapped from their files and shared "
                "with every other process running them) for any model; *peak "
                "private*: the anonymous memory of tc-compile and its children "
                "together at its largest (sampled every 10 ms), what the compile "
                "allocates, of which a floor any compile pays (given under each "
                "table); *private / model*: that against the model file's size; "
                "*above floor / model*: the peak less the floor, against the "
                "model's size. Weights the compile derives (packed, blocked, "
                "Winograd-transformed) are file-backed scratch pages, counted in "
                "RSS but not in private memory (architecture.md, packaging).\n\n")
        f.write("\n".join(sections[k] for k in sorted(sections)))

if __name__ == "__main__":
    main()
