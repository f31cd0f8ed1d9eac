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


# Every character str.splitlines() breaks a line at, besides LF and CR: a sums file read with it checked
# the part of such a name before the character (a different file) and could say OK.
SPLITLINES_ONLY = ["\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def _hash_cli(*argv, cwd):
    return subprocess.run([NURI_BIN, "hash", *argv], cwd=cwd, capture_output=True)


@pytest.mark.parametrize("ch", SPLITLINES_ONLY + ["\n", "\r", "\\", "\r\n"], ids=lambda c: f"U+{ord(c[0]):04X}")
def test_check_reads_every_name_back_as_written(tmp_path, ch):
    """A file named 'a<ch>b' beside a decoy 'a' with the same bytes: -c checks 'a<ch>b' itself, so a
    change to it is a FAILED, not an OK for the decoy."""
    name = f"a{ch}b"
    (tmp_path / name).write_bytes(b"the original")
    (tmp_path / "a").write_bytes(b"the original")
    r = _hash_cli("esch256", name, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.count(b"\n") == 1, r.stdout  # one line, whatever the name holds
    (tmp_path / "SUMS").write_bytes(r.stdout)
    r = _hash_cli("esch256", "-c", "SUMS", cwd=tmp_path)
    shown = (
        ("\\" + name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r"))
        if any(c in ch for c in "\n\r\\")
        else name
    )
    assert r.returncode == 0 and r.stdout.decode() == f"{shown}: OK\n" and r.stderr == b"", r
    (tmp_path / name).write_bytes(b"the original, changed")
    r = _hash_cli("esch256", "-c", "SUMS", cwd=tmp_path)
    assert r.returncode == 1 and r.stdout.decode() == f"{shown}: FAILED\n", r


def test_check_sums_format_as_sha256sum(tmp_path):
    """sha256sum's rules: a CR before the LF is dropped (sums edited on Windows); in an escaped line (a
    leading backslash) only \\\\, \\n and \\r are escapes, anything else makes the line improperly formatted;
    a name with a NUL cannot be read: one line for it, the lines after it are still checked."""
    (tmp_path / "a").write_bytes(b"one")
    (tmp_path / "b\\c").write_bytes(b"two")
    ha, hb = H.esch256(b"one").hex(), H.esch256(b"two").hex()
    sums = f"{ha}  a\r\n\\{hb}  b\\\\c\n{ha}  x\0y\n\\{ha}  a\\q\n{ha} *a\n".encode()
    (tmp_path / "SUMS").write_bytes(sums)
    r = _hash_cli("esch256", "-c", "SUMS", cwd=tmp_path)
    assert r.returncode == 1, r
    assert r.stdout.decode().splitlines() == ["a: OK", "\\b\\\\c: OK", "\\x\\0y: FAILED open or read", "a: OK"]
    err = r.stderr.decode()
    assert "Traceback" not in err and "NUL" in err and "SUMS:4:" in err, err
    assert "1 listed file could not be read" in err and "1 line is improperly formatted" in err, err
