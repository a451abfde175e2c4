#!/usr/bin/env python3
"""Conformance run over the ONNX backend test data.

Compiles every model of the node, simple, pytorch-converted and
pytorch-operator suites of the installed onnx package with `tc-compile`, runs
the shared library with `tc-run` on each of the case's test data sets and
compares every output with the expected one. Each case is classified:

  pass                 every output of every data set matches
  mismatch             ran, but an output differs (the tc-run line of the
                       first failing output is recorded)
  compile-unsupported  the importer reported unsupported pieces (the first
                       reason is recorded)
  compile-error        tc-compile failed after import, in the graph passes
                       or code generation (the first error is recorded)
  run-error            tc-run failed before it could compare (its message
                       is recorded)
  crash                either tool was killed by a signal, exited with an
                       unexpected status or timed out: always a bug
  excluded             out of scope: training, sequence/optional or string
                       cases, as in the import sweep

Scope, exclusions and the binding of shape-parameter inputs (`--bind`) come
from utils/onnx_backend_cases.py, shared with utils/onnx_import_sweep.py, so
that the two tables describe the same cases. Bound inputs are compiled in
and not given to tc-run.

Results go to docs/conformance.tsv (one line per case) and the counts to
docs/conformance.md, only with --update. With --unbound the shape-parameter
inputs are not bound but given to tc-run like the others, as a user's model
computes them: the headline figure, tracked in docs/conformance-unbound.tsv
and quoted in docs/conformance.md by the next bound --update. With --check, the run fails when a
case that the tracked table lists as pass no longer passes, or when anything
crashes.

With --target=gpu-emulation every case is compiled by the GPU code
generation with its kernels run on the CPU (docs/gpu-abi.md): the numerics of
the GPU path, checked without a GPU. Its results go to
docs/gpu-emulation.tsv (--update) and --check compares with that table;
docs/conformance.md is not rewritten. --target=gpu-emulation:reverse runs
the kernels' blocks and threads last to first and checks against the same
table: a kernel that races (reads what another thread writes without a
barrier between, or what another block writes) fails in one of the orders.

Usage: onnx_conformance.py [--tc-compile BUILD/bin/tc-compile]
       [--tc-run BUILD/bin/tc-run] [--check] [--update] [--jobs N]
       [--filter SUBSTRING] [--keep DIR]
       [--target=gpu-emulation|gpu-emulation:reverse]
"""
import argparse
import collections
import concurrent.futures
import glob
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import onnx

from onnx_backend_cases import (SUITES, data_dir, exclusion, graph_inputs, list_cases,
                                op_types, parameter_inputs)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TSV = os.path.join(ROOT, "docs", "conformance.tsv")
DOC = os.path.join(ROOT, "docs", "conformance.md")
STATUSES = ["pass", "mismatch", "compile-unsupported", "compile-error", "run-error",
            "crash", "excluded"]
FAILURES = STATUSES[1:-1]
TIMEOUT_S = 120
NODE_GOAL = 95.0

# tc-run's own defaults; integer and bool outputs are compared exactly
# whatever the tolerances.
DEFAULT_RTOL, DEFAULT_ATOL = 1e-3, 1e-5

# Looser tolerances, only where the error was looked at and is explained by
# how the reference was computed rather than by a wrong result. Keyed by op
# type (applies to every case whose model holds the op) or by case name;
# where several apply, the loosest rtol and atol are taken. None is needed
# so far: at the defaults no case that runs mismatches.
# op or suite/case -> (rtol, atol, why)
TOLERANCE_OVERRIDES = {
}


# Ops whose outputs are random draws: no implementation can reproduce the
# reference's numbers (numpy's generator), so their cases compare each
# output's shape and dtype, and check that every value lies in the set the
# expected values come from when that set is {0, 1} (Bernoulli), and that
# floats are finite otherwise.
RANDOM_OPS = {"Bernoulli", "RandomUniform", "RandomUniformLike", "RandomNormal",
              "RandomNormalLike"}


def has_random_op(model, ops):
    """True when the model draws random numbers: a random op, or a Dropout
    with a training_mode input (only a constant false would make it exact)."""
    if ops & RANDOM_OPS:
        return True
    return any(n.op_type == "Dropout" and len(n.input) > 2 and n.input[2]
               for n in model.graph.node)


def check_random_outputs(expected_paths, out_dir, output_names):
    """None when the outputs written to out_dir fit the expected ones, else why."""
    import numpy as np
    from onnx import numpy_helper
    for name, path in zip(output_names, expected_paths):
        tensor = onnx.TensorProto()
        with open(path, "rb") as f:
            tensor.ParseFromString(f.read())
        want = numpy_helper.to_array(tensor)
        got_path = os.path.join(out_dir, name + ".npy")
        if not os.path.exists(got_path):
            return f"{name}: tc-run wrote no output"
        got = np.load(got_path)
        if got.shape != want.shape or got.dtype != want.dtype:
            return (f"{name}: MISMATCH: got {got.dtype}{list(got.shape)}, "
                    f"expected {want.dtype}{list(want.shape)}")
        if want.size and set(np.unique(want).tolist()) <= {0, 1}:
            if not set(np.unique(got).tolist()) <= {0, 1}:
                return f"{name}: MISMATCH: values outside {{0, 1}}"
        elif got.dtype.kind == "f" and not np.isfinite(got).all():
            return f"{name}: MISMATCH: values that are not finite"
    return None


def tolerances(name, ops):
    """(rtol, atol, the overrides that applied) for a case."""
    rtol, atol, applied = DEFAULT_RTOL, DEFAULT_ATOL, []
    for key in [name] + sorted(ops):
        if key in TOLERANCE_OVERRIDES:
            r, a, _ = TOLERANCE_OVERRIDES[key]
            rtol, atol = max(rtol, r), max(atol, a)
            applied.append(key)
    return rtol, atol, applied


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def first_line(text, pattern=None):
    """The first non-blank line of text (matching pattern, if given)."""
    for line in text.splitlines():
        line = line.strip()
        if line and (pattern is None or re.search(pattern, line)):
            return line
    return ""


def one_line(text, limit=300):
    """A detail fit for one TSV field."""
    text = " ".join(text.replace("\t", " ").split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def abnormal_end(tool, returncode, stderr):
    """The crash detail for an exit that is neither success nor a reported
    failure, or None for those two."""
    # A fatal error (an LLVM or MLIR crash handler's stack dump) can also end
    # in status 1; it is still a crash, not a diagnosed failure.
    fatal = returncode == 1 and re.search(r"^(LLVM ERROR|Stack dump):", stderr, re.M)
    if 0 <= returncode <= 1 and not fatal:
        return None
    if fatal:
        how = "fatal error"
    elif returncode < 0:
        try:
            how = f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            how = f"killed by signal {-returncode}"
    else:
        how = f"exit code {returncode}"
    # An assertion or fatal error message says more than the signal.
    hint = first_line(stderr, r"Assertion|LLVM ERROR|UNREACHABLE|error:|terminate")
    return f"{tool} {how}" + (f": {hint}" if hint else "")


def compile_failure(stderr):
    """(status, detail) of a tc-compile that exited with status 1."""
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    if lines and "unsupported piece" in lines[0]:
        # As in the import sweep: "node (Op): reason" -> "Op: reason".
        reason = lines[1] if len(lines) > 1 else lines[0]
        if "(" in reason and "): " in reason:
            op = reason[reason.index("(") + 1: reason.index("): ")]
            reason = op + ": " + reason[reason.index("): ") + 3:]
        return "compile-unsupported", reason
    line = first_line(stderr, r"error:") or first_line(stderr) or "no message"
    # MLIR diagnostics carry the ONNX node as loc("name"("Op")): keep the op,
    # which is what the failures are grouped by.
    m = re.match(r'loc\((.*)\): error: (.*)$', line)
    if m:
        op = re.search(r'"[^"]*"\("([^"]+)"\)', m.group(1))
        return "compile-error", (op.group(1) + ": " if op else "") + m.group(2)
    return "compile-error", line.split("error: ", 1)[-1]


class Case:
    """One case's run: its commands and their logs, kept for --keep."""

    def __init__(self, suite, case, work):
        self.suite, self.case = suite, case
        self.name = f"{suite}/{case}"
        self.dir = os.path.join(data_dir(), suite, case)
        self.work = work
        self.log = []  # (command, output) in the order they ran

    def call(self, argv):
        """Runs argv in the work directory (so that the kept commands run
        again in the kept copy); returns (returncode, stdout, stderr), or
        None on timeout."""
        try:
            p = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                               timeout=TIMEOUT_S, cwd=self.work)
        except subprocess.TimeoutExpired:
            self.log.append((argv, f"timed out after {TIMEOUT_S} s"))
            return None
        self.log.append((argv, p.stdout + p.stderr))
        return p.returncode, p.stdout, p.stderr

    def keep(self, keep_dir, status, detail):
        dest = os.path.join(keep_dir, self.suite, self.case)
        shutil.rmtree(dest, ignore_errors=True)  # no leftovers of an earlier run
        shutil.copytree(self.work, dest, dirs_exist_ok=True)
        with open(os.path.join(dest, "repro.sh"), "w") as f:
            f.write(f"#!/bin/sh\n# {self.name}: {status}: {detail}\n"
                    'cd "$(dirname "$0")"\n')
            for argv, _ in self.log:
                f.write(shlex.join(argv) + "\n")
        with open(os.path.join(dest, "log.txt"), "w") as f:
            for argv, output in self.log:
                f.write(f"$ {shlex.join(argv)}\n{output}\n")


def run_case(tools, suite, case, work_root, keep_dir):
    """(name, status, detail, seconds) of one case."""
    start = time.time()
    work = tempfile.mkdtemp(prefix=case + "-", dir=work_root)
    c = Case(suite, case, work)
    try:
        status, detail = check_case(tools, c)
        if keep_dir and status not in ("pass", "excluded"):
            c.keep(keep_dir, status, detail)
        return c.name, status, detail, time.time() - start
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_case(tools, c):
    """(status, detail) of one case."""
    tc_compile, tc_run = tools
    model_path = os.path.join(c.dir, "model.onnx")
    model = onnx.load(model_path, load_external_data=False)
    why = exclusion(model)
    if why:
        return "excluded", why
    data_sets = sorted(glob.glob(os.path.join(c.dir, "test_data_set_*")),
                       key=lambda d: int(d.rsplit("_", 1)[1]))
    if not data_sets:
        return "run-error", "the case has no test data set"
    ops = op_types(model)
    rtol, atol, overrides = tolerances(c.name, ops)
    random = has_random_op(model, ops)
    inputs = graph_inputs(model)
    libraries = {}  # bound values -> compiled library
    bound_names = set()
    for ds in data_sets:
        where = f"{os.path.basename(ds)}: " if len(data_sets) > 1 else ""
        bound = parameter_inputs(model, ds) if BIND else []
        # Data sets that bind the same values share one compilation.
        key = tuple((name, read_bytes(path)) for name, path in bound)
        if key not in libraries:
            # "./": a bare file name would send dlopen to the library search path.
            library = f"./model-{len(libraries)}.so" if libraries else "./model.so"
            argv = [tc_compile, model_path, "-o", library] + COMPILE_FLAGS + \
                [f"--bind={name}={path}" for name, path in bound]
            result = c.call(argv)
            if result is None:
                return "crash", f"tc-compile timed out after {TIMEOUT_S} s"
            rc, _, err = result
            crash = abnormal_end("tc-compile", rc, err)
            if crash:
                return "crash", one_line(where + crash)
            if rc != 0:
                status, detail = compile_failure(err)
                return status, one_line(where + detail)
            libraries[key] = library
        names = {name for name, _ in bound}
        bound_names |= names
        argv = [tc_run, libraries[key], "--threads=1", f"--rtol={rtol:g}", f"--atol={atol:g}"]
        for index, name in enumerate(inputs):
            path = os.path.join(ds, f"input_{index}.pb")
            if name not in names and os.path.exists(path):
                argv.append(f"--input={name}={path}")
        # Expected outputs go by position, so they stop at the first gap.
        expected = []
        for index in range(len(model.graph.output)):
            path = os.path.join(ds, f"output_{index}.pb")
            if not os.path.exists(path):
                break
            expected.append(path)
        out_dir = os.path.join(c.work, f"outputs-{os.path.basename(ds)}")
        if random:
            os.makedirs(out_dir, exist_ok=True)
            argv.append(f"--output={out_dir}")
        else:
            argv += [f"--compare={path}" for path in expected]
        result = c.call(argv)
        if result is None:
            return "crash", f"tc-run timed out after {TIMEOUT_S} s"
        rc, out, err = result
        crash = abnormal_end("tc-run", rc, err)
        if crash:
            return "crash", one_line(where + crash)
        if rc != 0:
            mismatch = first_line(out, r": MISMATCH")
            if mismatch:
                return "mismatch", one_line(where + mismatch)
            message = first_line(err) or first_line(out) or "no message"
            return "run-error", one_line(where + message.replace("tc-run: error: ", "", 1))
        if random:
            problem = check_random_outputs(
                expected, out_dir, [o.name for o in model.graph.output])
            if problem:
                return "mismatch", one_line(where + problem)
            continue
        # A pass must have compared every output the test data gives.
        compared = sum(1 for a in argv if a.startswith("--compare="))
        matched = sum(1 for line in out.splitlines() if ": OK: " in line)
        if matched != compared:
            return "run-error", one_line(
                f"{where}tc-run exited 0 but reported {matched} of {compared} outputs as OK")
    notes = ["bound: " + ",".join(sorted(bound_names))] if bound_names else []
    if overrides:
        notes.append(f"rtol {rtol:g} atol {atol:g} ({', '.join(overrides)})")
    if random:
        notes.append("random: shape, dtype and support compared")
    return "pass", "; ".join(notes)


# --target: extra tc-compile flags, for the GPU emulation run.
# Every case is compiled, never taken from the compile cache (thousands of
# entries of no later use).
COMPILE_FLAGS = ["--no-cache"]
# --unbound: shape-parameter inputs are run-time inputs like the others, as a
# user's model with a computed `k` or `sizes` has them (the headline figure).
BIND = True
UNBOUND_TSV = os.path.join(ROOT, "docs", "conformance-unbound.tsv")


def load_tsv(path=None):
    """The tracked table (TSV, or `path`): case -> (status, detail)."""
    path = path or TSV
    table = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                name, status, *rest = line.rstrip("\n").split("\t")
                table[name] = (status, rest[0] if rest else "")
    return table


def cause(detail):
    """(cause, tag) a failure is grouped under in the report: the detail
    with what varies between cases of one cause (numbers, shapes, value
    names) blotted out, and the op it names (or the element type)."""
    detail = re.sub(r"^test_data_set_\d+: ", "", detail)
    tag, sep, message = detail.partition(": ")
    if not sep or not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", tag):
        tag, message = "", detail
    # An element type models cannot take or return is one cause, whatever
    # the type and whether at an input or an output.
    m = re.match(r"(?:input|output) \d+ has element type (\S+), (.*)", message)
    if m:
        return f"a model input or output has an element type {m.group(2)}", m.group(1)
    # Quoted MLIR op names ('tc.resize') name the cause; other quoted text
    # (value names) does not.
    message = re.sub(r"'(?![a-z_]+\.[a-z_.]+')[^']*'", "'…'", message)
    message = re.sub(r"<[^<>]*>", "<…>", message)
    message = re.sub(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])", "N", message)
    return message[:120], tag


def subject_op(name):
    """The op a node case tests: its only op, or, for an expanded function
    or a multi-node case, the op named at the start of the case."""
    suite, case = name.split("/", 1)
    model = onnx.load(os.path.join(data_dir(), suite, case, "model.onnx"),
                      load_external_data=False)
    ops = {n.op_type for n in model.graph.node} - {"Constant"}
    if len(ops) == 1:
        return ops.pop()
    if suite != "node":
        return f"{suite} model ({len(model.graph.node)} nodes)"
    return case[len("test_"):].split("_")[0] + " (a node test of several ops)"


def write_table(table):
    with open(TSV, "w") as f:
        f.write("# case\tstatus\tdetail (utils/onnx_conformance.py --update)\n")
        for name in sorted(table):
            status, detail = table[name]
            f.write(f"{name}\t{status}\t{detail}\n")


def write_outputs(table):
    """docs/conformance.tsv and docs/conformance.md from case -> (status, detail)."""
    write_table(table)
    counts = collections.defaultdict(collections.Counter)
    for name, (status, _) in table.items():
        counts[name.split("/")[0]][status] += 1
    # The GPU section belongs to utils/gpu_offline_validation.py: kept as is.
    gpu_section = ""
    if os.path.exists(DOC):
        old = open(DOC).read()
        begin, end = "<!-- gpu-offline: begin -->", "<!-- gpu-offline: end -->"
        if begin in old and end in old:
            gpu_section = old[old.index(begin):old.index(end) + len(end)] + "\n"
    with open(DOC, "w") as f:
        f.write("# ONNX conformance (CPU)\n\n")
        f.write(
            "The conformance run (`utils/onnx_conformance.py`) compiles every model of the "
            f"ONNX backend test data of onnx {onnx.__version__} with `tc-compile`, runs it "
            "with `tc-run --threads=1` on each of the case's test data sets and compares "
            "every output with the expected one. Shape-parameter inputs (a Reshape's "
            "shape, a reduction's axes, ...) are specialized to the test's values with "
            "`tc-compile --bind`, as in the [import sweep](onnx-import.md); the other "
            "inputs are passed by name. Training, sequence/optional and string cases, and the classical-ML domain (ai.onnx.ml), are "
            "out of scope (excluded). Per-case results: "
            "[conformance.tsv](conformance.tsv); `--check` fails when a case listed as "
            "pass stops passing or when anything crashes.\n\n")
        f.write(
            "Statuses: **pass**; **mismatch** (ran, an output differs); "
            "**compile-unsupported** (the importer reports unsupported pieces); "
            "**compile-error** (tc-compile fails after import, in the graph passes or code "
            "generation); **run-error** (tc-run fails before comparing); **crash** (a tool "
            "is killed by a signal, exits with an unexpected status or times out after "
            f"{TIMEOUT_S} s: always a bug).\n\n")
        f.write("## Tolerances\n\n")
        f.write(
            f"Floating-point outputs match when |got − expected| ≤ atol + rtol·|expected| "
            f"elementwise, with rtol {DEFAULT_RTOL:g} and atol {DEFAULT_ATOL:g} (tc-run's "
            "defaults); NaN must match NaN and infinities must be equal. Integer and bool outputs, and shapes and "
            "dtypes, must match exactly. Outputs of random ops (" + ", ".join(sorted(RANDOM_OPS)) +
            ", and Dropout given a training_mode) cannot match the reference's draws: their shapes and dtypes must match, and "
            "their values must lie in {0, 1} where the expected ones do (Bernoulli) and "
            "be finite otherwise. Overrides, each after looking at the actual "
            "error:\n\n")
        if TOLERANCE_OVERRIDES:
            f.write("| op or case | rtol | atol | why |\n|---|---|---|---|\n")
            for key, (r, a, why) in sorted(TOLERANCE_OVERRIDES.items()):
                f.write(f"| {key} | {r:g} | {a:g} | {why} |\n")
            f.write("\n")
        else:
            mismatches = sum(1 for s, _ in table.values() if s == "mismatch")
            f.write("None." + (" No case that compiles and runs exceeds the defaults."
                               if not mismatches else "") + "\n\n")
        f.write("## Counts\n\n")
        f.write("| suite | in scope | pass | " + " | ".join(FAILURES) +
                " | excluded | pass / in scope |\n")
        f.write("|---" * (len(FAILURES) + 5) + "|\n")
        total = collections.Counter()
        for suite in SUITES:
            c = counts[suite]
            total.update(c)
            f.write(table_row(suite, c))
        f.write(table_row("**all**", total) + "\n")
        node = counts["node"]
        scope = sum(node.values()) - node["excluded"]
        f.write(f"Node cases in scope that pass: {node['pass']} of {scope}, "
                f"**{100.0 * node['pass'] / max(scope, 1):.1f} %** "
                f"(goal: {NODE_GOAL:g} %).\n\n")
        if os.path.exists(UNBOUND_TSV):
            unbound = collections.Counter(
                s for n, (s, _) in load_tsv(UNBOUND_TSV).items() if n.startswith("node/"))
            unbound_scope = sum(unbound.values()) - unbound["excluded"]
            f.write(
                "Unbound, the headline figure: with shape-parameter inputs given at run "
                "time like the others, as a user's model computes them (no `--bind`; "
                "`--unbound`, per case in [conformance-unbound.tsv](conformance-unbound.tsv)): "
                f"{unbound['pass']} of {unbound_scope} node cases in scope pass, "
                f"**{100.0 * unbound['pass'] / max(unbound_scope, 1):.1f} %**. The counts "
                "above are the bound run's.\n\n")
        f.write("## Most frequent failure reasons\n\n")
        f.write("Failures grouped by cause, numbers, names and types blotted out; the "
                "ops in brackets are those the first error names, with their case "
                "counts (for element types, the types). Mismatches are grouped by the op the "
                "case tests.\n\n")
        for status in FAILURES:
            cases = [(n, d) for n, (s, d) in table.items() if s == status]
            if not cases:
                continue
            f.write(f"### {status} ({len(cases)})\n\n")
            if status == "crash":
                for n, d in sorted(cases):
                    f.write(f"- {n}: {d}\n")
            elif status == "mismatch":
                groups = collections.Counter(subject_op(n) for n, _ in cases)
                for group, k in sorted(groups.items(), key=lambda g: (-g[1], g[0])):
                    f.write(f"- {k} × {group}\n")
            else:
                write_groups(f, cases)
            f.write("\n")
        f.write(gpu_section)


def table_row(label, c):
    scope = sum(c.values()) - c["excluded"]
    pct = 100.0 * c["pass"] / scope if scope else 0.0
    return (f"| {label} | {scope} | {c['pass']} | " +
            " | ".join(str(c[s]) for s in FAILURES) +
            f" | {c['excluded']} | {pct:.1f} % |\n")


def write_groups(f, cases, limit=40):
    """Failures grouped by cause, with the ops (or types) each names."""
    groups = collections.defaultdict(collections.Counter)
    for _, detail in cases:
        message, tag = cause(detail)
        groups[message][tag] += 1
    ranked = sorted(groups.items(), key=lambda g: (-sum(g[1].values()), g[0]))
    for message, ops in ranked[:limit]:
        named = ", ".join(f"{op} {k}" for op, k in
                          sorted(ops.items(), key=lambda o: (-o[1], o[0])) if op)
        f.write(f"- {sum(ops.values())} × {message}" + (f" ({named})" if named else "") + "\n")
    if len(ranked) > limit:
        rest = sum(sum(ops.values()) for _, ops in ranked[limit:])
        f.write(f"- {rest} cases with {len(ranked) - limit} other reasons\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tc-compile", default=os.path.join(ROOT, "build", "bin", "tc-compile"))
    ap.add_argument("--tc-run", default=os.path.join(ROOT, "build", "bin", "tc-run"))
    ap.add_argument("--check", action="store_true",
                    help="fail on a regression against docs/conformance.tsv")
    ap.add_argument("--update", action="store_true",
                    help="rewrite docs/conformance.tsv and docs/conformance.md (with "
                         "--filter, only the rows of the cases run change)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--filter", metavar="SUBSTRING",
                    help="run only the cases whose suite/case name contains this")
    ap.add_argument("--keep", metavar="DIR",
                    help="keep the library, logs and commands of failing cases in "
                         "DIR/suite/case")
    ap.add_argument("--unbound", action="store_true",
                    help="do not --bind shape-parameter inputs: they are given to "
                         "tc-run like the others (table: docs/conformance-unbound.tsv)")
    ap.add_argument("--target", choices=["cpu", "gpu-emulation", "gpu-emulation:reverse"],
                    default="cpu",
                    help="gpu-emulation: the GPU code generation, kernels run on the CPU; "
                         ":reverse runs their blocks and threads last to first (race check)")
    args = ap.parse_args()
    global TSV, BIND
    if args.unbound:
        if args.target != "cpu":
            ap.error("--unbound is a CPU figure")
        BIND = False
        TSV = UNBOUND_TSV
    if args.target != "cpu":
        COMPILE_FLAGS.append(f"--target={args.target}")
        TSV = os.path.join(ROOT, "docs", "gpu-emulation.tsv")
    if args.target.endswith(":reverse") and args.update:
        ap.error("--update with --target=gpu-emulation:reverse: the table is "
                 "gpu-emulation's; update it with --target=gpu-emulation")
    for tool in (args.tc_compile, args.tc_run):
        if not os.access(tool, os.X_OK):
            ap.error(f"{tool} is not an executable: build it or pass its path")
    tools = (os.path.abspath(args.tc_compile), os.path.abspath(args.tc_run))
    keep_dir = os.path.abspath(args.keep) if args.keep else None

    cases = [(s, c) for s, c in list_cases()
             if not args.filter or args.filter in f"{s}/{c}"]
    if not cases:
        print(f"conformance: no case matches '{args.filter}'")
        return 1
    print(f"conformance: {len(cases)} cases, {args.jobs} jobs", flush=True)
    start = last_report = time.time()
    results, counts, seconds_of = [], collections.Counter(), {}
    # Progress at every tenth of the cases or every minute, whichever comes
    # first: enough to see a CI job move without flooding its log.
    step = max(1, len(cases) // 10)
    with tempfile.TemporaryDirectory(prefix="tc-conformance-") as work_root, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_case, tools, s, c, work_root, keep_dir) for s, c in cases]
        for future in concurrent.futures.as_completed(futures):
            name, status, detail, seconds_of[name] = future.result()
            results.append((name, status, detail))
            counts[status] += 1
            if status == "crash":
                print(f"CRASH {name}: {detail}", flush=True)
            now = time.time()
            if len(results) % step == 0 or now - last_report >= 60 or \
                    len(results) == len(cases):
                last_report = now
                print(f"  {len(results)}/{len(cases)} cases, {now - start:.0f} s: " +
                      ", ".join(f"{s} {counts[s]}" for s in STATUSES if counts[s]),
                      flush=True)
    seconds = time.time() - start

    node = collections.Counter(s for n, s, _ in results if n.startswith("node/"))
    node_scope = sum(node.values()) - node["excluded"]
    print(f"conformance: {len(results)} cases in {seconds:.0f} s: " +
          ", ".join(f"{s} {counts[s]}" for s in STATUSES if counts[s]))
    # The slowest cases, to see how far the run is from the time limit.
    slowest = sorted(seconds_of.items(), key=lambda x: -x[1])[:3]
    print("slowest: " + ", ".join(f"{n} {t:.1f} s" for n, t in slowest))
    if node_scope:
        print(f"node pass rate: {node['pass']} of {node_scope} in scope, "
              f"{100.0 * node['pass'] / node_scope:.1f} % (goal {NODE_GOAL:g} %)")
    status = 0
    if counts["crash"]:
        status = 1
        for name, s, detail in sorted(results):
            if s == "crash":
                print(f"CRASH {name}: {detail}")
    tracked = load_tsv()
    if args.check:
        current = {name: (s, detail) for name, s, detail in results}
        # Only the cases run count: with --filter the others are not known.
        regressions = sorted(n for n, (s, _) in tracked.items()
                             if s == "pass" and n in current and current[n][0] != "pass")
        for n in regressions:
            print(f"REGRESSION {n}: was pass, now {current[n][0]}: {current[n][1]}")
        if regressions:
            status = 1
        improved = [n for n, (s, _) in current.items()
                    if s == "pass" and tracked.get(n, ("",))[0] != "pass"]
        if improved:
            print(f"{len(improved)} cases pass that the tracked table does not list as "
                  f"pass: run utils/onnx_conformance.py --update")
    if args.update:
        table = dict(tracked) if args.filter else {}
        table.update({name: (s, detail) for name, s, detail in results})
        if args.target == "cpu" and BIND:
            write_outputs(table)
            print(f"wrote {os.path.relpath(TSV, ROOT)} and {os.path.relpath(DOC, ROOT)}")
        else:
            write_table(table)
            print(f"wrote {os.path.relpath(TSV, ROOT)}")
    if keep_dir:
        print(f"artifacts of failing cases are in {keep_dir}")
    return status


if __name__ == "__main__":
    sys.exit(main())
