"""nuri kem keygen|encaps|decaps with key files."""

import stat

import pytest

from nuri.cli.main import main

mlkem = pytest.importorskip("nuri.mlkem", reason="nuri.mlkem is not in this build yet")

SIZES = {512: (800, 1632, 768), 768: (1184, 2400, 1088), 1024: (1568, 3168, 1568)}


def nuri(*argv):
    try:
        return main([str(a) for a in argv])
    except SystemExit as e:
        return e.code


@pytest.mark.parametrize("level", [512, 768, 1024])
def test_round_trip(tmp_path, level):
    pk, sk, ct, s1, s2 = (tmp_path / n for n in ("pk", "sk", "ct", "s1", "s2"))
    assert nuri("kem", "keygen", "--level", level, "--public", pk, "--secret", sk) == 0
    assert (pk.stat().st_size, sk.stat().st_size) == SIZES[level][:2]
    assert stat.S_IMODE(sk.stat().st_mode) == 0o600
    assert nuri("kem", "encaps", "--public", pk, "--ciphertext", ct, "--shared", s1) == 0
    assert ct.stat().st_size == SIZES[level][2] and stat.S_IMODE(s1.stat().st_mode) == 0o600
    assert nuri("kem", "decaps", "--secret", sk, "--ciphertext", ct, "--shared", s2) == 0
    assert s1.read_bytes() == s2.read_bytes() and len(s1.read_bytes()) == 32
    assert mlkem.decaps(level, sk.read_bytes(), ct.read_bytes()) == s1.read_bytes()


def test_tampered_ciphertext_implicit_rejection(tmp_path):
    pk, sk, ct, s1, s2 = (tmp_path / n for n in ("pk", "sk", "ct", "s1", "s2"))
    assert nuri("kem", "keygen", "--public", pk, "--secret", sk) == 0
    assert nuri("kem", "encaps", "--public", pk, "--ciphertext", ct, "--shared", s1) == 0
    b = bytearray(ct.read_bytes())
    b[-1] ^= 1
    ct.write_bytes(bytes(b))
    assert nuri("kem", "decaps", "--secret", sk, "--ciphertext", ct, "--shared", s2) == 0
    assert s2.read_bytes() != s1.read_bytes()


def test_bad_inputs(tmp_path, capsys):
    pk, sk, ct, ss = (tmp_path / n for n in ("pk", "sk", "ct", "ss"))
    assert nuri("kem", "keygen", "--level", 768, "--public", pk, "--secret", sk) == 0
    assert nuri("kem", "keygen", "--public", pk, "--secret", tmp_path / "sk2") == 2  # pk exists
    assert nuri("kem", "keygen", "--level", 999, "--public", tmp_path / "a", "--secret", tmp_path / "b") == 2
    (tmp_path / "short").write_bytes(pk.read_bytes()[:-1])
    assert nuri("kem", "encaps", "--public", tmp_path / "short", "--ciphertext", ct, "--shared", ss) == 2
    assert "not an ML-KEM public key" in capsys.readouterr().err
    assert nuri("kem", "encaps", "--level", 512, "--public", pk, "--ciphertext", ct, "--shared", ss) == 2
    assert nuri("kem", "encaps", "--public", tmp_path / "missing", "--ciphertext", ct, "--shared", ss) == 2
    bad = bytearray(pk.read_bytes())
    bad[0:2] = b"\xff\xff"  # coefficient 0xfff >= q: fails the FIPS 203 modulus check
    (tmp_path / "badpk").write_bytes(bytes(bad))
    assert nuri("kem", "encaps", "--public", tmp_path / "badpk", "--ciphertext", ct, "--shared", ss) == 1
    assert not ct.exists() and not ss.exists()
    assert nuri("kem", "encaps", "--public", pk, "--ciphertext", ct, "--shared", ss) == 0
    assert nuri("kem", "decaps", "--secret", pk, "--ciphertext", ct, "--shared", tmp_path / "s2") == 2  # pk as sk
    (tmp_path / "ct512").write_bytes(bytes(768))
    assert nuri("kem", "decaps", "--secret", sk, "--ciphertext", tmp_path / "ct512", "--shared", tmp_path / "s3") == 2
    assert nuri("kem", "decaps", "--secret", sk, "--ciphertext", ct, "--shared", ss) == 2  # ss exists
    assert nuri("kem", "decaps", "--secret", sk, "--ciphertext", ct, "--shared", "-") == 0
    assert len(capsys.readouterr().out.strip()) == 64
    bsk = bytearray(sk.read_bytes())
    bsk[-40] ^= 1  # inside H(ek): fails the FIPS 203 hash check
    (tmp_path / "badsk").write_bytes(bytes(bsk))
    assert nuri("kem", "decaps", "--secret", tmp_path / "badsk", "--ciphertext", ct, "--shared", tmp_path / "s4") == 1


def test_unwritable_output(tmp_path):
    assert nuri("kem", "keygen", "--public", tmp_path / "pk", "--secret", "/proc/nuri-test-sk") == 2
