"""Entry point of the ``nuri`` command. Exit codes: 0 ok, 1 verification or authentication
failure, 2 usage error (bad arguments, unreadable input, unwritable output, a missing optional Python
module), 141 stdout closed by its reader before everything was written (128 + SIGPIPE, as a tool
killed by SIGPIPE)."""

import argparse
import contextlib
import importlib
import os
import pkgutil
import signal
import sys

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
EXIT_PIPE = 128 + signal.SIGPIPE  # 141: what a shell reports for sha256sum ... | head -1

# The Python distribution that provides a module the CLI may import lazily (for the one-line message
# when it is missing): module name -> pip requirement.
_PIP_NAMES = {
    "cryptography": "cryptography",
    "argon2": "argon2-cffi",
    "pyarrow": "pyarrow",
    "rich": "rich",
    "matplotlib": "matplotlib",
    "numpy": "numpy",
}


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


class VerifyError(Exception):
    """Verification or authentication failed: printed as one line, exit status 1."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def build_parser():
    from .. import __version__

    p = _Parser(prog="nuri", description="Fast, verified PIPO, FEA, SPARKLE/Schwaemm/Esch and ML-KEM.")
    p.add_argument("--version", action="version", version=f"nuri {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    from . import __path__ as cli_path

    for mod in sorted(m.name for m in pkgutil.iter_modules(cli_path) if m.name.startswith("cmd_")):
        importlib.import_module(f".{mod}", __package__).register(sub)
    return p


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: raised like KeyboardInterrupt for SIGINT, so that temporary files are
    removed on the way out (cli/_common.py AtomicOutput)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum, frame):
    raise Terminated(signum)


@contextlib.contextmanager
def _terminate_as_exception():
    """SIGTERM and SIGHUP raise Terminated while a command runs (where they have their default action; a
    SIGHUP ignored by nohup stays ignored). Restored afterwards: main() is also called from tests."""
    saved = {}
    try:
        for s in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(s) == signal.SIG_DFL:
                saved[s] = signal.signal(s, _raise_terminated)
    except ValueError:  # not the main thread: signals cannot be handled here
        pass
    try:
        yield
    finally:
        for s, h in saved.items():
            signal.signal(s, h)


def _stdout_to_devnull():
    """After a failed write to stdout, Python would try to flush it again at exit and print a traceback:
    point the descriptor at /dev/null so that the one-line error stays the only message."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)


def _flush_stdout():
    """Flushes what print() left buffered. BrokenPipeError (the reader of stdout is gone) propagates:
    output was lost, so the run did not succeed (main maps it to EXIT_PIPE); another write error is
    returned as a message."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _stdout_to_devnull()
        raise
    except OSError as e:
        _stdout_to_devnull()
        return f"cannot write stdout: {e.strerror or e}"
    return None


def main(argv=None):
    from ..tools import NeedsCheckout

    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        msg = f"unrecognized arguments: {' '.join(extra)}"
        if getattr(args, "one_line_errors", False):  # commands whose usage errors are pinned to one line
            print(f"nuri {args.command}: {msg}", file=sys.stderr)
            return EXIT_USAGE
        parser.error(msg)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        with _terminate_as_exception():
            rc = args.func(args) or EXIT_OK
        err = _flush_stdout()
        if err:
            raise UsageError(err)
        return rc
    except UsageError as e:
        _flush_quietly()  # a command stopped by a write error may leave bytes buffered for stdout
        print(f"nuri {args.command}: {e}", file=sys.stderr)
        return EXIT_USAGE
    except VerifyError as e:
        _flush_quietly()
        print(f"nuri {args.command}: {e}", file=sys.stderr)
        return EXIT_FAIL
    except NeedsCheckout as e:  # a job of a checkout's nuri-dev toolkit, asked for from an installed wheel
        _flush_stdout()
        print(f"nuri {args.command}: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Terminated as e:
        return 128 + e.signum
    except BrokenPipeError:
        # stdout's reader went away (nuri hash -c SUMS | head -1): the work after that point was not done
        # or its output was lost, so never 0. Silent, as a tool killed by SIGPIPE is.
        _stdout_to_devnull()
        return EXIT_PIPE
    except ImportError as e:
        # an optional module (cryptography for recipients and age, argon2-cffi for passphrases, ...) that
        # this installation lacks: one line, not a traceback
        _flush_quietly()
        print(f"nuri {args.command}: {_missing_module(e)}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:  # an I/O error no command turned into a message: still one line, exit 2
        if getattr(e, "filename", None) is None:
            _stdout_to_devnull()  # most likely stdout itself (print() into a full disk)
        where = f"{e.filename}: " if getattr(e, "filename", None) else ""
        print(f"nuri {args.command}: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_USAGE


def _flush_quietly():
    """Flushes stdout on the way out of a failed run (its exit status stands whatever happens here)."""
    with contextlib.suppress(BrokenPipeError):
        _flush_stdout()


def _missing_module(e):
    top = (e.name or "").split(".")[0]
    if top in _PIP_NAMES:
        return (
            f"this needs the Python package {_PIP_NAMES[top]}, which is not installed "
            f"(pip install {_PIP_NAMES[top]}, or pip install 'nuri[cli]')"
        )
    return f"a module this needs cannot be imported: {e}"


if __name__ == "__main__":
    # Run through the package module so the exception classes are the ones commands import
    # (running this file directly would define a second, different UsageError).
    from nuri.cli.main import main as _main

    sys.exit(_main())
