# Driven by fake-cuda.mlir: argv[1] is the directory of the fake modules.
import ctypes
import gc
import sys

import numpy as np
import tc


class FakeCudaState(ctypes.Structure):
    # FakeCuda/fake_cuda.h's fake_cuda_state, counters only.
    _fields_ = [("contexts_created", ctypes.c_int),
                ("contexts_destroyed", ctypes.c_int),
                ("retains", ctypes.c_int * 2),
                ("streams_live", ctypes.c_int),
                ("modules_loaded", ctypes.c_int),
                ("modules_live", ctypes.c_int),
                ("allocations_live", ctypes.c_int),
                ("launches", ctypes.c_int),
                ("graph_launches", ctypes.c_int),
                ("graphs_live", ctypes.c_int)]


module = sys.argv[1] + "/fake_gpu_scale.so"
x = np.arange(4, dtype=np.float32)
for _ in range(10):
    model = tc.load(module, device="cuda:0")
    (y,) = model(x)
    del model
    gc.collect()
print("cuda:0 y", y.tolist())

# The runtime opened libcuda.so.1 from LD_LIBRARY_PATH: the same copy.
fake = ctypes.CDLL("libcuda.so.1")
fake.fake_cuda_state_get.restype = ctypes.POINTER(FakeCudaState)
state = fake.fake_cuda_state_get().contents
print("loads 10 contexts made", state.contexts_created, "destroyed",
      state.contexts_destroyed, "retained", state.retains[0])
print("streams", state.streams_live, "modules", state.modules_live,
      "allocations", state.allocations_live)
try:
    tc.load(module, device="cuda:3")
except tc.TcError as e:
    print("error:", e)

# Graphs: run 2 records a graph and launches it, as runs 3 to 5 do; each
# run computes on its own input.
model = tc.load(module, device="cuda:0", gpu_graphs=True)
right = 0
for run in range(5):
    (y,) = model(x + run)
    right += np.array_equal(y, (x + run) * 2 + 1)
print("graphs:", right, "runs right,", state.graph_launches, "graph launches,",
      state.graphs_live, "graph live,", model.graph_runs, "graph runs")
