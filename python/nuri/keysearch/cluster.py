"""--cluster: slices of the keyspace on a Dask cluster (optional extra: pip install .[cluster]).

`local:N` starts a LocalCluster of N worker processes on this machine; `tcp://HOST:PORT` joins a
running Dask scheduler (`dask scheduler` + `dask worker tcp://HOST:PORT` on each machine, nuri
installed everywhere). Each worker first runs the engine's self-test and a short benchmark; its
slices are then sized to NURI_KEYSEARCH_SLICE_S seconds of its own speed (default 120 s, as
Hashtopolis sizes chunks from agent benchmarks). Every worker keeps one slice in flight; a slice
whose worker stops reporting (no result after 3x its expected time + 30 s, or the worker left)
is handed to another worker. Hits come back as candidate indices and are re-checked on all pairs
here, and progress/ETA are aggregated per worker in the usual status line.

Without Dask, plain --skip/--limit slices work with any batch scheduler (docs/keysearch.md)."""
import os
import threading
import time

SLICE_S = float(os.environ.get("NURI_KEYSEARCH_SLICE_S", "120"))
BENCH_S = 0.5


class ClusterError(ValueError):
    """A --cluster SPEC that cannot be used (exit 2)."""


class SelfTestFailed(RuntimeError):
    """An engine's self-test failed on a worker (exit 3)."""


_selftested = set()


def worker_search(desc, engine, start, count, threads):
    """Runs on a worker: [start, start + count) with `threads` threads. Returns (pair-1 hit indices,
    seconds, worker engine)."""
    from . import Problem, default_engine, selftest
    from .driver import Hits, Ranges, run_threads

    if engine == "auto":
        engine = default_engine()
    if engine not in _selftested:
        if not selftest(engine):
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
    for th in run_threads(prob, Ranges(start, start + count), engine, threads, Collect(prob, None), Quiet(), stop,
                          errors):
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
        worker_search(desc, engine, start, count, threads)
        start += count
        total += count
        n *= 2
    return total / (time.monotonic() - t0)


def check_spec(spec):
    """Raises ClusterError for a malformed SPEC (before anything starts)."""
    if spec.startswith("local:"):
        n = spec[6:]
        if not n.isdigit() or int(n) < 1:
            raise ClusterError(f"--cluster local:N needs N >= 1, got {spec!r}")
    elif not (spec.startswith("tcp://") and ":" in spec[6:]):
        raise ClusterError(f"--cluster must be local:N or tcp://HOST:PORT, got {spec!r}")


def connect(spec):
    check_spec(spec)
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'nuri[cluster]' (dask, distributed)") from None
    if spec.startswith("local:"):
        try:
            n = int(spec[6:])
        except ValueError:
            n = 0
        if n < 1:
            raise ClusterError(f"--cluster local:N needs N >= 1, got {spec!r}")
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster), cluster, 1
    if spec.startswith("tcp://"):
        try:
            return Client(spec, timeout=30), None, None
        except OSError as e:
            raise ClusterError(f"cannot reach the Dask scheduler {spec}: {e}") from None
    raise ClusterError(f"--cluster must be local:N or tcp://HOST:PORT, got {spec!r}")


def runner(spec, prob, engine, err):
    """A runner for driver.Search.run: one coordinator thread driving the cluster."""
    client, cluster, threads_per_worker = connect(spec)
    desc = prob.describe()

    def run(ranges, hits, progress, stop, errors):
        def coordinate():
            from dask.distributed import wait

            try:
                workers = sorted(client.scheduler_info()["workers"])
                if not workers:
                    raise ClusterError("the Dask cluster has no workers")
                threads = {w: threads_per_worker or client.scheduler_info()["workers"][w].get("nthreads", 1)
                           for w in workers}
                speed = dict(zip(workers, client.gather(
                    [client.submit(worker_benchmark, desc, engine, threads[w], workers=[w], pure=False)
                     for w in workers])))
                pending = {}  # future -> (worker, start, count, submitted, expected seconds)
                requeue = []

                def submit(w):
                    if requeue:
                        s, c = requeue.pop()
                    else:
                        chunk = ranges.take(max(int(speed[w] * SLICE_S), 1 << 12))
                        if chunk is None:
                            return
                        s, c = chunk
                    f = client.submit(worker_search, desc, engine, s, c, threads[w], workers=[w],
                                      allow_other_workers=True, pure=False)
                    pending[f] = (w, s, c, time.monotonic(), c / max(speed[w], 1.0))

                for w in workers:
                    submit(w)
                while pending and not stop.is_set():
                    wait(list(pending), timeout=0.5, return_when="FIRST_COMPLETED")
                    now = time.monotonic()
                    alive = set(client.scheduler_info()["workers"])
                    for f in list(pending):
                        w, s, c, t0, expect = pending[f]
                        if f.status == "finished":
                            idx, secs, name = f.result()
                            del pending[f]
                            for i in idx:
                                hits.add_index(i)
                            ranges.finish(s)
                            progress.add(f"{name}@{w.split('//')[-1]}", c, secs)
                            speed[w] = c / max(secs, 1e-6)
                            if w in alive:
                                submit(w)
                        elif f.status == "error":
                            f.result()  # raises the worker's exception
                        elif w not in alive or now - t0 > 3 * expect + 30:
                            # the worker stopped reporting: hand the slice to another worker
                            del pending[f]
                            f.cancel()
                            requeue.append((s, c))
                            others = [x for x in alive if x not in {p[0] for p in pending.values()}] or list(alive)
                            for x in others:
                                speed.setdefault(x, min(speed.values()))
                                threads.setdefault(x, 1)
                            if others:
                                submit(others[0])
                    for w in alive:  # workers that joined meanwhile
                        if w not in speed:
                            speed[w], threads[w] = min(speed.values()), threads_per_worker or 1
                            submit(w)
                for f in pending:
                    f.cancel()
            except Exception as e:
                errors.append(e)
                stop.set()
            finally:
                client.close()
                if cluster is not None:
                    cluster.close()

        t = threading.Thread(target=coordinate, daemon=True)
        t.start()
        return [t]

    return run
