"""The CUDA engine's launcher (nuri.keysearch.gpu) without a GPU: a fake driver library
(tests/keysearch/fake_cuda.c, compiled here) implements the cu* entry points the launcher uses and runs
the kernel's host twin (gpu/ks_bitplane.cuh) for every thread of each launch. Covered: planted keys
(PIPO-64/128 and 64/256), --engine auto choosing the GPU, slicing into launches (every batch of the
slice exactly once, none outside), keys at the first and last candidate of a slice, a hit buffer
that overflows (launch split), every candidate equivalent (CPU path), two devices, interrupt and
restore, the self-test (exit 3), and the error paths: no driver, no device, a failing launch (exit 2,
one line). No real GPU ran any of this."""

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
            "-I",
            os.path.join(ROOT, "gpu"),
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


@pytest.mark.parametrize(
    "cipher,nibbles",
    [
        ("pipo-64/128", (3, 9, 14, 17, 22, 30)),  # 24 bits, K0 and K1
        ("pipo-64/256", (5, 20, 33, 47, 50, 63)),
    ],
)  # 24 bits, K0..K3
def test_planted_24_bit_key(fake, cipher, nibbles):
    template, pairs, key, idx = plant(cipher, lambda h: hide(h, nibbles), npairs=2)
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
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [key]
    assert "engine cuda on 1 GPU(s): fake CUDA device 0 (host twin)" in r.stderr
    last = json.loads(r.stderr.splitlines()[-1])
    assert last["status"] == "finished" and list(last["keys_per_s"]) == ["cuda:0"]


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
        k == "nuri_ks_kernel_128" and 1 <= nb <= 7 and b == 64 and g == (nb + 63) // 64 and mh == 1024
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
    # 32 unknown bits; the key sits 2^28 candidates into the window. The fake driver runs the host twin at
    # some 1e7-1e8 keys/s and the first status line can come 2e7 keys in, so a 2^24 lead let an idle
    # machine pass the key before the SIGINT landed: 2^28 gives seconds of margin.
    template, pairs, key, idx = plant("pipo-64/128", lambda h: hide(h, (2, 6, 10, 15, 19, 24, 28, 31)), seed=7)
    assert idx >= 1 << 28  # seed 7: 1,094,532,478
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
        str(idx - (1 << 28)),
        "--limit",
        str((1 << 28) + (1 << 20)),
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
    assert recs["cuda"]["metric"] == "keys_per_s" and recs["cuda"]["median"] > 0
    assert recs["cuda"]["platform"] == "cuda: fake CUDA device 0 (host twin)"


def test_gpu_params_api():
    from nuri._native import ffi, lib

    prob = ks.Problem("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [OFFICIAL_PAIR])
    out = ffi.new("uint8_t[]", lib.NURI_KEYSEARCH_GPU_PARAMS_BYTES)
    eq = ffi.new("int *")
    assert lib.nuri_keysearch_gpu_params(prob._p, out, len(out) - 1, eq) == lib.NURI_EBUFFER
    assert lib.nuri_keysearch_gpu_params(prob._p, out, len(out), eq) == 0 and eq[0] == 0
    # first = 0 (no shared first round), last = 13 (K1 is used in the last round)
    assert bytes(out[0:8]) == (0).to_bytes(4, "little") + (13).to_bytes(4, "little")
