"""Key-search benchmark: keys/s of every engine usable here, searching with all threads (each
thread runs the C engine with the GIL released), and of the cuda engine on every GPU when one can be
used (on the tests' fake driver, which runs the PTX on the host, the figure means nothing). Records
use the bench schema with metric keys_per_s; ``nuri bench keysearch`` and ``nuri keysearch
--benchmark`` both print them."""

import os
import platform
import statistics
import threading
import time

from . import Problem, gpu, implementations
from .driver import cpu_threads

# 40 unknown bits, 20 in each of K0 and K1: no round is shared, the engines' general case.
TEMPLATES = {
    "pipo-64/128": "9722152E?????D7ED2289477D?????6D",
    "pipo-64/256": "9722152E?????D7ED2289477D?????6D3356D1260612A754B56DA976A43A9A00",
}
PAIR = "2600271EF6528509:0000000000000000"  # no key is expected to match


def measure(engine, threads, seconds, cipher="pipo-64/128"):
    """keys/s of `engine` in `threads` threads over about `seconds`."""
    prob = Problem(cipher, TEMPLATES[cipher], [PAIR])
    chunk = 1 << (14 if engine == "ref" else 22)
    stop = time.monotonic() + seconds
    counts = [0] * threads

    def worker(t):
        s = t * (1 << 34)
        while time.monotonic() < stop:
            _, done = prob.search(s, chunk, impl=engine)
            s += done
            counts[t] += done

    ts = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    t0 = time.monotonic()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return sum(counts) / (time.monotonic() - t0)


def measure_cuda(seconds, cipher="pipo-64/128"):
    """keys/s of the cuda engine on every GPU (one thread per device) over about `seconds`, and what
    ran: device names and, from the first device, its SM count, rated clock, architecture, the
    kernel (specialised or generic) and that kernel's logic operations per key."""
    prob = Problem(cipher, TEMPLATES[cipher], [PAIR])
    drv = gpu.driver()
    counts, names, errors, info = [0] * drv.count, [None] * drv.count, [], {}
    start = threading.Barrier(drv.count + 1)

    def worker(i):
        dev = None
        try:
            dev = gpu.Device(drv, i)
            names[i] = dev.name
            dev.prepare(prob)
            if i == 0:
                info.update(
                    sms=dev.sms,
                    clock_hz=float(dev.clock_hz),
                    arch=dev.arch,
                    kernel=dev.kernel_used,
                    logic_ops_per_key=dev.logic_ops_per_key(),
                    driver_cuda=drv.version,
                )
            dev.search(i << 36, 1 << 5, gpu.MAX_BATCHES)  # warm-up (first launch)
        except Exception as e:
            errors.append(e)
        try:
            start.wait()
            stop = time.monotonic() + seconds
            s, n = i << 36, 1 << 16
            while not errors and time.monotonic() < stop:
                t = time.monotonic()
                dev.search(s, n, gpu.MAX_BATCHES)
                s, counts[i] = s + n, counts[i] + n
                n = int(min(max(n / max(time.monotonic() - t, 1e-6) * 0.1, 1 << 12), 1 << 32)) & ~31
        except Exception as e:
            errors.append(e)
        finally:
            if dev is not None:
                dev.close()

    ts = [threading.Thread(target=worker, args=(i,)) for i in range(drv.count)]
    for t in ts:
        t.start()
    start.wait()
    t0 = time.monotonic()
    for t in ts:
        t.join()
    if errors:
        raise errors[0]
    return sum(counts) / (time.monotonic() - t0), names, info


def gpu_figures(rate, names, info):
    """The cuda record's `gpu` object: per-SM-clock rate and the share of the logic-op ceiling (64
    per SM per clock on sm_75 .. sm_120). The clock is the device's rated maximum
    (cuDeviceGetAttribute): the GPU may run below it, so both figures are lower bounds."""
    per_dev = rate / len(names)
    g = dict(info, devices=len(names))
    g["keys_per_sm_clock"] = per_dev / (info["sms"] * info["clock_hz"])
    ops = info.get("logic_ops_per_key")
    g["logic_ceiling_fraction"] = g["keys_per_sm_clock"] * ops / 64 if ops else None
    return g


def usable_engines():
    """The CPU engines this machine runs, and cuda when a GPU can be used."""
    return implementations() + (["cuda"] if gpu.unavailable_reason() is None else [])


def run(quick=False, threads=None, engines=None, ciphers=("pipo-64/128",)):
    """Records for every CPU engine usable here and, when a GPU can be used, for cuda."""
    threads = threads or cpu_threads()
    runs = 3 if quick else 5
    seconds = 0.3 if quick else 1.0
    records = []
    for cipher in ciphers:
        for e in engines or usable_engines():
            plat = platform.machine() or os.uname().machine
            extra = {}
            if e == "cuda":
                results = [measure_cuda(seconds, cipher) for _ in range(runs)]
                rates, param = [r for r, _, _ in results], f"{cipher} k=40 gpus={len(results[0][1])}"
                plat = "cuda: " + ", ".join(results[0][1])
                extra["gpu"] = gpu_figures(statistics.median(rates), results[0][1], results[0][2])
            else:
                rates, param = (
                    [measure(e, threads, seconds, cipher) for _ in range(runs)],
                    f"{cipher} k=40 threads={threads}",
                )
            records.append(
                {
                    "family": "keysearch",
                    "impl": e,
                    "op": "search",
                    "param": param,
                    "size": 1,
                    "platform": plat,
                    "metric": "keys_per_s",
                    "median": statistics.median(rates),
                    "min": min(rates),
                    "max": max(rates),
                    "runs": runs,
                    **extra,
                }
            )
    return records
