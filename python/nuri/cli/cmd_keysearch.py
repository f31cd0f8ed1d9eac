"""nuri keysearch: PIPO brute-force key search over a key template (the command line is pinned:
scripts depend on it). Exit codes: 0 a key matched every pair, 1 range exhausted without one,
2 usage, 3 an engine's self-test failed, 4 interrupted (restore file written)."""

import json
import os
import sys

from .main import UsageError

EXIT_FOUND, EXIT_EXHAUSTED, EXIT_USAGE, EXIT_SELFTEST, EXIT_INTERRUPTED = 0, 1, 2, 3, 4
ENGINES = ("auto", "avx512", "avx2", "portable", "cuda", "ref")

_DESC = (
    "Enumerates the candidates of a PIPO key template and prints every key that maps all --pair "
    "plaintexts to their ciphertexts (the engines filter on the first pair; each hit is re-checked "
    "with the reference cipher on all pairs). Candidate i puts bits 0, 1, 2, ... of i into the unknown "
    "bits, taken from the last hex digit's least significant bit towards the first digit's most "
    "significant bit; --skip/--limit count candidates in that order."
)
_EPILOG = (
    "exit codes: 0 key found, 1 range exhausted, 2 usage, 3 engine self-test failed, 4 interrupted. "
    "example: nuri keysearch --cipher pipo-64/128 --pair 2600271EF6528509:27035DAD81296B6B "
    "--key-template 9722152EAD201D7ED2289477DD16????"
)


def register(sub):
    p = sub.add_parser(
        "keysearch", help="PIPO brute-force key search over a key template", description=_DESC, epilog=_EPILOG
    )
    p.error = lambda message: _one_line_error(message)
    p.add_argument("--cipher", help="pipo-64/128 or pipo-64/256")
    p.add_argument(
        "--pair",
        action="append",
        default=[],
        metavar="PT:CT",
        help="known plaintext:ciphertext, 16 hex digits each (byte order of the vectors); repeatable",
    )
    p.add_argument(
        "--key-template",
        metavar="TEMPLATE",
        help="the key as 32 (64/128) or 64 (64/256) hex digits, '?' = unknown nibble",
    )
    p.add_argument("--mask", metavar="HEX", help="unknown bits that are not whole nibbles (1 = unknown), same length")
    p.add_argument("--engine", default="auto", metavar="|".join(ENGINES), help="search engine (default auto)")
    p.add_argument("--threads", metavar="N", help="CPU threads (default: every core this process may use)")
    p.add_argument("--skip", metavar="N", help="start at candidate N (default 0)")
    p.add_argument("--limit", metavar="N", help="search at most N candidates")
    p.add_argument("--rounds", metavar="R", help="reduced-round PIPO: 1..13 (64/128) or 1..17 (64/256)")
    p.add_argument("--session", metavar="NAME", help="write NAME.restore (cwd or $NURI_SESSION_DIR) every few seconds")
    p.add_argument("--restore", metavar="NAME", help="continue the search saved in NAME.restore")
    p.add_argument("--status-json", action="store_true", help="status as one JSON object per line on stderr")
    p.add_argument(
        "--cluster",
        metavar="SPEC",
        help="local:N[:G] (a local Dask cluster; G GPUs per worker), tcp://HOST:PORT (a Dask scheduler), "
        "ray:local:N[:G] (a local Ray instance with N CPUs and G GPUs) or ray://HOST:PORT (a Ray cluster); "
        "workers with GPUs run the cuda engine",
    )
    p.add_argument("--keyspace", action="store_true", help="print the number of candidates 2^k and exit")
    p.add_argument("--benchmark", action="store_true", help="measure every engine usable here (keys/s, all threads)")
    p.add_argument("--json", action="store_true", help="with --benchmark: JSON records")
    p.set_defaults(func=run, one_line_errors=True)


def _one_line_error(message):
    print(f"nuri keysearch: {message}", file=sys.stderr)
    sys.exit(EXIT_USAGE)


def _int(value, name, minimum=0):
    try:
        v = int(value, 0)
    except (TypeError, ValueError):
        raise UsageError(f"{name} must be an integer, got {value!r}") from None
    if v < minimum:
        raise UsageError(f"{name} must be at least {minimum}, got {v}")
    return v


def _problem(args, need_pairs=True):
    from .. import keysearch as ks

    if not args.cipher:
        raise UsageError("--cipher is required (pipo-64/128 or pipo-64/256)")
    if not args.key_template:
        raise UsageError("--key-template is required")
    if need_pairs and not args.pair:
        raise UsageError("at least one --pair PT:CT is required")
    rounds = _int(args.rounds, "--rounds", 1) if args.rounds is not None else None
    try:
        return ks.Problem(args.cipher, args.key_template, args.pair, args.mask, rounds)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _engine(name, err):
    """The C engine to use (exit 2 for an unknown or unusable one)."""
    from .. import keysearch as ks
    from ..keysearch import gpu

    if name not in ENGINES:
        raise UsageError(f"unknown engine {name!r} (expected one of {', '.join(ENGINES)})")
    if name == "cuda":
        reason = gpu.unavailable_reason()
        if reason:
            raise UsageError(f"engine cuda: {reason}")
        return name
    if name == "auto":
        reason = gpu.unavailable_reason()
        if reason is None and "keysearch:" not in os.environ.get("NURI_IMPL", ""):
            return "cuda"
        if reason:
            print(f"keysearch: {reason}; running on the CPU", file=err)
        name = ks.default_implementation()
        if os.environ.get("NURI_IMPL", "").find("keysearch:") >= 0 and name is None:
            raise UsageError("NURI_IMPL names a keysearch engine this CPU cannot run")
        return name
    usable = ks.implementations()
    if name not in usable:
        if name in [e["name"] for e in ks.engines()]:
            raise UsageError(f"engine {name} cannot run on this CPU (usable here: {', '.join(usable)})")
        raise UsageError(f"engine {name} is not built into this nuri (usable here: {', '.join(usable)})")
    return name


def _run_gpu(args, prob, start, end, threads, session, restore, err):
    """The search on every GPU (self-test on each first). Driver failures: one line, exit 2."""
    from ..keysearch import driver, gpu

    try:
        devices = gpu.open_devices()
        try:
            names = [d.name for d in devices]
            failed = [d.name for d in devices if not gpu.selftest(d)]
        finally:
            for d in devices:
                d.close()
        if failed:
            print(f"nuri keysearch: engine cuda ({failed[0]}): known-answer self-test FAILED; not searching", file=err)
            return EXIT_SELFTEST
        print(f"keysearch: engine cuda on {len(names)} GPU(s): {', '.join(names)}", file=err)
        _warn_false_keys(prob, err)
        search = driver.Search(
            prob, start, end, "cuda", threads, status_json=args.status_json, session=session, restore=restore
        )
        if session is not None:
            session.id = search.search_id
        return search.run(
            lambda ranges, hits, progress, stop, errors: gpu.run_devices(prob, ranges, hits, progress, stop, errors)
        )
    except (gpu.CudaError, gpu.GpuUnavailable) as e:
        raise UsageError(f"engine cuda: {e}") from None
    except driver.SessionError as e:
        raise UsageError(str(e)) from None


def _warn_false_keys(prob, err):
    fk = prob.false_keys()
    if fk >= 1e-6:
        print(
            f"keysearch: warning: {len(prob.pairs)} pair(s) cannot pin the key down: about {fk:.3g} false keys "
            f"expected among 2^{prob.bits} candidates ((2^k-1)*2^(-64n)); give more --pair",
            file=err,
        )


def run(args):
    from .. import keysearch as ks
    from ..keysearch import driver

    err = sys.stderr
    if args.benchmark:
        from ..keysearch import bench

        threads = _int(args.threads, "--threads", 1) if args.threads else None
        records = bench.run(threads=threads)
        for r in records:
            print(json.dumps(r) if args.json else f"{r['impl']:<10} {r['median']:.4g} keys/s  ({r['param']})")
        return EXIT_FOUND
    if args.keyspace:
        prob = _problem(args, need_pairs=False)
        print(prob.keyspace)
        return EXIT_FOUND
    threads = _int(args.threads, "--threads", 1) if args.threads else None
    restore = None
    if args.restore:
        defining = [
            o
            for o, v in (
                ("--cipher", args.cipher),
                ("--pair", args.pair),
                ("--key-template", args.key_template),
                ("--mask", args.mask),
                ("--skip", args.skip),
                ("--limit", args.limit),
                ("--rounds", args.rounds),
                ("--session", args.session),
            )
            if v
        ]
        if defining:
            raise UsageError(f"--restore continues a saved search: {defining[0]} cannot be changed")
        try:
            prob, start, end, restore = driver.check_restore(driver.load_restore(args.restore), args.restore)
        except driver.SessionError as e:
            raise UsageError(str(e)) from None
        session = driver.Session(args.restore, restore["id"], existing=True)
    else:
        prob = _problem(args)
        skip = _int(args.skip, "--skip") if args.skip is not None else 0
        if skip >= prob.keyspace:
            raise UsageError(f"--skip {skip} is past the keyspace ({prob.keyspace} candidates)")
        limit = _int(args.limit, "--limit", 1) if args.limit is not None else prob.keyspace
        start, end = skip, min(skip + limit, prob.keyspace)
        try:
            session = driver.Session(args.session, None) if args.session else None
        except driver.SessionError as e:
            raise UsageError(str(e)) from None
    if args.cluster:
        from ..keysearch import cluster

        try:
            cluster.check_spec(args.cluster)
        except cluster.ClusterError as e:
            raise UsageError(str(e)) from None
    if args.cluster and args.engine in ("auto", "cuda"):
        # the workers decide: cuda on those with GPUs (their own self-test), else their CPU engine
        engine = args.engine if args.engine == "cuda" else ks.default_implementation()
    else:
        engine = _engine(args.engine, err)
    if engine == "cuda" and not args.cluster:
        return _run_gpu(args, prob, start, end, threads, session, restore, err)
    if engine != "cuda" and not ks.selftest(impl=engine):
        print(f"nuri keysearch: engine {engine}: known-answer self-test FAILED; not searching", file=err)
        return EXIT_SELFTEST
    _warn_false_keys(prob, err)
    search = driver.Search(
        prob, start, end, engine, threads, status_json=args.status_json, session=session, restore=restore
    )
    if session is not None:
        session.id = search.search_id
    try:
        if args.cluster:
            from ..keysearch import cluster

            try:
                return search.run(
                    cluster.runner(args.cluster, prob, args.engine if args.engine in ("auto", "cuda") else engine, err)
                )
            except cluster.ClusterError as e:
                raise UsageError(str(e)) from None
            except cluster.SelfTestFailed as e:
                print(f"nuri keysearch: {e}; not searching", file=err)
                return EXIT_SELFTEST
        return search.run()
    except driver.SessionError as e:
        raise UsageError(str(e)) from None
