"""The CUDA engine (nuri.keysearch.gpu and the kernels of nuri.keysearch.ptx) without a GPU: a fake
driver library (tests/keysearch/fake_cuda.c, compiled here) implements the cu* entry points the
launcher uses; it loads the shipped fatbin's PTX or the PTX specialised for a search and runs it on
the host, thread by thread (tests/keysearch/ptx_run.h), so the kernels a GPU would be given are the
ones tested. Covered: planted keys (PIPO-64/128 and 64/256) with the specialised and the generic
kernel, the two kernels against the CPU engine on random templates and round counts, --engine auto
choosing the GPU, slicing into launches (every batch of the slice exactly once, none outside) and the
grid sized by the SM count, keys at the first and last candidate of a slice, a hit buffer that
overflows (launch split), every candidate equivalent (CPU path), two devices, interrupt and restore,
the self-test (exit 3), the error paths (no driver, no device, a failing launch, a driver too old for
the kernel: exit 2, one line naming the driver's CUDA version), the shipped fatbin's contents, and
the benchmark record. No real GPU ran any of this."""

import json
import os
import shutil
import signal
import subprocess
import sys

import pytest

from nuri import keysearch as ks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OFFICIAL_PAIR = "2600271EF6528509:27035DAD81296B6B"


@pytest.fixture(scope="module")
def fake(tmp_path_factory):
    out = tmp_path_factory.mktemp("fakecuda") / "libcuda_fake.so"
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    assert cc, "a C compiler is needed to build the fake CUDA driver (it builds nuri too)"
    subprocess.run(
        [
            cc,
            "-shared",
            "-fPIC",
            "-O2",
            "-Wall",
            "-Werror",
            "-o",
            str(out),
            os.path.join(ROOT, "tests", "keysearch", "fake_cuda.c"),
        ],
        check=True,
    )
    return str(out)


def nuri(*args, driver=None, env=None, timeout=300, cwd=None):
    e = dict(os.environ)
    e.pop("NURI_IMPL", None)
    if driver:
        e["NURI_CUDA_DRIVER"] = driver
    e.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "nuri", "keysearch", *args],
        capture_output=True,
        text=True,
        env=e,
        timeout=timeout,
        cwd=cwd,
    )


def plant(cipher, template_fn, rounds=None, npairs=1, seed=1):
    """A key (deterministic), the template made by template_fn(hex), its pairs and its index."""
    import random

    rng = random.Random(seed)
    key = bytes(rng.randrange(256) for _ in range(ks.CIPHERS[cipher]))
    pairs = []
    for _ in range(npairs):
        pt = bytes(rng.randrange(256) for _ in range(8))
        pairs.append(f"{pt.hex().upper()}:{ks.encrypt(key, pt, rounds).hex().upper()}")
    template = template_fn(key.hex().upper())
    prob = ks.Problem(cipher, template, pairs, rounds=rounds)
    return template, pairs, key.hex().upper(), prob.index_of(key)


def hide(h, nibbles):
    h = list(h)
    for i in nibbles:
        h[i] = "?"
    return "".join(h)


def args(cipher, template, pairs, *more):
    a = ["--cipher", cipher, "--key-template", template]
    for p in pairs:
        a += ["--pair", p]
    return a + list(more)


def launches(log):
    with open(log) as f:
        return [(k, int(fb), int(nb), int(g), int(b), int(mh)) for k, fb, nb, g, b, mh in (ln.split() for ln in f)]


def errors(stderr):
    return [ln for ln in stderr.splitlines() if ln.startswith("nuri keysearch:")]


@pytest.mark.parametrize("kernel", ["specialised", "generic"])
@pytest.mark.parametrize(
    "cipher,nibbles",
    [
        ("pipo-64/128", (3, 9, 14, 17, 22, 30)),  # 24 bits, K0 and K1
        ("pipo-64/256", (5, 20, 33, 47, 50, 63)),
    ],
)  # 24 bits, K0..K3
def test_planted_24_bit_key(fake, cipher, nibbles, kernel, tmp_path):
    template, pairs, key, idx = plant(cipher, lambda h: hide(h, nibbles), npairs=2)
    log = tmp_path / "launches"
    r = nuri(
        *args(
            cipher,
            template,
            pairs,
            "--engine",
            "cuda",
            "--skip",
            str(max(0, idx - (1 << 19))),
            "--limit",
            str(1 << 20),
            "--status-json",
        ),
        driver=fake,
        env={"NURI_KEYSEARCH_CUDA_KERNEL": kernel, "FAKE_CUDA_LOG": str(log), "FAKE_CUDA_SMS": "3"},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [key]
    assert "engine cuda on 1 GPU(s): fake CUDA device 0 (PTX on the host)" in r.stderr
    last = json.loads(r.stderr.splitlines()[-1])
    assert last["status"] == "finished" and list(last["keys_per_s"]) == ["cuda:0"]
    bits = "128" if cipher == "pipo-64/128" else "256"
    block = 128 if kernel == "specialised" else {"128": 64, "256": 32}[bits]
    search = launches(log)[12:]  # after the self-test's
    assert search and all(k == f"nuri_ks_search_{bits}" and b == block for k, _, _, _, b, _ in search)
    # the grid: enough blocks to fill 3 SMs (2048 threads each), more only past 8 batches per thread
    full = 3 * (2048 // block)
    for _, _, nb, g, b, _ in search:
        need = (nb + b - 1) // b
        assert g == min(need, max(full, (need + 7) // 8)) and g * b * 8 >= nb


def test_auto_uses_the_gpu_when_one_is_present(fake):
    r = nuri(*args("pipo-64/128", "9722152EAD201D7ED2289477DD16????", [OFFICIAL_PAIR]), driver=fake)
    assert r.returncode == 0 and r.stdout.split() == ["9722152EAD201D7ED2289477DD16C46D"], r.stderr
    assert "engine cuda on 1 GPU(s)" in r.stderr and "cuda:0" in r.stderr
    # NURI_IMPL naming a CPU engine keeps auto on the CPU
    r = nuri(
        *args("pipo-64/128", "9722152EAD201D7ED2289477DD16????", [OFFICIAL_PAIR]),
        driver=fake,
        env={"NURI_IMPL": "keysearch:portable"},
    )
    assert r.returncode == 0 and "engine cuda" not in r.stderr and "portable" in r.stderr


def test_slicing_into_launches(fake, tmp_path):
    """An unaligned slice in launches of at most 7 batches: every batch of the slice is launched
    once (chunk boundaries may share one batch), nothing outside it; the key is found."""
    template, pairs, key, idx = plant("pipo-64/128", lambda h: hide(h, (2, 7, 11, 19, 25)), seed=2)  # 20 bits
    skip, limit = idx - 20000 - 13, 50000 + 7
    log = tmp_path / "launches"
    r = nuri(
        *args("pipo-64/128", template, pairs, "--engine", "cuda", "--skip", str(skip), "--limit", str(limit)),
        driver=fake,
        env={"FAKE_CUDA_LOG": str(log), "NURI_KEYSEARCH_CUDA_MAX_BATCHES": "7"},
    )
    assert r.returncode == 0 and r.stdout.split() == [key], r.stderr
    search = [x for x in launches(log)][12:]  # the self-test's 12 launches come first
    assert all(
        k == "nuri_ks_search_128" and 1 <= nb <= 7 and b == 128 and g == 1 and mh == 1024
        for k, fb, nb, g, b, mh in search
    )
    covered = {}
    for _, fb, nb, *_ in search:
        for b in range(fb, fb + nb):
            covered[b] = covered.get(b, 0) + 1
    first_b, last_b = skip >> 5, (skip + limit - 1) >> 5
    assert set(covered) == set(range(first_b, last_b + 1))
    assert sum(covered.values()) - len(covered) <= len(search)  # only chunk-boundary batches twice


@pytest.mark.parametrize("where", ["first", "last"])
def test_key_at_the_first_and_last_candidate_of_a_slice(fake, where):
    template, pairs, key, idx = plant("pipo-64/128", lambda h: hide(h, (1, 6, 12, 20, 27, 31)), seed=3)
    n = 4099  # not a multiple of 32: the slice ends inside a batch
    skip = idx if where == "first" else idx - n + 1
    r = nuri(
        *args("pipo-64/128", template, pairs, "--engine", "cuda", "--skip", str(skip), "--limit", str(n)), driver=fake
    )
    assert r.returncode == 0 and r.stdout.split() == [key], r.stderr
    # the neighbouring slice (the key one candidate outside it) finds nothing: exit 1
    skip = idx + 1 if where == "first" else idx - n
    r = nuri(
        *args("pipo-64/128", template, pairs, "--engine", "cuda", "--skip", str(skip), "--limit", str(n)), driver=fake
    )
    assert r.returncode == 1 and r.stdout == "", r.stderr


def test_hit_buffer_overflow_splits_the_launch(fake, tmp_path):
    """PIPO-64/256 with 2 rounds never uses K3: 4 unknown K2 bits and 6 unknown K3 bits give 64 keys
    that all match (two full batches). With a 32-entry hit buffer the launch overflows and is split;
    every key is reported, as the CPU engine reports them."""
    template, pairs, key, idx = plant("pipo-64/256", lambda h: h[:35] + "?" + h[36:63] + "?", rounds=2, seed=4)
    mask = "0" * 62 + "30"  # two more K3 bits (6 in all)
    a = args("pipo-64/256", template, pairs, "--rounds", "2", "--mask", mask)
    log = tmp_path / "launches"
    r = nuri(*a, "--engine", "cuda", driver=fake, env={"FAKE_CUDA_LOG": str(log), "NURI_KEYSEARCH_CUDA_MAX_HITS": "32"})
    assert r.returncode == 0, r.stderr
    cpu = nuri(*a, "--engine", "portable")
    assert cpu.returncode == 0 and len(cpu.stdout.split()) == 64
    assert sorted(r.stdout.split()) == sorted(cpu.stdout.split()) and key in r.stdout.split()
    search = launches(log)[12:]
    assert any(nb == 1 for _, _, nb, *_ in search) and all(mh == 32 for *_, mh in search)


def test_every_candidate_equivalent_runs_on_the_cpu(fake):
    # 1 round of PIPO-64/256 uses K0 and K1 only: unknown K2 bits give 16 equivalent keys
    template, pairs, key, idx = plant("pipo-64/256", lambda h: h[:40] + "?" + h[41:], rounds=1, seed=5)
    r = nuri(*args("pipo-64/256", template, pairs, "--rounds", "1", "--engine", "cuda"), driver=fake)
    ref = nuri(*args("pipo-64/256", template, pairs, "--rounds", "1", "--engine", "ref"))
    assert r.returncode == 0 and ref.returncode == 0, r.stderr
    assert sorted(r.stdout.split()) == sorted(ref.stdout.split()) and len(r.stdout.split()) == 16


def test_two_devices_share_the_range(fake):
    template, pairs, key, idx = plant("pipo-64/128", lambda h: hide(h, (0, 8, 16, 24, 29)), seed=6)  # 20 bits
    r = nuri(
        *args("pipo-64/128", template, pairs, "--engine", "cuda", "--status-json"),
        driver=fake,
        env={"FAKE_CUDA_DEVICES": "2", "NURI_KEYSEARCH_CUDA_MAX_BATCHES": "64"},
    )
    assert r.returncode == 0 and r.stdout.split() == [key], r.stderr
    assert "engine cuda on 2 GPU(s)" in r.stderr
    status = [json.loads(ln) for ln in r.stderr.splitlines() if ln.startswith("{")]
    assert set(status[-1]["keys_per_s"]) == {"cuda:0", "cuda:1"}


def test_interrupt_and_restore_on_the_gpu(fake, tmp_path):
    # 32 unknown bits; the key sits 2^24 candidates into the window. The fake driver runs the PTX at
    # some 1e6 keys/s and the first status line comes about 1e6 keys in: 2^24 leaves seconds of
    # margin before the SIGINT lands, and the restored search has at most 2^24 + 2^20 to go.
    template, pairs, key, idx = plant("pipo-64/128", lambda h: hide(h, (2, 6, 10, 15, 19, 24, 28, 31)), seed=7)
    assert idx >= 1 << 24  # seed 7: 1,094,532,478
    env = dict(os.environ, NURI_CUDA_DRIVER=fake, NURI_SESSION_DIR=str(tmp_path))
    env.pop("NURI_IMPL", None)
    a = args(
        "pipo-64/128",
        template,
        pairs,
        "--engine",
        "cuda",
        "--session",
        "g",
        "--status-json",
        "--skip",
        str(idx - (1 << 24)),
        "--limit",
        str((1 << 24) + (1 << 20)),
    )
    p = subprocess.Popen(
        [sys.executable, "-m", "nuri", "keysearch", *a],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    for line in p.stderr:  # the first status line: the search is running
        if line.startswith("{"):
            break
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 4, err
    saved = json.load(open(tmp_path / "g.restore"))
    assert saved["engine"] == "cuda" and saved["next_index"] < idx
    r = nuri("--restore", "g", driver=fake, env={"NURI_SESSION_DIR": str(tmp_path)}, timeout=600)
    assert r.returncode == 0 and r.stdout.split() == [key], r.stderr
    assert not (tmp_path / "g.restore").exists()


def test_no_driver_no_device_launch_failure_exit_2_one_line(fake, tmp_path):
    a = args("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR], "--engine", "cuda")
    r = nuri(*a, driver=str(tmp_path / "libcuda.so.1"))  # no such library
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "cannot be loaded" in r.stderr
    r = nuri(*a, driver=fake, env={"FAKE_CUDA_DEVICES": "0"})
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "no device" in r.stderr, r.stderr
    r = nuri(*a, driver=fake, env={"FAKE_CUDA_FAIL_LAUNCH": "1"})  # during the self-test
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED" in r.stderr
    # during the search (after the self-test's 12 launches): no key printed, one error line
    template, pairs, key, idx = plant("pipo-64/128", lambda h: hide(h, (3, 9, 14, 22, 30)), seed=8)
    r = nuri(
        *args("pipo-64/128", template, pairs, "--engine", "cuda"),
        driver=fake,
        env={"FAKE_CUDA_FAIL_LAUNCH": "14", "NURI_KEYSEARCH_CUDA_MAX_BATCHES": "4"},
    )
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert len(errors(r.stderr)) == 1 and "CUDA_ERROR_LAUNCH_FAILED" in errors(r.stderr)[0], r.stderr
    # auto without a driver says so and runs on the CPU
    r = nuri(
        *args("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR]), driver=str(tmp_path / "libcuda.so.1")
    )
    assert r.returncode == 0 and "no NVIDIA GPU found" in r.stderr and "running on the CPU" in r.stderr


def test_a_device_that_misses_hits_fails_its_selftest(fake):
    r = nuri(
        *args("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR], "--engine", "cuda"),
        driver=fake,
        env={"FAKE_CUDA_DROP_HITS": "1"},
    )
    assert r.returncode == 3 and "self-test FAILED" in r.stderr and r.stdout == ""


def test_bench_includes_cuda_when_a_gpu_is_usable(fake):
    e = dict(os.environ, NURI_CUDA_DRIVER=fake)
    r = subprocess.run(
        [sys.executable, "-m", "nuri", "bench", "keysearch", "--json", "--quick", "--no-peers"],
        capture_output=True,
        text=True,
        timeout=300,
        env=e,
    )
    assert r.returncode == 0, r.stderr
    recs = {x["impl"]: x for x in map(json.loads, r.stdout.splitlines())}
    assert set(recs) == set(ks.implementations()) | {"cuda"}
    c = recs["cuda"]
    assert c["metric"] == "keys_per_s" and c["median"] > 0
    assert c["platform"] == "cuda: fake CUDA device 0 (PTX on the host)"
    g = c["gpu"]
    assert g["sms"] == 2 and g["clock_hz"] == 1.5e9 and g["arch"] == "sm_90" and g["kernel"] == "specialised"
    assert g["driver_cuda"] == "12.0" and g["devices"] == 1
    assert g["keys_per_sm_clock"] == pytest.approx(c["median"] / (2 * 1.5e9))
    # the kernel's logic operations (PTX) per key, and the share of the 64-per-SM-per-clock ceiling
    assert 60 < g["logic_ops_per_key"] < 140
    assert g["logic_ceiling_fraction"] == pytest.approx(g["keys_per_sm_clock"] * g["logic_ops_per_key"] / 64)


def test_gpu_params_api():
    from nuri._native import ffi, lib

    prob = ks.Problem("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR])
    out = ffi.new("uint8_t[]", lib.NURI_KEYSEARCH_GPU_PARAMS_BYTES)
    eq = ffi.new("int *")
    assert lib.nuri_keysearch_gpu_params(prob._p, out, len(out) - 1, eq) == lib.NURI_EBUFFER
    assert lib.nuri_keysearch_gpu_params(prob._p, out, len(out), eq) == 0 and eq[0] == 0
    # first = 0 (no shared first round), last = 13 (K1 is used in the last round)
    assert bytes(out[0:8]) == (0).to_bytes(4, "little") + (13).to_bytes(4, "little")


FATBIN = os.path.join(ROOT, "python", "nuri", "keysearch", "ks_kernel.fatbin")


def fatbin_entries(data):
    """[(kind, arch, payload)] of a fatbin container (kind 1 PTX, 2 ELF)."""
    import struct

    magic, _, hs, size = struct.unpack_from("<IHHQ", data, 0)
    assert magic == 0xBA55ED50 and hs + size == len(data)
    out, off = [], hs
    while off < hs + size:
        kind, _, ehs, psize, csize, _, _, _, arch = struct.unpack_from("<HHIQIIHHI", data, off)
        assert csize == 0  # stored uncompressed
        out.append((kind, arch, data[off + ehs : off + ehs + psize]))
        off += ehs + psize
    return out


def normalise(ptx_text):
    """PTX without comments, indentation and blank lines (the fatbin stores it reformatted)."""
    lines = (ln.split("//")[0].strip() for ln in ptx_text.splitlines())
    return [ln for ln in lines if ln]


def test_shipped_fatbin_holds_sass_for_every_gpu_and_old_enough_ptx():
    """What a CUDA 12.0 driver needs: SASS for sm_75/80/86/89/90 (loaded as is) and PTX of ISA <= 8.0
    (JIT-compiled for newer GPUs); the PTX is the current emitter's generic kernel."""
    import re

    from nuri.keysearch import ptx

    entries = fatbin_entries(open(FATBIN, "rb").read())
    elf = {arch for kind, arch, p in entries if kind == 2 and p.startswith(b"\x7fELF")}
    assert {75, 80, 86, 89, 90} <= elf
    ptxs = [p for kind, _, p in entries if kind == 1]
    assert len(ptxs) == 1
    text = ptxs[0].rstrip(b"\0").decode()
    major, minor = map(int, re.search(r"^\.version (\d+)\.(\d+)", text, re.M).groups())
    assert (major, minor) <= (8, 0)
    assert normalise(text) == normalise(ptx.generic_ptx())


def test_shipped_fatbin_is_fresh_and_made_by_cuda_12():
    """scripts/autogen's digest check of the fatbin passes (the emitter, its build script and the toolkit
    pins are those it was made from, and the file is what the build wrote), and the SASS was made by a
    CUDA 12 ptxas (its tool notes say so), which every CUDA 12 driver loads."""
    r = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "scripts", "autogen"),
            "--check",
            "--only",
            "python/nuri/keysearch/ks_kernel.fatbin",
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    data = open(FATBIN, "rb").read()
    assert b"Cuda compilation tools, release 12." in data and b"release 13." not in data


def test_cuobjdump_lists_the_fatbin():
    """With the pinned toolkit (make gpu): cuobjdump --list-elf --list-ptx sees the same entries."""
    import glob

    tools = glob.glob(os.path.join(ROOT, ".venv", "lib", "python3*", "site-packages", "nvidia", "cu13", "bin"))
    if not tools or not os.path.exists(os.path.join(tools[0], "cuobjdump")):
        pytest.skip("cuobjdump is not installed (make gpu installs it)")
    r = subprocess.run(
        [os.path.join(tools[0], "cuobjdump"), "--list-elf", "--list-ptx", FATBIN],
        capture_output=True,
        text=True,
        check=True,
    )
    for arch in ("sm_75", "sm_80", "sm_86", "sm_89", "sm_90"):
        assert f".{arch}.cubin" in r.stdout
    assert r.stdout.count("PTX file") == 1


@pytest.mark.parametrize(
    "version,ptx_max,cc,ok", [(12000, 80, 90, True), (11000, 70, 110, True), (11000, 65, 110, False)]
)
def test_driver_versions(fake, version, ptx_max, cc, ok):
    """A CUDA 12.0 driver (PTX up to 8.0) loads everything; a GPU without SASS in the fatbin needs the
    PTX (ISA 7.0): a CUDA 11.0 driver JITs it, an older one cannot, and the message names the
    driver's CUDA version and what the kernel needs (exit 2, one line)."""
    env = {"FAKE_CUDA_DRIVER_VERSION": str(version), "FAKE_CUDA_PTX_MAX": str(ptx_max), "FAKE_CUDA_CC": str(cc)}
    r = nuri(
        *args("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR], "--engine", "cuda"),
        driver=fake,
        env=env,
    )
    if ok:
        assert r.returncode == 0 and r.stdout.split() == ["9722152EAD201D7ED2289477DD16C46D"], r.stderr
        return
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    msg = r.stderr.strip()
    assert "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" in msg and "the driver is CUDA 11.0" in msg and "sm_110" in msg
    assert "PTX ISA 7.0" in msg and "CUDA 11.0 on" in msg


def test_specialised_kernel_falls_back_to_the_fatbin_sass(fake):
    """A driver that JIT-compiles no PTX (ISA limit below 7.0) but has SASS for the GPU: the search runs
    the generic kernel."""
    from nuri.keysearch import gpu

    drv = gpu.Driver(fake)
    old = os.environ.get("FAKE_CUDA_PTX_MAX")
    os.environ["FAKE_CUDA_PTX_MAX"] = "60"
    try:
        drv.lib.cuInit(0)  # rereads the fake's environment
        dev = gpu.Device(drv, 0)
        prob = ks.Problem("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR])
        assert dev.prepare(prob) and dev.kernel_used == "generic" and "UNSUPPORTED_PTX_VERSION" in dev.fallback
        assert dev.search(0, 256, 1 << 20) == [prob.index_of(bytes.fromhex("9722152EAD201D7ED2289477DD16C46D"))]
        dev.close()
    finally:
        if old is None:
            del os.environ["FAKE_CUDA_PTX_MAX"]
        else:
            os.environ["FAKE_CUDA_PTX_MAX"] = old
        drv.lib.cuInit(0)


def random_case(rng):
    cipher = rng.choice(["pipo-64/128", "pipo-64/256"])
    n = ks.CIPHERS[cipher]
    rounds = rng.choice([1, 2, 3, 4, 5, 7, None])
    key = bytes(rng.randrange(256) for _ in range(n))
    pt = bytes(rng.randrange(256) for _ in range(8))
    pair = f"{pt.hex()}:{ks.encrypt(key, pt, rounds).hex()}"
    mask = bytearray(n)
    for pos in rng.sample(range(8 * n), rng.randrange(6, 13)):
        mask[pos // 8] |= 1 << (pos % 8)
    template = key.hex().upper()
    return ks.Problem(cipher, template, [pair], mask=mask.hex().upper(), rounds=rounds), key


def test_kernels_agree_with_the_cpu_engine_on_random_searches(fake):
    """Both kernels against the portable engine on 40 random searches (key size, rounds, 6-12 unknown
    bits anywhere in the key: lane bits, counter bits, shared rounds, the last round on K0..K3): the
    same pair-1 hits, the planted key among them."""
    import random

    from nuri.keysearch import gpu

    drv = gpu.Driver(fake)
    rng = random.Random(2027)
    devs = {}
    for kernel in ("specialised", "generic"):
        os.environ[gpu.KERNEL_ENV] = kernel
        try:
            devs[kernel] = gpu.Device(drv, 0)
        finally:
            del os.environ[gpu.KERNEL_ENV]
    try:
        for _ in range(40):
            prob, key = random_case(rng)
            want, done = prob.search(0, prob.keyspace, impl="portable", max_hits=1 << 13)
            assert done == prob.keyspace and prob.index_of(key) in want
            for kernel, dev in devs.items():
                if not dev.prepare(prob):  # every candidate equivalent: the CPU's job
                    assert len(want) == prob.keyspace
                    continue
                assert dev.kernel_used == kernel
                assert dev.search(0, prob.keyspace, 1 << 20) == want, (kernel, prob.describe())
    finally:
        for dev in devs.values():
            dev.close()


def test_ray_cluster_of_two_fake_gpus_finds_a_key_across_slices_and_resumes(fake, tmp_path):
    """A local Ray instance with no CPU worker and 2 GPUs: one actor per GPU (num_gpus=1), each running
    the cuda engine on the fake driver. The search is interrupted once slices have been searched,
    then resumed from its restore file; the key is found and both workers report engine cuda."""
    pytest.importorskip("ray", reason="the ray extra is installed by scripts/deps/keysearch.pip in make check")
    template, pairs, key, idx = plant("pipo-64/128", lambda h: hide(h, (2, 7, 12, 18, 23, 28)), seed=9)  # 24 bits
    env = {"NURI_KEYSEARCH_SLICE_S": "0.2", "NURI_SESSION_DIR": str(tmp_path)}
    a = args("pipo-64/128", template, pairs, "--engine", "cuda", "--cluster", "ray:local:0:2", "--status-json")
    e = dict(os.environ, NURI_CUDA_DRIVER=fake, **env)
    e.pop("NURI_IMPL", None)
    skip = max(0, idx - (1 << 23))
    p = subprocess.Popen(
        [sys.executable, "-m", "nuri", "keysearch", *a, "--session", "r", "--skip", str(skip)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=e,
    )
    for line in p.stderr:  # interrupt once some slices are done
        if line.startswith("{") and json.loads(line)["progress"][0] > 0:
            break
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 4 and out == "", err
    saved = json.load(open(tmp_path / "r.restore"))
    assert saved["engine"] == "cuda" and skip < saved["next_index"] <= idx
    r = nuri("--restore", "r", *a[-5:], driver=fake, env=env, timeout=600)  # --engine cuda --cluster ... --status-json
    assert r.returncode == 0 and r.stdout.split() == [key], r.stderr
    status = [json.loads(ln) for ln in r.stderr.splitlines() if ln.startswith("{")]
    assert status[-1]["status"] == "finished" and status[-1]["progress"][0] == status[-1]["progress"][1]
    workers = {w for s in status for w in s["keys_per_s"]}
    assert workers <= {"cuda@ray-gpu-0", "cuda@ray-gpu-1"} and workers, status
    assert not (tmp_path / "r.restore").exists()


def test_dask_workers_with_gpu_resources_run_cuda(fake):
    """local:2:1: two Dask workers, each with one GPU as its resource: both search with the cuda
    engine (auto); without GPUs, --engine cuda on a cluster exits 2 with one line."""
    pytest.importorskip("distributed", reason="the cluster extra is installed by scripts/deps/keysearch.pip")
    template, pairs, key, idx = plant("pipo-64/128", lambda h: hide(h, (1, 6, 11, 17, 22)), seed=10)  # 20 bits
    a = args("pipo-64/128", template, pairs, "--status-json")
    r = nuri(*a, "--cluster", "local:2:1", driver=fake, env={"NURI_KEYSEARCH_SLICE_S": "0.2"}, timeout=300)
    assert r.returncode == 0 and r.stdout.split() == [key], r.stderr
    status = [json.loads(ln) for ln in r.stderr.splitlines() if ln.startswith("{")]
    engines = {w.split("@")[0] for s in status for w in s["keys_per_s"]}
    assert engines == {"cuda"}, status
    r = nuri(*a, "--cluster", "local:1", "--engine", "cuda", driver=fake, timeout=300)
    assert r.returncode == 2 and "no worker of the cluster has a GPU" in r.stderr, r.stderr


@pytest.mark.parametrize("key_len", [16, 32])
def test_ctr_kernel_matches_pipo_ctr(fake, key_len):
    """The fatbin's CTR kernel (the GPU check's throughput figure) against nuri.pipo's CTR: 3 threads
    of 32 blocks, a counter block that is a multiple of 32 with a carry into its upper bytes."""
    import random

    from nuri import pipo
    from nuri.keysearch import gpu

    rng = random.Random(key_len)
    key = bytes(rng.randrange(256) for _ in range(key_len))
    iv = bytes.fromhex("01020304FFFFFFE0")
    data = bytes(rng.randrange(256) for _ in range(3 * 256 - 5))
    dev = gpu.Device(gpu.Driver(fake), 0)
    try:
        ctr = gpu.Ctr(dev, key, len(data))
        assert ctr.encrypt(iv, data) == pipo.encrypt(key, data, "ctr", iv=iv)
        with pytest.raises(ValueError):
            ctr.run(bytes.fromhex("0000000000000001"))
        ctr.close()
    finally:
        dev.close()
