"""nuri pipo encrypt|decrypt: raw PIPO-64/128 or PIPO-64/256 in ECB, CBC or CTR (NOT authenticated)."""

import os

from . import _common as C
from .main import UsageError, VerifyError

_DESC = (
    "PIPO-64/128 (128-bit key) or PIPO-64/256 (256-bit key) in ECB, CBC or CTR over a file, streamed "
    "in 64 KiB pieces (constant memory). These modes are NOT authenticated: a modified ciphertext "
    "decrypts to garbage without any error. Use 'nuri seal' when integrity matters."
)
_IV = (
    "8-byte IV as 16 hex digits (for CTR: the initial 64-bit big-endian counter block). Without --iv, "
    "encrypt picks a random IV and writes it as the first 8 bytes of OUT, and decrypt reads it from the "
    "first 8 bytes of IN. ECB takes no IV."
)


def register(sub):
    p = sub.add_parser("pipo", help="PIPO block cipher in ECB/CBC/CTR over files (unauthenticated)", description=_DESC)
    ops = p.add_subparsers(dest="op", metavar="OP", parser_class=type(p))
    ops.required = True
    for op in ("encrypt", "decrypt"):
        q = ops.add_parser(
            op,
            help=f"{op} a file",
            description=_DESC,
            epilog=f"example: nuri pipo {op} --mode ctr -k my.key -i IN -o OUT",
        )
        q.add_argument("--mode", required=True, choices=("ecb", "cbc", "ctr"), help="block cipher mode")
        C.add_key_arg(q, " (128 or 256 bits)")
        q.add_argument("-i", "--input", required=True, metavar="IN", help="input file, '-' for stdin")
        q.add_argument("-o", "--output", required=True, metavar="OUT", help="output file, '-' for stdout")
        q.add_argument("--iv", metavar="HEX", help=_IV)
        q.add_argument("--padding", choices=("pkcs7", "none"), help="ECB/CBC padding (default pkcs7; CTR never pads)")
        q.add_argument("--force", action="store_true", help="overwrite an existing OUT")
        q.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
        q.set_defaults(func=run)


def _parse_iv(h):
    try:
        iv = bytes.fromhex(h)
    except ValueError:
        raise UsageError(f"--iv must be 16 hex digits, got {h!r}") from None
    if len(iv) != 8:
        raise UsageError(f"--iv must be 8 bytes (16 hex digits), got {len(iv)} bytes")
    return iv


def run(args):
    from .. import pipo

    encrypting = args.op == "encrypt"
    key = C.load_key(args, (16, 32), "PIPO key")
    padding = args.padding or ("none" if args.mode == "ctr" else "pkcs7")
    if args.mode == "ctr" and padding != "none":
        raise UsageError("CTR is a stream mode: --padding must be none")
    if args.mode == "ecb" and args.iv:
        raise UsageError("ECB takes no --iv")
    iv = _parse_iv(args.iv) if args.iv else None
    C.check_output_path(args.output, args.force)
    with C.open_input(args.input) as fin:
        prefix_iv = args.mode != "ecb" and iv is None
        if prefix_iv and not encrypting:
            iv = C.read_full(fin, 8)
            if len(iv) != 8:
                raise VerifyError(f"{args.input}: too short to hold the 8-byte IV (give --iv if it is kept apart)")
        elif prefix_iv:
            iv = os.urandom(8)
        cls = pipo.Encryptor if encrypting else pipo.Decryptor
        try:
            s = cls(key, args.mode, iv=iv if args.mode != "ecb" else None, padding=padding)
        except ValueError as e:
            raise UsageError(str(e)) from None
        with (
            C.AtomicOutput(args.output, args.force) as out,
            C.Progress(C.input_size(fin), f"pipo {args.op}", quiet=args.quiet) as bar,
        ):
            if prefix_iv and encrypting:
                out.write(iv)
            while True:
                chunk = fin.read(C.CHUNK)
                if not chunk:
                    break
                out.write(s.update(chunk))
                bar.advance(len(chunk))
            try:
                out.write(s.finalize())
            except ValueError as e:
                if encrypting:
                    raise UsageError(f"{e} (input length must be a multiple of 8 bytes with --padding none)") from None
                raise VerifyError(f"{e} (wrong key, IV, mode or padding, or a damaged input)") from None
            out.commit()
    return 0
