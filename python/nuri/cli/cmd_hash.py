"""nuri hash esch256|esch384 FILE... (sha256sum-style lines) and -c SUMS to check them."""

import re
import sys

from . import _common as C
from .main import UsageError, VerifyError

_ALGS = {"esch256": 64, "esch384": 96}


def register(sub):
    p = sub.add_parser(
        "hash",
        help="Esch256/Esch384 digests of files, sha256sum-style (-c to check)",
        description="Prints '<hex>  <file>' for each FILE ('-' or none: stdin), the format of "
        "sha256sum. With -c, reads such lines from SUMS and checks each file: "
        "'<file>: OK' or '<file>: FAILED'; exit status 1 if any file fails or "
        "cannot be read.",
        epilog="examples: nuri hash esch256 *.txt > SUMS;  nuri hash esch256 -c SUMS",
    )
    p.add_argument("algorithm", choices=sorted(_ALGS), help="Esch256 (256-bit digest) or Esch384 (384-bit)")
    p.add_argument("files", nargs="*", metavar="FILE", help="files to hash ('-' = stdin)")
    p.add_argument("-c", "--check", metavar="SUMS", help="check the digests listed in SUMS ('-' = stdin)")
    p.add_argument("--quiet", action="store_true", help="with -c: do not print OK lines")
    p.add_argument("--status", action="store_true", help="with -c: print nothing, the exit status tells")
    p.set_defaults(func=run)


def _hasher(alg):
    try:
        from .. import hash as H
    except ImportError as e:
        raise UsageError(f"Esch is not available in this build (nuri.hash: {e})") from None
    return getattr(H, alg.capitalize())()


def _digest(alg, path):
    h = _hasher(alg)
    with C.open_input(path) as f:
        size = C.input_size(f)
        with C.Progress(
            size if size and size > (64 << 20) else None, path, quiet=size is None or size <= (64 << 20)
        ) as bar:
            while True:
                b = f.read(1 << 20)
                if not b:
                    break
                h.update(b)
                bar.advance(len(b))
    return h.hexdigest()


def _escape(name):
    """sha256sum's escaping: a name holding a backslash, LF or CR is written with them as \\\\, \\n and \\r
    after a backslash at the start of the line. The reader splits on LF alone (a CR before it is
    dropped, as sha256sum drops it), so no other character (form feed, U+2028, ...) can cut a line in
    two and no escape is needed for them. A NUL (only ever read from a sums file) is shown as \\0."""
    if "\\" in name or "\n" in name or "\r" in name or "\0" in name:
        return "\\", name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0")
    return "", name


_UNESCAPE = {"\\": "\\", "n": "\n", "r": "\r"}


def _unescape(name):
    """The name of an escaped line; None if it holds an escape sha256sum never writes (or ends in a lone
    backslash): such a line is improperly formatted."""
    bad = []

    def one(m):
        c = _UNESCAPE.get(m.group(1))
        if c is None:
            bad.append(m.group(0))
            return ""
        return c

    out = re.sub(r"\\(.?)", one, name, flags=re.S)
    return None if bad else out


def _lines(data):
    """The lines of a sums file exactly as written: split on LF only, one CR before the LF dropped
    (str.splitlines would also split on VT, FF, FS, GS, RS, NEL, U+2028 and U+2029, all of which may
    be part of a file name)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [(ln[:-1] if ln.endswith(b"\r") else ln).decode("utf-8", "surrogateescape") for ln in lines]


def run(args):
    if args.check:
        if args.files:
            raise UsageError("-c takes the sums file only (no FILE arguments)")
        return _check(args)
    rc = 0
    for path in args.files or ["-"]:
        try:
            hexd = _digest(args.algorithm, path)
        except UsageError as e:
            print(f"nuri hash: {e}", file=sys.stderr)
            rc = 2
            continue
        pre, name = _escape(path)
        print(f"{pre}{hexd}  {name}", flush=False)
    sys.stdout.flush()
    return rc


_LINE = re.compile(r"(\\?)([0-9a-fA-F]+) [ *](.+)", re.S)


def _check(args):
    n_hex = _ALGS[args.algorithm]
    with C.open_input(args.check) as f:
        lines = _lines(f.read())
    bad_format = failed = unreadable = ok = 0
    for ln, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = _LINE.fullmatch(line)
        name = m and (_unescape(m.group(3)) if m.group(1) else m.group(3))
        if not m or len(m.group(2)) != n_hex or name is None:
            bad_format += 1
            if not args.status:
                print(
                    f"nuri hash: {args.check}:{ln}: not a '<{n_hex} hex digits>  <file>' line for {args.algorithm}",
                    file=sys.stderr,
                )
            continue
        want = m.group(2).lower()
        shown = "".join(_escape(name))  # as sha256sum -c prints it: one line whatever the name holds
        try:
            got = _digest(args.algorithm, name)
        except UsageError as e:
            unreadable += 1
            if not args.status:
                print(f"nuri hash: {e}", file=sys.stderr)
                print(f"{shown}: FAILED open or read")
            continue
        if got == want:
            ok += 1
            if not (args.quiet or args.status):
                print(f"{shown}: OK")
        else:
            failed += 1
            if not args.status:
                print(f"{shown}: FAILED")
    if ok + failed + unreadable == 0:
        raise VerifyError(f"{args.check}: no properly formatted {args.algorithm} lines found")
    msgs = []
    if failed:
        msgs.append(f"{failed} computed checksum{'s' * (failed > 1)} did NOT match")
    if unreadable:
        msgs.append(f"{unreadable} listed file{'s' * (unreadable > 1)} could not be read")
    if bad_format:
        msgs.append(f"{bad_format} line{'s are' if bad_format > 1 else ' is'} improperly formatted")
    if msgs and not args.status:
        print("nuri hash: WARNING: " + "; ".join(msgs), file=sys.stderr)
    return 1 if (failed or unreadable) else 0
