"""Running tc-compile: ONNX file in, model.so out, through the compile cache."""
from __future__ import annotations

import os
import shutil
import subprocess
import warnings
from typing import Optional, Sequence

from ._tc import TcError

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def tool(name: str) -> str:
    """The path of one of tc's tools (tc-compile, tc-run): the one packaged
    with this module (tc/bin), else TC_COMPILE / TC_RUN when set, else the
    first on PATH."""
    override = os.environ.get(name.upper().replace("-", "_"))
    if override:
        return override
    packaged = os.path.join(_PACKAGE, "bin", name)
    if os.access(packaged, os.X_OK):
        return packaged
    found = shutil.which(name)
    if found is None:
        raise TcError(f"cannot find {name}: the tc package has no bin/{name} "
                      "and none is on PATH")
    return found


# The modes and precisions of tc.compile. Only those tc implements are
# accepted; the others fail with a message instead of being ignored.
MODES = ("default", "reduce-overhead", "max-autotune")
PRECISIONS = ("fp32", "tf32", "fp16", "bf16")


def check_mode(mode: str, precision: str) -> None:
    if mode not in MODES:
        raise TcError(f"mode={mode!r}: expected one of {', '.join(MODES)}")
    if precision not in PRECISIONS:
        raise TcError(f"precision={precision!r}: expected one of {', '.join(PRECISIONS)}")


def mode_flags(mode: str) -> list:
    """tc-compile's flags for a compile mode: max-autotune times candidate
    kernel configurations on this machine (docs/autotuning.md);
    reduce-overhead marks the library so that its runs keep the CPU threads
    awake and replay GPU runs as graphs (docs/modes.md)."""
    return [] if mode == "default" else [f"--mode={mode}"]


def precision_flags(precision: str) -> list:
    """tc-compile's flags for a precision policy (docs/precision.md):
    contractions, convolutions and attention in fp16/bf16 with f32
    accumulation, or with their factors rounded to TF32, the model's input
    and output types unchanged."""
    return [] if precision == "fp32" else [f"--precision={precision}"]


def target_flags(target: str) -> list:
    """tc-compile's flags for `target` ("cpu", "cuda:sm_90", "rocm:gfx942",
    or several GPU targets comma-separated)."""
    if target in ("", "cpu"):
        return []
    return [f"--target={target}"]


def compile_onnx(model: str, output: Optional[str] = None,
                 flags: Sequence[str] = ()) -> str:
    """Runs tc-compile on an ONNX file and returns the path of the model.so.

    output: where to write it (default: the model's path with .so). flags:
    more tc-compile options ("--bind=NAME=FILE.pb", "--cpu=x86-64-v3").
    Goes through tc-compile's compile cache like the command line does (a
    second compile of the same model and flags is a hit); pass "--no-cache"
    or "--cache-dir=DIR" in `flags`, or set TC_CACHE_DIR. Warnings of
    tc-compile (a damaged cache entry, an unreachable TC_REMOTE_CACHE) go to
    Python's warnings; errors raise TcError with tc-compile's message.
    """
    model = os.fspath(model)
    output = os.fspath(output) if output else os.path.splitext(model)[0] + ".so"
    if isinstance(flags, str):
        flags = [flags]
    result = subprocess.run([tool("tc-compile"), model, "-o", output, *flags],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise TcError(result.stderr.strip() or
                      f"tc-compile failed with exit status {result.returncode}")
    for line in result.stderr.splitlines():
        if "warning:" in line:
            warnings.warn(line, stacklevel=2)
    return output
