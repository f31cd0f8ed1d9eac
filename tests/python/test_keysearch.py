"""nuri keysearch: planted keys found by every engine (24 to 40 unknown bits, slices whose first or
last candidate is the key, 1 and 2 pairs, PIPO-64/256, reduced rounds), exit codes 0/1/2/3/4, the
status stream, restore files (SIGINT then --restore), engines agreeing with each other, the
benchmark records."""

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

from nuri import keysearch as ks

ENGINES = ks.implementations()
RNG = random.Random(0x6B657973)
OFFICIAL_KEY = "9722152EAD201D7ED2289477DD16C46D"
OFFICIAL_PAIR = "2600271EF6528509:27035DAD81296B6B"


def nuri(*args, env=None, cwd=None, timeout=120):
    e = dict(os.environ, NURI_NO_PROGRESS="1")
    e.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "nuri", "keysearch", *args],
        capture_output=True,
        text=True,
        env=e,
        cwd=cwd,
        timeout=timeout,
    )


def index_of(key, mask):
    """Candidate index of key under mask (bits taken from the last byte's bit 0 upwards)."""
    k, m = int.from_bytes(key, "big"), int.from_bytes(mask, "big")
    idx, b = 0, 0
    for pos in range(8 * len(key)):
        if m >> pos & 1:
            idx |= (k >> pos & 1) << b
            b += 1
    return idx


def plant(cipher="pipo-64/128", nibbles=(), rounds=None, npairs=1, mask_bits=()):
    """A random key; the template hides `nibbles` (hex digit positions) and `mask_bits` (bit
    positions counted from the last digit's LSB); returns template, mask hex or None, pairs, key, index."""
    n = ks.CIPHERS[cipher]
    key = bytes(RNG.randrange(256) for _ in range(n))
    h = list(key.hex().upper())
    for i in nibbles:
        h[i] = "?"
    mask = None
    if mask_bits:
        mask = (sum(1 << p for p in mask_bits)).to_bytes(n, "big").hex().upper()
    pairs = []
    for _ in range(npairs):
        pt = bytes(RNG.randrange(256) for _ in range(8))
        pairs.append(f"{pt.hex().upper()}:{ks.encrypt(key, pt, rounds).hex().upper()}")
    prob = ks.Problem(cipher, "".join(h), pairs, mask, rounds)
    return "".join(h), mask, pairs, key.hex().upper(), index_of(key, prob.mask)


def args_for(cipher, template, pairs, mask=None, *more):
    a = ["--cipher", cipher, "--key-template", template]
    for p in pairs:
        a += ["--pair", p]
    if mask:
        a += ["--mask", mask]
    return a + list(more)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_finds_a_planted_24_bit_key(engine):
    template, mask, pairs, key, idx = plant(nibbles=(3, 9, 14, 17, 22, 30))
    lo = max(0, idx - (1 << 15)) if engine == "ref" else 0
    r = nuri(
        *args_for(
            "pipo-64/128",
            template,
            pairs,
            None,
            "--engine",
            engine,
            "--skip",
            str(lo),
            "--limit",
            str(1 << 16) if engine == "ref" else str(1 << 24),
        )
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [key]


@pytest.mark.parametrize("engine", ENGINES)
def test_key_at_first_and_last_candidate_of_a_slice(engine):
    template, mask, pairs, key, idx = plant(nibbles=(0, 5, 11, 16, 20, 27, 31))
    for skip in (idx, idx - 40):
        r = nuri(
            *args_for("pipo-64/128", template, pairs, None, "--engine", engine, "--skip", str(skip), "--limit", "41")
        )
        assert r.returncode == 0 and r.stdout.split() == [key], (skip, r.stderr)
    r = nuri(
        *args_for("pipo-64/128", template, pairs, None, "--engine", engine, "--skip", str(idx + 1), "--limit", "1000")
    )
    assert r.returncode == 1 and r.stdout == ""


@pytest.mark.parametrize("engine", [e for e in ENGINES if e != "ref"])
def test_40_unknown_bits_window_two_pairs(engine):
    template, mask, pairs, key, idx = plant(nibbles=tuple(range(10, 20)), npairs=2)
    r = nuri(
        *args_for(
            "pipo-64/128",
            template,
            pairs,
            None,
            "--engine",
            engine,
            "--skip",
            str(max(0, idx - 3_000_000)),
            "--limit",
            "4000000",
        )
    )
    assert r.returncode == 0 and r.stdout.split() == [key], r.stderr
    assert "warning" not in r.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_pipo256_and_mask_bits(engine):
    # 20 unknown bits that are not whole nibbles, in K1 and K3
    bits = [3, 7, 11, 12, 19, 25, 31, 33, 40, 47, 63] + [130, 134, 141, 150, 152, 160, 170, 177, 190]
    template, mask, pairs, key, idx = plant("pipo-64/256", mask_bits=bits)
    lo = max(0, idx - 30000) if engine == "ref" else 0
    r = nuri(
        *args_for(
            "pipo-64/256",
            template,
            pairs,
            mask,
            "--engine",
            engine,
            "--skip",
            str(lo),
            "--limit",
            "60000" if engine == "ref" else str(1 << 20),
        )
    )
    assert r.returncode == 0 and r.stdout.split() == [key], r.stderr


@pytest.mark.parametrize("rounds", [4, 13])
def test_reduced_and_full_rounds(rounds):
    template, mask, pairs, key, idx = plant(nibbles=(1, 4, 8, 13, 21, 26), rounds=rounds, npairs=2)
    for engine in ENGINES:
        lo = max(0, idx - 5000) if engine == "ref" else 0
        r = nuri(
            *args_for(
                "pipo-64/128",
                template,
                pairs,
                None,
                "--rounds",
                str(rounds),
                "--engine",
                engine,
                "--skip",
                str(lo),
                "--limit",
                "10000" if engine == "ref" else str(1 << 24),
            )
        )
        assert r.returncode == 0 and r.stdout.split() == [key], (engine, r.stderr)
    if rounds == 4:  # the same pairs do not fit the full cipher
        r = nuri(*args_for("pipo-64/128", template, pairs, None, "--skip", str(max(0, idx - 5000)), "--limit", "10000"))
        assert r.returncode == 1


def test_official_vector_status_json_and_keyspace():
    r = nuri(*args_for("pipo-64/128", "9722152EAD201D7ED2289477DD16????", [OFFICIAL_PAIR], None, "--status-json"))
    assert r.returncode == 0 and r.stdout.split() == [OFFICIAL_KEY]
    lines = [json.loads(line) for line in r.stderr.splitlines() if line.startswith("{")]
    assert lines and lines[-1]["status"] == "finished" and lines[-1]["progress"] == [65536, 65536]
    assert lines[-1]["found"] == 1 and set(lines[-1]) >= {"keys_per_s", "eta_s", "total_keys_per_s"}
    r = nuri("--keyspace", "--cipher", "pipo-64/128", "--key-template", "9722152EAD201D7ED2289477DD1?????")
    assert r.returncode == 0 and r.stdout.strip() == str(1 << 20)
    r = nuri("--keyspace", "--cipher", "pipo-64/256", "--key-template", "0" * 62 + "00", "--mask", "0" * 48 + "F" * 16)
    assert r.stdout.strip() == str(1 << 64)


def test_no_key_in_range_and_false_key_warning():
    r = nuri(
        *args_for(
            "pipo-64/128",
            "9722152EAD20????????????????C46D",
            ["2600271EF6528509:0000000000000000"],
            None,
            "--limit",
            "100000",
        )
    )
    assert r.returncode == 1 and r.stdout == ""
    assert "warning" in r.stderr and "false keys" in r.stderr  # 64 unknown bits, one pair: ~1 false key


def test_auto_says_no_gpu_and_cuda_is_a_usage_error(tmp_path):
    # no driver library (on a machine with a GPU the default libcuda.so.1 would load; the GPU paths are
    # tested with a fake driver in test_keysearch_gpu.py)
    nogpu = {"NURI_CUDA_DRIVER": str(tmp_path / "libcuda.so.1")}
    r = nuri(*args_for("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR]), env=nogpu)
    assert r.returncode == 0 and "no NVIDIA GPU found" in r.stderr and "; running on the CPU" in r.stderr
    r = nuri(
        *args_for("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR], None, "--engine", "cuda"),
        env=nogpu,
    )
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


BAD = [
    ["--cipher", "pipo-64/64", "--key-template", "?" * 32, "--pair", OFFICIAL_PAIR],
    ["--cipher", "pipo-64/128", "--key-template", "?" * 31, "--pair", OFFICIAL_PAIR],
    ["--cipher", "pipo-64/128", "--key-template", "G" + "?" * 31, "--pair", OFFICIAL_PAIR],
    ["--cipher", "pipo-64/128", "--key-template", OFFICIAL_KEY, "--pair", OFFICIAL_PAIR],  # no unknown bit
    ["--cipher", "pipo-64/128", "--key-template", "?" * 17 + "0" * 15, "--pair", OFFICIAL_PAIR],  # 2^68
    [
        "--cipher",
        "pipo-64/128",
        "--key-template",
        "9722152EAD201D7ED2289477DD16C4??",
        "--pair",
        "2600271EF652850:27035DAD81296B6B",
    ],
    ["--cipher", "pipo-64/128", "--key-template", "9722152EAD201D7ED2289477DD16C4??", "--pair", "2600271EF6528509"],
    ["--cipher", "pipo-64/128", "--key-template", "9722152EAD201D7ED2289477DD16C4??"],  # no pair
    [
        "--cipher",
        "pipo-64/128",
        "--key-template",
        "9722152EAD201D7ED2289477DD16C4??",
        "--pair",
        OFFICIAL_PAIR,
        "--engine",
        "gpu9",
    ],
    *(
        []
        if "avx512" in ENGINES
        # an engine this CPU cannot run
        else [
            [
                "--cipher",
                "pipo-64/128",
                "--key-template",
                "9722152EAD201D7ED2289477DD16C4??",
                "--pair",
                OFFICIAL_PAIR,
                "--engine",
                "avx512",
            ]
        ]
    ),
    [
        "--cipher",
        "pipo-64/128",
        "--key-template",
        "9722152EAD201D7ED2289477DD16C4??",
        "--pair",
        OFFICIAL_PAIR,
        "--skip",
        "256",
    ],
    [
        "--cipher",
        "pipo-64/128",
        "--key-template",
        "9722152EAD201D7ED2289477DD16C4??",
        "--pair",
        OFFICIAL_PAIR,
        "--skip",
        "x",
    ],
    [
        "--cipher",
        "pipo-64/128",
        "--key-template",
        "9722152EAD201D7ED2289477DD16C4??",
        "--pair",
        OFFICIAL_PAIR,
        "--limit",
        "0",
    ],
    [
        "--cipher",
        "pipo-64/128",
        "--key-template",
        "9722152EAD201D7ED2289477DD16C4??",
        "--pair",
        OFFICIAL_PAIR,
        "--rounds",
        "14",
    ],
    [
        "--cipher",
        "pipo-64/128",
        "--key-template",
        "9722152EAD201D7ED2289477DD16C4??",
        "--pair",
        OFFICIAL_PAIR,
        "--mask",
        "00",
    ],
    [
        "--cipher",
        "pipo-64/128",
        "--key-template",
        "9722152EAD201D7ED2289477DD16C4??",
        "--pair",
        OFFICIAL_PAIR,
        "--threads",
        "0",
    ],
    [
        "--cipher",
        "pipo-64/128",
        "--key-template",
        "9722152EAD201D7ED2289477DD16C4??",
        "--pair",
        OFFICIAL_PAIR,
        "--bogus",
    ],
    ["--restore", "no-such-session"],
]


@pytest.mark.parametrize("argv", BAD, ids=range(len(BAD)))
def test_bad_input_exit_2_one_line(argv, tmp_path):
    r = nuri(*argv, env={"NURI_SESSION_DIR": str(tmp_path)})
    assert r.returncode == 2, r.stderr
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_sigint_then_restore_finds_key_past_the_stop_point(tmp_path):
    # 28 unknown bits: ref (about 1e7 keys/s per thread) needs many seconds, so SIGINT lands mid-search
    template, mask, pairs, key, idx = plant(nibbles=(2, 6, 10, 15, 19, 24, 28))
    lo = max(0, idx - (1 << 27))
    a = args_for(
        "pipo-64/128",
        template,
        pairs,
        None,
        "--engine",
        "ref",
        "--threads",
        "1",
        "--skip",
        str(lo),
        "--limit",
        str(idx - lo + 100),
        "--session",
        "job1",
        "--status-json",
    )
    env = dict(os.environ, NURI_SESSION_DIR=str(tmp_path))
    p = subprocess.Popen(
        [sys.executable, "-m", "nuri", "keysearch", *a],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    # wait for the first status line (the search is running), then interrupt
    line = p.stderr.readline()
    while line and not line.startswith("{"):
        line = p.stderr.readline()
    assert json.loads(line)["status"] == "running"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 4, err
    assert out == ""
    saved = json.loads((tmp_path / "job1.restore").read_text())
    assert lo < saved["next_index"] < idx and saved["found"] == []
    # a new search may not take over the session's file
    r = nuri(
        *args_for("pipo-64/128", template, pairs, None, "--session", "job1"), env={"NURI_SESSION_DIR": str(tmp_path)}
    )
    assert r.returncode == 2 and "exists" in r.stderr
    # options that define the search cannot change on --restore
    r = nuri("--restore", "job1", "--skip", "5", env={"NURI_SESSION_DIR": str(tmp_path)})
    assert r.returncode == 2
    r = nuri("--restore", "job1", "--engine", ENGINES[0], env={"NURI_SESSION_DIR": str(tmp_path)})
    assert r.returncode == 0 and r.stdout.split() == [key], r.stderr
    assert not (tmp_path / "job1.restore").exists()  # finished: the restore file is removed


def test_interrupt_without_session_writes_a_named_restore_file(tmp_path):
    template, mask, pairs, key, idx = plant(nibbles=(2, 6, 10, 15, 19, 24, 28))
    a = args_for("pipo-64/128", template, pairs, None, "--engine", "ref", "--threads", "1", "--status-json")
    p = subprocess.Popen(
        [sys.executable, "-m", "nuri", "keysearch", *a],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, NURI_SESSION_DIR=str(tmp_path)),
    )
    line = p.stderr.readline()
    while line and not line.startswith("{"):
        line = p.stderr.readline()
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 4
    files = list(tmp_path.glob("keysearch-*.restore"))
    assert len(files) == 1 and f"--restore {files[0].stem}" in err


def test_engines_agree_on_random_templates():
    for trial in range(12):
        cipher = "pipo-64/256" if trial % 3 == 2 else "pipo-64/128"
        n = 2 * ks.CIPHERS[cipher]
        nib = RNG.sample(range(n), 5)
        rounds = RNG.choice([None, 1, 2, 5])
        template, mask, pairs, key, idx = plant(cipher, nibbles=nib, rounds=rounds)
        if trial % 2:
            pairs = [pairs[0][:17] + "%016X" % RNG.getrandbits(64)]  # usually no key
        prob = ks.Problem(cipher, template, pairs, None, rounds)
        s = RNG.randrange(prob.keyspace - 1)
        c = RNG.randrange(1, prob.keyspace - s + 1)
        c = min(c, 1 << 16)
        results = {e: prob.search(s, c, impl=e) for e in ENGINES}
        assert len({json.dumps(v) for v in results.values()}) == 1, (trial, results)
        if not trial % 2 and s <= idx < s + c:
            assert idx in results[ENGINES[0]][0]


def test_selftest_failure_exits_3(monkeypatch, capsys):
    from nuri.cli.main import main

    monkeypatch.setattr(ks, "selftest", lambda *, impl=None: False)
    rc = main(
        [
            "keysearch",
            "--cipher",
            "pipo-64/128",
            "--key-template",
            "9722152EAD201D7ED2289477DD16C4??",
            "--pair",
            OFFICIAL_PAIR,
            "--engine",
            ENGINES[-1],
        ]
    )
    assert rc == 3 and "self-test FAILED" in capsys.readouterr().err


def test_every_engine_passes_its_selftest():
    assert ENGINES[-1] == "ref" and "portable" in ENGINES
    for e in ENGINES:
        assert ks.selftest(impl=e)


def test_benchmark_records():
    r = subprocess.run(
        [sys.executable, "-m", "nuri", "bench", "keysearch", "--json", "--quick", "--no-peers"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    assert sorted(x["impl"] for x in recs) == sorted(ENGINES)
    assert all(x["family"] == "keysearch" and x["metric"] == "keys_per_s" and x["median"] > 0 for x in recs)


def test_two_worker_local_cluster_finds_a_planted_key():
    pytest.importorskip(
        "distributed",
        reason="the cluster extra (dask, distributed) is installed by scripts/deps/keysearch.pip in make check",
    )
    template, mask, pairs, key, idx = plant(nibbles=(1, 5, 9, 12, 18, 23, 29), npairs=2)  # 28 bits
    r = nuri(
        *args_for(
            "pipo-64/128",
            template,
            pairs,
            None,
            "--cluster",
            "local:2",
            "--status-json",
            "--skip",
            str(max(0, idx - (1 << 24))),
            "--limit",
            str(1 << 25),
        ),
        env={"NURI_KEYSEARCH_SLICE_S": "0.3"},
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [key]
    status = [json.loads(line) for line in r.stderr.splitlines() if line.startswith("{")]
    last = status[-1]
    assert last["status"] == "finished" and last["progress"][0] == last["progress"][1] == 1 << 25
    # which workers took slices depends on timing: the first worker to finish its self-test and
    # benchmark may search the whole 2^25 range before the second one is ready
    assert 1 <= len({w for s in status for w in s["keys_per_s"]}) <= 2, status


def test_two_worker_local_ray_cluster_finds_a_planted_key():
    pytest.importorskip("ray", reason="the ray extra is installed by scripts/deps/keysearch.pip in make check")
    template, mask, pairs, key, idx = plant(nibbles=(0, 4, 9, 13, 18, 22, 27), npairs=2)  # 28 bits
    r = nuri(
        *args_for(
            "pipo-64/128",
            template,
            pairs,
            None,
            "--cluster",
            "ray:local:2",
            "--status-json",
            "--skip",
            str(max(0, idx - (1 << 24))),
            "--limit",
            str(1 << 25),
        ),
        env={"NURI_KEYSEARCH_SLICE_S": "0.3"},
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [key]
    status = [json.loads(line) for line in r.stderr.splitlines() if line.startswith("{")]
    last = status[-1]
    assert last["status"] == "finished" and last["progress"][0] == last["progress"][1] == 1 << 25
    workers = {w.split("@")[-1] for s in status for w in s["keys_per_s"]}
    assert workers and workers <= {"ray-0", "ray-1"}, status


@pytest.mark.parametrize("spec,extra", [("local:2", "distributed"), ("ray:local:2", "ray")])
def test_slice_of_a_crashed_worker_is_searched_again(tmp_path, spec, extra):
    """The first slice's worker process dies (fault injection): the slice is searched again (Ray: by
    the other worker; Dask: rescheduled by its scheduler) and the key in it is still found. The
    slices are the default size (120 s of a worker's speed), so each takes longer than the
    coordinator's 0.5 s wait."""
    pytest.importorskip(extra, reason="the cluster extras are installed by scripts/deps/keysearch.pip in make check")
    template, mask, pairs, key, idx = plant(nibbles=(1, 5, 10, 14, 19, 23), npairs=2)  # 24 bits
    crash = tmp_path / "crashed"
    r = nuri(
        *args_for(
            "pipo-64/128",
            template,
            pairs,
            None,
            "--cluster",
            spec,
            "--status-json",
            "--skip",
            str(idx),
            "--limit",
            str(1 << 22),
        ),  # the key is the first slice's first candidate
        env={"NURI_KEYSEARCH_TEST_CRASH_ONCE": str(crash)},
        timeout=300,
    )
    assert crash.exists()  # a worker did die
    assert r.returncode == 0 and r.stdout.split() == [key], (r.stdout, r.stderr)
    status = [json.loads(line) for line in r.stderr.splitlines() if line.startswith("{")]
    total = min(1 << 22, (1 << 24) - idx)  # the slice ends at the keyspace's end if that comes first
    assert status[-1]["status"] == "finished" and status[-1]["progress"] == [total, total]
    if extra == "ray":  # the dead actor is not replaced: only the surviving worker reported
        assert len({w for s in status for w in s["keys_per_s"]}) == 1


def test_cluster_spec_errors():
    for spec in ("local:0", "ray:local:0", "ray://nohostport", "mpi"):
        r = nuri(*args_for("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR], None, "--cluster", spec))
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_avx512_engine_registered_with_its_cpu_needs():
    import platform

    import nuri

    names = [e["name"] for e in ks.engines()]
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("the avx512 engine is built on x86-64 only")
    avx512 = next(e for e in ks.engines() if e["name"] == "avx512")
    has = {"avx512f", "avx512bw"} <= set(nuri.cpu_features())
    assert avx512["supported"] == has and avx512["lanes"] == 128
    assert names.index("avx512") < names.index("avx2")  # fastest first
    assert (ks.default_implementation() == "avx512") == has
    # without AVX-512F (NURI_CPU_MASK clears bit 6), auto never picks it
    code = "from nuri import keysearch as ks; print(ks.default_implementation(), ks.implementations())"
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=dict(os.environ, NURI_CPU_MASK="40"),
        timeout=60,
    )
    assert r.returncode == 0 and not r.stdout.startswith("avx512") and "'avx512'" not in r.stdout, r.stdout + r.stderr


def _restore_file(tmp_path, name="r1", **change):
    """A restore file as an interrupted search writes it (official vector, last 2 digits unknown),
    with the fields in `change` replaced."""
    prob = ks.Problem("pipo-64/128", OFFICIAL_KEY[:-2] + "??", [OFFICIAL_PAIR])
    d = {
        "search": prob.describe(),
        "skip": 0,
        "end": prob.keyspace,
        "next_index": 7,
        "found": [],
        "engine": ENGINES[0],
        "format": "nuri-keysearch-restore/1",
        "id": "0123456789abcdef0123456789abcdef",
        "updated": "2026-01-01T00:00:00Z",
    }
    for k, v in change.items():
        if k in ("pairs", "template", "rounds", "cipher"):
            d["search"] = dict(d["search"], **{k: v})
        else:
            d[k] = v
    (tmp_path / f"{name}.restore").write_text(json.dumps(d))
    return name


@pytest.mark.parametrize(
    "change",
    [
        {"found": ["00" * 16]},  # not a key of the pairs
        {"found": ["zz"]},  # not hex
        {"found": "ABC"},  # not a list (printed as three keys before)
        {"found": [OFFICIAL_KEY[:-2]]},  # wrong length
        {"found": [OFFICIAL_KEY, 5]},
        {"found": [OFFICIAL_KEY.lower()[:-2] + "00"]},
        {"next_index": -5},
        {"next_index": 300},  # past end
        {"next_index": "7"},
        {"next_index": True},
        {"end": 1 << 20},  # past the key space
        {"skip": 9},  # after next_index
        {"skip": -1},
        {"pairs": []},
        {"pairs": ["00:11"]},
        {"rounds": 99},
        {"template": 5},
        {"search": None},
        {"found": None},
    ],
    ids=range(19),
)
def test_restore_file_checked_before_use(tmp_path, change):
    """A restore file is checked in full before anything is printed or searched: a malformed or
    inconsistent one (a "found" key that does not map the pairs, bad numbers, no pairs) is one line
    on stderr, exit 2, nothing on stdout."""
    name = _restore_file(tmp_path, **change)
    r = nuri("--restore", name, env={"NURI_SESSION_DIR": str(tmp_path)})
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr


def test_restore_with_a_verified_found_key(tmp_path):
    """A found key that maps the pairs is printed once (not again when the search meets it)."""
    name = _restore_file(tmp_path, found=[OFFICIAL_KEY], next_index=0)
    r = nuri("--restore", name, env={"NURI_SESSION_DIR": str(tmp_path)})
    assert r.returncode == 0 and r.stdout.split() == [OFFICIAL_KEY], r.stderr


def test_sigint_as_the_search_completes_returns_the_result(tmp_path, monkeypatch):
    """A SIGINT that arrives once the whole range is searched does not turn the result into
    'interrupted' (exit 4): the search is over, so its result (0 found / 1 exhausted) stands and no
    restore file is left."""
    import io

    from nuri.keysearch import driver

    monkeypatch.setenv("NURI_SESSION_DIR", str(tmp_path))
    prob = ks.Problem("pipo-64/128", OFFICIAL_KEY[:-2] + "??", [OFFICIAL_PAIR])

    def runner(ranges, hits, progress, stop, errors):
        def work():
            while (c := ranges.take(64)) is not None:
                driver.search_chunk(prob, "ref", c[0], c[1], hits)
                ranges.finish(c[0])
                progress.add("ref", c[1], 0.001)
            os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C, just as the last chunk finished
            time.sleep(0.3)

        t = threading.Thread(target=work)
        t.start()
        return [t]

    for template, want in ((OFFICIAL_KEY[:-2] + "??", 0), ("00" * 15 + "??", 1)):
        prob = ks.Problem("pipo-64/128", template, [OFFICIAL_PAIR])
        out = io.StringIO()
        s = driver.Search(prob, 0, prob.keyspace, "ref", 1, out=out, err=io.StringIO())
        assert s.run(runner) == want
        assert out.getvalue().split() == ([OFFICIAL_KEY] if want == 0 else [])
        assert not list(tmp_path.glob("*.restore"))
