"""nuri bench [family] [--json]: the benchmark harness as a table or JSON records."""

import json
import sys

from .main import UsageError


def register(sub):
    p = sub.add_parser(
        "bench",
        help="benchmark every implementation (table or --json records)",
        description="Runs the benchmark harness: medians of rdtsc cycles (x86-64 ticks at the TSC "
        "rate), per implementation, with peers measured in the same run.",
    )
    p.add_argument(
        "family",
        nargs="?",
        default="all",
        help="pipo, fea, sparkle, mlkem, keysearch or all (default); fpe-engines: FEA in the CLI, "
        "DuckDB, PostgreSQL and Spark (not part of all; from a checkout)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON record per line")
    p.add_argument("--quick", action="store_true", help="fewer runs and sizes (smoke test)")
    p.add_argument("--impl", help="only implementations whose name contains this")
    peers = p.add_mutually_exclusive_group()
    peers.add_argument(
        "--peers",
        action="store_true",
        help="measure the peer programs too (a checkout's bench/peers; the default there, unavailable from an "
        "installed wheel)",
    )
    peers.add_argument("--no-peers", action="store_true", help="skip the peer programs")
    p.add_argument(
        "--breakdown",
        action="store_true",
        help="mlkem only: cycles of keygen/encaps/decaps split by step (matrix sampling, CBD sampling, hashing, "
        "'mixed' = the three in shared Keccak lanes, NTT, basemul, packing and compression, reductions) per "
        "implementation; no peer exposes its steps",
    )
    p.set_defaults(func=run)


def _fmt(v):
    if v >= 1e6:
        return f"{v:,.0f}"
    if v >= 100:
        return f"{v:.0f}"
    return f"{v:.3g}"


def _wants_peers(args):
    """Peers run from a checkout (nuri-dev installed) unless --no-peers; --peers insists on them (exit 2
    from an installed wheel); otherwise a wheel runs without them and says so in one line."""
    from ..tools import NeedsCheckout, bench

    if args.peers:
        return bench.peer_toolkit()  # NeedsCheckout from a wheel: one line, exit 2 (cli/main.py)
    if args.no_peers or args.impl or args.family == "keysearch":  # key search has no peer
        return None
    try:
        return bench.peer_toolkit()
    except NeedsCheckout:
        print("nuri bench: no peers: they are built from a checkout of nuri (bench/peers)", file=sys.stderr)
        return None


def run(args):
    from ..tools import bench, dev_toolkit

    if args.breakdown:
        return _breakdown(args)
    if args.family == "fpe-engines":
        engines = dev_toolkit("engines_bench", "the database benchmark (its PostgreSQL, DuckDB and Spark fixtures)")
        return _print(engines.run(quick=args.quick, impl=args.impl), args.json)
    toolkit = _wants_peers(args)
    peers = toolkit is not None
    status = []
    if peers:
        status += [b for b in toolkit.build_peers() if b[1] != "ok"]
    try:
        records = bench.run(args.family, args.quick, args.impl, peers=peers, status=status)
    except ValueError as e:
        raise UsageError(str(e)) from None
    for name, st, why in status:
        if st != "ok":
            print(f"nuri bench: {name}: {st} ({why})", file=sys.stderr)
    return _print(records, args.json)


STEPS = ["matrix", "cbd", "hash", "mixed", "ntt", "basemul", "pack", "reduce", "other", "total"]


def _breakdown(args):
    """nuri bench mlkem --breakdown: the harness's per-step records (bench/bench_mlkem.c), as a table
    with one row per implementation, parameter set and operation."""
    import os

    from ..tools import bench

    if args.family != "mlkem":
        raise UsageError("--breakdown applies to the mlkem family only")
    os.environ["NURI_BENCH_BREAKDOWN"] = "1"  # read by the harness (bench_mlkem.c)
    try:
        records = bench.run_c("mlkem", args.quick, args.impl)
    finally:
        del os.environ["NURI_BENCH_BREAKDOWN"]
    if args.json:
        return _print(records, True)
    rows = {}
    for r in records:
        op, _, step = r["op"].partition(":")
        rows.setdefault((r["impl"], r["param"], op), {})[step] = r["median"]
    head = ["impl", "param", "op"] + STEPS
    table = [[i, p, o] + [f"{v.get(s, 0):.0f}" for s in STEPS] for (i, p, o), v in rows.items()]
    widths = [max([len(h)] + [len(t[c]) for t in table]) for c, h in enumerate(head)]
    print("  ".join(h.rjust(w) if c > 2 else h.ljust(w) for c, (h, w) in enumerate(zip(head, widths))))
    for t in table:
        print("  ".join(v.rjust(w) if c > 2 else v.ljust(w) for c, (v, w) in enumerate(zip(t, widths))))
    print(
        "\nmedian cycles (rdtsc ticks on x86-64) per step of one operation; other = kem.c's own work, total "
        "includes the timers. The peers (bench/peers/mlkem) expose no per-step timing.",
        file=sys.stderr,
    )
    return 0


def _print(records, as_json):
    if as_json:
        for r in records:
            print(json.dumps(r))
        return 0
    cols = ["family", "impl", "op", "param", "size", "metric", "median", "min", "max"]
    rows = [
        [
            str(r["family"]),
            r["impl"],
            r["op"],
            r["param"],
            str(int(r["size"])),
            r["metric"],
            _fmt(r["median"]),
            _fmt(r["min"]),
            _fmt(r["max"]),
        ]
        for r in records
    ]
    widths = [max([len(c)] + [len(row[i]) for row in rows]) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    for row in rows:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths)))
    if records:
        print(
            f"\n{len(records)} records on {records[0]['platform']}; cycles are rdtsc ticks on x86-64.", file=sys.stderr
        )
    return 0
