"""nuri's AArch64 ML-KEM code against pyca/cryptography's ML-KEM (OpenSSL's): the AArch64 build of
tests/mlkem/interop_mlkem.c runs under qemu-aarch64 (NURI_AARCH64_INTEROP names it; make
check-mlkem-neon-pyca builds it) for every implementation of that build, neon on QEMU's default CPU
model (SHA-3 extension) and on a Cortex-A72 model (plain NEON). For seeds and messages of this run:
the same seed gives the same ek on both sides, pyca's ciphertexts decapsulate in nuri, nuri's in
pyca, and an altered ciphertext gives both sides the same implicit-rejection key."""

import os
import shutil
import subprocess

import pytest

PM = pytest.importorskip(
    "cryptography.hazmat.primitives.asymmetric.mlkem",
    reason="pyca/cryptography >= 50 (scripts/deps/seal.pip) is not installed",
)
BIN = os.environ.get("NURI_AARCH64_INTEROP")
if not BIN:
    pytest.skip("NURI_AARCH64_INTEROP is not set (make check-mlkem-neon-pyca sets it)", allow_module_level=True)
if not shutil.which("qemu-aarch64"):
    pytest.fail("qemu-aarch64 is not installed (make bootstrap-cross)")

PYCA = {768: PM.MLKEM768PrivateKey, 1024: PM.MLKEM1024PrivateKey}
# (implementation, QEMU CPU model): every implementation of the AArch64 build, neon on both paths
CASES = [("neon", "max"), ("neon", "cortex-a72"), ("opt", "max"), ("ref", "max")]


def run(cpu, lines):
    """Answers of the AArch64 program to the request lines, in order."""
    p = subprocess.run(
        ["qemu-aarch64", "-cpu", cpu, BIN],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    out = p.stdout.splitlines()
    assert len(out) == len(lines) and not any(o.startswith("error") for o in out), out
    return out


@pytest.mark.parametrize("level", sorted(PYCA))
@pytest.mark.parametrize(("impl", "cpu"), CASES)
def test_pyca_interop_aarch64(impl, cpu, level):
    seeds = [os.urandom(64) for _ in range(4)]
    theirs = [PYCA[level].from_seed_bytes(s) for s in seeds]
    eks = [t.public_key().public_bytes_raw() for t in theirs]
    keys = [a.split() for a in run(cpu, [f"keygen {impl} {level} {s.hex()}" for s in seeds])]
    assert [bytes.fromhex(ek) for ek, _ in keys] == eks  # same seed, same ek
    dks = [dk for _, dk in keys]

    enc = [t.public_key().encapsulate() for t in theirs]  # pyca encapsulates, nuri decapsulates
    ms = [os.urandom(32) for _ in seeds]
    ours = [a.split() for a in run(cpu, [f"encaps {impl} {level} {ek.hex()} {m.hex()}" for ek, m in zip(eks, ms)])]
    bad = []
    for ct, _ in ours:
        b = bytearray.fromhex(ct)
        b[len(b) // 3] ^= 0x10
        bad.append(bytes(b))
    got = run(
        cpu,
        [f"decaps {impl} {level} {dk} {ct.hex()}" for dk, (_, ct) in zip(dks, enc)]
        + [f"decaps {impl} {level} {dk} {b.hex()}" for dk, b in zip(dks, bad)],
    )
    assert [bytes.fromhex(s) for s in got[: len(seeds)]] == [ss for ss, _ in enc]
    # nuri encapsulates, pyca decapsulates; altered ciphertexts: the same rejection key on both sides
    assert [t.decapsulate(bytes.fromhex(ct)) for t, (ct, _) in zip(theirs, ours)] == [
        bytes.fromhex(ss) for _, ss in ours
    ]
    rej = [bytes.fromhex(s) for s in got[len(seeds) :]]
    assert rej == [t.decapsulate(b) for t, b in zip(theirs, bad)]
    assert all(r != bytes.fromhex(ss) for r, (_, ss) in zip(rej, ours))
