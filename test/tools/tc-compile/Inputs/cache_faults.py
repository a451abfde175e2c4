"""Faults against the compile cache (lib/Cache): concurrent compiles,
compiles killed at any moment, and damaged entries.

usage: cache_faults.py TC-COMPILE TC-RUN MODEL.onnx WORKDIR

  concurrent: four compiles of one model into one empty cache at once all
              succeed, their model.so files load, and the cache holds one
              whole entry;
  killed:     compiles into an empty cache killed (SIGKILL, the linker
              included) at a spread of moments across a compile leave no
              entry that is not whole: every entry loads (the runtime
              checks the seal), and a compile after each kill succeeds;
  damaged:    an entry with one flipped byte, and one truncated, is
              reported once (a warning naming the entry), removed, and
              rebuilt; the model.so it gives is whole and the next compile
              is a hit again.
Prints one line per part and 'ok' at the end; exits 1 on a failure.
"""
import glob
import os
import shutil
import signal
import subprocess
import sys
import time

tc_compile, tc_run, model, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def compile_into(cache, output, **kwargs):
    return [tc_compile, model, "-o", output, f"--cache-dir={cache}"], kwargs


def entries(cache):
    return sorted(glob.glob(os.path.join(cache, "v1", "??", "*.so")))


def loads(path):
    return subprocess.run([tc_run, path, "--print-signature"],
                          capture_output=True, text=True).returncode == 0


def stats(cache):
    out = subprocess.run([tc_compile, "--cache-stats", f"--cache-dir={cache}"],
                         capture_output=True, text=True, check=True).stdout
    return dict(line.split(": ", 1) for line in out.splitlines())


# Concurrent compiles of one model into one cache.
cache = os.path.join(work, "concurrent")
outputs = [os.path.join(work, f"concurrent-{i}.so") for i in range(4)]
processes = [subprocess.Popen([tc_compile, model, "-o", out, f"--cache-dir={cache}"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for out in outputs]
for p in processes:
    text, _ = p.communicate()
    if p.returncode != 0:
        fail(f"a concurrent compile failed: {text}")
    if "warning" in text:
        fail(f"a concurrent compile warned: {text}")
for out in outputs:
    if not loads(out):
        fail(f"{out} from a concurrent compile does not load")
found = entries(cache)
if len(found) != 1 or not loads(found[0]):
    fail(f"after concurrent compiles the cache holds {found}")
print("concurrent: 4 compiles succeeded, one whole entry")

# Compiles killed at any moment.
start = time.monotonic()
subprocess.run([tc_compile, model, "-o", os.path.join(work, "timed.so"), "--no-cache"], check=True)
full = time.monotonic() - start
killed = 0
for step in range(1, 13):
    cache = os.path.join(work, f"killed-{step}")
    output = os.path.join(work, f"killed-{step}.so")
    delay = full * step / 12
    p = subprocess.Popen([tc_compile, model, "-o", output, f"--cache-dir={cache}"],
                         start_new_session=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    time.sleep(delay)
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGKILL)
        killed += 1
    p.wait()
    time.sleep(0.05)
    for entry in entries(cache):
        if not loads(entry):
            fail(f"SIGKILL after {delay:.2f} s left a torn entry {entry}")
    again = subprocess.run([tc_compile, model, "-o", output, f"--cache-dir={cache}"],
                           capture_output=True, text=True)
    if again.returncode != 0 or "warning" in again.stderr or not loads(output):
        fail(f"the compile after SIGKILL at {delay:.2f} s: {again.stderr}")
print(f"killed: {killed} compiles killed, no torn entry")

# Damaged entries: one flipped byte, then a truncation.
cache = os.path.join(work, "damaged")
output = os.path.join(work, "damaged.so")
command = [tc_compile, model, "-o", output, f"--cache-dir={cache}"]
subprocess.run(command, check=True)
for damage in ("flipped", "truncated"):
    entry, = entries(cache)
    # The entry and model.so are one file (a hard link): break the link
    # first so that only the entry is damaged, as a disk fault would.
    os.unlink(output)
    with open(entry, "r+b") as f:
        if damage == "flipped":
            f.seek(os.path.getsize(entry) // 2)
            byte = f.read(1)
            f.seek(-1, os.SEEK_CUR)
            f.write(bytes([byte[0] ^ 0x40]))
        else:
            f.truncate(os.path.getsize(entry) // 3)
    result = subprocess.run(command, capture_output=True, text=True)
    warnings = [l for l in result.stderr.splitlines() if "warning" in l]
    if result.returncode != 0 or len(warnings) != 1 or "is damaged" not in warnings[0] \
            or entry not in warnings[0]:
        fail(f"{damage} entry: exit {result.returncode}, stderr: {result.stderr}")
    if not loads(output) or len(entries(cache)) != 1 or not loads(entries(cache)[0]):
        fail(f"{damage} entry was not rebuilt whole")
    hit = subprocess.run(command + ["--timing"], capture_output=True, text=True)
    if "cache hit" not in hit.stderr or "warning" in hit.stderr:
        fail(f"after the {damage} entry was rebuilt, no hit: {hit.stderr}")
    print(f"damaged: a {damage} entry reported once: {warnings[0].split(': ', 2)[2][:60]}...")
s = stats(cache)
if (s["hits"], s["misses"]) != ("2", "3"):
    fail(f"damaged: stats {s}")
print("ok")
