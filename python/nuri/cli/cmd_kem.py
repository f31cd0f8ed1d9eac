"""nuri kem keygen|encaps|decaps: ML-KEM-512/768/1024 (FIPS 203) and ML-KEM-768+X25519 (X-Wing) with key
files that say what they hold."""

import contextlib

from . import _common as C
from .main import UsageError, VerifyError

# FIPS 203 sizes: encapsulation key, decapsulation key, ciphertext.
SIZES = {512: (800, 1632, 768), 768: (1184, 2400, 1088), 1024: (1568, 3168, 1568)}
XWING_CT = 1120
_DESC = (
    "Key encapsulation: ML-KEM-512/768/1024 (FIPS 203) and ML-KEM-768+X25519 (X-Wing). Key files name "
    "their KEM and kind ('nuri-kem-v1 <kem> <public|secret|seed> <hex>', docs/seal-format.md): a key is "
    "never taken for another level. --format raw writes the bare FIPS 203 byte strings instead (what "
    "pyca/cryptography loads; their kind follows from the size, a 64-byte seed being ML-KEM-768's unless "
    "--level says otherwise), and --format age an age post-quantum identity file. The secret key and the "
    "shared secret are written with mode 0600 ('--shared -' prints the secret as hex); ciphertexts are raw."
)
_KEMS = ["mlkem512", "mlkem768", "mlkem1024", "mlkem768-x25519"]


def register(sub):
    p = sub.add_parser(
        "kem", help="ML-KEM and ML-KEM+X25519 key pairs, encapsulation and decapsulation", description=_DESC
    )
    ops = p.add_subparsers(dest="op", metavar="OP", parser_class=type(p))
    ops.required = True
    g = ops.add_parser(
        "keygen",
        help="make a key pair",
        description=_DESC,
        epilog="examples: nuri kem keygen --level 768 --public alice.pk --secret alice.sk; "
        "nuri seal -r alice.pk -i IN -o OUT; nuri open --identity alice.sk -i OUT -o IN2; "
        "nuri kem keygen --format age -o key.txt > key.pub (an age identity file; the recipient on stdout)",
    )
    g.add_argument(
        "--level", type=int, choices=sorted(SIZES), default=None, help="ML-KEM level: 512, 768 (default), 1024"
    )
    g.add_argument(
        "--kem",
        choices=_KEMS,
        default=None,
        help="the KEM (default mlkem768, or --level's): mlkem768-x25519 makes an ML-KEM-768+X25519 "
        "(X-Wing) pair for 'nuri seal -r' and age: a 1,216-byte public key and a 32-byte secret seed",
    )
    g.add_argument(
        "--seed",
        action="store_true",
        help="keep the ML-KEM secret as its 64-byte seed d || z (FIPS 203 KeyGen_internal input; what "
        "pyca/cryptography's MLKEM*PrivateKey.from_seed_bytes loads) instead of the expanded decapsulation "
        "key (X-Wing secrets are always their 32-byte seed)",
    )
    g.add_argument(
        "--format",
        choices=["nuri", "raw", "age"],
        default="nuri",
        help="nuri (default: text files naming KEM and kind), raw (the bare byte strings), or age (an age "
        "post-quantum identity file, AGE-SECRET-KEY-PQ-1..., as age-keygen -pq writes; ML-KEM-768+X25519 only)",
    )
    g.add_argument(
        "--public", metavar="PK", help="where to write the public key (with --format age: optional, the recipient line)"
    )
    g.add_argument(
        "--secret", "-o", metavar="SK", required=True, help="where to write the secret key or identity (mode 0600)"
    )
    g.add_argument("--force", action="store_true", help="overwrite existing files")
    C.add_kem_impl_arg(g, " (ML-KEM-768+X25519: its ML-KEM half)")
    g.set_defaults(func=run_keygen)
    e = ops.add_parser(
        "encaps",
        help="make a shared secret and its ciphertext for a public key",
        description=_DESC,
        epilog="example: nuri kem encaps --public alice.pk --ciphertext ct.bin --shared ss.bin",
    )
    e.add_argument("--level", type=int, choices=sorted(SIZES), help="expected ML-KEM level (checked against PK)")
    e.add_argument("--public", required=True, metavar="PK", help="the recipient's public key file")
    e.add_argument("--ciphertext", required=True, metavar="CT", help="where to write the ciphertext")
    e.add_argument(
        "--shared", required=True, metavar="SS", help="where to write the shared secret ('-' = hex on stdout)"
    )
    e.add_argument("--force", action="store_true", help="overwrite existing files")
    C.add_kem_impl_arg(e, " (ML-KEM-768+X25519: its ML-KEM half)")
    e.set_defaults(func=run_encaps)
    d = ops.add_parser(
        "decaps",
        help="recover the shared secret from a ciphertext",
        description=_DESC,
        epilog="example: nuri kem decaps --secret alice.sk --ciphertext ct.bin --shared ss.bin",
    )
    d.add_argument(
        "--level",
        type=int,
        choices=sorted(SIZES),
        help="expected ML-KEM level (checked against SK; for a raw 64-byte seed, the level it is for)",
    )
    d.add_argument("--secret", required=True, metavar="SK", help="your secret key file")
    d.add_argument("--ciphertext", required=True, metavar="CT", help="the ciphertext")
    d.add_argument(
        "--shared", required=True, metavar="SS", help="where to write the shared secret ('-' = hex on stdout)"
    )
    d.add_argument("--force", action="store_true", help="overwrite existing files")
    C.add_kem_impl_arg(d, " (ML-KEM-768+X25519: its ML-KEM half)")
    d.set_defaults(func=run_decaps)


def _mlkem():
    try:
        from .. import mlkem
    except ImportError as e:
        raise UsageError(f"ML-KEM is not available in this build (nuri.mlkem: {e})") from None
    return mlkem


def _read(path, what, limit=1 << 16):
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise UsageError(f"cannot read {what} {path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise UsageError(f"{path}: too large for a {what}")
    return data


def _write_all(files, force):
    """files: (path, data, secret) triples. Each is written to a temporary file, and all of them get their
    names only once every one is complete (a full disk never leaves a secret key without its public key, or
    a ciphertext without its shared secret). '-' prints the data as hex after the files are in place."""
    from . import _common as C

    stdout = [data for path, data, _ in files if path == "-"]
    with contextlib.ExitStack() as stack:
        outs = []
        for path, data, secret in files:
            if path == "-":
                continue
            o = stack.enter_context(C.AtomicOutput(path, force, secret=secret))
            o.write(data)
            outs.append(o)
        C.commit_all(outs)
    for data in stdout:
        print(data.hex())


def _check_new(paths, force):
    import os

    from . import _common as C

    for p in paths:
        if p != "-":
            C.check_output_path(p, force)
    real = [os.path.abspath(p) for p in paths if p != "-"]
    if len(set(real)) != len(real):
        raise UsageError("output files must differ")


def _keygen_kem(args):
    """The KEM the keygen flags ask for; UsageError when they contradict each other."""
    if args.kem and args.level:
        if args.kem == "mlkem768-x25519":
            raise UsageError("--level is an ML-KEM level: it does not apply to --kem mlkem768-x25519")
        if args.kem != f"mlkem{args.level}":
            raise UsageError(f"--level {args.level} contradicts --kem {args.kem}")
    kem = args.kem or f"mlkem{args.level or 768}"
    if args.format == "age":
        if kem != "mlkem768-x25519" and (args.kem or args.level):
            raise UsageError(
                "age post-quantum identities are ML-KEM-768+X25519: --format age contradicts "
                + (f"--kem {args.kem}" if args.kem else f"--level {args.level}")
            )
        kem = "mlkem768-x25519"
    if args.format == "raw" and args.seed and kem in ("mlkem512", "mlkem1024"):
        raise UsageError(
            f"a raw 64-byte seed does not say its level and is read as ML-KEM-768's: --format raw --seed "
            f"contradicts {kem} (the default --format nuri names the level in the file)"
        )
    return kem


def run_keygen(args):
    from .. import keyfile
    from ..seal import age, hpke

    mlkem = _mlkem()
    kem = _keygen_kem(args)
    if args.public is None and args.format != "age":
        raise UsageError("--public PK is needed (where to write the public key)")
    paths = [p for p in (args.public, args.secret) if p is not None]
    if "-" in paths:
        raise UsageError("keygen writes files: give file names, not '-'")
    _check_new(paths, args.force)
    impl = C.kem_impl(args, 768 if kem == "mlkem768-x25519" else int(kem[5:]))
    if kem == "mlkem768-x25519":
        import os

        sk = os.urandom(hpke.XWING_SEED)
        pk, kind = hpke.xwing_public_key(sk, impl=impl), "seed"
    else:
        level = int(kem[5:])
        if args.seed:
            k = getattr(mlkem, f"MLKEM{level}PrivateKey").generate(impl=impl)
            pk, sk, kind = k.public_key().public_bytes_raw(), k.private_bytes_raw(), "seed"
        else:
            (pk, sk), kind = mlkem.keygen(level, impl=impl), "secret"
    if args.format == "raw":
        files = [(args.secret, sk, True), (args.public, pk, False)]
    elif args.format == "nuri":
        files = [
            (args.secret, keyfile.format_kem_key(kem, kind, sk).encode(), True),
            (args.public, keyfile.format_kem_key(kem, "public", pk).encode(), False),
        ]
    else:
        recipient = age.key_string("mlkem768-x25519", "public", pk)
        files = [(args.secret, age.identity_file(sk, impl=impl).encode(), True)]
        if args.public:
            files.append((args.public, (recipient + "\n").encode(), False))
    _write_all(files, args.force)
    if args.format == "age":
        print(recipient)
    return 0


def _key(path, what, level, public):
    """(kem, kind, bytes) of the one key in a key file, checked against --level."""
    from ..seal import recipients

    try:
        entries = recipients.parse_key_file(_read(path, what, recipients.MAX_KEY_FILE), path, seed_level=level or 768)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if len(entries) != 1:
        raise UsageError(f"{path}: holds {len(entries)} keys; give a file with one")
    e = entries[0]
    if e.public != public:
        raise UsageError(f"{path}: a {'public' if e.public else 'secret'} key, not a {what}")
    if e.kem == "x25519":
        raise UsageError(f"{path}: an age X25519 key is not a KEM key (it opens age files: nuri open --identity)")
    if level and e.kem != f"mlkem{level}":
        raise UsageError(f"{path}: a {what} of {e.kem}, not ML-KEM-{level}")
    return e.kem, e.kind, e.data


def run_encaps(args):
    from ..seal import hpke

    mlkem = _mlkem()
    kem, _, ek = _key(args.public, "public key", args.level, True)
    if args.ciphertext == "-":
        raise UsageError("--ciphertext needs a file name")
    _check_new([args.ciphertext, args.shared], args.force)
    impl = C.kem_impl(args, 768 if kem == "mlkem768-x25519" else int(kem[5:]))
    try:
        if kem == "mlkem768-x25519":
            if not mlkem.check_encapsulation_key(768, ek[: hpke.MLKEM_EK]):
                raise ValueError("FIPS 203 modulus check")
            ss, ct = hpke.encap(hpke.KEM_MLKEM768_X25519, ek, impl=impl)
        else:
            ss, ct = mlkem.encaps(int(kem[5:]), ek, impl=impl)
    except ValueError as e:
        raise VerifyError(f"{args.public}: not a valid {kem} public key ({e})") from None
    _write_all([(args.ciphertext, ct, False), (args.shared, ss, True)], args.force)
    return 0


def run_decaps(args):
    from .. import InvalidTag
    from ..seal import hpke

    mlkem = _mlkem()
    kem, kind, sk = _key(args.secret, "secret key", args.level, False)
    ct = _read(args.ciphertext, "ciphertext")
    if kem == "mlkem768-x25519":
        if len(ct) != XWING_CT:
            raise UsageError(f"{args.ciphertext}: {len(ct)} bytes is not an ML-KEM-768+X25519 ciphertext ({XWING_CT})")
    else:
        level = int(kem[5:])
        if len(ct) != SIZES[level][2]:
            lv = [lv for lv, s in SIZES.items() if s[2] == len(ct)]
            why = f"an ML-KEM-{lv[0]} ciphertext" if lv else "not an ML-KEM ciphertext"
            raise UsageError(f"{args.ciphertext}: {len(ct)} bytes is {why}, not ML-KEM-{level}'s ({SIZES[level][2]})")
    _check_new([args.shared], args.force)
    impl = C.kem_impl(args, 768 if kem == "mlkem768-x25519" else level)
    try:
        if kem == "mlkem768-x25519":
            ss = hpke.decap(hpke.KEM_MLKEM768_X25519, sk, ct, impl=impl)
        else:
            dk = mlkem.keygen(level, sk, impl=impl)[1] if kind == "seed" else sk
            ss = mlkem.decaps(level, dk, ct, impl=impl)
    except (ValueError, InvalidTag) as e:
        raise VerifyError(f"{args.secret}: not a valid {kem} secret key, or a rejected ciphertext ({e})") from None
    _write_all([(args.shared, ss, True)], args.force)
    return 0
