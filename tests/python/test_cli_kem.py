"""nuri kem keygen|encaps|decaps with key files."""

import os
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
    assert nuri("kem", "keygen", "--level", level, "--format", "raw", "--public", pk, "--secret", sk) == 0
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
    assert nuri("kem", "keygen", "--level", 768, "--format", "raw", "--public", pk, "--secret", sk) == 0
    assert nuri("kem", "keygen", "--public", pk, "--secret", tmp_path / "sk2") == 2  # pk exists
    assert nuri("kem", "keygen", "--level", 999, "--public", tmp_path / "a", "--secret", tmp_path / "b") == 2
    (tmp_path / "short").write_bytes(pk.read_bytes()[:-1])
    assert nuri("kem", "encaps", "--public", tmp_path / "short", "--ciphertext", ct, "--shared", ss) == 2
    assert "not a key file (1183 bytes of binary data" in capsys.readouterr().err
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


# ---- key files that say what they hold ----


def _line(path):
    (line,) = [x for x in path.read_text().splitlines() if x and not x.startswith("#")]
    return line.split()


@pytest.mark.parametrize("level", [512, 768, 1024])
def test_seed_key_decapsulates(tmp_path, level):
    """kem keygen --seed keeps d || z, and kem decaps takes it (it used to refuse its own 64-byte file)."""
    pk, sk, ct, s1, s2 = (tmp_path / n for n in ("pk", "sk", "ct", "s1", "s2"))
    assert nuri("kem", "keygen", "--seed", "--level", level, "--public", pk, "--secret", sk) == 0
    assert _line(sk)[:3] == ["nuri-kem-v1", f"mlkem{level}", "seed"] and len(_line(sk)[3]) == 128
    assert _line(pk)[:3] == ["nuri-kem-v1", f"mlkem{level}", "public"]
    assert stat.S_IMODE(sk.stat().st_mode) == 0o600
    assert nuri("kem", "encaps", "--public", pk, "--ciphertext", ct, "--shared", s1) == 0
    assert nuri("kem", "decaps", "--secret", sk, "--ciphertext", ct, "--shared", s2) == 0
    assert s1.read_bytes() == s2.read_bytes()
    ek, dk = mlkem.keygen(level, bytes.fromhex(_line(sk)[3]))
    assert ek.hex() == _line(pk)[3] and mlkem.decaps(level, dk, ct.read_bytes()) == s1.read_bytes()


def test_a_512_seed_is_never_taken_for_a_768_one(tmp_path, capsys):
    """An ML-KEM-512 seed used to be read by open --identity as an ML-KEM-768 seed (same 64 bytes)."""
    pk, sk = tmp_path / "pk", tmp_path / "sk"
    assert nuri("kem", "keygen", "--level", 512, "--seed", "--public", pk, "--secret", sk) == 0
    (tmp_path / "p").write_bytes(b"x")
    assert nuri("seal", "-r", pk, "-i", tmp_path / "p", "-o", tmp_path / "s") == 2
    assert "ML-KEM-512" in capsys.readouterr().err
    pk7, sk7 = tmp_path / "pk7", tmp_path / "sk7"
    assert nuri("kem", "keygen", "--public", pk7, "--secret", sk7) == 0
    assert nuri("seal", "-r", pk7, "-i", tmp_path / "p", "-o", tmp_path / "s") == 0
    assert nuri("open", "--identity", sk, "-i", tmp_path / "s", "-o", tmp_path / "o") == 2
    assert "ML-KEM-512" in capsys.readouterr().err and not (tmp_path / "o").exists()
    # and --level contradicting the file is refused, never reinterpreted
    ct = tmp_path / "ct"
    assert nuri("kem", "encaps", "--level", 768, "--public", pk, "--ciphertext", ct, "--shared", tmp_path / "ss") == 2
    assert nuri("kem", "decaps", "--level", 768, "--secret", sk, "--ciphertext", ct, "--shared", tmp_path / "ss") == 2


@pytest.mark.parametrize(
    "flags",
    [
        ["--kem", "mlkem768-x25519", "--level", "512"],
        ["--kem", "mlkem768", "--level", "1024"],
        ["--kem", "mlkem1024", "--level", "512"],
        ["--format", "age", "--kem", "mlkem768"],
        ["--format", "age", "--level", "768"],
        ["--format", "raw", "--seed", "--level", "512"],
    ],
)
def test_contradictory_keygen_flags_are_refused(tmp_path, flags):
    """--level and --seed used to be dropped silently beside --kem."""
    assert nuri("kem", "keygen", *flags, "--public", tmp_path / "pk", "--secret", tmp_path / "sk") == 2
    assert list(tmp_path.iterdir()) == []


def test_consistent_keygen_flags(tmp_path):
    assert (
        nuri(
            "kem", "keygen", "--kem", "mlkem512", "--level", 512, "--public", tmp_path / "a", "--secret", tmp_path / "b"
        )
        == 0
    )
    assert _line(tmp_path / "b")[:3] == ["nuri-kem-v1", "mlkem512", "secret"]
    assert (
        nuri("kem", "keygen", "--kem", "mlkem768-x25519", "--public", tmp_path / "c", "--secret", tmp_path / "d") == 0
    )
    assert _line(tmp_path / "d")[:3] == ["nuri-kem-v1", "mlkem768-x25519", "seed"]


def test_xwing_and_age_keys_encapsulate(tmp_path):
    d = tmp_path
    assert nuri("kem", "keygen", "--format", "age", "-o", d / "id.txt", "--public", d / "id.pub") == 0
    assert nuri("kem", "encaps", "--public", d / "id.pub", "--ciphertext", d / "ct", "--shared", d / "s1") == 0
    assert len((d / "ct").read_bytes()) == 1120
    assert nuri("kem", "decaps", "--secret", d / "id.txt", "--ciphertext", d / "ct", "--shared", d / "s2") == 0
    assert (d / "s1").read_bytes() == (d / "s2").read_bytes()


def test_raw_key_files_keep_working(tmp_path):
    """Raw files as nuri wrote them before (and --format raw writes): their kind from their size, a
    64-byte seed ML-KEM-768's unless kem decaps --level says otherwise."""
    from nuri import seal
    from nuri.seal import hpke

    d = tmp_path
    (d / "p").write_bytes(b"old keys" * 100)
    ek, dk = mlkem.keygen(768)
    seed64 = os.urandom(64)
    xpk, xseed = seal.generate("mlkem768-x25519")
    for name, data in (("ek", ek), ("dk", dk), ("s64", seed64), ("xpk", xpk), ("xs", xseed)):
        (d / name).write_bytes(data)
    (d / "ek64").write_bytes(mlkem.keygen(768, seed64)[0])
    for pk, sk in (("ek", "dk"), ("ek64", "s64"), ("xpk", "xs")):
        out = d / f"o-{pk}"
        assert nuri("seal", "-r", d / pk, "-i", d / "p", "-o", d / f"s-{pk}") == 0
        assert nuri("open", "--identity", d / sk, "-i", d / f"s-{pk}", "-o", out) == 0
        assert out.read_bytes() == b"old keys" * 100
    ek512 = mlkem.keygen(512, seed64)[0]
    (d / "ek512").write_bytes(ek512)
    assert nuri("kem", "encaps", "--public", d / "ek512", "--ciphertext", d / "ct", "--shared", d / "s1") == 0
    assert nuri("kem", "decaps", "--secret", d / "s64", "--ciphertext", d / "ct", "--shared", d / "s2") == 2  # 768
    assert (
        nuri("kem", "decaps", "--level", 512, "--secret", d / "s64", "--ciphertext", d / "ct", "--shared", d / "s2")
        == 0
    )
    assert (d / "s1").read_bytes() == (d / "s2").read_bytes()
    # a raw key whose bytes are all printable is still a raw key (it does not parse as key lines)
    printable = bytes(range(0x40, 0x60))
    (d / "ps").write_bytes(printable)
    (d / "ppk").write_bytes(hpke.xwing_public_key(printable))
    assert nuri("seal", "-r", d / "ppk", "-i", d / "p", "-o", d / "s-p") == 0
    assert nuri("open", "--identity", d / "ps", "-i", d / "s-p", "-o", d / "o-p") == 0


def test_malformed_text_key_files(tmp_path, capsys):
    pk, sk = tmp_path / "pk", tmp_path / "sk"
    assert nuri("kem", "keygen", "--public", pk, "--secret", sk) == 0
    text = sk.read_text()
    (tmp_path / "p").write_bytes(b"x")
    assert nuri("seal", "-r", pk, "-i", tmp_path / "p", "-o", tmp_path / "s") == 0
    for bad in (
        text.replace("mlkem768 secret", "mlkem512 secret"),  # the level changed: the length no longer fits
        text.replace("nuri-kem-v1", "nuri-kem-v2"),
        text.replace("secret", "private"),
        text[:-3] + "\n",
    ):
        (tmp_path / "bad").write_text(bad)
        assert nuri("kem", "decaps", "--secret", tmp_path / "bad", "--ciphertext", pk, "--shared", tmp_path / "x") == 2
        assert nuri("open", "--identity", tmp_path / "bad", "-i", tmp_path / "s", "-o", tmp_path / "o") in (1, 2)
        assert not (tmp_path / "o").exists() and not (tmp_path / "x").exists()
    (tmp_path / "bad").write_text(text + text)  # two keys: an identity file may hold several, kem wants one
    assert nuri("kem", "decaps", "--secret", tmp_path / "bad", "--ciphertext", pk, "--shared", tmp_path / "x") == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "unsupported KEM key line 'nuri-kem-v2'" in err
