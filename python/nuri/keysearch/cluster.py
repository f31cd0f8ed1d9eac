"""--cluster: slices of the keyspace on a Dask or a Ray cluster (optional extras: pip install
.[cluster] for Dask, .[ray] for Ray).

Dask: `local:N` starts a LocalCluster of N worker processes on this machine (`local:N:G`: each with
G GPUs as its GPU resource); `tcp://HOST:PORT` joins a running Dask scheduler (`dask scheduler` +
`dask worker tcp://HOST:PORT` on each machine, nuri installed everywhere; a worker with GPUs is
started with `--resources GPU=n`). Ray: `ray:local:N` starts a local Ray instance with N CPUs
(`ray:local:N:G`: and G GPUs), `ray://HOST:PORT` joins a running cluster through the Ray client
(`ray start --head` ...); one Ray actor per GPU of the cluster (num_gpus=1: Ray gives it its own
device) and one per CPU (a worker process holding one CPU) play the part of Dask workers.

GPU workers: with --engine auto or cuda, a worker that has GPUs (Dask: its GPU resource; Ray: a GPU
actor) searches its slices with the cuda engine on them (nuri.keysearch.gpu, after the GPU
self-test); the others use their CPU engine (auto) or take no slices (cuda). The slicing, the
restore point and the re-check of every hit on all pairs are the same for both.

Each worker first runs the engine's self-test and a short benchmark; its slices are then sized to
NURI_KEYSEARCH_SLICE_S seconds of its own speed (default 120 s, as Hashtopolis sizes chunks from
agent benchmarks). Every worker keeps one slice in flight; a slice
whose worker stops reporting (no result after 3x its expected time + 30 s, or the worker left)
is handed to another worker. Hits come back as candidate indices and are re-checked on all pairs
here, and progress/ETA are aggregated per worker in the usual status line.

The coordinator below is written once over a small backend interface (DaskBackend, RayBackend).
Without either, plain --skip/--limit slices work with any batch scheduler (docs/keysearch.md)."""

import os
import sys
import threading
import time

SLICE_S = float(os.environ.get("NURI_KEYSEARCH_SLICE_S", "120"))
BENCH_S = 0.5


class ClusterError(ValueError):
    """A --cluster SPEC that cannot be used (exit 2)."""


class SelfTestFailed(RuntimeError):
    """An engine's self-test failed on a worker (exit 3)."""


_selftested = set()
# Fault injection for the tests: the first worker_search that manages to create this file ends its
# worker process (as a crashed or killed machine would), so that reassignment is exercised.
CRASH_ONCE_ENV = "NURI_KEYSEARCH_TEST_CRASH_ONCE"


def _maybe_crash():
    path = os.environ.get(CRASH_ONCE_ENV)
    if path:
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
        os._exit(70)


def worker_search(desc, engine, start, count, threads):
    """A slice handed out by the coordinator (see _search_slice)."""
    _maybe_crash()
    return _search_slice(desc, engine, start, count, threads)


def _gpu_selftest():
    from . import gpu

    devices = gpu.open_devices()
    try:
        failed = [d.name for d in devices if not gpu.selftest(d)]
    finally:
        for d in devices:
            d.close()
    if failed:
        raise SelfTestFailed(f"engine cuda ({failed[0]}): known-answer self-test FAILED on a worker")


def _search_slice(desc, engine, start, count, threads):
    """Runs on a worker: [start, start + count) with `threads` threads of a CPU engine, or on every GPU
    of the worker (engine cuda). Returns (pair-1 hit indices, seconds, worker engine)."""
    from . import Problem, default_implementation, gpu, selftest
    from .driver import Hits, Ranges, run_threads

    if engine == "auto":
        engine = default_implementation()
    if engine not in _selftested:
        if engine == "cuda":
            _gpu_selftest()
        elif not selftest(impl=engine):
            raise SelfTestFailed(f"engine {engine}: known-answer self-test FAILED on a worker")
        _selftested.add(engine)
    prob = Problem.from_description(desc)
    found = []

    class Collect(Hits):  # the client re-checks; here only collect the indices
        def add_index(self, idx):
            with self.lock:
                found.append(idx)

    class Quiet:
        def add(self, *a):
            pass

    t = time.monotonic()
    stop, errors = threading.Event(), []
    ranges, collect = Ranges(start, start + count), Collect(prob, None)
    if engine == "cuda":
        ts = gpu.run_devices(prob, ranges, collect, Quiet(), stop, errors)
    else:
        ts = run_threads(prob, ranges, engine, threads, collect, Quiet(), stop, errors)
    for th in ts:
        th.join()
    if errors:
        raise errors[0]
    return sorted(found), time.monotonic() - t, engine


def worker_benchmark(desc, engine, threads):
    """keys/s of this worker on this search (BENCH_S seconds)."""
    from . import Problem

    prob = Problem.from_description(desc)
    n, t0 = 1 << 12, time.monotonic()
    start, total = 0, 0
    while time.monotonic() - t0 < BENCH_S:
        count = min(n, prob.keyspace - start)
        if count <= 0:
            start, count = 0, min(n, prob.keyspace)
        _search_slice(desc, engine, start, count, threads)
        start += count
        total += count
        n *= 2
    return total / (time.monotonic() - t0)


def check_spec(spec):
    """Raises ClusterError for a malformed SPEC (before anything starts)."""
    for prefix in ("local:", "ray:local:"):
        if spec.startswith(prefix):
            n, _, g = spec[len(prefix) :].partition(":")
            if (
                not n.isdigit()
                or (g and not g.isdigit())
                or int(n) + int(g or 0) < 1
                or (prefix == "local:" and int(n) < 1)
            ):
                raise ClusterError(f"--cluster {prefix}N[:G] needs N >= 1 (G GPUs), got {spec!r}")
            return
    for prefix in ("tcp://", "ray://"):
        if spec.startswith(prefix) and ":" in spec[len(prefix) :]:
            return
    raise ClusterError(
        f"--cluster must be local:N[:G] or tcp://HOST:PORT (Dask), ray:local:N[:G] or ray://HOST:PORT (Ray), "
        f"got {spec!r}"
    )


class WorkerLost(RuntimeError):
    """The worker running a slice died (the slice goes to another worker)."""


class DaskBackend:
    """Workers are the Dask workers; a slice is a task pinned to its worker (others may take it)."""

    def __init__(self, spec):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise ClusterError("--cluster needs Dask: pip install 'nuri[cluster]' (dask, distributed)") from None
        self.cluster, self.threads_per_worker = None, None
        if spec.startswith("local:"):
            n, _, g = spec[6:].partition(":")
            self.cluster = LocalCluster(
                n_workers=int(n),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                resources={"GPU": int(g)} if g and int(g) else None,
            )
            self.client, self.threads_per_worker = Client(self.cluster), 1
        else:
            try:
                self.client = Client(spec, timeout=30)
            except OSError as e:
                raise ClusterError(f"cannot reach the Dask scheduler {spec}: {e}") from None

    def workers(self):
        return sorted(self.client.scheduler_info()["workers"])

    def threads(self, w):
        info = self.client.scheduler_info()["workers"].get(w, {})
        return self.threads_per_worker or info.get("nthreads", 1)

    def gpus(self, w):
        info = self.client.scheduler_info()["workers"].get(w, {})
        return int((info.get("resources") or {}).get("GPU", 0))

    def submit(self, w, fn, *args):
        return self.client.submit(fn, *args, workers=[w], allow_other_workers=True, pure=False)

    def wait(self, handles, timeout):
        from dask.distributed import wait

        try:
            wait(list(handles), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:  # distributed.wait raises when nothing finished within the timeout
            pass

    def done(self, h):
        return h.status in ("finished", "error")

    def result(self, h):
        return h.result()

    def cancel(self, h):
        h.cancel()

    def label(self, w):
        return w.split("//")[-1]

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


class RayBackend:
    """Workers are Ray actors: one per GPU of the cluster (num_gpus=1, its own device) and, unless
    cpu_workers is false, one per CPU (each a process holding one CPU)."""

    def __init__(self, spec, cpu_workers=True):
        try:
            import ray
        except ImportError:
            raise ClusterError("--cluster ray:... needs Ray: pip install 'nuri[ray]'") from None
        self.ray = ray
        opts = dict(include_dashboard=False, logging_level="ERROR", log_to_driver=False)
        # Ray prints the cluster's error messages (e.g. "(raylet) A worker died ...") to sys.stdout,
        # which carries only keys (pinned): send them to stderr from here to the end of the process
        # (they arrive asynchronously, even during shutdown). The key printer (driver.Hits) holds the
        # real stdout, taken before this.
        self.stdout, sys.stdout = sys.stdout, sys.stderr
        try:
            if spec.startswith("ray:local:"):
                n, _, g = spec[len("ray:local:") :].partition(":")
                ray.init(num_cpus=int(n), num_gpus=int(g or 0), **opts)
            else:
                ray.init(address=spec, logging_level="ERROR", log_to_driver=False)
        except Exception as e:  # ConnectionError and Ray's own errors
            sys.stdout = self.stdout
            raise ClusterError(
                f"cannot start or reach Ray ({spec}): {str(e).splitlines()[0] if str(e) else e}"
            ) from None
        res = ray.cluster_resources()
        n, g = int(res.get("CPU", 0)) if cpu_workers else 0, int(res.get("GPU", 0))
        if n + g < 1:
            self.close()
            raise ClusterError(f"the Ray cluster {spec} has no {'CPU or ' if cpu_workers else ''}GPU")
        cpu_actor = ray.remote(num_cpus=1, max_restarts=0)(_RayWorker)
        gpu_actor = ray.remote(num_cpus=0, num_gpus=1, max_restarts=0)(_RayWorker)
        self.actors = {f"ray-gpu-{i}": gpu_actor.remote() for i in range(g)}
        self.actors.update({f"ray-{i}": cpu_actor.remote() for i in range(n)})
        self.dead = set()

    def workers(self):
        return sorted(w for w in self.actors if w not in self.dead)

    def threads(self, w):
        return 1

    def gpus(self, w):
        return 1 if w.startswith("ray-gpu-") else 0

    def submit(self, w, fn, *args):
        return (w, self.actors[w].call.remote(fn.__name__, *args))

    def wait(self, handles, timeout):
        self.ray.wait([h[1] for h in handles], num_returns=1, timeout=timeout)

    def done(self, h):
        return bool(self.ray.wait([h[1]], num_returns=1, timeout=0)[0])

    def result(self, h):
        try:
            return self.ray.get(h[1])
        except self.ray.exceptions.RayActorError:
            self.dead.add(h[0])
            raise WorkerLost(f"Ray worker {h[0]} died") from None
        except self.ray.exceptions.RayTaskError as e:
            raise e.as_instanceof_cause() from None

    def cancel(self, h):
        try:
            self.ray.cancel(h[1])
        except Exception:  # an actor task that already finished, or a Ray without actor-task cancel
            pass

    def label(self, w):
        return w

    def close(self):
        self.ray.shutdown()  # sys.stdout stays on stderr (see __init__)


class _RayWorker:
    """The actor: runs worker_search / worker_benchmark of this module in its own process."""

    def call(self, fn, *args):
        from nuri.keysearch import cluster

        return getattr(cluster, fn)(*args)


def connect(spec, engine="auto"):
    check_spec(spec)
    return RayBackend(spec, cpu_workers=engine != "cuda") if spec.startswith("ray") else DaskBackend(spec)


def runner(spec, prob, engine, err):
    """A runner for driver.Search.run: one coordinator thread driving the cluster. engine: a CPU
    engine, auto (GPU workers run cuda, the others their default CPU engine) or cuda (GPU workers
    only)."""
    backend = connect(spec, engine)
    desc = prob.describe()

    def engine_of(w):
        return "cuda" if engine in ("auto", "cuda") and backend.gpus(w) else engine

    def run(ranges, hits, progress, stop, errors):
        def coordinate():
            try:
                workers = backend.workers()
                if engine == "cuda":
                    workers = [w for w in workers if backend.gpus(w)]
                    if not workers:
                        raise ClusterError("--engine cuda: no worker of the cluster has a GPU")
                if not workers:
                    raise ClusterError("the cluster has no workers")
                threads = {w: backend.threads(w) for w in workers}
                bench = {w: backend.submit(w, worker_benchmark, desc, engine_of(w), threads[w]) for w in workers}
                speed = {w: backend.result(h) for w, h in bench.items()}
                pending = {}  # handle -> (worker, start, count, submitted, expected seconds)
                requeue = []

                def submit(w):
                    if requeue:
                        s, c = requeue.pop()
                    else:
                        chunk = ranges.take(max(int(speed[w] * SLICE_S), 1 << 12))
                        if chunk is None:
                            return
                        s, c = chunk
                    pending[backend.submit(w, worker_search, desc, engine_of(w), s, c, threads[w])] = (
                        w,
                        s,
                        c,
                        time.monotonic(),
                        c / max(speed[w], 1.0),
                    )

                def reassign(h):
                    w, s, c, _, _ = pending.pop(h)
                    backend.cancel(h)
                    requeue.append((s, c))
                    busy = {p[0] for p in pending.values()}
                    others = [x for x in alive if x not in busy] or list(alive)
                    for x in others:
                        speed.setdefault(x, min(speed.values()))
                        threads.setdefault(x, 1)
                    if others:
                        submit(others[0])

                for w in workers:
                    submit(w)
                while pending and not stop.is_set():
                    backend.wait(pending, 0.5)
                    now = time.monotonic()
                    alive = {w for w in backend.workers() if engine != "cuda" or backend.gpus(w)}
                    for h in list(pending):
                        w, s, c, t0, expect = pending[h]
                        if backend.done(h):
                            try:
                                idx, secs, name = backend.result(h)  # raises the worker's exception
                            except WorkerLost:
                                alive.discard(w)
                                reassign(h)
                                continue
                            del pending[h]
                            for i in idx:
                                hits.add_index(i)
                            ranges.finish(s)
                            progress.add(f"{name}@{backend.label(w)}", c, secs)
                            speed[w] = c / max(secs, 1e-6)
                            if w in alive:
                                submit(w)
                        elif w not in alive or now - t0 > 3 * expect + 30:
                            reassign(h)  # the worker stopped reporting: hand the slice to another worker
                    for w in alive:  # workers that joined meanwhile
                        if w not in speed:
                            speed[w], threads[w] = min(speed.values()), backend.threads(w)
                            submit(w)
                if not pending and not stop.is_set() and (requeue or ranges.next < ranges.end):
                    raise ClusterError("no cluster worker is left to search the rest of the range")
                for h in pending:
                    backend.cancel(h)
            except Exception as e:
                errors.append(e)
                stop.set()
            finally:
                backend.close()

        t = threading.Thread(target=coordinate, daemon=True)
        t.start()
        return [t]

    return run
