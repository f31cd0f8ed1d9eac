"""nuri hash esch256|esch384: sha256sum-style output and -c checking."""

import os
import subprocess
import sys

import pytest

from nuri.cli.main import main

# the installed console script (python -m nuri.cli.main would load main.py twice, as __main__ and as a module)
NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")

H = pytest.importorskip("nuri.hash", reason="nuri.hash (Esch) is not in this build yet")


def nuri(*argv):
    try:
        return main([str(a) for a in argv])
    except SystemExit as e:
        return e.code


@pytest.mark.parametrize("alg", ["esch256", "esch384"])
def test_lines_match_library(tmp_path, capsys, alg, monkeypatch):
    monkeypatch.chdir(tmp_path)
    files = {"a.txt": b"", "b.bin": os.urandom(100000), "c d.txt": b"hello\n"}
    for n, d in files.items():
        (tmp_path / n).write_bytes(d)
    assert nuri("hash", alg, *files) == 0
    out = capsys.readouterr().out.splitlines()
    fn = getattr(H, alg)
    assert out == [f"{fn(d).hex()}  {n}" for n, d in files.items()]


def test_check(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").write_bytes(b"one")
    (tmp_path / "b").write_bytes(b"two")
    assert nuri("hash", "esch256", "a", "b") == 0
    (tmp_path / "SUMS").write_text(capsys.readouterr().out)
    assert nuri("hash", "esch256", "-c", "SUMS") == 0
    assert capsys.readouterr().out.splitlines() == ["a: OK", "b: OK"]
    (tmp_path / "b").write_bytes(b"tw0")
    assert nuri("hash", "esch256", "-c", "SUMS") == 1
    assert "b: FAILED" in capsys.readouterr().out
    os.unlink(tmp_path / "b")
    assert nuri("hash", "esch256", "-c", "SUMS") == 1
    assert "b: FAILED open or read" in capsys.readouterr().out
    assert nuri("hash", "esch384", "-c", "SUMS") == 1  # 64 hex digits are not Esch384 lines
    (tmp_path / "junk").write_text("not a sums file\n")
    assert nuri("hash", "esch256", "-c", "junk") == 1
    assert nuri("hash", "esch256", "-c", "missing") == 2
    assert nuri("hash", "esch256", "-c", "SUMS", "a") == 2


def test_stdin_and_missing(tmp_path):
    data = os.urandom(5000)
    r = subprocess.run([NURI_BIN, "hash", "esch256", "-"], input=data, capture_output=True, check=True)
    assert r.stdout.decode() == f"{H.esch256(data).hex()}  -\n"
    r = subprocess.run([NURI_BIN, "hash", "esch256", str(tmp_path / "nope")], capture_output=True)
    assert r.returncode == 2 and b"cannot read" in r.stderr


def test_bad_algorithm():
    assert nuri("hash", "sha256", "x") == 2
