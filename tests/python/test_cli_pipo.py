"""nuri pipo encrypt|decrypt: agrees with nuri.pipo, streams, and fails cleanly on bad input."""

import os
import subprocess
import sys

import pytest

from nuri import keyfile, pipo
from nuri.cli.main import main

# the installed console script (python -m nuri.cli.main would load main.py twice, as __main__ and as a module)
NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")


def nuri(*argv):
    try:
        return main([str(a) for a in argv])
    except SystemExit as e:
        return e.code


@pytest.fixture
def key128(tmp_path):
    p = tmp_path / "k128"
    keyfile.write_key(str(p), bytes(range(16)))
    return p


@pytest.fixture
def key256(tmp_path):
    p = tmp_path / "k256"
    keyfile.write_key(str(p), bytes(range(32)))
    return p


SIZES = [0, 1, 7, 8, 9, 65535, 65536, 65537, 200003]


@pytest.mark.parametrize("mode", ["ecb", "cbc", "ctr"])
@pytest.mark.parametrize("size", SIZES)
def test_matches_library_with_iv(tmp_path, key128, mode, size):
    data = os.urandom(size)
    (tmp_path / "pt").write_bytes(data)
    iv = [] if mode == "ecb" else ["--iv", "0001020304050607"]
    assert nuri("pipo", "encrypt", "--mode", mode, "-k", key128, "-i", tmp_path / "pt", "-o", tmp_path / "ct", *iv) == 0
    pad = "none" if mode == "ctr" else "pkcs7"
    want = pipo.encrypt(bytes(range(16)), data, mode, iv=None if mode == "ecb" else bytes(range(8)), padding=pad)
    assert (tmp_path / "ct").read_bytes() == want
    assert (
        nuri("pipo", "decrypt", "--mode", mode, "-k", key128, "-i", tmp_path / "ct", "-o", tmp_path / "out", *iv) == 0
    )
    assert (tmp_path / "out").read_bytes() == data


@pytest.mark.parametrize("mode", ["cbc", "ctr"])
def test_random_iv_prefix(tmp_path, key256, mode):
    data = os.urandom(1000)
    (tmp_path / "pt").write_bytes(data)
    assert nuri("pipo", "encrypt", "--mode", mode, "-k", key256, "-i", tmp_path / "pt", "-o", tmp_path / "c1") == 0
    assert nuri("pipo", "encrypt", "--mode", mode, "-k", key256, "-i", tmp_path / "pt", "-o", tmp_path / "c2") == 0
    c1 = (tmp_path / "c1").read_bytes()
    assert c1[:8] != (tmp_path / "c2").read_bytes()[:8]  # fresh IV each time
    pad = "none" if mode == "ctr" else "pkcs7"
    assert pipo.decrypt(bytes(range(32)), c1[8:], mode, iv=c1[:8], padding=pad) == data
    assert nuri("pipo", "decrypt", "--mode", mode, "-k", key256, "-i", tmp_path / "c1", "-o", tmp_path / "out") == 0
    assert (tmp_path / "out").read_bytes() == data


def test_padding_none(tmp_path, key128):
    (tmp_path / "pt").write_bytes(b"x" * 10)
    assert (
        nuri(
            "pipo",
            "encrypt",
            "--mode",
            "ecb",
            "--padding",
            "none",
            "-k",
            key128,
            "-i",
            tmp_path / "pt",
            "-o",
            tmp_path / "ct",
        )
        == 2
    )
    assert not (tmp_path / "ct").exists()
    (tmp_path / "pt").write_bytes(b"x" * 16)
    assert (
        nuri(
            "pipo",
            "encrypt",
            "--mode",
            "ecb",
            "--padding",
            "none",
            "-k",
            key128,
            "-i",
            tmp_path / "pt",
            "-o",
            tmp_path / "ct",
        )
        == 0
    )
    assert (tmp_path / "ct").stat().st_size == 16


@pytest.mark.parametrize("last", [0x00, 0x09])
def test_bad_padding_exit_1_no_output(tmp_path, key128, last):
    # the last plaintext block ends in a byte no PKCS#7 padding ends in (random bytes would be valid
    # about once in 256 runs)
    ct = pipo.encrypt(bytes(range(16)), os.urandom(63) + bytes([last]), "ecb", padding="none")
    (tmp_path / "ct").write_bytes(ct)
    rc = nuri("pipo", "decrypt", "--mode", "ecb", "-k", key128, "-i", tmp_path / "ct", "-o", tmp_path / "out")
    assert rc == 1
    assert not (tmp_path / "out").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".nuri-")] == []


def test_key_errors(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("NURI_KEY_HEX", raising=False)
    (tmp_path / "pt").write_bytes(b"hello")
    args = ["pipo", "encrypt", "--mode", "cbc", "-i", tmp_path / "pt", "-o", tmp_path / "ct"]
    assert nuri(*args) == 2  # no key at all
    assert "no key" in capsys.readouterr().err
    assert nuri(*args, "-k", tmp_path / "missing") == 2
    k192 = tmp_path / "k192"
    keyfile.write_key(str(k192), bytes(24))
    assert nuri(*args, "-k", k192) == 2  # PIPO takes 128 or 256 bits
    assert "128 or 256" in capsys.readouterr().err
    (tmp_path / "short").write_text("nuri-key-v1 128 0011\n")
    assert nuri(*args, "-k", tmp_path / "short") == 2
    assert not (tmp_path / "ct").exists()
    monkeypatch.setenv("NURI_KEY_HEX", bytes(16).hex())
    assert nuri(*args) == 0


def test_io_errors(tmp_path, key128):
    (tmp_path / "pt").write_bytes(b"hello")
    base = ["pipo", "encrypt", "--mode", "ctr", "--iv", "00" * 8, "-k", key128]
    assert nuri(*base, "-i", tmp_path / "missing", "-o", tmp_path / "ct") == 2
    assert nuri(*base, "-i", tmp_path / "pt", "-o", tmp_path / "no-dir" / "ct") == 2
    assert nuri(*base, "-i", tmp_path / "pt", "-o", tmp_path) == 2  # a directory
    (tmp_path / "ct").write_bytes(b"keep")
    assert nuri(*base, "-i", tmp_path / "pt", "-o", tmp_path / "ct") == 2
    assert (tmp_path / "ct").read_bytes() == b"keep"
    assert nuri(*base, "-i", tmp_path / "pt", "-o", tmp_path / "ct", "--force") == 0
    assert nuri(*base, "--iv", "0011", "-i", tmp_path / "pt", "-o", tmp_path / "c2") == 2
    assert (
        nuri(
            "pipo",
            "encrypt",
            "--mode",
            "ecb",
            "--iv",
            "00" * 8,
            "-k",
            key128,
            "-i",
            tmp_path / "pt",
            "-o",
            tmp_path / "c3",
        )
        == 2
    )
    assert (
        nuri(
            "pipo",
            "encrypt",
            "--mode",
            "ctr",
            "--padding",
            "pkcs7",
            "-k",
            key128,
            "-i",
            tmp_path / "pt",
            "-o",
            tmp_path / "c4",
        )
        == 2
    )


def test_pipes(tmp_path, key128):
    data = os.urandom(300000)
    cmd = [NURI_BIN, "pipo"]
    enc = subprocess.run(
        cmd + ["encrypt", "--mode", "cbc", "-k", str(key128), "-i", "-", "-o", "-"],
        input=data,
        capture_output=True,
        check=True,
    ).stdout
    dec = subprocess.run(
        cmd + ["decrypt", "--mode", "cbc", "-k", str(key128), "-i", "-", "-o", "-"],
        input=enc,
        capture_output=True,
        check=True,
    ).stdout
    assert dec == data and len(enc) == 8 + len(data) + 8 - len(data) % 8


def test_unwritable_output_even_for_root(tmp_path, key128):
    (tmp_path / "pt").write_bytes(b"hello")
    assert nuri("pipo", "encrypt", "--mode", "ecb", "-k", key128, "-i", tmp_path / "pt", "-o", "/proc/nuri-test") == 2
