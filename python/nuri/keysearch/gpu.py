"""The CUDA engine: launches the bit-plane key-search kernels (nuri.keysearch.ptx) through the
CUDA driver API, loaded at run time with ctypes (libcuda.so.1; nuri has no link-time CUDA dependency).

Two kernels, from one emitter (ptx.py):

* per search, the kernel **specialised** for its template (default): PTX text emitted here with the
  template's known key bits and lane patterns as literals, JIT-compiled by the driver
  (cuModuleLoadData); its PTX ISA (7.0) loads on every driver since CUDA 11.0;
* the **generic** kernel of ks_kernel.fatbin (next to this file; ``make gpu`` builds it with the
  pinned CUDA 12 ptxas: SASS for sm_75 .. sm_120 plus the PTX), whose parameters (libnuri's
  nuri_keysearch_gpu_params) sit in its __constant__ c_params. NURI_KEYSEARCH_CUDA_KERNEL=generic
  selects it; the fatbin also holds the CTR kernels of the GPU check.

A launch searches whole batches of 32 candidates; each thread loops over batches, and the grid is
sized from the device's SM count. Hits are candidate indices on the first pair, appended to a
device buffer; the caller re-checks every hit on all pairs with the reference cipher (driver.Hits).

NURI_CUDA_DRIVER names another driver library (the tests use a fake driver that runs the loaded
PTX on the host)."""

import ctypes
import os
import threading
import time

from .._native import ffi, lib
from .._util import check
from . import ptx

DRIVER_ENV = "NURI_CUDA_DRIVER"
DEFAULT_DRIVER = "libcuda.so.1"
FATBIN_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ks_kernel.fatbin")
KERNEL_ENV = "NURI_KEYSEARCH_CUDA_KERNEL"  # specialised (default) or generic
LANES_LOG2 = 5  # 32 candidates per batch (one thread)
MAX_HITS = int(os.environ.get("NURI_KEYSEARCH_CUDA_MAX_HITS", "1024"))  # per launch; tests lower it (>= 32)
LAUNCH_TARGET_S = 0.2  # one launch takes about this long (SIGINT latency, progress)
# per launch (2^32 candidates: about 27 ms at 1.6e11 keys/s); tests lower it
MAX_BATCHES = int(os.environ.get("NURI_KEYSEARCH_CUDA_MAX_BATCHES", str(1 << 27)))
BATCHES_PER_THREAD = 8  # a launch gives each thread at most this many batches (then more blocks)

_U64, _P = ctypes.c_uint64, ctypes.c_void_p
_SIGNATURES = {  # the driver entry points used, with their C argument types
    "cuInit": [ctypes.c_uint],
    "cuDriverGetVersion": [ctypes.POINTER(ctypes.c_int)],
    "cuGetErrorName": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
    "cuDeviceGetCount": [ctypes.POINTER(ctypes.c_int)],
    "cuDeviceGet": [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
    "cuDeviceGetName": [ctypes.c_char_p, ctypes.c_int, ctypes.c_int],
    "cuDeviceGetAttribute": [ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int],
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
# cuDeviceGetAttribute
ATTR_SMS, ATTR_CLOCK_KHZ, ATTR_CC_MAJOR, ATTR_CC_MINOR, ATTR_THREADS_PER_SM = 16, 13, 75, 76, 39
FATBIN_SASS = "sm_75, 80, 86, 87, 89, 90, 100 and 120"


def cuda_version(v):
    """'13.0' from cuDriverGetVersion's 13000."""
    return f"{v // 1000}.{v % 1000 // 10}"


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
        v = ctypes.c_int(0)
        self.version = cuda_version(v.value) if self.lib.cuDriverGetVersion(ctypes.byref(v)) == 0 else "unknown"
        rc = self.lib.cuInit(0)
        if rc == CUDA_ERROR_NO_DEVICE:
            raise GpuUnavailable("no NVIDIA GPU found (the CUDA driver reports no device)")
        if rc:
            raise GpuUnavailable(
                f"the CUDA driver (CUDA {self.version}) does not initialise: cuInit: {self.error_name(rc)}"
            )
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
                if not os.path.exists(FATBIN_PATH):
                    raise GpuUnavailable(f"this nuri has no CUDA kernel ({FATBIN_PATH} is missing)")
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


def kernel_choice():
    k = os.environ.get(KERNEL_ENV, "specialised")
    if k not in ("specialised", "generic"):
        raise CudaError(f"{KERNEL_ENV} must be specialised or generic, got {k!r}")
    return k


class Device:
    """One GPU: its primary context, the fatbin module (generic kernels, c_params), the kernel of the
    current search and a hit buffer. Every method must run in the thread that created it (the
    context is made current there)."""

    def __init__(self, drv, ordinal):
        self.drv, self.ordinal = drv, ordinal
        dev = ctypes.c_int()
        drv.call("cuDeviceGet", ctypes.byref(dev), ordinal)
        self.dev = dev.value
        name = ctypes.create_string_buffer(256)
        drv.call("cuDeviceGetName", name, 256, self.dev)
        self.name = name.value.decode(errors="replace")
        self.sms = self.attribute(ATTR_SMS)
        self.clock_hz = self.attribute(ATTR_CLOCK_KHZ) * 1000  # the rated maximum (boost) clock
        self.arch = f"sm_{self.attribute(ATTR_CC_MAJOR)}{self.attribute(ATTR_CC_MINOR)}"
        self.threads_per_sm = self.attribute(ATTR_THREADS_PER_SM) or 2048
        self.ctx = _P()
        drv.call("cuDevicePrimaryCtxRetain", ctypes.byref(self.ctx), self.dev)
        self.module, self.spec_module, self.buf = None, None, None
        self.kernel = kernel_choice()
        try:
            drv.call("cuCtxSetCurrent", self.ctx)
            with open(FATBIN_PATH, "rb") as f:
                self.module = self.load(f.read(), "the fatbin's generic kernel (SASS for " + FATBIN_SASS + ")")
            self.generic = {}
            for key_len, kname in ptx.KERNEL_NAMES.items():
                fn = _P()
                drv.call("cuModuleGetFunction", ctypes.byref(fn), self.module, kname.encode())
                self.generic[key_len] = (fn, ptx.GENERIC_BLOCK[key_len])
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
        self.problem, self.fn, self.counts, self.last = None, None, None, None
        self.kernel_used, self.fallback = None, None  # the kernel that runs; why not the specialised one

    def attribute(self, attr):
        v = ctypes.c_int(0)
        self.drv.call("cuDeviceGetAttribute", ctypes.byref(v), attr, self.dev)
        return v.value

    def load(self, image, what):
        """cuModuleLoadData with a message naming the driver's CUDA version and what the kernel needs."""
        module = _P()
        data = image if image.startswith(b"\x50\xed\x55\xba") else image + b"\0"
        try:
            self.drv.call("cuModuleLoadData", ctypes.byref(module), data)
        except CudaError as e:
            raise CudaError(
                f"the GPU ({self.name}, {self.arch}) cannot load nuri's kernel: {e}; the driver is CUDA "
                f"{self.drv.version}, the kernel is {what}, PTX ISA {ptx.PTX_VERSION} (JIT-compiled by "
                "drivers from CUDA 11.0 on)"
            ) from None
        return module

    def close(self):
        try:
            if self.buf is not None:
                self.drv.lib.cuMemFree_v2(self.buf)
            for m in (self.spec_module, self.module):
                if m is not None:
                    self.drv.lib.cuModuleUnload(m)
        finally:
            self.drv.lib.cuDevicePrimaryCtxRelease_v2(self.dev)
            self.buf = self.module = self.spec_module = None

    def prepare(self, problem):
        """Loads the search's kernel: the specialised kernel (emitted and JIT-compiled for this
        search), or the generic one with the parameters copied to c_params. False if every
        candidate is equivalent (no round uses an unknown key word): search those on the CPU."""
        out = ffi.new("uint8_t[]", lib.NURI_KEYSEARCH_GPU_PARAMS_BYTES)
        equiv = ffi.new("int *")
        check(lib.nuri_keysearch_gpu_params(problem._p, out, len(out), equiv), "GPU parameters")
        self.problem = problem
        if equiv[0]:
            return False
        raw = bytes(ffi.buffer(out))
        ffi.memmove(out, b"\0" * len(out), len(out))
        self.last = ptx.Params(raw, problem.key_len).last
        if self.kernel == "generic":
            self.drv.call("cuMemcpyHtoD_v2", self.c_params, raw, len(raw))
            self.fn, self.block = self.generic[problem.key_len]
            self.counts, self.kernel_used = None, "generic"
            return True
        text, counts = ptx.specialised_ptx(raw, problem.key_len)
        if self.spec_module is not None:
            self.drv.call("cuModuleUnload", self.spec_module)
            self.spec_module = None
        try:
            self.spec_module = self.load(text.encode(), "the kernel specialised for this search")
        except CudaError as e:  # e.g. PTX JIT disabled: the fatbin's SASS still runs
            self.fallback = str(e)
            self.drv.call("cuMemcpyHtoD_v2", self.c_params, raw, len(raw))
            self.fn, self.block, self.counts, self.kernel_used = *self.generic[problem.key_len], None, "generic"
            return True
        fn = _P()
        kname = ptx.KERNEL_NAMES[problem.key_len].encode()
        self.drv.call("cuModuleGetFunction", ctypes.byref(fn), self.spec_module, kname)
        self.fn, self.block, self.counts, self.kernel_used = fn, ptx.SPECIALISED_BLOCK, counts, "specialised"
        return True

    def logic_ops_per_key(self):
        """The specialised kernel's logic operations per candidate (PTX, before ptxas fuses them)."""
        if self.counts is None:
            return None
        return ptx.logic_ops_per_key(self.counts, self.problem.key_len, self.last)

    def geometry(self, nbatches):
        """(grid, block) for nbatches: every thread loops over batches; at most enough blocks to fill
        the device, unless that gives a thread more than BATCHES_PER_THREAD batches."""
        block = self.block
        full = max(1, self.sms * max(1, self.threads_per_sm // block))
        need = (nbatches + block - 1) // block
        grid = min(need, max(full, (need + BATCHES_PER_THREAD - 1) // BATCHES_PER_THREAD))
        return max(1, min(grid, (1 << 31) - 1)), block

    def launch(self, first_batch, nbatches):
        """Candidate indices of the batches [first_batch, first_batch + nbatches) matching pair 1
        (a launch whose hits overflow the buffer is searched again in halves)."""
        fn = self.fn
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
        grid, block = self.geometry(nbatches)
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


def round_key_planes(key, rounds):
    """The CTR kernels' c_rkp: word 64 i + s is all-ones if bit s of RK_i = K_(i mod w) ^ i is set."""
    nw = len(key) // 8
    words = []
    for i in range(rounds + 1):
        rk = int.from_bytes(key[8 * (i % nw) : 8 * (i % nw) + 8], "little") ^ i
        words += [0xFFFFFFFF if rk >> s & 1 else 0 for s in range(64)]
    words += [0] * (64 * 18 - len(words))
    return (ctypes.c_uint32 * len(words))(*words)


class Ctr:
    """PIPO-CTR on a device with the fatbin's CTR kernels (the GPU check's throughput figure): 32
    blocks (256 bytes) per thread, 64-bit big-endian counters from iv, which must be a multiple of 32."""

    def __init__(self, device, key, nbytes):
        if len(key) not in ptx.CTR_NAMES:
            raise ValueError("PIPO keys are 16 or 32 bytes")
        self.dev, self.rounds = device, ptx.ROUNDS[len(key)]
        self.fn = _P()
        drv = device.drv
        drv.call("cuModuleGetFunction", ctypes.byref(self.fn), device.module, ptx.CTR_NAMES[len(key)].encode())
        rkp, size = _U64(), ctypes.c_size_t()
        drv.call("cuModuleGetGlobal_v2", ctypes.byref(rkp), ctypes.byref(size), device.module, b"c_rkp")
        planes = round_key_planes(key, self.rounds)
        drv.call("cuMemcpyHtoD_v2", rkp, planes, ctypes.sizeof(planes))
        ctypes.memset(planes, 0, ctypes.sizeof(planes))
        self.nbytes = (nbytes + 255) // 256 * 256
        self.src, self.dst = _U64(), _U64()
        drv.call("cuMemAlloc_v2", ctypes.byref(self.src), self.nbytes)
        drv.call("cuMemAlloc_v2", ctypes.byref(self.dst), self.nbytes)

    def run(self, iv):
        """Encrypts the device buffer src into dst (no copies)."""
        ctr0 = int.from_bytes(iv, "big")
        if ctr0 % 32:
            raise ValueError("the GPU CTR kernel needs a counter block that is a multiple of 32")
        nb = self.nbytes // 256
        args = [_U64(ctr0), ctypes.c_uint(self.rounds), _U64(nb), _U64(self.src.value), _U64(self.dst.value)]
        params = (_P * len(args))(*[ctypes.addressof(a) for a in args])
        self.dev.drv.call("cuLaunchKernel", self.fn, (nb + 127) // 128, 1, 1, 128, 1, 1, 0, None, params, None)
        self.dev.drv.call("cuCtxSynchronize")

    def encrypt(self, iv, data):
        """data XOR the keystream from counter block iv (len(data) <= the buffer)."""
        buf = ctypes.create_string_buffer(bytes(data) + bytes(self.nbytes - len(data)), self.nbytes)
        self.dev.drv.call("cuMemcpyHtoD_v2", self.src, buf, self.nbytes)
        self.run(iv)
        self.dev.drv.call("cuMemcpyDtoH_v2", buf, self.dst, self.nbytes)
        return buf.raw[: len(data)]

    def close(self):
        self.dev.drv.lib.cuMemFree_v2(self.src)
        self.dev.drv.lib.cuMemFree_v2(self.dst)


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
