#!/usr/bin/env python3
"""Where tc loses to ONNX Runtime, kernel by kernel, on one model.

For each model of benchmarks/models.py (in --models) the script compiles it
with tc-compile (the compile cache makes a rerun quick), profiles it with
`tc-run --profile-json` (each kernel's time per run and every ONNX node it
computes) and profiles ONNX Runtime on the same inputs (all graph
optimizations, intra-op threads = N, its own per-node profiler). ONNX
Runtime names a node of its optimized graph after an original node or
after an output tensor (a fused Conv+Clip in NCHWc layout is
"<Clip's output>_nchwc"); the script maps each name back to the original
node, and each node to the tc kernel that computes it. Then it prints, per
tc kernel, tc's ms, ONNX Runtime's ms for the same nodes, and the
difference, largest loss first, and what ONNX Runtime spends on nodes no tc
kernel matches (layout reorders). Both profilers add their own overhead:
compare the columns with each other, not with cpu_performance.py's times.

With --by-contraction the script instead compares per Conv, Gemm or
MatMul node, over --rounds alternating rounds of both profiles (minima):
each tc kernel counts for the first such node it computes (a Winograd
convolution's transforms and products for their convolution), each ONNX
Runtime node for the contraction it follows through its first input (its
Conv+Relu named after the Relu, an activation of its own such as
QuickGelu), and so does a tc kernel without one (a max pool after its
convolution), so that the columns compare whole convolutions with what
follows them, whichever layout or kernel split each side chose.

  .venv/bin/python benchmarks/kernel_profile.py [--models DIR]
      [--names mobilenet_v2,resnet50] [--threads 1] [--runs 30] [--top 15]
      [--by-contraction [--rounds 3]]
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

import onnx
import onnxruntime as ort

from common import load_inputs, numbered

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.path.join(ROOT, "build", "bin")


def tc_profile(model_dir, workdir, threads, runs):
    """tc-run --profile-json's report for the model, compiled into workdir."""
    so = os.path.join(workdir, "model.so")
    subprocess.run([os.environ.get("TC_COMPILE", os.path.join(BIN, "tc-compile")),
                    os.path.join(model_dir, "model.onnx"), "-o", so], check=True)
    data = os.path.join(model_dir, "test_data_set_0")
    inputs = numbered(data, "input")
    report = os.path.join(workdir, "profile.json")
    subprocess.run([os.environ.get("TC_RUN", os.path.join(BIN, "tc-run")), so,
                    f"--threads={threads}", f"--benchmark={runs}",
                    f"--profile-json={report}"] +
                   [f"--input={f}" for f in inputs],
                   check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "OMP_PROC_BIND": "false"})
    with open(report) as f:
        return json.load(f)


def ort_profile(model_dir, workdir, threads, runs):
    """ONNX Runtime's ms per run of each node of its optimized graph."""
    path = os.path.join(model_dir, "model.onnx")
    feeds = load_inputs(model_dir, onnx.load(path, load_external_data=False))
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.enable_profiling = True
    options.profile_file_prefix = os.path.join(workdir, "ort")
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    for _ in range(3):
        session.run(None, feeds)
    # The warm-up runs are in the profile too; they are few against `runs`.
    for _ in range(runs):
        session.run(None, feeds)
    with open(session.end_profiling()) as f:
        events = json.load(f)
    times, ops = collections.Counter(), {}
    for event in events:
        name = event.get("name", "")
        if event.get("cat") == "Node" and name.endswith("_kernel_time"):
            node = name[:-len("_kernel_time")]
            times[node] += event["dur"] / 1000.0 / (runs + 3)
            ops[node] = event.get("args", {}).get("op_name", "?")
    return times, ops


def original_node(name, nodes, producers):
    """The original graph's node behind an ONNX Runtime node name, if any."""
    for suffix in ("", "_nchwc", "_token"):
        if suffix and not name.endswith(suffix):
            continue
        base = name[:-len(suffix)] if suffix else name
        if base in nodes:
            return base
        if base in producers:
            return producers[base]
    return None


def compare(name, model_dir, threads, runs, top):
    model = onnx.load(os.path.join(model_dir, "model.onnx"), load_external_data=False)
    nodes = {n.name for n in model.graph.node}
    producers = {out: n.name for n in model.graph.node for out in n.output}
    with tempfile.TemporaryDirectory() as workdir:
        tc_report = tc_profile(model_dir, workdir, threads, runs)
        ort_times, ort_ops = ort_profile(model_dir, workdir, threads, runs)
    kernel_of = {}
    for kernel in tc_report["kernels"]:
        for node in kernel["nodes"]:
            kernel_of.setdefault(node, kernel["kernel"])
    first_input = {n.name: producers.get(n.input[0]) for n in model.graph.node if n.input}
    ort_by_kernel, unmatched = collections.Counter(), collections.Counter()
    for ort_node, ms in ort_times.items():
        node = original_node(ort_node, nodes, producers)
        # A fused node named after its last op (Conv+Clip after the Clip)
        # whose last op tc computes in the next kernel: the op it starts from.
        for _ in range(3):
            if node is None or node in kernel_of:
                break
            node = first_input.get(node)
        if node in kernel_of:
            ort_by_kernel[kernel_of[node]] += ms
        else:
            unmatched[f"{ort_ops[ort_node]} {ort_node}"] += ms
    rows = []
    for kernel in tc_report["kernels"]:
        tc_ms = kernel["ms_per_run"]
        ort_ms = ort_by_kernel.get(kernel["kernel"], 0.0)
        rows.append((tc_ms - ort_ms, tc_ms, ort_ms, kernel))
    rows.sort(key=lambda r: -r[0])
    tc_total = tc_report["ms_per_run"]
    ort_total = sum(ort_times.values())
    print(f"== {name}, {threads} thread(s): tc {tc_total:.2f} ms per run "
          f"(kernels {tc_report['kernel_ms_per_run']:.2f}), ONNX Runtime nodes "
          f"{ort_total:.2f} ms (unmatched {sum(unmatched.values()):.2f})")
    print(f"{'tc ms':>8} {'ORT ms':>8} {'tc-ORT':>8}  {'kernel':<6} {'ops':<24} first node")
    for loss, tc_ms, ort_ms, kernel in rows[:top]:
        first = kernel["nodes"][0] if kernel["nodes"] else "-"
        print(f"{tc_ms:8.3f} {ort_ms:8.3f} {loss:+8.3f}  {kernel['kernel']:<6} "
              f"{kernel['ops'][:24]:<24} {first}")
    by_ops = collections.defaultdict(lambda: [0.0, 0.0])
    for _, tc_ms, ort_ms, kernel in rows:
        by_ops[kernel["ops"]][0] += tc_ms
        by_ops[kernel["ops"]][1] += ort_ms
    print("by op types:")
    for ops, (tc_ms, ort_ms) in sorted(by_ops.items(), key=lambda kv: -(kv[1][0] - kv[1][1]))[:top]:
        print(f"{tc_ms:8.3f} {ort_ms:8.3f} {tc_ms - ort_ms:+8.3f}  {ops}")
    if unmatched:
        print("ONNX Runtime nodes no tc kernel matches:")
        for what, ms in unmatched.most_common(5):
            print(f"{'':8} {ms:8.3f}           {what}")


CONTRACTIONS = ("Conv", "Gemm", "MatMul")


def by_contraction(name, model_dir, threads, runs, top, rounds):
    """tc against ONNX Runtime per contraction node, minima over rounds."""
    model = onnx.load(os.path.join(model_dir, "model.onnx"), load_external_data=False)
    nodes = {n.name: n for n in model.graph.node}
    producers = {out: n.name for n in model.graph.node for out in n.output}

    def contraction_of(node):
        # Up to four producers back along first inputs (Relu after Add
        # after Conv), the first contraction met.
        for _ in range(4):
            if node is None or node not in nodes:
                return node
            if nodes[node].op_type in CONTRACTIONS:
                return node
            node = producers.get(nodes[node].input[0]) if nodes[node].input else None
        return node

    tc_best, ort_best = {}, {}
    with tempfile.TemporaryDirectory() as workdir:
        for _ in range(rounds):
            per = collections.Counter()
            for kernel in tc_profile(model_dir, workdir, threads, runs)["kernels"]:
                first = next((n for n in kernel["nodes"]
                              if n in nodes and nodes[n].op_type in CONTRACTIONS),
                             contraction_of(kernel["nodes"][0]) if kernel["nodes"] else None)
                per[first or "(no node)"] += kernel["ms_per_run"]
            for key, ms in per.items():
                tc_best[key] = min(tc_best.get(key, float("inf")), ms)
            times, _ = ort_profile(model_dir, workdir, threads, runs)
            per = collections.Counter()
            for ort_node, ms in times.items():
                node = contraction_of(original_node(ort_node, set(nodes), producers))
                per[node or "(no node)"] += ms
            for key, ms in per.items():
                ort_best[key] = min(ort_best.get(key, float("inf")), ms)
    keys = sorted(set(tc_best) | set(ort_best),
                  key=lambda k: -(tc_best.get(k, 0.0) - ort_best.get(k, 0.0)))
    print(f"== {name}, {threads} thread(s), minima of {rounds} alternating rounds: "
          f"tc {sum(tc_best.values()):.2f} ms, ONNX Runtime {sum(ort_best.values()):.2f} ms")
    print(f"{'tc ms':>8} {'ORT ms':>8} {'tc/ORT':>7}  node")
    for key in keys[:top] + (["..."] if len(keys) > top else []):
        if key == "...":
            print("     ...")
            continue
        t, o = tc_best.get(key, 0.0), ort_best.get(key, 0.0)
        ratio = f"{t / o:7.2f}" if o else "      -"
        print(f"{t:8.3f} {o:8.3f} {ratio}  {key}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="/work/bench", help="benchmarks/models.py's output")
    ap.add_argument("--names", default="mobilenet_v2", help="comma-separated model names")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--by-contraction", action="store_true",
                    help="compare per Conv/Gemm/MatMul node, activations included")
    ap.add_argument("--rounds", type=int, default=3,
                    help="alternating rounds of both profiles (--by-contraction)")
    args = ap.parse_args()
    for name in args.names.split(","):
        model_dir = os.path.join(args.models, name)
        if not os.path.exists(os.path.join(model_dir, "model.onnx")):
            sys.exit(f"kernel_profile.py: no {name} in {args.models}: build it with "
                     f"/usr/bin/python3 benchmarks/models.py {args.models} {name}")
        if args.by_contraction:
            by_contraction(name, model_dir, args.threads, args.runs, args.top, args.rounds)
        else:
            compare(name, model_dir, args.threads, args.runs, args.top)


if __name__ == "__main__":
    main()
