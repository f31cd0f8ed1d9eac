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
    if "\\" in name or "\n" in name or "\r" in name:
        return "\\", name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    return "", name


def _unescape(name):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "r": "\r", "\\": "\\"}.get(m.group(1), m.group(1)), name)


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


_LINE = re.compile(r"^(\\?)([0-9a-fA-F]+) [ *](.+)$")


def _check(args):
    n_hex = _ALGS[args.algorithm]
    with C.open_input(args.check) as f:
        lines = f.read().decode("utf-8", "surrogateescape").splitlines()
    bad_format = failed = unreadable = ok = 0
    for ln, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m or len(m.group(2)) != n_hex:
            bad_format += 1
            if not args.status:
                print(
                    f"nuri hash: {args.check}:{ln}: not a '<{n_hex} hex digits>  <file>' line for {args.algorithm}",
                    file=sys.stderr,
                )
            continue
        want, name = m.group(2).lower(), m.group(3)
        if m.group(1):
            name = _unescape(name)
        try:
            got = _digest(args.algorithm, name)
        except UsageError as e:
            unreadable += 1
            if not args.status:
                print(f"nuri hash: {e}", file=sys.stderr)
                print(f"{name}: FAILED open or read")
            continue
        if got == want:
            ok += 1
            if not (args.quiet or args.status):
                print(f"{name}: OK")
        else:
            failed += 1
            if not args.status:
                print(f"{name}: FAILED")
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
