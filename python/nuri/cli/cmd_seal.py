"""nuri seal / nuri open: authenticated file encryption (Schwaemm256-128 in STREAM chunks): nuri-seal v1 with a
key file or passphrase, nuri-seal v2 to public-key recipients (HPKE with ML-KEM-768 or ML-KEM-768+X25519),
and age v1 files (--format age; open recognises them) for age users."""

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
    "in parallel with bounded memory; '-' means stdin/stdout. --format age writes an age v1 file instead "
    "(age-encryption.org/v1: ML-KEM-768+X25519, X25519 or scrypt stanzas, ChaCha20-Poly1305 STREAM), which "
    "the age tool opens; open recognises age files by their first line."
)


def _add_common(q, sealing):
    C.add_key_arg(q)
    if sealing:
        q.add_argument(
            "-r",
            "--recipient",
            action="append",
            metavar="PK",
            help="seal to this recipient: a public key file from 'nuri kem keygen', an age recipient "
            "(age1pq1... post-quantum, age1... X25519) or a file of age recipients (one per line, '#' "
            "comments, as age -R); repeat for several recipients (format v2, or age with --format age)",
        )
        q.add_argument(
            "--format",
            choices=["nuri", "age"],
            default="nuri",
            help="nuri (default: v1 with -k or a passphrase, v2 with -r) or age (an age v1 file: "
            "age1pq1 / nuri ML-KEM-768+X25519 keys, age1 X25519 keys, or a passphrase with scrypt)",
        )
        q.add_argument("-a", "--armor", action="store_true", help="age: write the ASCII-armored form")
        q.add_argument(
            "--allow-mixed",
            action="store_true",
            help="age: allow X25519 (age1...) recipients beside post-quantum ones (the file is then only as "
            "strong as X25519 against a quantum computer; refused by default, as age does)",
        )
        q.add_argument(
            "--scrypt-work-factor",
            type=int,
            metavar="N",
            default=None,
            help="age with a passphrase: scrypt N = 2^N (1..30, default 18 as age; age and nuri refuse "
            "to open more than 22 unless asked)",
        )
    else:
        q.add_argument(
            "--identity",
            action="append",
            metavar="SK",
            help="your secret key from 'nuri kem keygen', or an age identity file (AGE-SECRET-KEY-PQ-1..., "
            "AGE-SECRET-KEY-1...), for a file sealed with -r; repeat to try several",
        )
        q.add_argument(
            "--argon2-max",
            metavar="T,M,P",
            default=None,
            help="largest Argon2id passes, memory (KiB) and lanes a passphrase file may ask for "
            "(default 8,262144,8); a file asking for more is refused",
        )
        q.add_argument(
            "--scrypt-max",
            type=int,
            metavar="N",
            default=None,
            help="largest scrypt work factor (log2 N) a passphrase age file may ask for (default 22, as "
            "age); a file asking for more is refused",
        )
    C.add_kem_impl_arg(
        q,
        "; for -r recipients (ML-KEM-768 and the ML-KEM half of ML-KEM-768+X25519)"
        if sealing
        else "; for --identity keys (ML-KEM-768 and the ML-KEM half of ML-KEM-768+X25519)",
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
        "nuri seal -r bob.pk -r alice.pk -i notes.txt -o notes.sealed; "
        "nuri seal --format age -r age1pq1... -i notes.txt -o notes.txt.age",
    )
    _add_common(p, True)
    p.add_argument(
        "--chunk-log2",
        type=int,
        default=None,
        metavar="N",
        help="chunk size 2^N bytes, 10..24 (default 16 = 64 KiB; age files are always 64 KiB)",
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
        "nuri open --identity bob.sk -i notes.sealed -o notes.txt; "
        "nuri open --identity key.txt -i notes.txt.age -o notes.txt (an age identity file)",
    )
    _add_common(q, False)
    q.set_defaults(func=run_open)


def _passphrase(args, confirm, argon2=True):
    if argon2:
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
            "passphrases need Argon2id from the argon2-cffi package, a dependency of nuri: pip install argon2-cffi"
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

    if args.format == "age":
        return _seal_age(args)
    for flag, given in (("-a/--armor", args.armor), ("--allow-mixed", args.allow_mixed)):
        if given:
            raise UsageError(f"{flag} applies to --format age")
    if args.scrypt_work_factor is not None:
        raise UsageError("--scrypt-work-factor applies to --format age (nuri v1 passphrases use --argon2)")
    _need_aead()
    recipients = None
    if args.kem_impl is not None and not args.recipient:
        raise UsageError("--kem-impl applies to public-key recipients (-r)")
    if args.recipient:
        if args.key or _wants_passphrase(args):
            raise UsageError("give -r PK, -k KEYFILE or a passphrase, not several")
        key, pw, recipients = None, None, v2_recipients(args.recipient, C.kem_impl(args))
        if len(recipients) > 255:
            raise UsageError(f"at most 255 recipients, got {len(recipients)}")
    elif _wants_passphrase(args):
        key, pw = None, _passphrase(args, confirm=True)
    else:
        key, pw = C.load_key(args), None
    argon2 = _triple(args.argon2, "--argon2") if args.argon2 is not None else seal.ARGON2_DEFAULT
    chunk_log2 = 16 if args.chunk_log2 is None else args.chunk_log2
    if not seal.MIN_CHUNK_LOG2 <= chunk_log2 <= seal.MAX_CHUNK_LOG2:
        raise UsageError(f"--chunk-log2 must be {seal.MIN_CHUNK_LOG2}..{seal.MAX_CHUNK_LOG2}, got {chunk_log2}")
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
                chunk_log2=chunk_log2,
                argon2=argon2,
                progress=bar.advance,
                recipients=recipients,
            )
        except seal.SealFormatError as e:
            raise UsageError(str(e)) from None
        out.commit()
    return 0


def _seal_age(args):
    from ..seal import age

    if args.key:
        raise UsageError("age files have no key files: give -r RECIPIENT or a passphrase")
    if args.argon2 is not None:
        raise UsageError("--argon2 applies to nuri v1 passphrase files (age uses scrypt: --scrypt-work-factor)")
    if args.chunk_log2 not in (None, 16):
        raise UsageError("age files have 64 KiB chunks: --chunk-log2 must be 16 or absent")
    if args.kem_impl is not None and not args.recipient:
        raise UsageError("--kem-impl applies to public-key recipients (-r)")
    if args.recipient:
        if _wants_passphrase(args):
            raise UsageError("a passphrase must be the only recipient of an age file: give -r or a passphrase")
        if args.scrypt_work_factor is not None:
            raise UsageError("--scrypt-work-factor applies to a passphrase")
        impl = C.kem_impl(args)
        recipients = [r for v in args.recipient for r in _load_recipients(v, impl)]
    elif _wants_passphrase(args):
        w = age.SCRYPT_DEFAULT if args.scrypt_work_factor is None else args.scrypt_work_factor
        if not 1 <= w <= age.SCRYPT_MAX:
            raise UsageError(f"--scrypt-work-factor must be 1..{age.SCRYPT_MAX}, got {w}")
        recipients = [age.ScryptRecipient(_passphrase(args, confirm=True, argon2=False), w)]
    else:
        raise UsageError("an age file needs recipients (-r) or a passphrase (-p, --passphrase-file)")
    C.check_output_path(args.output, args.force)
    try:
        file_key, header = age.new_header(recipients, allow_mixed=args.allow_mixed)
    except (ValueError, TypeError) as e:
        msg = str(e)
        if "allow it explicitly" in msg:
            msg = msg.replace("allow it explicitly", "give --allow-mixed")
        raise UsageError(msg) from None
    with (
        C.open_input(args.input) as fin,
        C.AtomicOutput(args.output, args.force) as out,
        C.Progress(C.input_size(fin), "seal", quiet=args.quiet) as bar,
    ):
        write = age.ArmorWriter(out.write) if args.armor else out.write
        write(header.to_bytes())
        age.seal_payload(fin, write, file_key, bar.advance)
        if args.armor:
            write.close()
        out.commit()
    return 0


def _seekable(f):
    try:
        return stat.S_ISREG(os.fstat(f.fileno()).st_mode)
    except (OSError, ValueError):
        return False


def _read_small(path, what, limit=1 << 16):
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise UsageError(f"cannot read {what} {path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise UsageError(f"{path}: too large for a {what} file")
    return data


def _load_recipients(value, impl=None):
    """The recipients of one -r value: an age recipient string (age1...), else a file (a nuri key
    file, raw or text, or a file of age recipients); ``impl``: the ML-KEM implementation of their KEM."""
    from ..seal import age, recipients

    if value.startswith("age1") and not os.path.exists(value):
        try:
            kem, kind, data = age.parse_key_string(value, "recipient")
        except ValueError as e:
            raise UsageError(str(e)) from None
        if kind != "public":
            raise UsageError("recipient: not a public key")
        if kem == "x25519":
            return [age.X25519Recipient(data)]
        try:
            return [
                recipients.Recipient.of(recipients.KEM_IDS[kem], data, "recipient " + value[:12] + "...", impl=impl)
            ]
        except ValueError as e:
            raise UsageError(str(e)) from None
    try:
        return recipients.load_recipients(
            _read_small(value, "public key", recipients.MAX_KEY_FILE), where=value, impl=impl
        )
    except ValueError as e:
        raise UsageError(str(e)) from None


def _load_identities(path, impl=None):
    from ..seal import recipients

    try:
        return recipients.load_identities(
            _read_small(path, "secret key", recipients.MAX_KEY_FILE), where=path, impl=impl
        )
    except ValueError as e:
        raise UsageError(str(e)) from None


def v2_recipients(values, impl=None):
    """The -r values as nuri-seal v2 recipients (ML-KEM-768, ML-KEM-768+X25519: nuri key files or age1pq1),
    their KEM run by the ML-KEM implementation ``impl`` (None: dispatch)."""
    from .. import seal

    out = []
    for v in values:
        for r in _load_recipients(v, impl):
            if not isinstance(r, seal.Recipient):
                raise UsageError(
                    f"{v}: an age X25519 recipient (age1...) is classic; nuri-seal v2 recipients are "
                    "ML-KEM-768 or ML-KEM-768+X25519 keys (use --format age for an age file)"
                )
            out.append(r)
    return out


def v2_identities(paths, impl=None):
    """The --identity files as nuri-seal v2 identities (age X25519 identities open no v2 file), their KEM
    run by the ML-KEM implementation ``impl`` (None: dispatch)."""
    from .. import seal

    out = [i for p in paths for i in _load_identities(p, impl) if isinstance(i, seal.Identity)]
    if not out:
        raise UsageError(
            "no ML-KEM-768 or ML-KEM-768+X25519 identity among "
            + ", ".join(paths)
            + " (age X25519 identities open age files only)"
        )
    return out


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
        if args.scrypt_max is not None:
            raise UsageError("--scrypt-max applies to passphrase age files")
        ids = v2_identities(args.identity, C.kem_impl(args))
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
    if args.scrypt_max is not None:
        raise UsageError("--scrypt-max applies to passphrase age files (nuri v1 passphrases: --argon2-max)")
    if args.kem_impl is not None:
        raise UsageError(
            f"--kem-impl applies to files sealed to public-key recipients (--identity); {args.input} is not"
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


def _open_direct(args, fin, out, header, size, kw, origin):
    """OUT is stdout, a device or a FIFO: only authenticated plaintext may reach it. origin: where the
    sealed file starts in fin (stdin need not be at offset 0: (read -n 4; nuri open -i - ...) < file)."""
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
    fin.seek(origin + len(header.to_bytes()))
    # Pass 2: every chunk is authenticated again before it is written.
    with C.Progress(size, "open", quiet=args.quiet) as bar:
        seal.open_stream(fin, out.write, header=header, progress=bar.advance, **kw)
    after = os.fstat(fin.fileno())
    if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns):
        raise VerifyError(f"{args.input} changed while it was being read")


def run_open(args):
    from .. import InvalidTag, seal
    from .._util import read_full
    from ..seal import age

    C.check_output_path(args.output, args.force)
    with C.open_input(args.input) as fin:
        origin = fin.tell() if _seekable(fin) else 0  # where the second pass over a regular file starts
        start = read_full(fin, 9)
        if age.looks_like_age(start):
            return _open_age(args, fin, start, origin)
        _need_aead()
        try:
            header = seal.read_header(fin, start)
        except seal.SealFormatError as e:
            msg = str(e)
            if msg.startswith("not a nuri sealed file"):
                msg = "not a nuri sealed file nor an age file (no NURISEAL header, no age-encryption.org/v1 line)"
            raise VerifyError(f"{args.input}: {msg}") from None
        kw = _open_args(args, seal, header)
        if header.version == 2 and header.kind != seal.KIND_FILE:  # (the MAC has authenticated the kind)
            raise UsageError(f"{args.input} is the header of a sealed video stream: use 'nuri video open'")
        size = C.input_size(fin)
        try:
            with C.AtomicOutput(args.output, args.force) as out:
                if out.direct:  # stdout, a device or a FIFO
                    _open_direct(args, fin, out, header, size, kw, origin)
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


def _age_identities(args, header):
    """The identities to open an age file with: a passphrase for a scrypt file, else --identity files."""
    from ..seal import age

    if args.argon2_max is not None:
        raise UsageError("--argon2-max applies to nuri v1 passphrase files (age files: --scrypt-max)")
    scrypt = [s for s in header.stanzas if s.type == "scrypt"]
    if scrypt:
        if args.identity:  # what the header says does not fit what was given: exit 1, as for a tampered file
            raise VerifyError(
                f"{args.input} is passphrase-encrypted (an age scrypt stanza): open it with --passphrase or "
                "--passphrase-file, not --identity; no output written"
            )
        limit = age.SCRYPT_OPEN_LIMIT if args.scrypt_max is None else args.scrypt_max
        w = int(scrypt[0].args[1])
        if w > limit:  # refused before asking for the passphrase
            raise VerifyError(
                f"{args.input}: asks for scrypt work factor {w} (2^{w}), above the limit {limit} (raise it "
                "with --scrypt-max N if you trust the file); no output written"
            )
        if args.kem_impl is not None:
            raise UsageError(f"--kem-impl applies to files sealed to public-key recipients; {args.input} is not")
        return [age.ScryptIdentity(_passphrase(args, confirm=False, argon2=False), limit)]
    if args.scrypt_max is not None:
        raise UsageError("--scrypt-max applies to passphrase age files")
    if _wants_passphrase(args):
        raise VerifyError(
            f"{args.input} is not passphrase-encrypted (no age scrypt stanza): it was sealed to recipients, "
            "open it with --identity FILE; no output written"
        )
    if not args.identity:
        raise UsageError(f"{args.input} is an age file sealed to recipients: use --identity FILE")
    impl = C.kem_impl(args)
    return [i for p in args.identity for i in _load_identities(p, impl)]


def _open_age(args, fin, start, origin=0):
    """Opens an age file (binary or armored): header and identities, then the payload to a temporary file
    (or, to stdout from a regular file, a verifying pass before the writing one)."""
    from .. import InvalidTag
    from .._util import read_full
    from ..seal import NotRecipientError, age

    if args.key:
        raise UsageError(f"{args.input} is an age file: use --identity FILE or a passphrase, not -k")
    src = age.source(fin, start)
    try:
        header = age.read_header(src)
        header.check()
    except age.SealFormatError as e:  # AgeHeaderError, AgeArmorError
        raise VerifyError(f"{args.input}: {e}") from None
    ids = _age_identities(args, header)
    try:
        file_key = age.file_key(header, ids)
    except NotRecipientError as e:
        raise VerifyError(f"{args.input}: {e}; no output written") from None
    except (InvalidTag, age.SealFormatError) as e:
        raise VerifyError(f"{args.input}: {e}; no output written") from None
    size = C.input_size(fin)
    try:
        with C.AtomicOutput(args.output, args.force) as out:
            if out.direct and _seekable(fin):
                # only authenticated plaintext may reach stdout: pass 1 releases nothing
                with C.Progress(size, "verify", quiet=args.quiet) as bar:
                    age.open_payload(src, lambda b: None, file_key, bar.advance)
                before = os.fstat(fin.fileno())
                fin.seek(origin)
                src = age.source(fin, read_full(fin, 9))
                if age.read_header(src).to_bytes() != header.to_bytes():
                    raise VerifyError(f"{args.input} changed while it was being read")
            with C.Progress(size, "open", quiet=args.quiet) as bar:
                age.open_payload(src, out.write, file_key, bar.advance)
            if out.direct and _seekable(fin):
                after = os.fstat(fin.fileno())
                if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns):
                    raise VerifyError(f"{args.input} changed while it was being read")
            out.commit()
    except (InvalidTag, age.SealFormatError) as e:
        raise VerifyError(
            f"{args.input}: {e}; "
            + ("the output ends here" if args.output == "-" and not _seekable(fin) else "no output written")
        ) from None
    return 0
