"""nuri keygen -o KEYFILE [--bits 128|192|256] [--force]: a random symmetric key file (mode 0600)."""

from . import _common as C
from .main import UsageError


def register(sub):
    p = sub.add_parser(
        "keygen",
        help="make a random symmetric key file (mode 0600)",
        description="Writes a fresh random key from the OS (getrandom) as one line "
        "'nuri-key-v1 <bits> <hex>', file mode 0600. Used with -k by seal/open, "
        "pipo and fpe. PIPO takes 128 or 256 bits, FEA 128/192/256; seal/open "
        "accept any size (the file key is expanded with HKDF-SHA-256).",
        epilog="example: nuri keygen -o my.key && nuri seal -k my.key -i notes.txt -o notes.sealed",
    )
    p.add_argument("-o", "--output", required=True, metavar="KEYFILE", help="where to write the key")
    p.add_argument("--bits", type=int, choices=(128, 192, 256), default=128, help="key size (default 128)")
    p.add_argument("--force", action="store_true", help="overwrite an existing KEYFILE")
    p.set_defaults(func=run)


def run(args):
    from .. import keyfile

    if args.output == "-":
        raise UsageError("refusing to print a key to stdout; give a file name")
    key = keyfile.generate(args.bits)
    with C.AtomicOutput(args.output, args.force, secret=True) as out:
        out.write(keyfile.format_key(key).encode())
        out.commit()
    return 0
