"""nuri seal / nuri open: authenticated file encryption (Schwaemm256-128, chunked nuri-seal v1 format)."""
import getpass
import os
import stat
import sys

from . import _common as C
from .main import UsageError, VerifyError

_FMT = ("Format nuri-seal v1 (docs/cli.md): a 56-byte header (magic, version, chunk size, KDF, random 32-byte "
        "salt) bound as associated data of every 64 KiB chunk; per-chunk nonce = random prefix || chunk "
        "index || last-chunk flag (STREAM), so truncation, reordering, splicing and any bit flip are "
        "detected. Streams with constant memory; '-' means stdin/stdout.")


def _add_common(q, sealing):
    C.add_key_arg(q)
    q.add_argument("-i", "--input", required=True, metavar="IN", help="input file, '-' for stdin")
    q.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="output file, '-' for stdout" + ("" if sealing else
                                                        " (only with a seekable IN: the whole file is verified "
                                                        "first, then decrypted in a second pass)"))
    q.add_argument("-p", "--passphrase", action="store_true",
                   help="use a passphrase instead of a key (Argon2id); read from NURI_PASSPHRASE if set, "
                        "else prompted on the terminal")
    q.add_argument("--passphrase-file", metavar="FILE", help="read the passphrase from the first line of FILE")
    q.add_argument("--force", action="store_true", help="overwrite an existing OUT")
    q.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def register(sub):
    p = sub.add_parser("seal", help="encrypt and authenticate a file (Schwaemm256-128)",
                       description="Encrypts and authenticates IN into OUT with Schwaemm256-128. " + _FMT,
                       epilog="example: nuri keygen -o my.key && nuri seal -k my.key -i notes.txt -o notes.sealed")
    _add_common(p, True)
    p.add_argument("--chunk-log2", type=int, default=16, metavar="N",
                   help="chunk size 2^N bytes, 10..24 (default 16 = 64 KiB)")
    p.add_argument("--argon2", metavar="T,M,P", default=None,
                   help="Argon2id passes, memory in KiB and lanes for --passphrase (default 3,65536,4: RFC 9106)")
    p.set_defaults(func=run_seal)

    q = sub.add_parser("open", help="verify and decrypt a sealed file (exit 1, no output, if tampered)",
                       description="Decrypts a file made by 'nuri seal'. The plaintext goes to a temporary file "
                                   "beside OUT that is renamed to OUT only after the final chunk authenticates: "
                                   "on any failure (wrong key, modified, truncated, reordered or spliced input) "
                                   "the exit status is 1 and no OUT is left. An existing OUT is never replaced "
                                   "without --force. " + _FMT,
                       epilog="example: nuri open -k my.key -i notes.sealed -o notes.txt")
    _add_common(q, False)
    q.set_defaults(func=run_open)


def _passphrase(args, confirm):
    if args.passphrase_file:
        try:
            with open(args.passphrase_file, "rb") as f:
                pw = f.readline().rstrip(b"\r\n")
        except OSError as e:
            raise UsageError(f"cannot read {args.passphrase_file}: {e.strerror or e}") from None
    elif os.environ.get("NURI_PASSPHRASE") is not None:
        pw = os.environ["NURI_PASSPHRASE"].encode()
    else:
        try:
            pw = getpass.getpass("passphrase: ").encode()
            if confirm and getpass.getpass("again: ").encode() != pw:
                raise UsageError("the passphrases differ")
        except (EOFError, OSError):
            raise UsageError("no terminal to ask for the passphrase: use --passphrase-file or NURI_PASSPHRASE") \
                from None
    if not pw:
        raise UsageError("empty passphrase")
    return pw


def _wants_passphrase(args):
    if (args.passphrase or args.passphrase_file) and args.key:
        raise UsageError("give either -k KEYFILE or a passphrase, not both")
    return bool(args.passphrase or args.passphrase_file)


def _need_aead():
    try:
        from .. import aead  # noqa: F401
    except ImportError as e:
        raise UsageError(f"Schwaemm256-128 is not available in this build (nuri.aead: {e})") from None


def run_seal(args):
    from .. import seal

    _need_aead()
    if _wants_passphrase(args):
        key, pw = None, _passphrase(args, confirm=True)
    else:
        key, pw = C.load_key(args), None
    argon2 = seal.ARGON2_DEFAULT
    if args.argon2:
        try:
            argon2 = tuple(int(x) for x in args.argon2.split(","))
            assert len(argon2) == 3
        except (ValueError, AssertionError):
            raise UsageError(f"--argon2 must be T,M,P (three integers), got {args.argon2!r}") from None
    if not seal.MIN_CHUNK_LOG2 <= args.chunk_log2 <= seal.MAX_CHUNK_LOG2:
        raise UsageError(f"--chunk-log2 must be {seal.MIN_CHUNK_LOG2}..{seal.MAX_CHUNK_LOG2}, got {args.chunk_log2}")
    C.check_output_path(args.output, args.force)
    with C.open_input(args.input) as fin, C.AtomicOutput(args.output, args.force) as out, \
            C.Progress(C.input_size(fin), "seal", quiet=args.quiet) as bar:
        try:
            seal.seal_stream(fin, out.write, key=key, passphrase=pw, chunk_log2=args.chunk_log2, argon2=argon2,
                             progress=bar.advance)
        except seal.SealFormatError as e:
            raise UsageError(str(e)) from None
        out.commit()
    return 0


def _seekable(f):
    try:
        return stat.S_ISREG(os.fstat(f.fileno()).st_mode)
    except (OSError, ValueError):
        return False


def run_open(args):
    from .. import InvalidTag, seal

    _need_aead()
    C.check_output_path(args.output, args.force)
    with C.open_input(args.input) as fin:
        try:
            header = seal.read_header(fin)
        except seal.SealFormatError as e:
            raise VerifyError(f"{args.input}: {e}") from None
        passphrase_given = _wants_passphrase(args)
        if header.kdf == seal.KDF_ARGON2ID:
            if args.key:
                raise UsageError(f"{args.input} was sealed with a passphrase: use --passphrase or --passphrase-file")
            key, pw = None, _passphrase(args, confirm=False)
        else:
            if passphrase_given:
                raise UsageError(f"{args.input} was sealed with a key file: use -k KEYFILE")
            key, pw = C.load_key(args), None
        size = C.input_size(fin)
        try:
            if args.output == "-":
                if not _seekable(fin):
                    raise UsageError("open -o - needs IN to be a regular file (it is verified completely before "
                                     "any plaintext is written); from a pipe, open to a file instead")
                # Pass 1: authenticate everything, release nothing.
                with C.Progress(size, "verify", quiet=args.quiet) as bar:
                    seal.open_stream(fin, lambda b: None, key, pw, header=header, progress=bar.advance)
                before = os.fstat(fin.fileno())
                fin.seek(seal.HEADER_LEN)
                # Pass 2: every chunk is authenticated again before it is written.
                with C.Progress(size, "open", quiet=args.quiet) as bar:
                    seal.open_stream(fin, sys.stdout.buffer.write, key, pw, header=header, progress=bar.advance)
                after = os.fstat(fin.fileno())
                if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns):
                    raise VerifyError(f"{args.input} changed while it was being read")
                sys.stdout.buffer.flush()
                return 0
            with C.AtomicOutput(args.output, args.force) as out, C.Progress(size, "open", quiet=args.quiet) as bar:
                seal.open_stream(fin, out.write, key, pw, header=header, progress=bar.advance)
                out.commit()
        except InvalidTag as e:
            raise VerifyError(f"{args.input}: {e}; no output written") from None
    return 0
