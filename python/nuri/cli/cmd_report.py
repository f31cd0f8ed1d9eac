"""nuri report: self-test + benchmarks (host, emulated targets, the ML-KEM hardware core in simulation, key
search) -> report/index.md with PNG charts. The report is a job of a checkout (the nuri-dev toolkit: peers,
emulated targets, the hardware model); from an installed wheel it says so in one line, exit 2."""

import sys

from .main import UsageError, VerifyError


def register(sub):
    p = sub.add_parser(
        "report",
        help="self-test, benchmark everything, write report/ (Markdown + PNG charts; from a checkout)",
        description="Runs the self-test, benchmarks every family and implementation on this host, the "
        "emulated targets (scripts/bench-cross.sh and its toolchains), the ML-KEM hardware core in "
        "simulation (Verilator) and key search, and writes DIR/index.md, DIR/*.png and DIR/records.json. "
        "index.md opens with the headline figures beside their peers; each chart puts the measurements "
        "beside the published figures they correspond to, with units and platforms. Ends with a summary "
        "of its parts (ok, FAILED or skipped and why), also near the top of index.md. Exit status 1 if "
        "any part that ran failed, 2 where it cannot run (an installed wheel: the report needs a "
        "checkout, `make demo`).",
    )
    p.add_argument("-o", "--output", default="report", metavar="DIR", help="output directory (default report/)")
    p.add_argument("--quick", action="store_true", help="fewer runs and sizes (smoke test)")
    p.add_argument("--no-cross", action="store_true", help="skip the emulated targets")
    p.add_argument("--no-peers", action="store_true", help="skip peer programs (bench/peers)")
    p.add_argument("--no-hw", action="store_true", help="skip the ML-KEM hardware core's simulation")
    p.set_defaults(func=run)


def run(args):
    from ..tools import dev_toolkit

    report = dev_toolkit(
        "report",
        "the report (peers, emulated targets, the hardware simulation)",
        "run make demo in the repository",
    )
    why = report.missing()
    if why:
        raise UsageError(why)
    try:
        s = report.make_report(
            args.output,
            quick=args.quick,
            cross=not args.no_cross,
            peers=not args.no_peers,
            hw=not args.no_hw,
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
