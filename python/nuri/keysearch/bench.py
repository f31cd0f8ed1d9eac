"""Key-search benchmark: keys/s of every engine usable here, searching with all threads (each
thread runs the C engine with the GIL released). Records use the bench schema with metric
keys_per_s; ``nuri bench keysearch`` and ``nuri keysearch --benchmark`` both print them."""
import os
import platform
import statistics
import threading
import time

from . import Problem, engine_names
from .driver import cpu_threads

# 40 unknown bits spread over K0 and K1: no round is shared, the engines' general case.
TEMPLATES = {"pipo-64/128": "9722152E??????7ED2289477D?????6D",
             "pipo-64/256": "9722152E??????7ED2289477D?????6D3356D1260612A754B56DA976A43A9A00"}
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
            _, done = prob.search(s, chunk, engine)
            s += done
            counts[t] += done

    ts = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    t0 = time.monotonic()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return sum(counts) / (time.monotonic() - t0)


def run(quick=False, threads=None, engines=None, ciphers=("pipo-64/128",)):
    threads = threads or cpu_threads()
    runs = 3 if quick else 5
    seconds = 0.3 if quick else 1.0
    records = []
    for cipher in ciphers:
        for e in engines or engine_names():
            rates = [measure(e, threads, seconds, cipher) for _ in range(runs)]
            records.append({"family": "keysearch", "impl": e, "op": "search",
                            "param": f"{cipher} k=40 threads={threads}", "size": 1,
                            "platform": platform.machine() or os.uname().machine, "metric": "keys_per_s",
                            "median": statistics.median(rates), "min": min(rates), "max": max(rates), "runs": runs})
    return records
