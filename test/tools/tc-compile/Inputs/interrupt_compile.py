"""Interrupts tc-compile at many moments and checks what it leaves behind.

usage: interrupt_compile.py TC-COMPILE TC-RUN MODEL.onnx WORKDIR

A first compile writes WORKDIR/out/model.so. Then, for a spread of delays
across a full compile's duration, a second compile of the same model into the
same path is started in its own process group and killed (SIGKILL, then
SIGTERM) after the delay, the linker child included. After every kill:
  - model.so is still there and is a complete, loadable model (the old one
    or the new one, never a partial file and never missing);
  - TMPDIR holds nothing of the compile (the object and the linker's log);
  - after SIGTERM, no temporary is left beside model.so either.
Prints one line per kind of signal and 'ok' at the end; exits 1 on a failure.
"""
import os
import signal
import subprocess
import sys
import time

tc_compile, tc_run, model, work = sys.argv[1:5]
out_dir = os.path.join(work, "out")
tmp_dir = os.path.join(work, "tmp")
os.makedirs(out_dir, exist_ok=True)
os.makedirs(tmp_dir, exist_ok=True)
output = os.path.join(out_dir, "model.so")
env = dict(os.environ, TMPDIR=tmp_dir)
command = [tc_compile, model, "-o", output, "--no-cache"]


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


start = time.monotonic()
subprocess.run(command, env=env, check=True)
full = time.monotonic() - start

for sig in (signal.SIGKILL, signal.SIGTERM):
    killed = 0
    for step in range(1, 13):
        delay = full * step / 12
        process = subprocess.Popen(command, env=env, start_new_session=True,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        if process.poll() is None:
            os.killpg(process.pid, sig)
            killed += 1
        process.wait()
        # The linker may outlive tc-compile by a moment.
        time.sleep(0.05)
        if not os.path.exists(output):
            fail(f"{sig.name} after {delay:.2f} s: model.so is gone")
        check = subprocess.run([tc_run, output, "--print-signature"],
                               capture_output=True, text=True)
        if check.returncode != 0:
            fail(f"{sig.name} after {delay:.2f} s: model.so does not load: {check.stderr}")
        left = os.listdir(tmp_dir)
        if left:
            fail(f"{sig.name} after {delay:.2f} s: left in TMPDIR: {left}")
        beside = [f for f in os.listdir(out_dir) if f != "model.so"]
        if sig == signal.SIGTERM and beside:
            fail(f"SIGTERM after {delay:.2f} s: left beside model.so: {beside}")
        for f in beside:  # SIGKILL cannot be cleaned up after; start afresh
            os.remove(os.path.join(out_dir, f))
    print(f"{sig.name}: {killed} compiles interrupted, model.so intact each time")
print("ok")
