"""Helpers shared by the cmd_*.py modules: keys, '-' for stdin/stdout, atomic output files,
progress bars. (Not a command: main.py only loads cmd_*.py.)"""
import contextlib
import os
import sys
import tempfile
import time

from .._util import read_full  # noqa: F401  (re-exported: commands use C.read_full)
from .main import UsageError

CHUNK = 1 << 16


def add_key_arg(p, required_note=""):
    p.add_argument("-k", "--key", metavar="KEYFILE",
                   help="key file from 'nuri keygen' (or one line of hex digits). Without -k the key is read "
                        "from the environment variable NURI_KEY_HEX. Keys are never taken on the command line"
                        + required_note)


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
                raise UsageError("no key: give -k KEYFILE (make one with 'nuri keygen -o KEYFILE') "
                                 f"or set {keyfile.ENV_VAR}")
    except keyfile.KeyFileError as e:
        raise UsageError(str(e)) from None
    if len(key) not in allowed:
        want = " or ".join(f"{n * 8}" for n in sorted(allowed))
        raise UsageError(f"{src}: {what} must be {want} bits, got {len(key) * 8}")
    return key


def open_input(path):
    """A binary reader for a path or '-' (stdin)."""
    if path == "-":
        return contextlib.nullcontext(sys.stdin.buffer)
    try:
        return open(path, "rb")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None


def input_size(f):
    """Size of a regular file behind f, else None (pipes)."""
    try:
        st = os.fstat(f.fileno())
        import stat

        return st.st_size if stat.S_ISREG(st.st_mode) else None
    except (OSError, ValueError, AttributeError):
        return None


def check_output_path(path, force):
    """Fails early (exit 2) if OUT exists without --force or its directory is not writable."""
    if path == "-":
        return
    if os.path.isdir(path):
        raise UsageError(f"{path} is a directory")
    if os.path.lexists(path) and not force:
        raise UsageError(f"{path} exists (use --force to overwrite)")
    d = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(d):
        raise UsageError(f"cannot write {path}: directory {d} does not exist")
    if not os.access(d, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {path}: directory {d} is not writable")


class AtomicOutput:
    """Writes to a temporary file beside OUT (mode 0600 when ``secret``) and renames it to OUT only on
    commit(); anything else (an exception, a failed check) removes it, so OUT never holds partial
    output. '-' writes straight to stdout."""

    def __init__(self, path, force=False, secret=False):
        self.path, self.force, self.secret = path, force, secret
        self.f = None
        self.tmp = None
        self.committed = False

    def __enter__(self):
        if self.path == "-":
            self.f = sys.stdout.buffer
            return self
        check_output_path(self.path, self.force)
        d = os.path.dirname(os.path.abspath(self.path))
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=".nuri-", suffix=".part", dir=d)
        except OSError as e:
            raise UsageError(f"cannot write {self.path}: {e.strerror or e}") from None
        os.fchmod(fd, 0o600 if self.secret else 0o666 & ~_umask())
        self.f = os.fdopen(fd, "wb")
        return self

    def write(self, b):
        self.f.write(b)

    def commit(self):
        if self.path == "-":
            self.f.flush()
            self.committed = True
            return
        self.f.flush()
        os.fsync(self.f.fileno())
        self.f.close()
        try:
            if self.force:
                os.replace(self.tmp, self.path)
            else:
                os.link(self.tmp, self.path)  # never clobbers a file that appeared meanwhile
                os.unlink(self.tmp)
        except FileExistsError:
            raise UsageError(f"{self.path} exists (use --force to overwrite)") from None
        except OSError as e:
            raise UsageError(f"cannot write {self.path}: {e.strerror or e}") from None
        self.tmp = None
        self.committed = True

    def __exit__(self, *exc):
        if self.path != "-" and self.tmp is not None:
            try:
                self.f.close()
            except OSError:
                pass
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.tmp)
        return False


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m


class Progress:
    """A rich progress bar on stderr for runs that may take over a second; silent when stderr is not a
    terminal, with --quiet, or when rich is missing."""

    def __init__(self, total, description, unit="bytes", quiet=False):
        self.bar = None
        self.start = time.monotonic()
        if quiet or not sys.stderr.isatty() or os.environ.get("NURI_NO_PROGRESS"):
            return
        try:
            from rich.progress import (BarColumn, DownloadColumn, MofNCompleteColumn, Progress as RP, TextColumn,
                                       TimeRemainingColumn, TransferSpeedColumn)
            from rich.console import Console
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
