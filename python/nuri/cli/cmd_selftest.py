"""nuri selftest: every registered implementation of every family against known answers."""

from .. import FAMILIES
from ..tools import selftest
from .main import VerifyError


def register(sub):
    p = sub.add_parser(
        "selftest",
        help="run every implementation against known-answer vectors",
        description="Runs each registered implementation usable on this CPU against vectors and "
        "prints a pass/fail table. Exit status 1 if anything fails.",
    )
    p.add_argument("family", nargs="?", default="all")
    p.set_defaults(func=run)


def run(args):
    if args.family != "all" and args.family not in FAMILIES:
        raise VerifyError(f"no self-tests for family {args.family!r} (families: {', '.join(FAMILIES)})")
    rows = selftest.run(args.family)
    if not rows:
        raise VerifyError(f"no self-tests for family {args.family!r}")
    w = [max(len(r[i]) for r in rows) for i in range(3)]
    print(f"{'family'.ljust(w[0])}  {'impl'.ljust(w[1])}  {'test'.ljust(w[2])}  result")
    for fam, impl, name, ok in rows:
        print(f"{fam.ljust(w[0])}  {impl.ljust(w[1])}  {name.ljust(w[2])}  {'pass' if ok else 'FAIL'}")
    failed = sum(1 for r in rows if not r[3])
    print(f"\nselftest: {len(rows) - failed} passed, {failed} failed")
    if failed:
        raise VerifyError(f"{failed} self-test(s) failed")
    return 0
