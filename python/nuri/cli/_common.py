"""Helpers shared by the cmd_*.py modules: keys, '-' for stdin/stdout, atomic output files,
progress bars. (Not a command: main.py only loads cmd_*.py.)"""

import contextlib
import os
import secrets
import stat
import sys
import tempfile
import time

from .._util import read_full  # noqa: F401  (re-exported: commands use C.read_full)
from .main import UsageError

CHUNK = 1 << 16


def add_key_arg(p, required_note=""):
    p.add_argument(
        "-k",
        "--key",
        metavar="KEYFILE",
        help="key file from 'nuri keygen' (or one line of hex digits). Without -k the key is read "
        "from the environment variable NURI_KEY_HEX. Keys are never taken on the command line" + required_note,
    )


KEM_IMPL_HELP = (
    "the ML-KEM implementation that runs the KEM: auto (default: the C library's dispatch, honouring "
    "NURI_IMPL=mlkem:<name>), a C implementation usable here (ref, opt, avx2, avx512, ...: "
    "nuri.mlkem.implementations()), or hw: the ML-KEM hardware core through nuri.hw (the Verilator model "
    "of the core in a checkout; on a board, NURI_HW_DEVICE=pynq:<bitfile>). The bytes written are the "
    "same whichever runs"
)


def add_kem_impl_arg(p, applies=""):
    p.add_argument("--kem-impl", metavar="IMPL", default=None, help=KEM_IMPL_HELP + applies)


def kem_impl(args, level=768):
    """The impl= of nuri.mlkem for --kem-impl (None for auto or absent), checked here: UsageError (exit
    2, one line) for a name that is not usable, or a hardware core without a device."""
    from ..tools import NeedsCheckout

    value = getattr(args, "kem_impl", None)
    if value in (None, "auto"):
        return None
    from .. import mlkem
    from ..exceptions import UnsupportedImplementation

    try:
        mlkem.implementation_name(level, impl=value)
    except UnsupportedImplementation:
        usable = ", ".join(["auto"] + mlkem.implementations(devices=True))
        raise UsageError(f"--kem-impl {value}: not an ML-KEM implementation usable here (usable: {usable})") from None
    except NeedsCheckout:
        raise
    except (RuntimeError, ValueError, OSError) as e:  # the device: a model that does not build, a bad board
        lines = str(e).strip().splitlines() or [type(e).__name__]
        raise UsageError(f"--kem-impl {value}: {lines[0]}") from None
    return value


def load_key(args, allowed=(16, 24, 32), what="key"):
    """The key from -k KEYFILE or NURI_KEY_HEX; UsageError (exit 2) when missing or of a wrong length."""
    from .. import keyfile

    try:
        if getattr(args, "key", None):
            key = keyfile.read_key(args.key)
            src = args.key
        else:
            key = keyfile.key_from_env()
            src = keyfile.ENV_VAR
            if key is None:
                raise UsageError(
                    f"no key: give -k KEYFILE (make one with 'nuri keygen -o KEYFILE') or set {keyfile.ENV_VAR}"
                )
    except keyfile.KeyFileError as e:
        raise UsageError(str(e)) from None
    if len(key) not in allowed:
        want = " or ".join(f"{n * 8}" for n in sorted(allowed))
        raise UsageError(f"{src}: {what} must be {want} bits, got {len(key) * 8}")
    return key


class _Reader:
    """A binary reader whose read errors (EIO, reading /proc/self/mem, ...) become one-line usage errors."""

    def __init__(self, f, name):
        self._f, self._name = f, name

    def _err(self, e):
        return UsageError(f"cannot read {self._name}: {e.strerror or e}")

    def read(self, n=-1):
        try:
            return self._f.read(n)
        except OSError as e:
            raise self._err(e) from None

    def read1(self, n=-1):
        try:
            return self._f.read1(n)
        except OSError as e:
            raise self._err(e) from None

    def readinto(self, b):
        try:
            return self._f.readinto(b)
        except OSError as e:
            raise self._err(e) from None

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._f)
        except OSError as e:
            raise self._err(e) from None

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._f is not sys.stdin.buffer:
            self._f.close()
        return False


def open_input(path):
    """A binary reader for a path or '-' (stdin); open and read errors are usage errors (exit 2)."""
    if path == "-":
        return _Reader(sys.stdin.buffer, "stdin")
    if "\0" in path:  # only a sums file can name one; open() would raise ValueError
        raise UsageError(f"cannot read {path!r}: a file name cannot hold a NUL byte")
    try:
        return _Reader(open(path, "rb"), path)
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None


def input_size(f):
    """Size of a regular file behind f, else None (pipes)."""
    try:
        st = os.fstat(f.fileno())
        return st.st_size if stat.S_ISREG(st.st_mode) else None
    except (OSError, ValueError, AttributeError):
        return None


def output_kind(path, force):
    """What writing OUT means: 'stdout' ('-'), 'new' (no such file), 'replace' (an existing regular file,
    only with --force) or 'direct' (a character device or a FIFO, written in place: never renamed over).
    Anything else (a directory, a socket, a block device, a dangling symlink) is a usage error."""
    if path == "-":
        return "stdout"
    if not os.path.lexists(path):
        d = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(d):
            raise UsageError(f"cannot write {path}: directory {d} does not exist")
        if not os.access(d, os.W_OK | os.X_OK):
            raise UsageError(f"cannot write {path}: directory {d} is not writable")
        return "new"
    try:
        st = os.stat(path)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return "direct"
    if stat.S_ISDIR(st.st_mode):
        raise UsageError(f"{path} is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{path} is not a regular file, a character device or a FIFO: refusing to write it")
    if not force:
        raise UsageError(f"{path} exists (use --force to overwrite)")
    d = os.path.dirname(os.path.realpath(path))
    if not os.access(d, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {path}: directory {d} is not writable")
    return "replace"


def check_output_path(path, force):
    """Fails early (exit 2) if OUT exists without --force, is a special file other than a character device
    or FIFO, or its directory is not writable."""
    output_kind(path, force)


def _tmpfile_supported():
    return hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd")


class AtomicOutput:
    """Output that never leaves partial or unauthenticated data under OUT's name.

    A regular OUT is written to an unnamed temporary file in OUT's directory (O_TMPFILE, mode 0600), linked
    to OUT only on commit() (with --force: linked beside OUT and renamed over it). Where the filesystem has
    no O_TMPFILE, a named '.nuri-*.part' file (mode 0600) is used instead; it is removed on any error, on
    SIGINT, SIGTERM and SIGHUP (main.py turns those into exceptions), but a SIGKILL can leave it behind. The
    final file gets mode 0600 when ``secret``, else the mode of a new file (0666 minus the umask).
    Character devices and FIFOs (and '-', stdout) are written directly: callers that must release only
    authenticated data check ``direct`` and authenticate first. Write errors (a full disk, EIO) become one
    line and exit status 2, and the temporary is removed."""

    def __init__(self, path, force=False, secret=False):
        self.path, self.force, self.secret = path, force, secret
        self.f = None
        self.tmp = None  # the named temporary, if any
        self.committed = False
        self.kind = None

    @property
    def direct(self):
        return self.kind in ("stdout", "direct")

    def _fail(self, e):
        if self.kind == "stdout" and isinstance(e, BrokenPipeError):
            return e  # stdout's reader went away: exit status 141 (cli/main.py), as for every command
        where = "stdout" if self.path == "-" else self.path
        return UsageError(f"cannot write {where}: {e.strerror or e}")

    def __enter__(self):
        self.kind = output_kind(self.path, self.force)
        if self.kind == "stdout":
            self.f = sys.stdout.buffer
            return self
        if self.kind == "direct":
            try:
                # no O_CREAT: if OUT was swapped for something else meanwhile, fail rather than create
                self.f = os.fdopen(os.open(self.path, os.O_WRONLY | os.O_CLOEXEC), "wb")
            except OSError as e:
                raise self._fail(e) from None
            return self
        self.final = os.path.realpath(self.path) if self.kind == "replace" else os.path.abspath(self.path)
        d = os.path.dirname(self.final)
        fd = None
        if _tmpfile_supported():
            try:
                fd = os.open(d, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o600)
            except OSError:
                fd = None  # the filesystem has no O_TMPFILE: a named temporary instead
        if fd is None:
            try:
                fd, self.tmp = tempfile.mkstemp(prefix=".nuri-", suffix=".part", dir=d)  # mode 0600
            except OSError as e:
                raise self._fail(e) from None
        self.f = os.fdopen(fd, "wb")
        return self

    def write(self, b):
        try:
            self.f.write(b)
        except OSError as e:
            raise self._fail(e) from None

    def finish(self):
        """Flushes everything to disk (errors: UsageError, nothing under OUT's name). Part one of commit()."""
        try:
            self.f.flush()
            if self.kind in ("new", "replace"):
                os.fchmod(self.f.fileno(), 0o600 if self.secret else 0o666 & ~_umask())
                os.fsync(self.f.fileno())
        except OSError as e:
            raise self._fail(e) from None

    def commit(self):
        self.finish()
        self.publish()

    def publish(self):
        """Gives the finished output its name (part two of commit())."""
        if self.direct:
            if self.kind == "direct":
                try:
                    self.f.close()
                except OSError as e:
                    raise self._fail(e) from None
            self.committed = True
            return
        try:
            if self.tmp is None:  # unnamed: link it (beside OUT first when it replaces one)
                if self.kind == "new":
                    _link_fd(self.f.fileno(), self.final)  # never clobbers a file that appeared meanwhile
                else:
                    named = _link_beside(self.f.fileno(), self.final)
                    try:
                        os.replace(named, self.final)
                    except OSError:
                        os.unlink(named)
                        raise
            elif self.kind == "replace":
                os.replace(self.tmp, self.final)
                self.tmp = None
            else:
                os.link(self.tmp, self.final)
                os.unlink(self.tmp)
                self.tmp = None
        except FileExistsError:
            raise UsageError(f"{self.path} exists (use --force to overwrite)") from None
        except OSError as e:
            raise self._fail(e) from None
        self.f.close()
        self.committed = True

    def discard(self):
        """Removes a published output again (used when a sibling output could not be published)."""
        if self.committed and self.kind in ("new", "replace"):
            with contextlib.suppress(OSError):
                os.unlink(self.final)

    def __exit__(self, *exc):
        if self.kind in ("new", "replace", "direct") and self.f is not None:
            with contextlib.suppress(OSError, ValueError):
                self.f.close()
        if self.tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.tmp)
            self.tmp = None
        return False


def commit_all(outputs):
    """Commits several outputs together: every one is written to disk before any gets its name, and if
    naming one fails the ones already named are removed again (kem keygen: no sk without pk)."""
    for o in outputs:
        o.finish()
    done = []
    try:
        for o in outputs:
            o.publish()
            done.append(o)
    except BaseException:
        for o in done:
            o.discard()
        raise


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m


def _link_fd(fd, path):
    """linkat(/proc/self/fd/FD, path, AT_SYMLINK_FOLLOW): gives an O_TMPFILE file a name. (os.link uses
    linkat with that flag only when a dir_fd is passed.)"""
    proc = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.link(str(fd), path, src_dir_fd=proc, follow_symlinks=True)
    finally:
        os.close(proc)


def _link_beside(fd, final):
    d, base = os.path.split(final)
    for _ in range(100):
        name = os.path.join(d, f".nuri-{base}-{secrets.token_hex(6)}.part")
        try:
            _link_fd(fd, name)
            return name
        except FileExistsError:
            continue
    raise OSError(f"cannot create a temporary name beside {final}")


class Progress:
    """A rich progress bar on stderr for runs that may take over a second; silent when stderr is not a
    terminal, with --quiet, or when rich is missing."""

    def __init__(self, total, description, unit="bytes", quiet=False):
        self.bar = None
        self.start = time.monotonic()
        if quiet or not sys.stderr.isatty() or os.environ.get("NURI_NO_PROGRESS"):
            return
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )
            from rich.progress import (
                Progress as RP,
            )
        except ImportError:
            return
        cols = [TextColumn("{task.description}"), BarColumn()]
        cols += [DownloadColumn(), TransferSpeedColumn()] if unit == "bytes" else [MofNCompleteColumn()]
        cols.append(TimeRemainingColumn())
        self.bar = RP(*cols, console=Console(stderr=True), transient=True)
        self.task = self.bar.add_task(description, total=total)
        self.bar.start()

    def advance(self, n):
        if self.bar is not None:
            self.bar.advance(self.task, n)

    def close(self):
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
