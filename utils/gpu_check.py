#!/usr/bin/env python3
"""The GPU check (see utils/gpu-check.sh): correctness of tc on the GPU
against the reference outputs and tc's CPU results, then latencies beside
ONNX Runtime (CUDA provider) and torch.compile. Needs only python3, numpy,
and (for the comparisons) onnxruntime, torch and the carried onnx2torch
wheel."""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

START = time.time()


def elapsed():
    return time.time() - START


def run_tc(tc_run, env, argv, cwd=None, timeout=120):
    try:
        p = subprocess.run([tc_run] + argv, capture_output=True, text=True, env=env,
                           cwd=cwd, timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", f"timed out after {timeout} s"


def verdict(rc, out, err, compares):
    """pass / mismatch / error, and a detail line."""
    oks = out.count(": OK: ")
    if rc == 0 and oks == compares:
        errors = [float(x) for x in re.findall(r"max abs error ([0-9.eE+-]+)", out)]
        return "pass", f"max abs error {max(errors) if errors else 0:.3g}"
    mismatch = [l for l in out.splitlines() if "MISMATCH" in l]
    if mismatch:
        return "mismatch", mismatch[0].strip()[:200]
    lines = (err or out).strip().splitlines()
    # ImageDecoder runs the host's FreeImage, which the GPU machine may lack:
    # a fact about that machine, reported by tc as it should be.
    if any("needs FreeImage" in l for l in lines):
        return "skipped", "no FreeImage (libfreeimage.so.3) on this machine"
    return "error", (lines[-1] if lines else f"exit {rc}")[:200]


def check_random(rc, out, err, cwd, output_dir, case):
    """A random op's outputs (tc-run --output=DIR): the shapes and dtypes
    of the expected ones; values in {0, 1} where the expected ones are
    (Bernoulli), finite otherwise."""
    import numpy as np
    if rc != 0:
        lines = (err or out).strip().splitlines()
        return "error", (lines[-1] if lines else f"exit {rc}")[:200]
    expected = sorted(a.split("=", 1)[-1] for a in case["args"] if a.startswith("--compare="))
    outputs = [np.load(f) for f in glob.glob(os.path.join(output_dir, "*.npy"))]
    for path in expected:
        _, want = load_pb(os.path.join(cwd, path))
        got = next((g for g in outputs if g.shape == want.shape and g.dtype == want.dtype), None)
        if got is None:
            return "mismatch", f"no output of shape {want.shape} and dtype {want.dtype} like {path}"
        if case["random"] == "bernoulli" and set(np.unique(want)) <= {0, 1}:
            if not set(np.unique(got)) <= {0, 1}:
                return "mismatch", f"values outside {{0, 1}} like {path}"
        elif got.dtype.kind == "f" and not np.isfinite(got).all():
            return "mismatch", f"non-finite values like {path}"
    return "pass", "random draws: shapes, dtypes and value sets match"


def close_enough(got, want, rtol, atol):
    """'' when `got` matches `want` as tc-run --compare judges (never more
    leniently), else what differs."""
    import numpy as np
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"got {got.dtype}{list(got.shape)}, expected {want.dtype}{list(want.shape)}"
    if got.dtype.kind in "fc":
        g, w = got.astype(np.complex128 if got.dtype.kind == "c" else np.float64), \
            want.astype(np.complex128 if got.dtype.kind == "c" else np.float64)
        same_nan = np.isnan(g) == np.isnan(w)
        finite = np.isfinite(w)
        with np.errstate(invalid="ignore"):
            ok = same_nan & np.where(finite, np.abs(g - w) <= atol + rtol * np.abs(w),
                                     np.isnan(w) | (g == w))
        return "" if ok.all() else f"{int((~ok).sum())} of {ok.size} elements differ"
    return "" if np.array_equal(got, want) else "values differ"


def run_case_in_process(tc, work, case, device):
    """(status, detail) of one case run in this process (gpu_check_runtime)
    (one process for all the cases a worker runs)."""
    cwd = os.path.join(work, "cases", case["dir"])
    inputs, expected, rtol, atol = {}, [], 1e-3, 1e-5
    for arg in case["args"]:
        flag, _, value = arg.partition("=")
        if flag == "--input":
            name, path = value.rsplit("=", 1)
            inputs[name] = load_pb(os.path.join(cwd, path))[1]
        elif flag == "--compare":
            expected.append(load_pb(os.path.join(cwd, value))[1])
        elif flag == "--rtol":
            rtol = float(value)
        elif flag == "--atol":
            atol = float(value)
    def describe(e):
        return str(e).strip().splitlines()[-1][:200] if str(e).strip() else type(e).__name__

    def wrong(outputs):
        for k, want in enumerate(expected):
            if k >= len(outputs):
                return f"output {k} missing"
            why = close_enough(outputs[k], want, rtol, atol)
            if why:
                return f"output {k}: {why}"
        return ""
    try:
        model = tc.load(os.path.join(cwd, "model.so"), device=device, threads=1,
                        gpu_graphs=True)
        outputs = model(**inputs)
    except Exception as e:  # an error is retried with tc-run for its verdict
        return "error", describe(e)
    why = wrong(outputs)
    if why:
        return "mismatch", why
    # The run launched its kernels; the second records them into a graph
    # (where the host code allows) and launches it, as the third does. A
    # failure there is the graphs' own: reported, not retried.
    try:
        for _ in range(2):
            outputs = model(**inputs)
    except Exception as e:
        return "graph-error", describe(e)
    why = wrong(outputs)
    if why:
        return "graph-mismatch", why
    return "pass", "in process, and replayed from a graph"


def case_worker(args):
    """--case-worker WORK LIST OUT: runs the listed cases in process and
    writes 'name, status, detail' lines to OUT as it goes."""
    work, listfile, outfile = args.case_worker
    sys.path.insert(0, args.dir)
    os.environ.setdefault("TC_RUNTIME_LIB", os.path.join(args.dir, "lib", "libTcRuntime.so"))
    import gpu_check_runtime as tc
    manifest = json.load(open(os.path.join(work, "cases", "manifest.json")))
    wanted = set(open(listfile).read().split())
    with open(outfile, "w", buffering=1) as out:
        for case in manifest["cases"]:
            if case["name"] in wanted:
                status, detail = run_case_in_process(tc, work, case, args.device)
                out.write(f"{case['name']}\t{status}\t{detail}\n")
    return 0


def run_workers(args, work, cases, deadline):
    """{name: (status, detail)} from args.jobs worker processes that run
    the cases in process, until they finish or the deadline; a case a
    crashed or stopped worker did not report is missing."""
    lists = [cases[i::args.jobs] for i in range(args.jobs)]
    procs = []
    for i, part in enumerate(lists):
        if not part:
            continue
        listfile = os.path.join(work, f"worker{i}.txt")
        outfile = os.path.join(work, f"worker{i}.tsv")
        with open(listfile, "w") as f:
            f.write("\n".join(c["name"] for c in part) + "\n")
        procs.append((outfile, subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--dir", args.dir,
             "--device", args.device, "--case-worker", work, listfile, outfile],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)))
    for _, proc in procs:
        try:
            proc.wait(timeout=max(deadline - elapsed(), 1))
        except subprocess.TimeoutExpired:
            proc.kill()
    results = {}
    for outfile, _ in procs:
        if os.path.exists(outfile):
            for line in open(outfile):
                fields = line.rstrip("\n").split("\t")
                if len(fields) == 3:
                    results[fields[0]] = (fields[1], fields[2])
    return results


def check_cases(args, tc_run, env, results):
    archive = os.path.join(args.dir, "cases.tar.xz")
    if not os.path.exists(archive):
        print("conformance cases: none prepared")
        return {}
    work = tempfile.mkdtemp(prefix="tc-gpu-cases-")
    with tarfile.open(archive) as tar:
        tar.extractall(work)
    manifest = json.load(open(os.path.join(work, "cases", "manifest.json")))
    cases = manifest["cases"]
    if args.cases:
        wanted = set(open(args.cases).read().split())
        cases = [c for c in cases if c["name"] in wanted]

    def one(case):
        if elapsed() > (args.cases_budget or args.budget * 0.45):
            return case["name"], ("skipped", "time budget")
        cwd = os.path.join(work, "cases", case["dir"])
        argv = ["model.so", f"--device={args.device}"] + case["args"]
        if args.device == "cpu":
            argv.append("--threads=1")
        if case.get("random"):
            output_dir = tempfile.mkdtemp(prefix="tc-random-")
            argv = [a for a in argv if not a.startswith("--compare=")]
            rc, out, err = run_tc(tc_run, env, argv + [f"--output={output_dir}"],
                                  cwd=cwd, timeout=30)
            result = check_random(rc, out, err, cwd, output_dir, case)
            shutil.rmtree(output_dir, ignore_errors=True)
            return case["name"], result
        rc, out, err = run_tc(tc_run, env, argv, cwd=cwd, timeout=30)
        compares = sum(1 for a in case["args"] if a.startswith("--compare="))
        return case["name"], verdict(rc, out, err, compares)

    # Fast path: worker processes run the cases through gpu_check_runtime, each
    # in one CUDA context (a tc-run process costs a context and a module
    # load, about 0.4 s on an H200). What they do not pass (errors,
    # mismatches, random draws, a crashed worker's rest) goes through
    # tc-run, whose verdict counts; a failure of the graph replay is the
    # graphs' own and counts as the worker found it.
    done = {}
    budget = args.cases_budget or args.budget * 0.45
    if os.path.isdir(os.path.join(args.dir, "python", "tc")) and not args.no_workers:
        plain = [c for c in cases if not c.get("random")]
        done = {name: result for name, result in
                run_workers(args, work, plain, budget * 0.8).items()
                if result[0] == "pass" or result[0].startswith("graph-")}
        print(f"conformance cases in process on {args.device}: {len(done)} of "
              f"{len(plain)} pass ({elapsed():.0f} s); the rest through tc-run")

    def checked(case):
        if case["name"] in done:
            return case["name"], done[case["name"]]
        return one(case)

    counts, failures = {}, []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, (status, detail) in pool.map(checked, cases):
            counts[status] = counts.get(status, 0) + 1
            results.write(f"case\t{name}\t{status}\t{detail}\n")
            if status not in ("pass", "skipped"):
                failures.append(f"{name}: {status}: {detail}")
    shutil.rmtree(work, ignore_errors=True)
    print(f"conformance cases on {args.device}: {len(cases)} run, " +
          ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) +
          f" ({elapsed():.0f} s)")
    for line in failures[:15]:
        print(f"  {line}")
    return counts


def model_inputs(model_dir, data_set):
    return sorted(glob.glob(os.path.join(model_dir, data_set, "input_*.pb")))


def check_models(args, tc_run, env, results):
    rows = []
    for model_dir in sorted(glob.glob(os.path.join(args.dir, "models", "*"))):
        name = os.path.basename(model_dir)
        so = os.path.join(model_dir, "model.so")
        for ds in sorted(glob.glob(os.path.join(model_dir, "test_data_set_*"))):
            inputs = [f"--input={p}" for p in model_inputs(model_dir, os.path.basename(ds))]
            outputs = sorted(glob.glob(os.path.join(ds, "output_*.pb")))
            compares = [f"--compare={p}" for p in outputs]
            # Against PyTorch's reference outputs (rtol 1e-3, atol 1e-4).
            rc, out, err = run_tc(tc_run, env, [so, f"--device={args.device}",
                                                "--rtol=1e-3", "--atol=1e-4"] +
                                  inputs + compares)
            ref = verdict(rc, out, err, len(compares))
            # Replayed from a graph (--gpu-graphs: from the second run on, a
            # run replays a graph; --compare sees the last timed run).
            rc, out, err = run_tc(tc_run, env, [so, f"--device={args.device}",
                                                "--gpu-graphs", "--warmup=1",
                                                "--benchmark=2", "--rtol=1e-3",
                                                "--atol=1e-4"] + inputs + compares)
            graphs = verdict(rc, out, err, len(compares))
            # Against tc's own CPU results.
            cpu_dir = tempfile.mkdtemp(prefix="tc-cpu-")
            rc_cpu, _, err_cpu = run_tc(tc_run, env, [so, "--device=cpu",
                                                      f"--output={cpu_dir}"] + inputs)
            cpu_files = sorted(glob.glob(os.path.join(cpu_dir, "*.npy")))
            if rc_cpu == 0 and cpu_files:
                compare_cpu = [f"--compare={os.path.splitext(os.path.basename(f))[0]}={f}"
                               for f in cpu_files]
                rc, out, err = run_tc(tc_run, env, [so, f"--device={args.device}",
                                                    "--rtol=1e-4", "--atol=1e-5"] +
                                      inputs + compare_cpu)
                vs_cpu = verdict(rc, out, err, len(cpu_files))
            else:
                vs_cpu = ("error", "cpu run: " + (err_cpu.strip().splitlines() or ["?"])[-1])
            shutil.rmtree(cpu_dir, ignore_errors=True)
            label = f"{name}/{os.path.basename(ds)}"
            results.write(f"model\t{label}\t{ref[0]}\t{ref[1]}\t{vs_cpu[0]}\t{vs_cpu[1]}"
                          f"\t{graphs[0]}\t{graphs[1]}\n")
            rows.append((label, ref, vs_cpu, graphs))
    print(f"shared models on {args.device} ({elapsed():.0f} s):")
    for label, ref, vs_cpu, graphs in rows:
        print(f"  {label}: vs reference {ref[0]} ({ref[1]}); vs tc cpu {vs_cpu[0]} "
              f"({vs_cpu[1]}); graph replay vs reference {graphs[0]} ({graphs[1]})")
    return rows


def load_pb(path):
    import onnx
    from onnx import numpy_helper
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t.name, numpy_helper.to_array(t)


def graph_input_names(model_path):
    import onnx
    model = onnx.load(model_path, load_external_data=False)
    inits = {i.name for i in model.graph.initializer}
    return [i.name for i in model.graph.input if i.name not in inits]


def batch_inputs(model_dir, batch):
    """{graph input name: array} at `batch` (None: the test data's own
    batch), the batch axis tiled when meta.json marks axis 0 dynamic; None
    when the model's batch is static and differs."""
    meta = json.load(open(os.path.join(model_dir, "meta.json")))
    dynamic = meta.get("dynamic_axes") or {}
    names = graph_input_names(os.path.join(model_dir, "model.onnx"))
    feeds = {}
    for index, path in enumerate(model_inputs(model_dir, "test_data_set_0")):
        _, value = load_pb(path)
        name = names[index]
        if batch is not None and value.ndim and value.shape[0] != batch:
            if "0" not in (dynamic.get(name) or {}):
                return None
            value = value[:1].repeat(batch, axis=0)
        feeds[name] = value
    return feeds


def batch_of(feeds):
    first = next(iter(feeds.values()), None)
    return first.shape[0] if first is not None and first.ndim else 1


def time_tc(tc_run, env, args, so, feeds, work, graphs=False):
    import numpy as np
    argv = [so, f"--device={args.device}", f"--benchmark={args.runs}", "--warmup=10"]
    if graphs:
        argv.append("--gpu-graphs")
    for name, value in feeds.items():
        path = os.path.join(work, f"{name}.npy")
        np.save(path, value)
        argv.append(f"--input={name}={path}")
    rc, out, err = run_tc(tc_run, env, argv, timeout=300)
    m = re.search(r"median ([0-9.]+) ms", out)
    replays = re.search(r"gpu graphs: (\d+) of", out)
    if graphs and args.device != "cpu" and (not replays or replays.group(1) == "0"):
        return "no graph replayed"
    return float(m.group(1)) if rc == 0 and m else f"error: {(err or out).strip()[-120:]}"


def time_ort(model_path, feeds, runs):
    try:
        import onnxruntime as ort
    except ImportError as e:
        return f"n/a: {e}"
    if "CUDAExecutionProvider" not in ort.get_available_providers():
        return "n/a: no CUDAExecutionProvider in this onnxruntime"
    session = ort.InferenceSession(model_path, providers=["CUDAExecutionProvider"])
    for _ in range(10):
        session.run(None, feeds)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        session.run(None, feeds)
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def time_torch(model_path, feeds, runs, mode):
    try:
        import onnx
        import torch
        from onnx2torch import convert
    except ImportError as e:
        return f"n/a: {e}"
    try:
        module = convert(onnx.load(model_path)).cuda().eval()
        if mode != "eager":
            # onnx2torch's Slice reads its bounds from tensors (.item()):
            # let dynamo capture them rather than fail (the transformers'
            # graphs failed with InternalTorchDynamoError on the H200).
            import torch._dynamo
            torch._dynamo.config.capture_scalar_outputs = True
            torch._dynamo.config.capture_dynamic_output_shape_ops = True
            module = torch.compile(module, mode=mode)

        # Host arrays in, host arrays out, as tc-run and ORT are timed.
        def run():
            outputs = module(*[torch.from_numpy(v).cuda() for v in feeds.values()])
            if isinstance(outputs, torch.Tensor):
                outputs = [outputs]
            return [o.cpu() for o in outputs]

        with torch.no_grad():
            for _ in range(5):
                run()
            times = []
            for _ in range(runs):
                t = time.perf_counter()
                run()
                times.append((time.perf_counter() - t) * 1e3)
        return statistics.median(times)
    except Exception as e:  # a conversion or compile failure is a table entry
        return f"error: {type(e).__name__}: {str(e)[:100]}"


def time_torch_isolated(args, model_path, feeds, mode, work):
    """time_torch in a child process with a time limit: one model's
    autotuning (max-autotune) can take minutes, and must not take the
    check's whole time; its logs stay out of the output."""
    import numpy as np
    path = os.path.join(work, "feeds.npz")
    np.savez(path, **feeds)
    # At most --compile-timeout, and never past the check's budget.
    limit = min(args.compile_timeout, args.budget - elapsed())
    if limit < 20:
        return "skipped: time budget"
    try:
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--torch-one",
                            model_path, path, mode, str(args.runs)],
                           capture_output=True, text=True, errors="replace",
                           timeout=limit,
                           env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    except subprocess.TimeoutExpired:
        return f"timed out after {limit:.0f} s"
    m = re.search(r"^median (\S+)$", p.stdout, re.M)
    if m:
        return float(m.group(1))
    line = re.search(r"^result (.*)$", p.stdout, re.M)
    if line:
        return line.group(1)
    return f"error: exit {p.returncode}: {(p.stderr.strip().splitlines() or ['?'])[-1][:100]}"


def torch_one(model_path, feeds_path, mode, runs):
    """The child of time_torch_isolated."""
    import numpy as np
    with np.load(feeds_path) as data:
        feeds = {name: data[name] for name in data.files}
    result = time_torch(model_path, feeds, runs, mode)
    print(f"median {result}" if isinstance(result, float) else f"result {result}")
    return 0


def install_wheels(args):
    wheels = glob.glob(os.path.join(args.dir, "wheels", "*.whl"))
    if not wheels:
        return
    target = tempfile.mkdtemp(prefix="tc-wheels-")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--no-index", "--target", target] + wheels, capture_output=True)
    sys.path.insert(0, target)
    os.environ["PYTHONPATH"] = os.pathsep.join(sys.path)


def latency_table(args, tc_run, env, results):
    install_wheels(args)
    work = tempfile.mkdtemp(prefix="tc-bench-")
    rows = []
    for model_dir in sorted(glob.glob(os.path.join(args.dir, "models", "*"))):
        name = os.path.basename(model_dir)
        onnx_path = os.path.join(model_dir, "model.onnx")
        # Batch 1 and 16 where the batch axis is dynamic; the exported batch
        # otherwise.
        runs = []
        for batch in (1, 16):
            feeds = batch_inputs(model_dir, batch)
            if feeds is not None:
                runs.append((batch, feeds))
        if not runs:
            feeds = batch_inputs(model_dir, None)
            runs.append((batch_of(feeds), feeds))
        for batch, feeds in runs:
            so = os.path.join(model_dir, "model.so")
            rows.append([name, batch, onnx_path, feeds,
                         time_tc(tc_run, env, args, so, feeds, work),
                         time_tc(tc_run, env, args, so, feeds, work, graphs=True)])
            print(f"  tc {name} batch {batch}: {rows[-1][-2]}, with graphs {rows[-1][-1]} "
                  f"({elapsed():.0f} s)", flush=True)
    # The peers column by column, cheapest first, so that tc's figures and
    # the cheap peers always land and the compiles stop at the budget.
    peers = [("ORT CUDA", lambda path, feeds: time_ort(path, feeds, args.runs), 1.0),
             ("torch eager", lambda path, feeds: time_torch(path, feeds, args.runs, "eager"), 1.0),
             ("torch.compile", lambda path, feeds: time_torch_isolated(args, path, feeds, "default", work), 0.8),
             # CUDA graphs on torch's side: the peer of tc --gpu-graphs.
             ("reduce-overhead", lambda path, feeds: time_torch_isolated(args, path, feeds, "reduce-overhead", work), 0.9),
             # Bounded by the budget itself (time_torch_isolated).
             ("max-autotune", lambda path, feeds: time_torch_isolated(args, path, feeds, "max-autotune", work), 1.0)]
    if args.no_peers:
        for row in rows:
            row += ["not run (--no-peers)"] * len(peers)
    # Smallest models first: within the budget, the compiles of several
    # models beat one model's long autotuning.
    by_size = sorted(rows, key=lambda row: (os.path.getsize(row[2]), row[1]))
    for label, measure, share in [] if args.no_peers else peers:
        for row in by_size:
            if args.device == "cpu":
                row.append("(dry run)")
            elif elapsed() > args.budget * share:
                row.append("skipped: time budget")
            else:
                row.append(measure(row[2], row[3]))
                print(f"  {label} {row[0]} batch {row[1]}: {row[-1]} ({elapsed():.0f} s)", flush=True)
    rows = [tuple(row[:2] + row[4:]) for row in rows]
    for row in rows:
        results.write("latency\t" + "\t".join(str(x) for x in row) + "\n")
    shutil.rmtree(work, ignore_errors=True)

    def fmt(x):
        return f"{x:.3f}" if isinstance(x, float) else str(x)
    print(f"\nlatency, median ms over {args.runs} runs, fp32, on {args.device}, each "
          f"from host arrays to host arrays; tc graphs: tc-run --gpu-graphs, "
          f"reduce-overhead: torch.compile's CUDA graphs (tc/ORT, tc/compile and "
          f"graphs/r-o: below 1 means tc is faster):")
    print("| model | batch | tc | tc graphs | ORT CUDA | torch eager | torch.compile "
          "| reduce-overhead | max-autotune | tc/ORT | tc/compile | graphs/r-o |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        cell = lambda i: row[i] if len(row) > i else ""
        ratio = lambda a, b: f"{a / b:.2f}" if isinstance(a, float) and isinstance(b, float) else ""
        print("| " + " | ".join(fmt(x) for x in row) +
              f" | {ratio(cell(2), cell(4))} | {ratio(cell(2), cell(6))} "
              f"| {ratio(cell(3), cell(7))} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="gpu-check")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--budget", type=float, default=540, help="seconds")
    ap.add_argument("--skip-cases", action="store_true")
    ap.add_argument("--cases", help="a file of case names: run only these")
    ap.add_argument("--cases-budget", type=float,
                    help="seconds for the cases (default: 45 %% of --budget)")
    ap.add_argument("--no-peers", action="store_true",
                    help="time tc only (no ONNX Runtime, no torch)")
    ap.add_argument("--no-workers", action="store_true",
                    help="run every case through tc-run (no in-process workers)")
    ap.add_argument("--case-worker", nargs=3, metavar=("WORK", "LIST", "OUT"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--compile-timeout", type=float, default=150,
                    help="seconds for one torch.compile measurement")
    ap.add_argument("--torch-one", nargs=4, metavar=("MODEL", "FEEDS", "MODE", "RUNS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.torch_one:
        model, feeds, mode, runs = args.torch_one
        return torch_one(model, feeds, mode, int(runs))
    args.dir = os.path.abspath(args.dir)
    if args.case_worker:
        return case_worker(args)
    tc_run = os.path.join(args.dir, "bin", "tc-run")
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(args.dir, "lib") + ":" + env.get("LD_LIBRARY_PATH", "")
    out_dir = os.environ.get("OUT") or os.path.join(args.dir, "results")
    os.makedirs(out_dir, exist_ok=True)
    if shutil.which("nvidia-smi"):
        p = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                            "--format=csv,noheader"], capture_output=True, text=True)
        print("GPU: " + p.stdout.strip())
    for module in ("torch", "onnxruntime"):
        try:
            m = __import__(module)
            extra = (f", CUDA {m.version.cuda}" if module == "torch" else
                     f", providers {m.get_available_providers()}")
            print(f"{module} {m.__version__}{extra}")
        except Exception as e:
            print(f"{module}: {e}")
    rc, out, err = run_tc(tc_run, env, ["--help"])
    if rc != 0:
        print(f"tc-run does not start here: {err.strip()}")
        return 1
    # Line-buffered, so that a run stopped at its time limit keeps its lines.
    with open(os.path.join(out_dir, "gpu-check.tsv"), "w", buffering=1) as results:
        rows = check_models(args, tc_run, env, results)
        counts = {} if args.skip_cases else check_cases(args, tc_run, env, results)
        latency_table(args, tc_run, env, results)
    print(f"\ngpu check took {elapsed():.0f} s; results in {out_dir}/gpu-check.tsv")
    bad = sum(v for k, v in counts.items() if k != "pass")
    bad += sum(1 for _, ref, cpu, graphs in rows
               if ref[0] != "pass" or cpu[0] != "pass" or graphs[0] != "pass")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
