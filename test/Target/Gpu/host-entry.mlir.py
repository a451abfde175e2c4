"""Calls a model.so's tc_module_gpu_run_v3 with a recording environment
(no GPU: alloc is malloc, launch only records, download answers a value
chosen here). See host-entry.mlir.

Usage: host-entry.mlir.py MODEL.so conv_pool|nonzero|image
       host-entry.mlir.py MODEL.so tuned CHOICE   (a dense model built with
       --gpu-candidates: its one tunable kernel runs alternative CHOICE)"""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]

ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
LAUNCH = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32,
                          ctypes.POINTER(ctypes.c_uint32),
                          ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint32)
CONSTANT = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32,
                            ctypes.c_void_p, ctypes.c_int64)
COPY = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                        ctypes.c_int64)


class Env(ctypes.Structure):
    _fields_ = [("runtime", ctypes.c_void_p), ("alloc", ALLOC),
                ("release", RELEASE), ("launch", LAUNCH), ("constant", CONSTANT),
                ("download", COPY), ("upload", COPY),
                ("choices", ctypes.POINTER(ctypes.c_int32))]


class Site(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("candidates", ctypes.c_char_p),
                ("num_candidates", ctypes.c_uint32),
                ("kernels", ctypes.POINTER(ctypes.c_uint32)),
                ("num_heuristic_kernels", ctypes.c_uint32),
                ("heuristic_kernels", ctypes.POINTER(ctypes.c_uint32))]


live, launches, sizes = set(), [], {}
uploads = {}  # constant index -> (device copy, bytes)


@ALLOC
def alloc(_, size):
    pointer = libc.malloc(max(size, 1))
    live.add(pointer)
    sizes[pointer] = size
    return pointer


@RELEASE
def release(_, pointer):
    live.discard(pointer)
    libc.free(pointer)


@CONSTANT
def constant(_, index, host, size):
    # The "device" copy is a separate buffer: a kernel reading the host
    # pointer instead would go unnoticed otherwise.
    if index not in uploads:
        copy = libc.malloc(max(size, 1))
        ctypes.memmove(copy, host, size)
        uploads[index] = (copy, size)
    return uploads[index][0]


def in_device_block(pointer, size):
    return any(block <= pointer and pointer + size <= block + max(sizes[block], 1)
               for block in live)


downloads, uploads_of_values, outside = [], [], []
DOWNLOADED = 2  # what every download answers: the "device" never ran


@COPY
def download(_, host, device, size):
    downloads.append(size)
    if not in_device_block(device, size) or in_device_block(host, size):
        outside.append(("download", host, device, size))
    if mode == "image":  # the "device" holds real data: the encoded image
        ctypes.memmove(host, device, size)
    else:
        ctypes.memmove(host, ctypes.byref(ctypes.c_int64(DOWNLOADED)), min(size, 8))


@COPY
def upload(_, device, host, size):
    uploads_of_values.append(size)
    if not in_device_block(device, size) or in_device_block(host, size):
        outside.append(("upload", host, device, size))
    if mode == "image":
        ctypes.memmove(device, host, size)


@LAUNCH
def launch(_, kernel, dims, params, count):
    grid = [dims[i] for i in range(6)]
    for i in range(count):
        value = ctypes.cast(params[i], ctypes.POINTER(ctypes.c_void_p))[0] or 0
        if any(start <= value < end for start, end in library_ranges):
            host_params.append((kernel, i))
    launches.append((kernel, grid, count, all(params[i] for i in range(count))))


mode = sys.argv[2]
kernel_count = ctypes.c_uint32.in_dll(lib, "tc_module_gpu_kernel_count_v1").value
print(f"kernels in the table: {kernel_count}")
env = Env(None, alloc, release, launch, constant, download, upload, None)
site_kernels = []
if mode == "tuned":
    count = ctypes.c_uint32.in_dll(lib, "tc_module_gpu_site_count_v1").value
    site = (Site * max(count, 1)).in_dll(lib, "tc_module_gpu_sites_v2")[0]
    site_kernels = [site.kernels[i] for i in range(site.num_candidates)]
    print(f"sites: {count}, key: {site.key.decode()}")
    for line in site.candidates.decode().split("\n"):
        print(f"candidate: {line}")
    print(f"alternative kernels: {site_kernels}")
    heuristic_kernels = [site.heuristic_kernels[i]
                         for i in range(site.num_heuristic_kernels)]
    print(f"heuristic kernels: {heuristic_kernels}")
    choices = (ctypes.c_int32 * count)(*([int(sys.argv[3])] * count))
    env.choices = choices
# A kernel parameter that points into the library's own mapping (its
# constants) would be a host pointer on a GPU.
library_ranges, host_params = [], []
for line in open("/proc/self/maps"):
    if line.rstrip().endswith(sys.argv[1]):
        start, end = (int(x, 16) for x in line.split()[0].split("-"))
        library_ranges.append((start, end))
shape = {"conv_pool": (1, 3, 32, 32), "nonzero": (2, 3),
         "tuned": (300, 64)}.get(mode)
if mode == "image":
    # A 3 x 2 24-bit BMP: rows bottom-up, pixels B, G, R, rows padded to 4
    # bytes; pixel (row r, column c) is R = 10 r + c, G = 100, B = 200.
    rows = [bytes(b for c in range(3) for b in (200, 100, 10 * r + c)) + bytes(3)
            for r in (1, 0)]
    pixels = b"".join(rows)
    header = (b"BM" + (54 + len(pixels)).to_bytes(4, "little") + bytes(4) +
              (54).to_bytes(4, "little") + (40).to_bytes(4, "little") +
              (3).to_bytes(4, "little") + (2).to_bytes(4, "little") +
              (1).to_bytes(2, "little") + (24).to_bytes(2, "little") + bytes(4) +
              len(pixels).to_bytes(4, "little") + bytes(16))
    encoded = header + pixels
    shape = (len(encoded),)
    x = alloc(None, len(encoded))
    ctypes.memmove(x, encoded, len(encoded))
else:
    count = 1
    for extent in shape:
        count *= extent
    # The inputs are "device" blocks like any other.
    x = alloc(None, 4 * count)
inputs = (ctypes.c_void_p * 1)(x)
input_dims = (ctypes.c_int64 * len(shape))(*shape)
allocations = (ctypes.c_void_p * 1)()
data = (ctypes.c_void_p * 1)()
output_dims = (ctypes.c_int64 * {"conv_pool": 4, "nonzero": 2, "image": 3,
                                 "tuned": 2}[mode])()
run = lib.tc_module_gpu_run_v3
run.restype = ctypes.c_int32
status = run(ctypes.byref(env), inputs, input_dims, allocations, data, output_dims)
release(None, x)
if mode == "image" and status == 0:
    out = ctypes.string_at(data[0], 2 * 3 * 3)
    print(f"pixels: {list(out)}")
kernels = {k for k, _, _, _ in launches}
if mode == "tuned":
    print(f"alternatives launched: {[k for k in site_kernels if k in kernels]}")
    print(f"heuristic kernels launched: "
          f"{len([k for k in heuristic_kernels if k in kernels])}")
empty = sum(1 for _, g, _, ok in launches if 0 in g or not ok)
print(f"launches: {len(launches)}, distinct kernels: {len(kernels)}, empty grids: {empty}")
print(f"output 0 dims: {list(output_dims)}")
print(f"output allocated through env: {allocations[0] in live}")
print(f"blocks still allocated after the run: {len(live)}")
print(f"status: {status}")
print(f"constants uploaded: {len(uploads)}, bytes: {sorted(b for _, b in uploads.values())}")
print(f"kernel parameters pointing into the library: {len(host_params)} (mapped ranges: {len(library_ranges) > 0})")
print(f"downloads: {downloads}, uploads: {uploads_of_values}, "
      f"copies not between host and device memory: {len(outside)}")
