"""nuri seal / nuri open: authenticated file encryption (Schwaemm256-128 in STREAM chunks): nuri-seal v1 with a
key file or passphrase, nuri-seal v2 to public-key recipients (HPKE with ML-KEM-768 or ML-KEM-768+X25519)."""

import getpass
import os
import stat

from . import _common as C
from .main import UsageError, VerifyError

_FMT = (
    "Formats (docs/seal-format.md): v1 (-k or --passphrase) binds a 56-byte header into every 64 KiB chunk; "
    "v2 (-r) wraps a random file key per recipient with HPKE (ML-KEM-768 or ML-KEM-768+X25519) and "
    "binds a header MAC into every chunk. Per-chunk nonce = random prefix || chunk index || last-chunk flag "
    "(STREAM), so truncation, reordering, splicing and any bit flip are detected. Chunks are processed "
    "in parallel with bounded memory; '-' means stdin/stdout."
)


def _add_common(q, sealing):
    C.add_key_arg(q)
    if sealing:
        q.add_argument(
            "-r",
            "--recipient",
            action="append",
            metavar="PK",
            help="seal to this public key from 'nuri kem keygen' (ML-KEM-768 or --kem mlkem768-x25519); "
            "repeat for several recipients (format v2)",
        )
    else:
        q.add_argument(
            "--identity",
            action="append",
            metavar="SK",
            help="your secret key from 'nuri kem keygen', for a file sealed with -r; repeat to try several",
        )
        q.add_argument(
            "--argon2-max",
            metavar="T,M,P",
            default=None,
            help="largest Argon2id passes, memory (KiB) and lanes a passphrase file may ask for "
            "(default 8,262144,8); a file asking for more is refused",
        )
    q.add_argument("-i", "--input", required=True, metavar="IN", help="input file, '-' for stdin")
    q.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="output file, '-' for stdout"
        + (
            ""
            if sealing
            else " (a regular IN is verified completely first, then "
            "decrypted in a second pass; from a pipe each chunk is "
            "written once it authenticates, so a stream cut short "
            "ends with exit 1 after its authenticated part)"
        ),
    )
    q.add_argument(
        "-p",
        "--passphrase",
        action="store_true",
        help="use a passphrase instead of a key (Argon2id); read from NURI_PASSPHRASE if set, "
        "else prompted on the terminal",
    )
    q.add_argument("--passphrase-file", metavar="FILE", help="read the passphrase from the first line of FILE")
    q.add_argument("--force", action="store_true", help="overwrite an existing OUT")
    q.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def register(sub):
    p = sub.add_parser(
        "seal",
        help="encrypt and authenticate a file (Schwaemm256-128)",
        description="Encrypts and authenticates IN into OUT with Schwaemm256-128. " + _FMT,
        epilog="examples: nuri keygen -o my.key && nuri seal -k my.key -i notes.txt -o notes.sealed; "
        "nuri kem keygen --kem mlkem768-x25519 --public bob.pk --secret bob.sk && "
        "nuri seal -r bob.pk -r alice.pk -i notes.txt -o notes.sealed",
    )
    _add_common(p, True)
    p.add_argument(
        "--chunk-log2", type=int, default=16, metavar="N", help="chunk size 2^N bytes, 10..24 (default 16 = 64 KiB)"
    )
    p.add_argument(
        "--argon2",
        metavar="T,M,P",
        default=None,
        help="Argon2id passes, memory in KiB and lanes for --passphrase (default 3,65536,4: RFC 9106)",
    )
    p.set_defaults(func=run_seal)

    q = sub.add_parser(
        "open",
        help="verify and decrypt a sealed file (exit 1, no output, if tampered)",
        description="Decrypts a file made by 'nuri seal'. The plaintext goes to a temporary file "
        "beside OUT that is renamed to OUT only after the final chunk authenticates: "
        "on any failure (wrong key, modified, truncated, reordered or spliced input) "
        "the exit status is 1 and no OUT is left. An existing OUT is never replaced "
        "without --force. " + _FMT,
        epilog="examples: nuri open -k my.key -i notes.sealed -o notes.txt; "
        "nuri open --identity bob.sk -i notes.sealed -o notes.txt",
    )
    _add_common(q, False)
    q.set_defaults(func=run_open)


def _passphrase(args, confirm):
    _need_argon2()
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
            # getpass falls back to reading stdin with an echo warning when there is no terminal: refuse
            # instead (a passphrase is never read from a pipe without asking for it by name)
            os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
            pw = getpass.getpass("passphrase: ").encode()
            if confirm and getpass.getpass("again: ").encode() != pw:
                raise UsageError("the passphrases differ")
        except (EOFError, OSError):
            raise UsageError(
                "no terminal to ask for the passphrase: use --passphrase-file or NURI_PASSPHRASE"
            ) from None
    if not pw:
        raise UsageError("empty passphrase")
    return pw


def _need_argon2():
    try:
        import argon2.low_level  # noqa: F401
    except ImportError:
        raise UsageError(
            "passphrases need Argon2id from the argon2-cffi package, part of the 'cli' extra: pip install 'nuri[cli]'"
        ) from None


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
    recipients = None
    if args.recipient:
        if args.key or _wants_passphrase(args):
            raise UsageError("give -r PK, -k KEYFILE or a passphrase, not several")
        if len(args.recipient) > 255:
            raise UsageError(f"at most 255 recipients (-r), got {len(args.recipient)}")
        key, pw, recipients = None, None, [load_recipient(seal, p) for p in args.recipient]
    elif _wants_passphrase(args):
        key, pw = None, _passphrase(args, confirm=True)
    else:
        key, pw = C.load_key(args), None
    argon2 = _triple(args.argon2, "--argon2") if args.argon2 is not None else seal.ARGON2_DEFAULT
    if not seal.MIN_CHUNK_LOG2 <= args.chunk_log2 <= seal.MAX_CHUNK_LOG2:
        raise UsageError(f"--chunk-log2 must be {seal.MIN_CHUNK_LOG2}..{seal.MAX_CHUNK_LOG2}, got {args.chunk_log2}")
    C.check_output_path(args.output, args.force)
    with (
        C.open_input(args.input) as fin,
        C.AtomicOutput(args.output, args.force) as out,
        C.Progress(C.input_size(fin), "seal", quiet=args.quiet) as bar,
    ):
        try:
            seal.seal_stream(
                fin,
                out.write,
                key=key,
                passphrase=pw,
                chunk_log2=args.chunk_log2,
                argon2=argon2,
                progress=bar.advance,
                recipients=recipients,
            )
        except seal.SealFormatError as e:
            raise UsageError(str(e)) from None
        out.commit()
    return 0


def _seekable(f):
    try:
        return stat.S_ISREG(os.fstat(f.fileno()).st_mode)
    except (OSError, ValueError):
        return False


def _read_small(path, what):
    try:
        with open(path, "rb") as f:
            return f.read(1 << 16)
    except OSError as e:
        raise UsageError(f"cannot read {what} {path}: {e.strerror or e}") from None


def load_recipient(seal, path):
    try:
        return seal.Recipient.from_bytes(_read_small(path, "public key"), where=path)
    except ValueError as e:
        raise UsageError(str(e)) from None


def load_identity(seal, path):
    try:
        return seal.Identity.from_bytes(_read_small(path, "secret key"), where=path)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _triple(text, opt):
    try:
        t = tuple(int(x) for x in text.split(","))
        if len(t) != 3:
            raise ValueError
        return t
    except ValueError:
        raise UsageError(f"{opt} must be T,M,P (three integers), got {text!r}") from None


def _open_args(args, seal, header):
    from .. import InvalidTag

    """The keyword arguments of open_stream for this header: an identity, a key or a passphrase."""
    if header.version == 2:
        if args.key or _wants_passphrase(args):
            raise UsageError(f"{args.input} was sealed to public-key recipients: use --identity SK")
        if not args.identity:
            raise UsageError(f"{args.input} was sealed to public-key recipients: use --identity SK")
        ids = [load_identity(seal, p) for p in args.identity]
        for ident in ids:
            try:
                return {"file_key": seal.v2_file_key(header, ident)}
            except seal.NotRecipientError:
                continue
            except InvalidTag as e:
                raise VerifyError(f"{args.input}: {e}; no output written") from None
        raise VerifyError(
            f"{args.input}: not sealed to "
            + (args.identity[0] if len(ids) == 1 else "any of the given identities")
            + "; no output written"
        )
    if args.identity:
        raise UsageError(
            f"{args.input} was sealed with a "
            + ("passphrase" if header.kdf == seal.KDF_ARGON2ID else "key file")
            + ", not to recipients"
        )
    limit = _triple(args.argon2_max, "--argon2-max") if args.argon2_max is not None else seal.ARGON2_OPEN_LIMIT
    if header.kdf == seal.KDF_ARGON2ID:
        if args.key:
            raise UsageError(f"{args.input} was sealed with a passphrase: use --passphrase or --passphrase-file")
        t, m, p = header.argon2
        if t > limit[0] or m > limit[1] or p > limit[2]:
            raise VerifyError(
                f"{args.input}: asks for Argon2id t={t}, m={m} KiB, lanes={p}, above the limit "
                f"{limit[0]},{limit[1]},{limit[2]} (raise it with --argon2-max T,M,P if you trust "
                "the file)"
            )
        return {"passphrase": _passphrase(args, confirm=False), "argon2_limit": limit}
    if _wants_passphrase(args):
        raise UsageError(f"{args.input} was sealed with a key file: use -k KEYFILE")
    return {"key": C.load_key(args)}


def _open_direct(args, fin, out, header, size, kw):
    """OUT is stdout, a device or a FIFO: only authenticated plaintext may reach it."""
    from .. import seal

    if not _seekable(fin):
        # A pipe: STREAM lets each chunk go out once it (and all before it) authenticated.
        # A stream cut short or altered later ends with exit 1 after that authenticated part.
        seal.open_stream(fin, out.write, header=header, **kw)
        return
    # A regular file: pass 1 authenticates everything and releases nothing.
    with C.Progress(size, "verify", quiet=args.quiet) as bar:
        seal.open_stream(fin, lambda b: None, header=header, progress=bar.advance, **kw)
    before = os.fstat(fin.fileno())
    fin.seek(len(header.to_bytes()))
    # Pass 2: every chunk is authenticated again before it is written.
    with C.Progress(size, "open", quiet=args.quiet) as bar:
        seal.open_stream(fin, out.write, header=header, progress=bar.advance, **kw)
    after = os.fstat(fin.fileno())
    if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns):
        raise VerifyError(f"{args.input} changed while it was being read")


def run_open(args):
    from .. import InvalidTag, seal

    _need_aead()
    C.check_output_path(args.output, args.force)
    with C.open_input(args.input) as fin:
        try:
            header = seal.read_header(fin)
        except seal.SealFormatError as e:
            raise VerifyError(f"{args.input}: {e}") from None
        kw = _open_args(args, seal, header)
        if header.version == 2 and header.kind != seal.KIND_FILE:  # (the MAC has authenticated the kind)
            raise UsageError(f"{args.input} is the header of a sealed video stream: use 'nuri video open'")
        size = C.input_size(fin)
        try:
            with C.AtomicOutput(args.output, args.force) as out:
                if out.direct:  # stdout, a device or a FIFO
                    _open_direct(args, fin, out, header, size, kw)
                else:
                    with C.Progress(size, "open", quiet=args.quiet) as bar:
                        seal.open_stream(fin, out.write, header=header, progress=bar.advance, **kw)
                out.commit()
        except InvalidTag as e:
            raise VerifyError(
                f"{args.input}: {e}; "
                + ("the output ends here" if args.output == "-" and not _seekable(fin) else "no output written")
            ) from None
        except seal.Argon2LimitError as e:
            raise VerifyError(f"{args.input}: {e}") from None
    return 0
