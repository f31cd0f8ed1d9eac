"""Runs a key search over a range of candidates: the C engine in threads (the GIL is released
during each engine call), hits re-checked on every pair, a status line on stderr at most once a
second, restore files, SIGINT handling. The cluster runner (cluster.py) reuses the pieces."""

import json
import os
import signal
import sys
import tempfile
import threading
import time
import uuid

RESTORE_FORMAT = "nuri-keysearch-restore/1"
SAVE_EVERY_S = 5.0  # restore file rewritten at least this often (a crash loses at most 5 s of work)
CHUNK_TARGET_S = 0.25  # one engine call per thread takes about this long (SIGINT latency)


class SessionError(ValueError):
    """A restore file that cannot be used or written (exit 2)."""


def cpu_threads():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


# ---- restore files ----


def session_path(name):
    if not name or "/" in name or name.startswith("."):
        raise SessionError(f"session name must be a plain file name, got {name!r}")
    return os.path.join(os.environ.get("NURI_SESSION_DIR") or os.getcwd(), f"{name}.restore")


def load_restore(name):
    path = session_path(name)
    try:
        with open(path) as f:
            d = json.load(f)
    except FileNotFoundError:
        raise SessionError(f"no session {name!r} ({path} does not exist)") from None
    except (OSError, ValueError) as e:
        raise SessionError(f"cannot read {path}: {e}") from None
    if not isinstance(d, dict) or d.get("format") != RESTORE_FORMAT:
        raise SessionError(f"{path} is not a nuri keysearch restore file")
    return d


def check_restore(d, name):
    """The search a restore file describes, checked in full before anything is printed or
    searched: (problem, next_index, end, d with "found" normalised). SessionError (one line) when
    a field is missing or of the wrong type, the numbers are not 0 <= skip <= next_index <= end <=
    key space, the search has no pair, or a "found" key does not fit the template or does not map
    every pair with the reference cipher (an edited file cannot make the search print a key)."""
    from . import Problem

    where = f"session {name}"
    if not isinstance(d.get("search"), dict):
        raise SessionError(f"{where}: no search description")
    try:
        prob = Problem.from_description(d["search"])
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
        raise SessionError(f"{where}: the saved search is invalid: {e}") from None
    if not prob.pairs:
        raise SessionError(f"{where}: the saved search has no plaintext/ciphertext pair")
    nums = {k: d.get(k) for k in ("skip", "next_index", "end")}
    for k, v in nums.items():
        if type(v) is not int:
            raise SessionError(f"{where}: {k} must be an integer, got {v!r}")
    if not 0 <= nums["skip"] <= nums["next_index"] <= nums["end"] <= prob.keyspace:
        raise SessionError(
            f"{where}: inconsistent range: need 0 <= skip ({nums['skip']}) <= next_index ({nums['next_index']}) "
            f"<= end ({nums['end']}) <= key space ({prob.keyspace})"
        )
    if not isinstance(d.get("id"), str) or not d["id"]:
        raise SessionError(f"{where}: no search id")
    found = d.get("found")
    if not isinstance(found, list):
        raise SessionError(f"{where}: found must be a list of keys, got {type(found).__name__}")
    keys = []
    for h in found:
        if not isinstance(h, str) or len(h) != 2 * prob.key_len or any(c not in "0123456789abcdefABCDEF" for c in h):
            raise SessionError(f"{where}: found key {h!r} is not {2 * prob.key_len} hex digits")
        key = bytes.fromhex(h)
        fits = bytes(a & ~m & 0xFF for a, m in zip(key, prob.mask)) == prob.key
        if not fits or not prob.verify(key):
            raise SessionError(f"{where}: found key {h.upper()} does not map the search's pairs: file altered?")
        if h.upper() not in keys:
            keys.append(h.upper())
    return prob, nums["next_index"], nums["end"], dict(d, found=keys)


class Session:
    """NAME.restore, written atomically (temporary file + rename); never replaces a file that
    belongs to another search (checked by the search id inside)."""

    def __init__(self, name, search_id, existing=False):
        self.name, self.path, self.id = name, session_path(name), search_id
        self.created = existing
        if not existing and os.path.lexists(self.path):
            raise SessionError(
                f"session {name!r} exists ({self.path}): resume it with --restore {name} "
                "or choose another --session name"
            )

    def save(self, state):
        d = dict(state, format=RESTORE_FORMAT, id=self.id, updated=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        folder = os.path.dirname(self.path)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(d, f, indent=1)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            if not self.created:
                os.link(tmp, self.path)  # fails if another search created the file meanwhile
                self.created = True
            else:
                try:
                    with open(self.path) as f:
                        other = json.load(f).get("id")
                except (OSError, ValueError):
                    other = self.id
                if other != self.id:
                    raise SessionError(f"{self.path} now belongs to another search: not overwritten")
                os.replace(tmp, self.path)
        except FileExistsError:
            raise SessionError(f"{self.path} was created by another search: not overwritten") from None
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def remove(self):
        if self.created:
            try:
                with open(self.path) as f:
                    if json.load(f).get("id") != self.id:
                        return
                os.unlink(self.path)
            except (OSError, ValueError):
                pass


# ---- progress ----


class Progress:
    """Counts searched candidates per engine/worker; formats the status line or JSON object."""

    def __init__(self, total, already=0, status_json=False, stream=None):
        self.total, self.already = total, already
        self.status_json = status_json
        self.stream = stream or sys.stderr
        self.t0 = time.monotonic()
        self.done = 0  # this run
        self.per = {}  # name -> [candidates, seconds of engine time, threads]
        self.found = 0
        self.lock = threading.Lock()

    def add(self, who, n, seconds):
        with self.lock:
            self.done += n
            e = self.per.setdefault(who, [0, 0.0])
            e[0] += n
            e[1] += seconds

    def snapshot(self, restore_point=None, state="running"):
        el = max(time.monotonic() - self.t0, 1e-9)
        with self.lock:
            rate = self.done / el
            per = {k: v[0] / el for k, v in self.per.items()}
            done = self.already + self.done
        remaining = max(self.total - done, 0)
        d = {
            "status": state,
            "progress": [done, self.total],
            "percent": 100.0 * done / self.total if self.total else 100.0,
            "keys_per_s": per,
            "total_keys_per_s": rate,
            "eta_s": remaining / rate if rate > 0 else None,
            "found": self.found,
            "elapsed_s": el,
        }
        if restore_point is not None:
            d["restore_point"] = restore_point
        return d

    def emit(self, restore_point=None, state="running"):
        d = self.snapshot(restore_point, state)
        if self.status_json:
            line = json.dumps(d)
        else:
            eta = "-" if d["eta_s"] is None else _duration(d["eta_s"])
            engines = ", ".join(f"{k} {_rate(v)}" for k, v in d["keys_per_s"].items()) or "-"
            line = (
                f"keysearch: {state} {d['percent']:5.1f}% {d['progress'][0]}/{d['progress'][1]} | {engines} | "
                f"total {_rate(d['total_keys_per_s'])} | ETA {eta} | found {d['found']}"
            )
        print(line, file=self.stream, flush=True)


def _rate(r):
    return f"{r:.3g} keys/s"


def _duration(s):
    s = int(s + 0.5)
    if s >= 86400:
        return f"{s // 86400}d{s % 86400 // 3600:02d}h"
    return f"{s // 3600:d}:{s % 3600 // 60:02d}:{s % 60:02d}"


# ---- the threaded search ----


class Ranges:
    """Hands out chunks of [next, end); the restore point is the smallest candidate not yet known
    to be searched (chunks finished out of order are searched again after a restore)."""

    def __init__(self, start, end):
        self.next, self.end = start, end
        self.inflight = {}
        self.lock = threading.Lock()

    def take(self, n):
        with self.lock:
            if self.next >= self.end:
                return None
            s = self.next
            c = min(n, self.end - s)
            self.next = s + c
            self.inflight[s] = c
            return s, c

    def finish(self, s):
        with self.lock:
            del self.inflight[s]

    def restore_point(self):
        with self.lock:
            return min(self.inflight) if self.inflight else self.next


class Hits:
    """Re-checks engine hits on every pair with the reference cipher, prints confirmed keys."""

    def __init__(self, problem, out, found=(), progress=None):
        self.problem, self.out = problem, out
        self.found = list(found)
        self.rejected = 0
        self.progress = progress
        self.lock = threading.Lock()
        if progress:
            progress.found = len(self.found)

    def add_index(self, idx):
        self.add_key(self.problem.key_bytes(idx))

    def add_key(self, key):
        ok = self.problem.verify(key)
        h = key.hex().upper()
        with self.lock:
            if not ok:
                self.rejected += 1
                return
            if h in self.found:
                return
            self.found.append(h)
            if self.progress:
                self.progress.found = len(self.found)
            print(h, file=self.out, flush=True)


def search_chunk(problem, engine, s, c, hits):
    """Searches [s, s + c) completely (engine calls stop early when their hit buffer fills)."""
    pos, end = s, s + c
    while pos < end:
        idx, done = problem.search(pos, end - pos, impl=engine)
        for i in idx:
            hits.add_index(i)
        if done == 0:
            raise RuntimeError("engine made no progress")
        pos += done


def run_threads(problem, ranges, engine, threads, hits, progress, stop, errors):
    def worker():
        size = 1 << 14
        try:
            while not stop.is_set():
                chunk = ranges.take(size)
                if chunk is None:
                    return
                t = time.monotonic()
                search_chunk(problem, engine, chunk[0], chunk[1], hits)
                dt = time.monotonic() - t
                ranges.finish(chunk[0])
                progress.add(engine, chunk[1], dt)
                size = int(min(max(chunk[1] / max(dt, 1e-6) * CHUNK_TARGET_S, 1 << 12), 1 << 36))
        except Exception as e:  # reported by the main thread
            errors.append(e)
            stop.set()

    ts = [threading.Thread(target=worker, daemon=True) for _ in range(threads)]
    for t in ts:
        t.start()
    return ts


class Search:
    """One search over [start, end) with one engine in `threads` threads, or on a cluster."""

    def __init__(
        self,
        problem,
        start,
        end,
        engine,
        threads=None,
        out=None,
        err=None,
        status_json=False,
        session=None,
        restore=None,
    ):
        self.problem, self.start, self.end = problem, start, end
        self.engine = engine
        self.threads = threads or cpu_threads()
        self.out, self.err = out or sys.stdout, err or sys.stderr
        self.status_json = status_json
        self.session = session
        self.restore = restore or {}
        self.search_id = self.restore.get("id") or uuid.uuid4().hex
        self.interrupted = False

    def state(self, next_index, found):
        return {
            "search": self.problem.describe(),
            "skip": self.start if not self.restore else self.restore["skip"],
            "end": self.end,
            "next_index": next_index,
            "found": found,
            "engine": self.engine,
        }

    def run(self, runner=None):
        """0 found, 1 exhausted, 4 interrupted (restore file written). runner(ranges, hits,
        progress, stop, errors) -> list of threads; default: local threads."""
        already = self.start - self.restore.get("skip", self.start)
        total = self.end - self.restore.get("skip", self.start)
        progress = Progress(total, already, self.status_json, self.err)
        hits = Hits(self.problem, self.out, self.restore.get("found", ()), progress)
        for h in hits.found:  # keys found before the interruption: stdout stays complete
            print(h, file=self.out, flush=True)
        ranges = Ranges(self.start, self.end)
        stop, errors = threading.Event(), []

        def on_signal(signum, frame):
            self.interrupted = True
            stop.set()

        old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            if runner is None:
                ts = run_threads(self.problem, ranges, self.engine, self.threads, hits, progress, stop, errors)
            else:
                ts = runner(ranges, hits, progress, stop, errors)
            last_status = last_save = time.monotonic()
            while any(t.is_alive() for t in ts):
                stop.wait(0.1)
                now = time.monotonic()
                if now - last_status >= 1.0:
                    progress.emit(ranges.restore_point())
                    last_status = now
                if self.session and now - last_save >= SAVE_EVERY_S:
                    self.session.save(self.state(ranges.restore_point(), hits.found))
                    last_save = now
                if stop.is_set():
                    for t in ts:
                        t.join()
            if errors:
                raise errors[0]
        finally:
            for s, h in old.items():
                signal.signal(s, h)
        if self.interrupted and ranges.restore_point() >= self.end:
            self.interrupted = False  # the signal came as the last chunk finished: the search is complete
        if self.interrupted:
            if self.session is None:
                self.session = Session(f"keysearch-{self.search_id[:8]}", self.search_id)
            point = ranges.restore_point()
            self.session.save(self.state(point, hits.found))
            progress.emit(point, "interrupted")
            print(
                f"keysearch: interrupted at candidate {point}; resume with --restore {self.session.name} "
                f"({self.session.path})",
                file=self.err,
                flush=True,
            )
            return 4
        progress.emit(self.end, "finished")
        if hits.rejected:
            print(
                f"keysearch: {hits.rejected} candidate(s) matched the first pair only (rejected by the other pairs)",
                file=self.err,
            )
        if self.session:
            self.session.remove()
        return 0 if hits.found else 1
