"""The CUDA engine: launches the bit-plane key-search kernel (gpu/ks_kernel.cu) through the CUDA
driver API, loaded at run time with ctypes (libcuda.so.1; nuri has no link-time CUDA dependency).

The kernel is loaded as PTX (ks_kernel.ptx next to this file: generated from gpu/ by `make gpu`,
a checked generated file) and JIT-compiled by the driver for the GPU it finds. Its parameters (the
template, lane patterns, counter planes, shared last rounds) come from libnuri
(nuri_keysearch_gpu_params, the same bp_prepare the kernel's host twin is tested with) and sit in the
kernel's __constant__ c_params. A launch searches whole batches of 32 candidates (one per thread);
hits are candidate indices on the first pair, appended to a device buffer. The caller re-checks every
hit on all pairs with the reference cipher (driver.Hits).

NURI_CUDA_DRIVER names another driver library (the tests use a fake driver that runs the kernel's
host twin). No GPU was available where this was written: only the fake driver has run it."""

import ctypes
import os
import threading
import time

from .._native import ffi, lib
from .._util import check

DRIVER_ENV = "NURI_CUDA_DRIVER"
DEFAULT_DRIVER = "libcuda.so.1"
PTX_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ks_kernel.ptx")
KERNELS = {16: ("nuri_ks_kernel_128", 64), 32: ("nuri_ks_kernel_256", 32)}  # block = the kernel's __launch_bounds__
LANES_LOG2 = 5  # 32 candidates per batch (one thread)
MAX_HITS = int(os.environ.get("NURI_KEYSEARCH_CUDA_MAX_HITS", "1024"))  # per launch; tests lower it (>= 32)
LAUNCH_TARGET_S = 0.2  # one launch takes about this long (SIGINT latency, progress)
MAX_BATCHES = int(os.environ.get("NURI_KEYSEARCH_CUDA_MAX_BATCHES", str(1 << 24)))  # per launch; tests lower it

_U64, _P = ctypes.c_uint64, ctypes.c_void_p
_SIGNATURES = {  # the driver entry points used, with their C argument types
    "cuInit": [ctypes.c_uint],
    "cuGetErrorName": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
    "cuDeviceGetCount": [ctypes.POINTER(ctypes.c_int)],
    "cuDeviceGet": [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
    "cuDeviceGetName": [ctypes.c_char_p, ctypes.c_int, ctypes.c_int],
    "cuDevicePrimaryCtxRetain": [ctypes.POINTER(_P), ctypes.c_int],
    "cuDevicePrimaryCtxRelease_v2": [ctypes.c_int],
    "cuCtxSetCurrent": [_P],
    "cuCtxSynchronize": [],
    "cuModuleLoadData": [ctypes.POINTER(_P), ctypes.c_char_p],
    "cuModuleUnload": [_P],
    "cuModuleGetFunction": [ctypes.POINTER(_P), _P, ctypes.c_char_p],
    "cuModuleGetGlobal_v2": [ctypes.POINTER(_U64), ctypes.POINTER(ctypes.c_size_t), _P, ctypes.c_char_p],
    "cuMemAlloc_v2": [ctypes.POINTER(_U64), ctypes.c_size_t],
    "cuMemFree_v2": [_U64],
    "cuMemcpyHtoD_v2": [_U64, _P, ctypes.c_size_t],
    "cuMemcpyDtoH_v2": [_P, _U64, ctypes.c_size_t],
    "cuLaunchKernel": [
        _P,
        ctypes.c_uint,
        ctypes.c_uint,
        ctypes.c_uint,
        ctypes.c_uint,
        ctypes.c_uint,
        ctypes.c_uint,
        ctypes.c_uint,
        _P,
        ctypes.POINTER(_P),
        ctypes.POINTER(_P),
    ],
}
CUDA_ERROR_NO_DEVICE = 100


class GpuUnavailable(Exception):
    """No usable GPU (no driver, no device, no kernel): auto runs on the CPU, --engine cuda exits 2."""


class CudaError(RuntimeError):
    """A driver call failed during a search (one-line message; the CLI exits 2)."""


class Driver:
    """The CUDA driver library with the entry points above."""

    def __init__(self, path=None):
        self.path = path or os.environ.get(DRIVER_ENV) or DEFAULT_DRIVER
        try:
            self.lib = ctypes.CDLL(self.path)
        except OSError:
            raise GpuUnavailable(f"no NVIDIA GPU found (the CUDA driver {self.path} cannot be loaded)") from None
        for name, args in _SIGNATURES.items():
            try:
                f = getattr(self.lib, name)
            except AttributeError:
                raise GpuUnavailable(f"the CUDA driver {self.path} has no {name} (driver too old?)") from None
            f.argtypes, f.restype = args, ctypes.c_int
        rc = self.lib.cuInit(0)
        if rc == CUDA_ERROR_NO_DEVICE:
            raise GpuUnavailable("no NVIDIA GPU found (the CUDA driver reports no device)")
        if rc:
            raise GpuUnavailable(f"the CUDA driver does not initialise: cuInit: {self.error_name(rc)}")
        n = ctypes.c_int(0)
        self.call("cuDeviceGetCount", ctypes.byref(n))
        if n.value < 1:
            raise GpuUnavailable("no NVIDIA GPU found (the CUDA driver reports no device)")
        self.count = n.value

    def error_name(self, rc):
        s = ctypes.c_char_p()
        if self.lib.cuGetErrorName(rc, ctypes.byref(s)) == 0 and s.value:
            return s.value.decode()
        return f"CUDA error {rc}"

    def call(self, name, *args):
        rc = getattr(self.lib, name)(*args)
        if rc:
            raise CudaError(f"{name} failed: {self.error_name(rc)}")


_driver, _driver_error, _driver_lock = None, None, threading.Lock()


def driver():
    """The loaded driver (once per process); GpuUnavailable with the reason otherwise."""
    global _driver, _driver_error
    with _driver_lock:
        if _driver is None and _driver_error is None:
            try:
                if not os.path.exists(PTX_PATH):
                    raise GpuUnavailable(f"this nuri has no CUDA kernel ({PTX_PATH} is missing)")
                _driver = Driver()
            except GpuUnavailable as e:
                _driver_error = e
        if _driver_error is not None:
            raise _driver_error
        return _driver


def unavailable_reason():
    """None if a GPU can be used, else why not (one line)."""
    try:
        driver()
        return None
    except GpuUnavailable as e:
        return str(e)


class Device:
    """One GPU: its primary context, the kernel module, the c_params symbol and a hit buffer. Every
    method must run in the thread that created it (the context is made current there)."""

    def __init__(self, drv, ordinal):
        self.drv, self.ordinal = drv, ordinal
        dev = ctypes.c_int()
        drv.call("cuDeviceGet", ctypes.byref(dev), ordinal)
        self.dev = dev.value
        name = ctypes.create_string_buffer(256)
        drv.call("cuDeviceGetName", name, 256, self.dev)
        self.name = name.value.decode(errors="replace")
        self.ctx = _P()
        drv.call("cuDevicePrimaryCtxRetain", ctypes.byref(self.ctx), self.dev)
        self.module, self.buf = None, None
        try:
            drv.call("cuCtxSetCurrent", self.ctx)
            with open(PTX_PATH, "rb") as f:
                image = f.read() + b"\0"
            self.module = _P()
            try:
                drv.call("cuModuleLoadData", ctypes.byref(self.module), image)
            except CudaError as e:  # e.g. a driver older than the PTX (CUDA 13)
                self.module = None
                raise CudaError(f"the GPU cannot load nuri's kernel ({e}); the PTX needs a CUDA 13 driver") from None
            self.functions = {}
            for key_len, (kname, block) in KERNELS.items():
                fn = _P()
                drv.call("cuModuleGetFunction", ctypes.byref(fn), self.module, kname.encode())
                self.functions[key_len] = (fn, block)
            self.c_params, size = _U64(), ctypes.c_size_t()
            drv.call("cuModuleGetGlobal_v2", ctypes.byref(self.c_params), ctypes.byref(size), self.module, b"c_params")
            if size.value != lib.NURI_KEYSEARCH_GPU_PARAMS_BYTES:
                raise CudaError(
                    f"the kernel's c_params has {size.value} bytes, libnuri prepares "
                    f"{lib.NURI_KEYSEARCH_GPU_PARAMS_BYTES}"
                )
            self.buf = _U64()
            drv.call("cuMemAlloc_v2", ctypes.byref(self.buf), 8 * MAX_HITS + 8)
        except Exception:
            self.close()
            raise
        self.problem = None

    def close(self):
        try:
            if self.buf is not None:
                self.drv.lib.cuMemFree_v2(self.buf)
            if self.module is not None:
                self.drv.lib.cuModuleUnload(self.module)
        finally:
            self.drv.lib.cuDevicePrimaryCtxRelease_v2(self.dev)
            self.buf = self.module = None

    def prepare(self, problem):
        """Copies the search's parameters to c_params. False if every candidate is equivalent (no
        round uses an unknown key word): search those on the CPU."""
        out = ffi.new("uint8_t[]", lib.NURI_KEYSEARCH_GPU_PARAMS_BYTES)
        equiv = ffi.new("int *")
        check(lib.nuri_keysearch_gpu_params(problem._p, out, len(out), equiv), "GPU parameters")
        self.problem = problem
        if equiv[0]:
            return False
        self.drv.call("cuMemcpyHtoD_v2", self.c_params, bytes(ffi.buffer(out)), len(out))
        return True

    def launch(self, first_batch, nbatches):
        """Candidate indices of the batches [first_batch, first_batch + nbatches) matching pair 1
        (a launch whose hits overflow the buffer is searched again in halves)."""
        fn, block = self.functions[self.problem.key_len]
        zero = ctypes.c_uint64(0)
        self.drv.call("cuMemcpyHtoD_v2", _U64(self.buf.value + 8 * MAX_HITS), ctypes.byref(zero), 8)
        args = [
            _U64(first_batch),
            _U64(nbatches),
            _U64(self.buf.value),
            _U64(self.buf.value + 8 * MAX_HITS),
            ctypes.c_uint(MAX_HITS),
        ]
        params = (_P * len(args))(*[ctypes.addressof(a) for a in args])
        grid = (nbatches + block - 1) // block
        self.drv.call("cuLaunchKernel", fn, grid, 1, 1, block, 1, 1, 0, None, params, None)
        self.drv.call("cuCtxSynchronize")
        n = ctypes.c_uint32()
        self.drv.call("cuMemcpyDtoH_v2", ctypes.byref(n), _U64(self.buf.value + 8 * MAX_HITS), 4)
        if n.value > MAX_HITS:
            if nbatches == 1:  # 32 lanes cannot overflow a buffer of >= 32
                raise CudaError(f"the kernel reported {n.value} hits in one batch of 32 candidates")
            half = nbatches // 2
            return self.launch(first_batch, half) + self.launch(first_batch + half, nbatches - half)
        hits = (ctypes.c_uint64 * max(n.value, 1))()
        if n.value:
            self.drv.call("cuMemcpyDtoH_v2", hits, self.buf, 8 * n.value)
        return sorted(int(h) for h in hits[: n.value])

    def search(self, start, count, max_batches):
        """Pair-1 hits in [start, start + count), in launches of at most max_batches batches."""
        out = []
        b, last_b = start >> LANES_LOG2, (start + count - 1) >> LANES_LOG2
        while b <= last_b:
            n = min(max_batches, last_b - b + 1)
            out += [h for h in self.launch(b, n) if start <= h < start + count]
            b += n
        return out


def open_devices():
    """Every GPU as a Device, in the calling thread's context (the self-test and the benchmark)."""
    drv = driver()
    return [Device(drv, i) for i in range(drv.count)]


def selftest(device):
    """Known answers on the device: the official PIPO vectors with unknown bits in both key halves,
    the key off a batch boundary, and as the first and the last candidate of a slice."""
    from . import Problem, encrypt

    four = encrypt(bytes.fromhex("9722152EAD201D7ED2289477DD16C46D"), bytes.fromhex("2600271EF6528509"), 4).hex()
    cases = [
        (
            "pipo-64/128",
            "9722152E?D201D7ED2289477D?16C4?D",
            "2600271EF6528509:27035DAD81296B6B",
            "9722152EAD201D7ED2289477DD16C46D",
        ),
        (
            "pipo-64/256",
            "9722152EAD201D7ED2289477DD16C46D3356D1260612A754B?6DA976A43A9A0?",
            "2600271EF6528509:893852B66FAE6D81",
            "9722152EAD201D7ED2289477DD16C46D3356D1260612A754B56DA976A43A9A00",
        ),
        (
            "pipo-64/128",
            "9722152EAD201D7ED2289477DD16C4??",
            "2600271EF6528509:27035DAD81296B6B",
            "9722152EAD201D7ED2289477DD16C46D",
        ),
        (
            "pipo-64/128",
            "9722152EAD??1D7ED2289477DD16C?6D",
            "2600271EF6528509:" + four,  # 4 rounds
            "9722152EAD201D7ED2289477DD16C46D",
        ),
    ]
    for cipher, template, pair, key in cases:
        prob = Problem(cipher, template, [pair], rounds=4 if pair.endswith(four) else None)
        want = prob.index_of(bytes.fromhex(key))
        if not device.prepare(prob):
            return False
        lo = max(0, want - 37)
        for s, c in ((lo, prob.keyspace - lo), (want, 1 + (want & 7)), (want - (want & 3), 1 + (want & 3))):
            if device.search(s, c, 1 << 20) != [want]:  # one launch each
                return False
    return True


def run_devices(problem, ranges, hits, progress, stop, errors, ready=None):
    """The search's runner on every GPU: one thread per device takes chunks of the range (sized to
    LAUNCH_TARGET_S per launch) and reports every pair-1 hit to `hits` (re-checked on all pairs)."""
    drv = driver()

    def worker(ordinal):
        dev = None
        try:
            dev = Device(drv, ordinal)
            name = f"cuda:{ordinal}"
            cpu = not dev.prepare(problem)  # every candidate equivalent: the C library answers at once
            batches = 1 << 12
            while not stop.is_set():
                chunk = ranges.take(batches << LANES_LOG2)
                if chunk is None:
                    return
                s, c = chunk
                t = time.monotonic()
                if cpu:
                    pos = s
                    while pos < s + c:
                        idx, done = problem.search(pos, s + c - pos, impl="ref")
                        for i in idx:
                            hits.add_index(i)
                        pos += done
                else:
                    for i in dev.search(s, c, MAX_BATCHES):
                        hits.add_index(i)
                dt = time.monotonic() - t
                ranges.finish(s)
                progress.add(name, c, dt)
                rate = c / max(dt, 1e-6)
                batches = int(min(max(rate * LAUNCH_TARGET_S, 1 << 12), MAX_BATCHES << LANES_LOG2)) >> LANES_LOG2
        except Exception as e:  # reported by the main thread
            errors.append(e)
            stop.set()
        finally:
            if dev is not None:
                dev.close()

    ts = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(drv.count)]
    for t in ts:
        t.start()
    return ts
