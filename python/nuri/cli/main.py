"""Entry point of the ``nuri`` command. Exit codes: 0 ok, 1 verification or authentication
failure, 2 usage error (bad arguments, unreadable input, unwritable output)."""
import argparse
import importlib
import pkgutil
import sys

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


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


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args) or EXIT_OK
    except UsageError as e:
        print(f"nuri {args.command}: {e}", file=sys.stderr)
        return EXIT_USAGE
    except VerifyError as e:
        print(f"nuri {args.command}: {e}", file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    # Run through the package module so the exception classes are the ones commands import
    # (running this file directly would define a second, different UsageError).
    from nuri.cli.main import main as _main

    sys.exit(_main())
