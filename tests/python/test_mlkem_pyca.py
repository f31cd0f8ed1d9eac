"""nuri.mlkem against pyca/cryptography's ML-KEM (OpenSSL's implementation), for every
implementation this CPU runs, each selected the way a user does: NURI_IMPL=mlkem:<name> (the
C dispatch reads it on every call). Keys from the same seed must be equal, a ciphertext of one
side must decapsulate on the other, and an altered ciphertext must give both sides the same
implicit-rejection key. The implementations this CPU cannot run are listed as skipped."""

import os

import pytest

mlkem = pytest.importorskip("nuri.mlkem")
if os.environ.get("CI"):  # scripts/deps/seal.pip installs pyca/cryptography >= 50: never skip in CI
    import cryptography.hazmat.primitives.asymmetric.mlkem  # noqa: F401
PM = pytest.importorskip(
    "cryptography.hazmat.primitives.asymmetric.mlkem",
    reason="pyca/cryptography >= 50 (scripts/deps/seal.pip) is not installed",
)

PYCA = {768: PM.MLKEM768PrivateKey, 1024: PM.MLKEM1024PrivateKey}
PYCA_PUBLIC = {768: PM.MLKEM768PublicKey, 1024: PM.MLKEM1024PublicKey}
NURI = {768: mlkem.MLKEM768PrivateKey, 1024: mlkem.MLKEM1024PrivateKey}


def _registered():
    """Every implementation the library lists, including those this CPU cannot run."""
    from nuri._native import ffi, lib

    return [ffi.string(lib.nuri_mlkem_impl_info(i).name).decode() for i in range(lib.nuri_mlkem_impl_count())]


@pytest.mark.parametrize("impl", _registered())
@pytest.mark.parametrize("level", sorted(PYCA))
def test_pyca_interop(monkeypatch, impl, level):
    if impl not in mlkem.implementations():
        pytest.skip(f"{impl}: this CPU lacks its instruction set")
    monkeypatch.setenv("NURI_IMPL", f"mlkem:{impl}")
    assert mlkem.default_implementation() == impl
    for _ in range(4):
        seed = os.urandom(64)
        ours, theirs = NURI[level].from_seed_bytes(seed), PYCA[level].from_seed_bytes(seed)
        ek = theirs.public_key().public_bytes_raw()
        assert ours.public_key().public_bytes_raw() == ek
        ss, ct = theirs.public_key().encapsulate()  # pyca encapsulates, nuri decapsulates
        assert ours.decapsulate(ct) == ss
        ss2, ct2 = ours.public_key().encapsulate()  # and the other way
        assert theirs.decapsulate(ct2) == ss2
        bad = bytearray(ct2)
        bad[len(bad) // 3] ^= 0x10
        assert ours.decapsulate(bytes(bad)) == theirs.decapsulate(bytes(bad)) != ss2
        # the key loaded into pyca from nuri's public bytes encapsulates to nuri's private key
        ss3, ct3 = PYCA_PUBLIC[level].from_public_bytes(ours.public_key().public_bytes_raw()).encapsulate()
        assert ours.decapsulate(ct3) == ss3
