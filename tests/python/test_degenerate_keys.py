"""Degenerate public keys are refused everywhere a public key is used: an ML-KEM ek whose t is zero
(or mostly zero: 1/16 or more of t-hat) and an X-Wing key whose X25519 part is a low-order point.

With t = 0 the ML-KEM ciphertext's v = e2 + Decompress1(m) carries m in the clear: anyone rebuilds
the shared key. With a low-order X25519 point every sender's X25519 share is the same known value."""

import os
import subprocess
import sys

import pytest

from nuri import mlkem
from nuri.seal import hpke, recipients

NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")

# X25519 points of order 1, 2, 4 or 8 (and non-canonical encodings of them): the shared secret is
# zero whatever the scalar
LOW_ORDER = [
    bytes(32),
    (1).to_bytes(32, "little"),
    bytes.fromhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
    bytes.fromhex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
    (2**255 - 19 - 1).to_bytes(32, "little"),
    (2**255 - 19).to_bytes(32, "little"),
    (2**255 - 19 + 1).to_bytes(32, "little"),
]


def _set_coeff(ek: bytearray, idx: int, val: int):
    o = 3 * (idx // 2)
    if idx % 2 == 0:
        ek[o] = val & 0xFF
        ek[o + 1] = (ek[o + 1] & 0xF0) | (val >> 8)
    else:
        ek[o + 1] = (ek[o + 1] & 0x0F) | ((val & 15) << 4)
        ek[o + 2] = val >> 4


@pytest.mark.parametrize("level,k", [(512, 2), (768, 3), (1024, 4)])
def test_mlkem_api_refuses_degenerate_t(level, k):
    ek, _ = mlkem.keygen(level)
    zero_t = bytes(384 * k) + ek[384 * k :]
    cls = getattr(mlkem, f"MLKEM{level}PublicKey")
    for bad in (zero_t, bytes(len(ek))):
        assert not mlkem.check_encapsulation_key(level, bad)
        with pytest.raises(ValueError, match="degenerate"):
            mlkem.encaps(level, bad)
        with pytest.raises(ValueError, match="degenerate"):
            mlkem.encaps(level, bad, m=bytes(32))
        with pytest.raises(ValueError, match=r"degenerate.*eks\[1\]"):
            mlkem.encaps_many(level, [ek, bad])
        with pytest.raises(ValueError, match="degenerate"):
            cls.from_public_bytes(bad)
    # a few nonzero coefficients are no better: 16k zero coefficients are refused, 16k - 1 accepted
    few = bytearray(zero_t)
    for i in range(100):
        _set_coeff(few, 7 * i % (256 * k), 1 + i)
    with pytest.raises(ValueError, match="degenerate"):
        mlkem.encaps(level, bytes(few))
    edge = bytearray(ek)
    for idx in range(256 * k):
        _set_coeff(edge, idx, 1 + idx % 3000)
    for idx in range(16 * k - 1):
        _set_coeff(edge, 5 * idx, 0)
    assert mlkem.check_encapsulation_key(level, bytes(edge))
    _set_coeff(edge, 1, 0)
    assert not mlkem.check_encapsulation_key(level, bytes(edge))
    # the modulus check keeps its own message
    mod = bytearray(zero_t)
    _set_coeff(mod, 3, 3329)
    with pytest.raises(ValueError, match="modulus"):
        mlkem.encaps(level, bytes(mod))


def test_xwing_low_order_x25519_refused():
    pk, _ = recipients.generate("mlkem768-x25519")
    for point in LOW_ORDER:
        bad = pk[: hpke.MLKEM_EK] + point
        with pytest.raises(ValueError, match="low-order"):
            recipients.Recipient.from_bytes(bad)
        with pytest.raises(ValueError, match="low-order"):
            hpke.encap(hpke.KEM_MLKEM768_X25519, bad)
    zero_m = bytes(1152) + pk[1152:]
    with pytest.raises(ValueError, match="degenerate"):
        recipients.Recipient.from_bytes(zero_m)
    recipients.Recipient.from_bytes(pk)  # the real key still loads


def _cli(*argv):
    return subprocess.run([NURI_BIN, *map(str, argv)], capture_output=True, text=True)


def _one_line(r):
    return len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_cli_refuses_degenerate_keys(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"attack at dawn\n")
    xpk = tmp_path / "x.pk"
    xsk = tmp_path / "x.sk"
    assert (
        _cli(
            "kem", "keygen", "--kem", "mlkem768-x25519", "--format", "raw", "--public", xpk, "--secret", xsk
        ).returncode
        == 0
    )
    (tmp_path / "zero.pk").write_bytes(bytes(1184))
    (tmp_path / "zerot.pk").write_bytes(bytes(1152) + os.urandom(32))
    (tmp_path / "lowx.pk").write_bytes(xpk.read_bytes()[:1184] + LOW_ORDER[2])
    (tmp_path / "zerox.pk").write_bytes(bytes(1152) + xpk.read_bytes()[1152:])
    for name in ("zero.pk", "zerot.pk", "lowx.pk", "zerox.pk"):
        out = tmp_path / f"{name}.sealed"
        r = _cli("seal", "-r", tmp_path / name, "-i", secret, "-o", out)
        assert r.returncode == 2 and _one_line(r) and not out.exists(), (name, r.stderr)
        assert ("low-order" if name == "lowx.pk" else "degenerate") in r.stderr
    for name in ("zero.pk", "zerot.pk"):
        ct, ss = tmp_path / f"{name}.ct", tmp_path / f"{name}.ss"
        r = _cli("kem", "encaps", "--public", tmp_path / name, "--ciphertext", ct, "--shared", ss)
        assert r.returncode == 1 and _one_line(r) and "degenerate" in r.stderr, r.stderr
        assert not ct.exists() and not ss.exists()
