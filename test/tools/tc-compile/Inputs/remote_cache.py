"""The remote compile cache (TC_REMOTE_CACHE, lib/Cache/RemoteCache.cpp)
against a real Redis: a redis-server started here on a free loopback port
and stopped at the end.

usage: remote_cache.py TC-COMPILE TC-RUN MODEL.onnx WORKDIR

Each "machine" is a local cache directory of its own:
  shared:    machine A compiles; machine B, its local cache empty, gets the
             same model.so from Redis (a remote hit), and then a local hit;
  damaged:   an entry overwritten in Redis is reported once, removed and
             rebuilt, and the next machine gets the good one;
  down:      a Redis that refuses connections, and one that accepts and
             never answers, each give one warning and a model.so in about
             the time of a compile without them;
  malformed: a URL that is not redis:// gives one warning and a model.so.
Prints one line per part and 'ok' at the end; exits 1 on a failure.
"""
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

tc_compile, tc_run, model, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def compile_on(machine, url, extra_env=None):
    env = dict(os.environ, TC_REMOTE_CACHE=url, **(extra_env or {}))
    output = os.path.join(work, f"{machine}.so")
    start = time.monotonic()
    p = subprocess.run([tc_compile, model, "-o", output, "--timing",
                        f"--cache-dir={os.path.join(work, 'cache-' + machine)}"],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"machine {machine}: tc-compile failed: {p.stderr}")
    if subprocess.run([tc_run, output, "--print-signature"], capture_output=True).returncode:
        fail(f"machine {machine}: its model.so does not load")
    warnings = [l for l in p.stderr.splitlines() if "warning" in l]
    return output, p.stderr, warnings, time.monotonic() - start


port = free_port()
redis = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                          "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
try:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    url = f"redis://127.0.0.1:{port}/3"
    cli = ["redis-cli", "-p", str(port), "-n", "3"]

    a, log, warnings, cold = compile_on("a", url)
    if "cache lookup (a miss)" not in log or warnings:
        fail(f"machine a: {log}")
    b, log, warnings, _ = compile_on("b", url)
    if "remote cache hit" not in log or warnings:
        fail(f"machine b got no remote hit: {log}")
    if open(a, "rb").read() != open(b, "rb").read():
        fail("the remote hit is not the model.so machine a built")
    _, log, _, _ = compile_on("b", url)
    if "cache hit" not in log or "remote" in log:
        fail(f"machine b's second compile is not a local hit: {log}")
    print("shared: a remote hit on a second machine, the same model.so")

    keys = subprocess.run(cli + ["--raw", "KEYS", "tc:v1:*.so"], capture_output=True,
                          text=True, check=True).stdout.split()
    if len(keys) != 1:
        fail(f"Redis holds {keys}")
    garbage = os.path.join(work, "garbage")
    with open(garbage, "wb") as f:
        f.write(open(a, "rb").read()[:-100] + b"\0" * 100)
    with open(garbage, "rb") as f:
        subprocess.run(cli + ["-x", "SET", keys[0]], stdin=f, check=True,
                       stdout=subprocess.DEVNULL)
    _, log, warnings, _ = compile_on("c", url)
    if len(warnings) != 1 or "is damaged" not in warnings[0] or keys[0] not in warnings[0]:
        fail(f"machine c: a damaged remote entry was not reported once: {log}")
    _, log, warnings, _ = compile_on("d", url)
    if "remote cache hit" not in log or warnings:
        fail(f"machine d: the rebuilt remote entry is not a hit: {log}")
    print("damaged: reported once and rebuilt; the next machine hits")

    closed = f"redis://127.0.0.1:{free_port()}/0"
    _, log, warnings, _ = compile_on("e", closed)
    if len(warnings) != 1 or "not usable" not in warnings[0]:
        fail(f"a refused Redis: {log}")
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    accepted = []
    threading.Thread(target=lambda: [accepted.append(silent.accept()) for _ in range(8)],
                     daemon=True).start()
    _, log, warnings, seconds = compile_on(
        "f", f"redis://127.0.0.1:{silent.getsockname()[1]}/0",
        {"TC_REMOTE_CACHE_TIMEOUT_MS": "300"})
    if len(warnings) != 1 or "not usable" not in warnings[0]:
        fail(f"a silent Redis: {log}")
    if seconds > cold + 5:
        fail(f"a silent Redis took {seconds:.1f} s against {cold:.1f} s without")
    print("down: a refused and a silent Redis each give one warning and a model.so")

    _, log, warnings, _ = compile_on("g", "http://example.com/")
    if len(warnings) != 1 or "not a redis:// URL" not in warnings[0]:
        fail(f"a malformed URL: {log}")
    print("malformed: one warning and a model.so")
finally:
    redis.terminate()
    redis.wait()
print("ok")
