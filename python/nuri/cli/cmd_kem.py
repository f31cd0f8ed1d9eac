"""nuri kem keygen|encaps|decaps: ML-KEM-512/768/1024 (FIPS 203) with key files."""

import contextlib

from .main import UsageError, VerifyError

# FIPS 203 sizes: encapsulation key, decapsulation key, ciphertext.
SIZES = {512: (800, 1632, 768), 768: (1184, 2400, 1088), 1024: (1568, 3168, 1568)}
_DESC = (
    "ML-KEM (FIPS 203) key encapsulation. Files hold the raw FIPS 203 byte strings: the public "
    "(encapsulation) key, the secret (decapsulation) key (mode 0600), the ciphertext, and the 32-byte "
    "shared secret (mode 0600; '-' prints it as hex). The level is read from the file sizes; --level "
    "checks it."
)


def register(sub):
    p = sub.add_parser("kem", help="ML-KEM-512/768/1024 key pairs, encapsulation and decapsulation", description=_DESC)
    ops = p.add_subparsers(dest="op", metavar="OP", parser_class=type(p))
    ops.required = True
    g = ops.add_parser(
        "keygen",
        help="make a key pair",
        description=_DESC,
        epilog="example: nuri kem keygen --level 768 --public alice.pk --secret alice.sk; "
        "nuri seal -r alice.pk -i IN -o OUT; nuri open --identity alice.sk -i OUT -o IN2",
    )
    g.add_argument("--level", type=int, choices=sorted(SIZES), default=768, help="512, 768 (default) or 1024")
    g.add_argument(
        "--kem",
        choices=["mlkem512", "mlkem768", "mlkem1024", "mlkem768-x25519"],
        default=None,
        help="the KEM (default mlkem768, or --level's): mlkem768-x25519 makes an ML-KEM-768+X25519 "
        "(X-Wing) pair for 'nuri seal -r': a 1,216-byte public key and a 32-byte secret seed",
    )
    g.add_argument(
        "--seed",
        action="store_true",
        help="write the ML-KEM secret as its 64-byte seed d || z (FIPS 203 KeyGen_internal input; what "
        "pyca/cryptography's MLKEM*PrivateKey.from_seed_bytes loads; 'nuri open --identity' "
        "reads it for ML-KEM-768) instead of the expanded decapsulation key",
    )
    g.add_argument("--public", required=True, metavar="PK", help="where to write the public key")
    g.add_argument("--secret", required=True, metavar="SK", help="where to write the secret key (mode 0600)")
    g.add_argument("--force", action="store_true", help="overwrite existing files")
    g.set_defaults(func=run_keygen)
    e = ops.add_parser(
        "encaps",
        help="make a shared secret and its ciphertext for a public key",
        description=_DESC,
        epilog="example: nuri kem encaps --public alice.pk --ciphertext ct.bin --shared ss.bin",
    )
    e.add_argument("--level", type=int, choices=sorted(SIZES), help="expected level (default: from PK's size)")
    e.add_argument("--public", required=True, metavar="PK", help="the recipient's public key")
    e.add_argument("--ciphertext", required=True, metavar="CT", help="where to write the ciphertext")
    e.add_argument(
        "--shared", required=True, metavar="SS", help="where to write the shared secret ('-' = hex on stdout)"
    )
    e.add_argument("--force", action="store_true", help="overwrite existing files")
    e.set_defaults(func=run_encaps)
    d = ops.add_parser(
        "decaps",
        help="recover the shared secret from a ciphertext",
        description=_DESC,
        epilog="example: nuri kem decaps --secret alice.sk --ciphertext ct.bin --shared ss.bin",
    )
    d.add_argument("--level", type=int, choices=sorted(SIZES), help="expected level (default: from SK's size)")
    d.add_argument("--secret", required=True, metavar="SK", help="your secret key")
    d.add_argument("--ciphertext", required=True, metavar="CT", help="the ciphertext")
    d.add_argument(
        "--shared", required=True, metavar="SS", help="where to write the shared secret ('-' = hex on stdout)"
    )
    d.add_argument("--force", action="store_true", help="overwrite existing files")
    d.set_defaults(func=run_decaps)


def _mlkem():
    try:
        from .. import mlkem
    except ImportError as e:
        raise UsageError(f"ML-KEM is not available in this build (nuri.mlkem: {e})") from None
    return mlkem


def _read(path, what):
    try:
        with open(path, "rb") as f:
            return f.read(1 << 16)
    except OSError as e:
        raise UsageError(f"cannot read {what} {path}: {e.strerror or e}") from None


def _level_of(data, which, path, want):
    names = ("public key", "secret key", "ciphertext")
    levels = [lv for lv, s in SIZES.items() if s[which] == len(data)]
    if not levels:
        allowed = ", ".join(f"{s[which]} (ML-KEM-{lv})" for lv, s in SIZES.items())
        raise UsageError(f"{path}: {len(data)} bytes is not an ML-KEM {names[which]} (expected {allowed})")
    if want and want not in levels:
        raise UsageError(f"{path}: a {names[which]} of ML-KEM-{levels[0]}, not ML-KEM-{want}")
    return levels[0]


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


def run_keygen(args):
    mlkem = _mlkem()
    _check_new([args.public, args.secret], args.force)
    if "-" in (args.public, args.secret):
        raise UsageError("keygen writes files: give file names, not '-'")
    if args.kem == "mlkem768-x25519":
        from .. import seal

        ek, dk = seal.generate("mlkem768-x25519")
    else:
        level = int(args.kem[5:]) if args.kem else args.level
        if args.seed:
            k = getattr(mlkem, f"MLKEM{level}PrivateKey").generate()
            ek, dk = k.public_key().public_bytes_raw(), k.private_bytes_raw()
        else:
            ek, dk = mlkem.keygen(level)
    _write_all([(args.secret, dk, True), (args.public, ek, False)], args.force)
    return 0


def run_encaps(args):
    mlkem = _mlkem()
    ek = _read(args.public, "public key")
    level = _level_of(ek, 0, args.public, args.level)
    if args.ciphertext == "-":
        raise UsageError("--ciphertext needs a file name")
    _check_new([args.ciphertext, args.shared], args.force)
    try:
        ss, ct = mlkem.encaps(level, ek)
    except ValueError as e:
        raise VerifyError(f"{args.public}: not a valid ML-KEM-{level} public key ({e})") from None
    _write_all([(args.ciphertext, ct, False), (args.shared, ss, True)], args.force)
    return 0


def run_decaps(args):
    mlkem = _mlkem()
    dk = _read(args.secret, "secret key")
    level = _level_of(dk, 1, args.secret, args.level)
    ct = _read(args.ciphertext, "ciphertext")
    lc = _level_of(ct, 2, args.ciphertext, level)
    _check_new([args.shared], args.force)
    try:
        ss = mlkem.decaps(lc, dk, ct)
    except ValueError as e:
        raise VerifyError(f"{args.secret}: not a valid ML-KEM-{level} secret key ({e})") from None
    _write_all([(args.shared, ss, True)], args.force)
    return 0
