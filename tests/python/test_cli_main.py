"""nuri CLI: --help everywhere, usage errors, and the key-file format (nuri keygen)."""

import os
import stat
import subprocess
import sys

import pytest

from nuri import keyfile
from nuri.cli.main import build_parser, main


def nuri(*argv):
    try:
        return main(list(argv))
    except SystemExit as e:  # argparse: --help (0) and usage errors (2)
        return e.code


def _commands():
    p = build_parser()
    sub = next(a for a in p._actions if a.__class__.__name__ == "_SubParsersAction")
    out = []
    for name, sp in sub.choices.items():
        out.append([name])
        for a in sp._actions:
            if a.__class__.__name__ == "_SubParsersAction":
                out += [[name, op] for op in a.choices]
    return out


@pytest.mark.parametrize("cmd", _commands(), ids=lambda c: " ".join(c))
def test_help_everywhere(cmd, capsys):
    assert nuri(*cmd, "--help") == 0
    assert "usage: nuri" in capsys.readouterr().out


def test_expected_commands_present():
    names = {c[0] for c in _commands()}
    assert {"keygen", "pipo", "seal", "open", "hash", "fpe", "kem", "report", "selftest", "bench"} <= names


def test_usage_errors_exit_2(capsys):
    assert nuri("no-such-command") == 2
    assert nuri("pipo") == 2
    assert nuri("pipo", "encrypt", "--mode", "xts", "-i", "a", "-o", "b") == 2
    assert nuri() == 2


def test_entry_point_runs():
    r = subprocess.run([sys.executable, "-m", "nuri.cli.main", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("nuri ")


@pytest.mark.parametrize("bits", [128, 192, 256])
def test_keygen(tmp_path, bits):
    p = tmp_path / "k"
    assert nuri("keygen", "-o", str(p), "--bits", str(bits)) == 0
    text = p.read_text()
    magic, b, h = text.split()
    assert magic == "nuri-key-v1" and int(b) == bits and len(h) == bits // 4 and text.endswith("\n")
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    assert len(keyfile.read_key(str(p))) == bits // 8


def test_keygen_keys_differ(tmp_path):
    assert nuri("keygen", "-o", str(tmp_path / "a")) == 0
    assert nuri("keygen", "-o", str(tmp_path / "b")) == 0
    assert keyfile.read_key(str(tmp_path / "a")) != keyfile.read_key(str(tmp_path / "b"))


def test_keygen_refuses_overwrite(tmp_path, capsys):
    p = tmp_path / "k"
    p.write_text("precious")
    assert nuri("keygen", "-o", str(p)) == 2
    assert p.read_text() == "precious"
    assert "exists" in capsys.readouterr().err
    assert nuri("keygen", "-o", str(p), "--force") == 0
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o600 and p.read_text().startswith("nuri-key-v1 128 ")


def test_keygen_bad_args(tmp_path):
    assert nuri("keygen", "-o", str(tmp_path / "k"), "--bits", "100") == 2
    assert nuri("keygen", "-o", "-") == 2
    assert nuri("keygen", "-o", str(tmp_path / "missing-dir" / "k")) == 2
    assert nuri("keygen") == 2


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write to read-only directories")
def test_keygen_unwritable(tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o500)
    assert nuri("keygen", "-o", str(d / "k")) == 2


@pytest.mark.parametrize(
    "text,msg",
    [
        ("", "empty"),
        ("nuri-key-v1 128 00ff\n", "says 128 bits but holds 2 bytes"),
        ("nuri-key-v2 128 " + "00" * 16, "unsupported version"),
        ("nuri-key-v1 100 " + "00" * 16, "bits must be"),
        ("nuri-key-v1 128 " + "zz" * 16, "hex"),
        ("00" * 20, "expected 16, 24 or 32"),
        ("abc", "odd number"),
        ("a b c d", "expected"),
    ],
)
def test_bad_key_files(text, msg):
    with pytest.raises(keyfile.KeyFileError, match=msg):
        keyfile.parse_key(text)


def test_key_file_forms_and_env(tmp_path, monkeypatch):
    k = bytes(range(32))
    (tmp_path / "hex").write_text(k.hex() + "\n")
    assert keyfile.read_key(str(tmp_path / "hex")) == k
    (tmp_path / "bin").write_bytes(b"\xff\xfe" * 8)
    with pytest.raises(keyfile.KeyFileError, match="not a nuri key file"):
        keyfile.read_key(str(tmp_path / "bin"))
    with pytest.raises(keyfile.KeyFileError, match="cannot read"):
        keyfile.read_key(str(tmp_path / "nope"))
    monkeypatch.setenv("NURI_KEY_HEX", k.hex())
    assert keyfile.key_from_env() == k
    monkeypatch.setenv("NURI_KEY_HEX", "1234")
    with pytest.raises(keyfile.KeyFileError, match="NURI_KEY_HEX"):
        keyfile.key_from_env()


def test_keygen_unwritable_even_for_root(tmp_path):
    # /proc refuses new files for every user, root included (the chmod test above skips as root)
    assert nuri("keygen", "-o", "/proc/nuri-test-key") == 2
