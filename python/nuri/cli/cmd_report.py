"""nuri report: self-test + benchmarks (host and emulated targets) -> report/index.md with PNG charts."""

import sys

from .main import UsageError, VerifyError


def register(sub):
    p = sub.add_parser(
        "report",
        help="self-test, benchmark everything, write report/ (Markdown + PNG charts)",
        description="Runs the self-test, benchmarks every family and implementation on this host "
        "(and on emulated targets when scripts/bench-cross.sh and its toolchains are "
        "there), and writes DIR/index.md, DIR/*.png and DIR/records.json. Each chart "
        "puts the measurements beside the published figures they correspond to, with "
        "units and platforms. Ends with a summary of its parts (self-test, host benchmarks, peers, "
        "each emulated target: ok, FAILED or skipped and why), also at the top of "
        "index.md. Exit status 1 if any part that ran failed.",
    )
    p.add_argument("-o", "--output", default="report", metavar="DIR", help="output directory (default report/)")
    p.add_argument("--quick", action="store_true", help="fewer runs and sizes (smoke test)")
    p.add_argument("--no-cross", action="store_true", help="skip the emulated targets")
    p.add_argument("--no-peers", action="store_true", help="skip peer programs (bench/peers)")
    p.set_defaults(func=run)


def run(args):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("the report needs matplotlib (pip install matplotlib)") from None
    from ..tools import report

    try:
        s = report.make_report(
            args.output,
            quick=args.quick,
            cross=not args.no_cross,
            peers=not args.no_peers,
            log=lambda m: print(m, file=sys.stderr, flush=True),
        )
    except OSError as e:
        raise UsageError(f"cannot write the report to {args.output}: {e.strerror or e}") from None
    print(f"{args.output}/index.md")
    print("\nnuri report summary:", file=sys.stderr)
    for line in report.summary_lines(s["parts"]):
        print("  " + line, file=sys.stderr)
    if s["failed_parts"]:
        names = ", ".join(n for n, _, _ in s["failed_parts"])
        raise VerifyError(f"{len(s['failed_parts'])} part(s) failed: {names} (see {args.output}/index.md)")
    return 0
