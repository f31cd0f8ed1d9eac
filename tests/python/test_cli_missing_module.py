"""An installation without an optional Python package (cryptography for recipients, X-Wing keys and age
files; argon2-cffi for passphrases; pyarrow for Parquet) gets one line naming the package and exit
status 2 from every command that needs it, never a traceback. The package is hidden from a fresh
interpreter by a meta-path finder installed before nuri is imported."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("cryptography", reason="the files these commands read are made with cryptography")

RUN_HIDDEN = """
import sys
HIDDEN = set(sys.argv[1].split(","))

class _Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _Hide())
from nuri.cli.main import main
sys.exit(main(sys.argv[2:]))
"""
ENV = dict(os.environ, NURI_NO_PROGRESS="1", NURI_PASSPHRASE="pass phrase")
NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")


def hidden(modules, argv, cwd):
    return subprocess.run(
        [sys.executable, "-c", RUN_HIDDEN, modules, *argv], cwd=cwd, capture_output=True, env=ENV, timeout=120
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("files")
    (d / "pt").write_bytes(b"plaintext\n" * 1000)
    (d / "c.parquet").write_bytes(b"PAR1" + b"\0" * 64 + b"PAR1")
    for argv in (
        ["kem", "keygen", "--kem", "mlkem768-x25519", "--public", "pk", "--secret", "sk"],
        ["seal", "-r", "pk", "-i", "pt", "-o", "pt.v2"],
        ["seal", "--format", "age", "-r", "pk", "-i", "pt", "-o", "pt.age"],
        ["keygen", "-o", "k"],
    ):
        r = subprocess.run([NURI_BIN, *argv], cwd=d, capture_output=True, env=ENV)
        assert r.returncode == 0, (argv, r.stderr)
    return d


CASES = {
    "seal-recipient": ("cryptography", ["seal", "-r", "pk", "-i", "pt", "-o", "out"]),
    "open-identity": ("cryptography", ["open", "--identity", "sk", "-i", "pt.v2", "-o", "out"]),
    "open-age": ("cryptography", ["open", "--identity", "sk", "-i", "pt.age", "-o", "out"]),
    "seal-age-passphrase": ("cryptography", ["seal", "--format", "age", "-p", "-i", "pt", "-o", "out"]),
    "kem-keygen-xwing": (
        "cryptography",
        ["kem", "keygen", "--kem", "mlkem768-x25519", "--public", "p2", "--secret", "s2"],
    ),
    "video-seal": ("cryptography", ["video", "seal", "-r", "pk", "-i", "pt", "-o", "vdir"]),
    "seal-passphrase": ("argon2", ["seal", "-p", "-i", "pt", "-o", "out"]),
    "fpe-parquet": (
        "pyarrow",
        ["fpe", "encrypt", "-k", "k", "--column", "c", "--format", "digits", "-i", "c.parquet", "-o", "o.parquet"],
    ),
}
PACKAGE = {"cryptography": "cryptography", "argon2": "argon2-cffi", "pyarrow": "pyarrow"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_missing_package_is_one_line(files, name):
    module, argv = CASES[name]
    r = hidden(module, argv, files)
    err = r.stderr.decode()
    assert r.returncode == 2, (r.returncode, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert PACKAGE[module] in err, err
    assert not (files / "out").exists() and not (files / "vdir").exists()


def test_nothing_hidden_still_works(files):
    """The same interpreter set-up with nothing hidden opens the v2 file: the finder is not what fails."""
    r = hidden("nothing-by-this-name", ["open", "--identity", "sk", "-i", "pt.v2", "-o", "-"], files)
    assert r.returncode == 0 and r.stdout == (files / "pt").read_bytes(), r.stderr
