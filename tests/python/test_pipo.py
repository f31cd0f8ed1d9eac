"""Python API of nuri.pipo: vectors, every implementation via NURI_IMPL, modes, errors."""

import os
import subprocess
import sys

import pytest

from nuri import pipo

from vectors import VECTORS, passed, records

KEY128 = bytes.fromhex("9722152EAD201D7ED2289477DD16C46D")
KEY256 = KEY128 + bytes.fromhex("3356D1260612A754B56DA976A43A9A00")
PT = bytes.fromhex("2600271EF6528509")


def test_official_vectors():
    assert pipo.encrypt_block(KEY128, PT).hex().upper() == "27035DAD81296B6B"
    assert pipo.encrypt_block(KEY256, PT).hex().upper() == "893852B66FAE6D81"
    assert pipo.decrypt_block(KEY128, bytes.fromhex("27035DAD81296B6B")) == PT


def test_vector_files():
    for name in ("pipo64_128_ecb.txt", "pipo64_256_ecb.txt"):
        n = 0
        for rec in records(VECTORS / "pipo" / name):
            key, pt, ct = (bytes.fromhex(rec[x]) for x in ("KEY", "PT", "CT"))
            assert pipo.encrypt_block(key, pt) == ct
            assert pipo.decrypt_block(key, ct) == pt
            n += 1
        assert n == 9
        passed(__name__, name, n)


def test_implementations_listed():
    impls = pipo.implementations()
    assert "ref" in impls and "bitslice64" in impls
    assert pipo.default_implementation() == impls[0]


@pytest.mark.parametrize(
    "mode,iv,pad",
    [
        ("ecb", None, "none"),
        ("ecb", None, "pkcs7"),
        ("cbc", b"\x01" * 8, "none"),
        ("cbc", b"\x02" * 8, "pkcs7"),
        ("ctr", b"\xff" * 8, "none"),
    ],
)
def test_every_impl_same_result_via_env(mode, iv, pad, monkeypatch):
    data = bytes(range(256)) * 20
    if pad == "pkcs7" or mode == "ctr":
        data = data[:-3]
    results = set()
    for impl in pipo.implementations():
        monkeypatch.setenv("NURI_IMPL", f"pipo:{impl}")
        assert pipo.default_implementation() == impl
        ct = pipo.encrypt(KEY128, data, mode, iv=iv, padding=pad)
        assert pipo.decrypt(KEY128, ct, mode, iv=iv, padding=pad) == data
        results.add(ct)
    assert len(results) == 1


def test_ctr_matches_manual_counter():
    iv = bytes.fromhex("00000000000000FF")
    data = os.urandom(24)
    ks = b"".join(pipo.encrypt_block(KEY128, (0xFF + i).to_bytes(8, "big")) for i in range(3))
    assert pipo.encrypt(KEY128, data, "ctr", iv=iv) == bytes(a ^ b for a, b in zip(data, ks))


def test_streaming_equals_oneshot():
    data = os.urandom(1000)
    e = pipo.Encryptor(KEY256, "cbc", iv=bytes(8), padding="pkcs7")
    ct = b"".join(e.update(data[i : i + 37]) for i in range(0, 1000, 37)) + e.finalize()
    assert ct == pipo.encrypt(KEY256, data, "cbc", iv=bytes(8), padding="pkcs7")
    d = pipo.Decryptor(KEY256, "cbc", iv=bytes(8), padding="pkcs7")
    assert b"".join(d.update(ct[i : i + 50]) for i in range(0, len(ct), 50)) + d.finalize() == data


@pytest.mark.parametrize(
    "call,msg",
    [
        (lambda: pipo.encrypt_block(b"k" * 15, PT), "key must be 16 or 32 bytes"),
        (lambda: pipo.encrypt_block(KEY128, b"123"), "block must be 8 bytes"),
        (lambda: pipo.encrypt(KEY128, b"x" * 8, "cbc"), "needs an 8-byte iv"),
        (lambda: pipo.encrypt(KEY128, b"x" * 8, "cbc", iv=b"1234567"), "iv must be 8 bytes"),
        (lambda: pipo.encrypt(KEY128, b"x" * 9, "ecb"), "multiple of 8 bytes"),
        (lambda: pipo.encrypt(KEY128, b"x" * 8, "ofb"), "mode must be one of"),
        (lambda: pipo.encrypt(KEY128, b"x" * 8, "ctr", iv=bytes(8), padding="pkcs7"), "padding must be 'none' for CTR"),
        (
            lambda: pipo.decrypt(KEY128, pipo.encrypt(KEY128, b"x" * 8, "ecb"), "ecb", padding="pkcs7"),
            "invalid padding",
        ),
    ],
)
def test_errors(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()


def test_cli_bench_json_quick():
    out = subprocess.run(
        [sys.executable, "-m", "nuri", "bench", "pipo", "--json", "--quick", "--no-peers"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    import json

    recs = [json.loads(line) for line in out.splitlines()]
    assert {r["impl"] for r in recs} >= {"ref", "bitslice64"}
    assert all(
        set(r)
        == {
            "family",
            "impl",
            "op",
            "param",
            "size",
            "platform",
            "metric",
            "median",
            "min",
            "max",
            "runs",
            "p10",
            "p90",
            "load",
            "busy",
        }
        for r in recs
    )


def test_cli_selftest():
    r = subprocess.run([sys.executable, "-m", "nuri", "selftest", "pipo"], capture_output=True, text=True)
    assert r.returncode == 0 and "0 failed" in r.stdout
