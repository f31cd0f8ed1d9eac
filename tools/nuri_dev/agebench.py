"""nuri against age on one large file (``make bench-age``; ``python -m nuri_dev.agebench --age-bin DIR``).

Times ``nuri seal --format age`` / ``age -R`` and ``nuri open`` / ``age -d`` of the same file (1 GiB by
default, to one ML-KEM-768+X25519 recipient made by age-keygen -pq), each command pinned to one core,
the two tools interleaved run by run so that both see the same machine. Both open the file age wrote.
Inputs come from the page cache; outputs go to files in --dir (removed before each run, untimed).
Prints JSON records (bench schema: family, impl, op, param, size, platform, metric, median, min, max,
runs) for wall seconds, CPU seconds and seconds until the output is on disk, and the ratios age / nuri
run by run (above 1: nuri faster).
"""

import argparse
import filecmp
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time


def _cpu():
    text = open("/proc/cpuinfo").read() if os.path.exists("/proc/cpuinfo") else ""
    m = re.search(r"model name\s*:\s*(.*)", text)
    return m.group(1).strip() if m else platform.machine()


def _warm(path):
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


def _timed(cmd, cpu, env):
    """(wall seconds, CPU seconds of the child, wall seconds until its output is on disk) of one command
    pinned to core ``cpu``. The page cache is written back (sync, untimed) before it starts, so that no
    command pays for the write-back of the one before it; nuri fsyncs its output before naming it, age
    does not, so the time until a sync after it returns is reported too."""
    os.sync()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, env=env, preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    os.sync()
    durable = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.decode().strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), durable


def _record(impl, op, param, size, values, metric):
    load = os.getloadavg()[0]
    return {
        "family": "seal-age",
        "impl": impl,
        "op": op,
        "param": param,
        "size": size,
        "platform": f"{platform.machine()} {_cpu()}, {os.cpu_count()} cores",
        "metric": metric,
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "runs": len(values),
        "load": round(load, 2),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--age-bin", required=True, help="folder holding age and age-keygen")
    ap.add_argument("--dir", default="build/age-bench", help="where the input and outputs go")
    ap.add_argument("--mib", type=int, default=1024, help="input size in MiB (default 1024)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=None, help="the core both tools run on (default: the last one allowed)")
    a = ap.parse_args(argv)
    age = os.path.join(a.age_bin, "age")
    keygen = os.path.join(a.age_bin, "age-keygen")
    nuri = os.path.join(os.path.dirname(sys.executable), "nuri")
    if not (shutil.which(age) and shutil.which(keygen)):
        sys.exit(f"agebench: no age / age-keygen in {a.age_bin} (make age-tools)")
    cpu = a.cpu if a.cpu is not None else max(os.sched_getaffinity(0))
    os.makedirs(a.dir, exist_ok=True)
    p = lambda name: os.path.join(a.dir, name)  # noqa: E731
    size = a.mib << 20
    if not os.path.exists(p("in")) or os.path.getsize(p("in")) != size:
        with open(p("in"), "wb") as f:
            for _ in range(a.mib):
                f.write(os.urandom(1 << 20))
    for f in ("id.txt", "id.pub"):
        if os.path.exists(p(f)):
            os.unlink(p(f))
    subprocess.run([keygen, "-pq", "-o", p("id.txt")], check=True, capture_output=True)
    subprocess.run([keygen, "-y", "-o", p("id.pub"), p("id.txt")], check=True, capture_output=True)
    env = dict(os.environ, NURI_NO_PROGRESS="1")
    cmds = {
        ("nuri", "seal"): [nuri, "seal", "-q", "--format", "age", "-r", p("id.pub"), "-i", p("in"), "-o", p("n.age")],
        ("age", "seal"): [age, "-R", p("id.pub"), "-o", p("a.age"), p("in")],
        ("nuri", "open"): [nuri, "open", "-q", "--identity", p("id.txt"), "-i", p("a.age"), "-o", p("n.out")],
        ("age", "open"): [age, "-d", "-i", p("id.txt"), "-o", p("a.out"), p("a.age")],
    }
    out = {("nuri", "seal"): "n.age", ("age", "seal"): "a.age", ("nuri", "open"): "n.out", ("age", "open"): "a.out"}
    wall = {k: [] for k in cmds}
    cpus = {k: [] for k in cmds}
    durable = {k: [] for k in cmds}
    for run in range(a.runs):
        for op in ("seal", "open"):
            order = ("nuri", "age") if run % 2 == 0 else ("age", "nuri")  # neither always goes first
            for impl in order:
                if os.path.exists(p(out[impl, op])):  # a file is replaced, not timed
                    os.unlink(p(out[impl, op]))
                _warm(p("in") if op == "seal" else p("a.age"))
                w, c, d = _timed(cmds[impl, op], cpu, env)
                wall[impl, op].append(w)
                cpus[impl, op].append(c)
                durable[impl, op].append(d)
        if run == 0:
            for f in ("n.out", "a.out"):
                if not filecmp.cmp(p("in"), p(f), shallow=False):
                    raise RuntimeError(f"agebench: {f} differs from the input")
            got = subprocess.run([age, "-d", "-i", p("id.txt"), "-o", p("check"), p("n.age")], capture_output=True)
            if got.returncode != 0 or not filecmp.cmp(p("in"), p("check"), shallow=False):
                raise RuntimeError("agebench: age does not open what nuri sealed")
            os.unlink(p("check"))
    param = f"{a.mib} MiB, ML-KEM-768+X25519 recipient, 1 core"
    records = []
    metrics = (("seconds", wall), ("cpu-seconds", cpus), ("seconds-to-disk", durable))
    for impl, op in wall:
        for metric, d in metrics:
            records.append(_record(impl if impl == "age" else "nuri-cli", op, param, size, d[impl, op], metric))
    for op in ("seal", "open"):
        for metric, d in metrics:
            ratios = [x / y for x, y in zip(d["age", op], d["nuri", op])]
            records.append(_record("nuri-cli/age", op, param, size, ratios, f"age/nuri {metric}"))
    for r in records:
        print(json.dumps(r), flush=True)
    for op in ("seal", "open"):
        n, g = statistics.median(wall["nuri", op]), statistics.median(wall["age", op])
        nc, gc = statistics.median(cpus["nuri", op]), statistics.median(cpus["age", op])
        nd, gd = statistics.median(durable["nuri", op]), statistics.median(durable["age", op])
        print(
            f"agebench: {op} {a.mib} MiB on core {cpu}: nuri {n:.2f} s ({nc:.2f} s CPU, {nd:.2f} s to disk), "
            f"age {g:.2f} s ({gc:.2f} s CPU, {gd:.2f} s to disk): age/nuri {g / n:.2f}x wall, {gc / nc:.2f}x "
            f"CPU, {gd / nd:.2f}x to disk (medians of {a.runs})",
            file=sys.stderr,
        )
    for f in ("n.age", "a.age", "n.out", "a.out"):
        if os.path.exists(p(f)):
            os.unlink(p(f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
