#!/usr/bin/env python3
"""Import sweep over the ONNX backend test data.

Runs `tc-translate --import-onnx` on every model of the node, simple,
pytorch-converted and pytorch-operator suites of the installed onnx package
and classifies each case:

  ok           imported and verified (some with bound shape parameters,
               see below)
  unsupported  reported unsupported pieces (the first reason is recorded)
  invalid      rejected as a malformed model
  crash        killed by a signal or timed out: always a bug
  excluded     out of scope: training, sequence/optional or string cases

The node tests often pass shape parameters (Reshape's shape, a reduction's
axes, Resize's scales, ...) as graph inputs. The sweep specializes those
inputs to the test's own values with `--onnx-bind`, as a user would with
`tc-compile --bind`, and records which inputs it bound; the counts report
these cases separately.

Results go to docs/onnx-import-sweep.tsv (one line per case) and the counts
to docs/onnx-import.md. With --check, the run fails when a case that the
tracked table lists as ok no longer is, or when anything crashes.

Usage: onnx_import_sweep.py --tc-translate BUILD/bin/tc-translate [--check]
       [--update] [--jobs N]
"""
import argparse
import collections
import concurrent.futures
import os
import subprocess
import sys
import time

import onnx

from onnx_backend_cases import SUITES, data_dir, exclusion, list_cases, parameter_inputs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TSV = os.path.join(ROOT, "docs", "onnx-import-sweep.tsv")
DOC = os.path.join(ROOT, "docs", "onnx-import.md")


def parameter_bindings(model, case_dir):
    """--onnx-bind flags for graph inputs used only in parameter slots."""
    bound = parameter_inputs(model, os.path.join(case_dir, "test_data_set_0"))
    return [f"--onnx-bind={name}={data}" for name, data in bound], [n for n, _ in bound]


def run_case(tool, suite, case):
    case_dir = os.path.join(data_dir(), suite, case)
    path = os.path.join(case_dir, "model.onnx")
    name = f"{suite}/{case}"
    m = onnx.load(path, load_external_data=False)
    why = exclusion(m)
    if why:
        return name, "excluded", why
    flags, bound = parameter_bindings(m, case_dir)
    try:
        p = subprocess.run([tool, "--import-onnx", path, "-o", os.devnull] + flags,
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return name, "crash", "timed out after 120 s"
    if p.returncode < 0 or p.returncode > 1:
        return name, "crash", f"exit code {p.returncode}"
    if p.returncode == 0:
        return name, "ok", ("bound: " + ",".join(bound)) if bound else ""
    lines = [l.strip() for l in p.stderr.splitlines() if l.strip()]
    if lines and "unsupported piece" in lines[0]:
        reason = lines[1] if len(lines) > 1 else lines[0]
        # "node (Op): reason" -> "Op: reason"
        if "(" in reason and "): " in reason:
            op = reason[reason.index("(") + 1: reason.index("): ")]
            reason = op + ": " + reason[reason.index("): ") + 3:]
        return name, "unsupported", reason
    return name, "invalid", lines[0].split("error: ", 1)[-1] if lines else "?"


def load_tsv():
    table = {}
    if os.path.exists(TSV):
        with open(TSV) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                name, status, *rest = line.rstrip("\n").split("\t")
                table[name] = status
    return table


def write_outputs(results, seconds):
    with open(TSV, "w") as f:
        f.write("# case\tstatus\treason (utils/onnx_import_sweep.py --update)\n")
        for name, status, reason in sorted(results):
            f.write(f"{name}\t{status}\t{reason}\n")
    counts = collections.defaultdict(collections.Counter)
    for name, status, reason in results:
        key = "bound" if status == "ok" and reason.startswith("bound:") else status
        counts[name.split("/")[0]][key] += 1
    reasons = collections.Counter(
        r.split(":")[0] + ": " + r.split(":", 1)[1].strip()[:60] if ":" in r else r
        for _, s, r in results if s == "unsupported")
    with open(DOC, "w") as f:
        f.write("# ONNX import coverage\n\n")
        f.write(f"The import sweep (`utils/onnx_import_sweep.py`) runs "
                f"`tc-translate --import-onnx` over the ONNX backend test data of "
                f"onnx {onnx.__version__}. Each case imports and verifies (ok), is "
                f"reported unsupported with its reason, is rejected as malformed "
                f"(invalid), or is out of scope (excluded: training, "
                f"sequence/optional and string cases, the ai.onnx.ml domain). A crash is always a bug. "
                f"Per-case results: [onnx-import-sweep.tsv](onnx-import-sweep.tsv); "
                f"`utils/test.sh` fails when a case listed ok stops importing.\n\n")
        f.write("| suite | ok | of which with bound parameters | unsupported | invalid | "
                "crash | excluded | in scope | ok / in scope |\n")
        f.write("|---|---|---|---|---|---|---|---|---|\n")
        total = collections.Counter()
        for suite in SUITES:
            c = counts[suite]
            total.update(c)
            scope = sum(c.values()) - c["excluded"]
            ok = c["ok"] + c["bound"]
            pct = 100.0 * ok / scope if scope else 0.0
            f.write(f"| {suite} | {ok} | {c['bound']} | {c['unsupported']} | {c['invalid']} | "
                    f"{c['crash']} | {c['excluded']} | {scope} | {pct:.1f} % |\n")
        scope = sum(total.values()) - total["excluded"]
        ok = total["ok"] + total["bound"]
        f.write(f"| **all** | {ok} | {total['bound']} | {total['unsupported']} | "
                f"{total['invalid']} | {total['crash']} | {total['excluded']} | {scope} | "
                f"{100.0 * ok / max(scope, 1):.1f} % |\n\n")
        f.write("Cases with bound parameters import once their shape-parameter "
                "inputs are specialized to the test's values (`--onnx-bind`, "
                "`tc-compile --bind`); without that they need run-time shapes "
                "that tc does not support for those ops yet.\n\n")
        f.write(f"Sweep time: {seconds:.0f} s.\n\n## Most frequent unsupported reasons\n\n")
        for reason, n in reasons.most_common(40):
            f.write(f"- {n} × {reason}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tc-translate", required=True)
    ap.add_argument("--check", action="store_true",
                    help="fail on a regression against docs/onnx-import-sweep.tsv")
    ap.add_argument("--update", action="store_true",
                    help="rewrite docs/onnx-import-sweep.tsv and docs/onnx-import.md")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    args = ap.parse_args()

    cases = list_cases()
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda sc: run_case(args.tc_translate, *sc), cases))
    seconds = time.time() - start
    counts = collections.Counter(s for _, s, _ in results)
    print(f"import sweep: {len(results)} cases in {seconds:.0f} s: " +
          ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    status = 0
    for name, s, reason in results:
        if s == "crash":
            print(f"CRASH {name}: {reason}")
            status = 1
    if args.check:
        tracked = load_tsv()
        now = {name: s for name, s, _ in results}
        regressions = [n for n, s in tracked.items() if s == "ok" and now.get(n) != "ok"]
        for n in regressions:
            print(f"REGRESSION {n}: was ok, now {now.get(n, 'missing')}")
        if regressions:
            status = 1
        improved = [n for n, s in now.items() if s == "ok" and tracked.get(n) != "ok"]
        if improved:
            print(f"{len(improved)} cases import now that the tracked table does not "
                  f"list as ok: run utils/onnx_import_sweep.py --update")
    if args.update:
        write_outputs(results, seconds)
        print(f"wrote {os.path.relpath(TSV, ROOT)} and {os.path.relpath(DOC, ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
