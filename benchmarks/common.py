"""Helpers shared by the CPU benchmark scripts: a model's test inputs, an
ONNX Runtime session set up as the benchmarks compare against, and the
alternating timing loop. The ONNX and ONNX Runtime imports are inside the
functions that need them, so that scripts using only the timing and model
helpers (compile_time.py) run without them."""
import glob
import os
import statistics
import subprocess
import time


# Timed runs per block; each block starts with one untimed run.
BLOCK = 5
# A pause before each block: ONNX Runtime's workers spin after its last run
# (its default, which its latency benefits from) and would take the cores
# from the next block's workers; an untimed first run alone did not outlast
# them (tc at 2 threads then timed the same as at 1).
SETTLE_S = 0.05


def numbered(directory, prefix):
    """The test data files PREFIX_0.pb, PREFIX_1.pb, ... in DIRECTORY, in order."""
    return sorted(glob.glob(os.path.join(directory, f"{prefix}_*.pb")),
                  key=lambda f: int(f.rsplit("_", 1)[1].split(".")[0]))


def load_inputs(model_dir, model):
    """test_data_set_0's inputs, by the graph's input names, in order."""
    import onnx
    from onnx import numpy_helper
    data = os.path.join(model_dir, "test_data_set_0")
    initializers = {i.name for i in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in initializers]
    return {name: numpy_helper.to_array(onnx.load_tensor(f))
            for name, f in zip(names, numbered(data, "input"))}


def load_outputs(model_dir):
    """test_data_set_0's reference outputs, in order."""
    import onnx
    from onnx import numpy_helper
    data = os.path.join(model_dir, "test_data_set_0")
    return [numpy_helper.to_array(onnx.load_tensor(f)) for f in numbered(data, "output")]


def mismatch(outputs, references, tolerance):
    """Why `outputs` are not the `references` (their count, a shape, or an
    element off by more than `tolerance` of the output's largest reference
    value), or None."""
    import numpy as np
    if len(outputs) != len(references):
        return f"mismatch: {len(outputs)} outputs, expected {len(references)}"
    for i, (got, want) in enumerate(zip(outputs, references)):
        got = np.asarray(got)
        if got.shape != want.shape:
            return f"mismatch: output {i} is {got.shape}, expected {want.shape}"
        error = np.max(np.abs(got.astype(np.float64) - want)) / max(np.max(np.abs(want)), 1e-30)
        if not error <= tolerance:
            return f"mismatch: output {i} off by {error:.1e} of its largest value"
    return None


def ort_session(path, threads):
    """ONNX Runtime on the CPU with all graph optimizations, intra-op
    threads = `threads`, inter-op threads = 1."""
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def time_once(fn):
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def alternate_blocks(runners, runs, warmup=3):
    """Times each of `runners` (name -> function of no arguments) about
    `runs` times, in alternating blocks of BLOCK runs, each block after a
    pause of SETTLE_S and one untimed run. Returns name -> the list of each
    block's median ms, in the order the blocks ran."""
    for _ in range(warmup):
        for fn in runners.values():
            fn()
    blocks = {name: [] for name in runners}
    for _ in range(max(1, runs // BLOCK)):
        for name, fn in runners.items():
            time.sleep(SETTLE_S)
            fn()
            blocks[name].append(statistics.median(time_once(fn) for _ in range(BLOCK)))
    return blocks


def alternate(runners, runs, warmup=3):
    """alternate_blocks' median ms of each runner."""
    return {name: statistics.median(b)
            for name, b in alternate_blocks(runners, runs, warmup).items()}


def round_ratios(blocks, reference):
    """Each runner's block over `reference`'s block of the same round, for
    every round (alternate_blocks' output)."""
    return {name: [b / r for b, r in zip(times, blocks[reference])]
            for name, times in blocks.items()}


def block_ratios(blocks, reference):
    """Each runner's time over `reference`'s, the median over rounds of
    round_ratios: a machine whose speed drifts by tens of percent within
    minutes moves both blocks of a round alike, where the medians of all
    runs would mix rounds run at different speeds."""
    return {name: statistics.median(r)
            for name, r in round_ratios(blocks, reference).items()}


def ensure_models(workdir, names):
    """WORKDIR/models/<name>/model.onnx for each of `names`, exported by
    benchmarks/models.py (Debian's python3, which has torch) when missing;
    returns WORKDIR/models."""
    models_dir = os.path.join(workdir, "models")
    missing = [n for n in names if not os.path.exists(os.path.join(models_dir, n, "model.onnx"))]
    if missing:
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run(["/usr/bin/python3", os.path.join(here, "models.py"), models_dir,
                        *missing], check=True)
    return models_dir
