import shutil
# lit configuration of the tc test suite: test/ mirrors lib/.
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tc_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "unittests", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.tc_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tc-opt", "tc-translate", "tc-compile"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tc_tools_dir, append_path=True)

# Python with the onnx package (the project virtualenv) builds test models.
config.substitutions.append(("%pyonnx", config.python_executable))
# `import tc` as this build stages it (build/python_packages/tc: the
# package, its extension, and links to this build's runtime and tools).
llvm_config.with_environment("PYTHONPATH", os.path.join(config.tc_obj_root, "python_packages"))
# Tests never touch the user's compile cache; those about the cache name
# their own directory.
llvm_config.with_environment("TC_CACHE_DIR", os.path.join(config.tc_obj_root, "test", "compile-cache"))
llvm_config.with_environment("TC_COMPILE", os.path.join(config.tc_tools_dir, "tc-compile"))
# The runtime's hand-written fake modules and fake NVIDIA driver
# (test/unittests/Runtime: ninja TcRuntimeFakeModules).
config.substitutions.append(
    ("%tc_fake_modules", os.path.join(config.tc_obj_root, "test", "unittests", "Runtime")))
config.substitutions.append(("%models", os.path.join(config.tc_src_root, "test", "Frontend", "Onnx", "Inputs", "models.py")))

# The CUDA toolkit's stub libcuda.so (link-time only: every call fails with
# CUDA_ERROR_STUB_LIBRARY), which still exports the real driver's symbols.
cuda_roots = [os.environ.get("TC_CUDA_PATH", ""), os.environ.get("CUDA_HOME", ""),
              "/usr/local/cuda"]
cuda_stub = next((os.path.join(r, "lib64", "stubs", "libcuda.so") for r in cuda_roots
                  if r and os.path.exists(os.path.join(r, "lib64", "stubs", "libcuda.so"))),
                 None)
if cuda_stub:
    config.available_features.add("cuda-stub")
    config.substitutions.append(("%cuda_stub", cuda_stub))
# The toolkit's ptxas, for register and spill reports of the PTX (tests use
# it under `%if ptxas`).
ptxas = next((os.path.join(r, "bin", "ptxas") for r in cuda_roots
              if r and os.access(os.path.join(r, "bin", "ptxas"), os.X_OK)), None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# The real exported models (../shared/models) and the reproducers of exports
# tc did not handle (../shared/repro, tested like the models once tc handles
# them) live beside the repository on our machines; TC_SHARED_MODELS and
# TC_SHARED_REPRO override where to look.
def shared_dir(kind, env):
    candidates = [os.environ.get(env, ""),
                  os.path.join(os.path.dirname(config.tc_src_root), "shared", kind),
                  os.path.join("/work/shared", kind)]
    found = next((c for c in candidates if c and os.path.isdir(c)), None)
    if found:
        config.available_features.add("shared-" + kind)
        config.substitutions.append(("%shared_" + kind, found))


shared_dir("models", "TC_SHARED_MODELS")
shared_dir("repro", "TC_SHARED_REPRO")

# A build with AddressSanitizer (utils/sanitize.sh): tests that limit the
# address space, which ASan's shadow memory needs, are not for it.
if "Address" in getattr(config, "tc_sanitizers", ""):
    config.available_features.add("asan")

# Debian's python3-torch (utils/setup.sh installs it) exports models with
# torch.onnx.export, as users do; it belongs to Debian's python3, not to the
# project virtualenv.
import subprocess
torch_python = os.environ.get("TC_TORCH_PYTHON", "/usr/bin/python3")
try:
    if subprocess.run([torch_python, "-c", "import torch"], capture_output=True,
                      timeout=120).returncode == 0:
        config.available_features.add("torch")
        config.substitutions.append(("%pytorch", torch_python))
except (OSError, subprocess.TimeoutExpired):
    pass

# mlir-runner (mlir-22-tools) with MLIR's runner utilities, to run small
# lowered modules (the emulation's race check).
runner_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
runner_libs = [os.path.join(runner_lib_dir, f"lib{name}.so")
               for name in ("mlir_runner_utils", "mlir_c_runner_utils")]
if (os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-runner"))
        and all(os.path.exists(lib) for lib in runner_libs)):
    config.available_features.add("mlir-runner")
    config.substitutions.append(("%mlir_runner_libs", ",".join(runner_libs)))

# The host's CPU flags, for tests of models compiled for other CPUs.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = set(next((l for l in cpuinfo if l.startswith("flags")), "").split())
except OSError:
    cpu_flags = set()
if cpu_flags and "amx_tile" not in cpu_flags:
    config.available_features.add("cpu-lacks-amx")

# Debian's redis-server (utils/setup.sh installs it) for the remote cache.
if shutil.which("redis-server") and shutil.which("redis-cli"):
    config.available_features.add("redis")
