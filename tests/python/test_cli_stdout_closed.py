"""A closed stdout is never a success: every command that writes to stdout exits 141 (128 + SIGPIPE, what
a shell reports for a tool killed by SIGPIPE, as sha256sum is) when the reader of its stdout has gone,
and prints no traceback. `nuri hash esch256 -c SUMS | head -1` used to exit 0 with most files unchecked."""

import os
import subprocess
import sys

import pytest

from nuri import keyfile

NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")
KEY_HEX = "00112233445566778899aabbccddeeff"
ENV = dict(os.environ, NURI_KEY_HEX=KEY_HEX, NURI_NO_PROGRESS="1")
EXIT_PIPE = 141


def to_closed_pipe(argv, cwd, stdin=None):
    """Runs nuri with stdout a pipe whose read end is already closed: the first write fails with EPIPE."""
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run(
            [NURI_BIN, *[str(a) for a in argv]], stdout=w, stderr=subprocess.PIPE, stdin=stdin, cwd=cwd, env=ENV
        )
    finally:
        os.close(w)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "big").write_bytes(os.urandom(1 << 20))
    assert subprocess.run([NURI_BIN, "seal", "-i", "big", "-o", "big.sealed"], cwd=tmp_path, env=ENV).returncode == 0
    csv = "id,card\n" + "".join(f"{i},{4000000000000000 + i * 7919}\n" for i in range(3000))
    (tmp_path / "c.csv").write_text(csv)
    keyfile.write_key(str(tmp_path / "k"), bytes.fromhex(KEY_HEX))
    assert (
        subprocess.run(
            [NURI_BIN, "kem", "keygen", "--public", "pk", "--secret", "sk"], cwd=tmp_path, env=ENV
        ).returncode
        == 0
    )
    for i in range(50):
        (tmp_path / f"f{i:03d}").write_bytes(b"%d" % i)
    r = subprocess.run(
        [NURI_BIN, "hash", "esch256"] + [f"f{i:03d}" for i in range(50)], cwd=tmp_path, capture_output=True
    )
    (tmp_path / "SUMS").write_bytes(r.stdout)
    return tmp_path


COMMANDS = {
    "hash": ["hash", "esch256", "f000", "f001"],
    "hash-check": ["hash", "esch256", "-c", "SUMS"],
    "hash-stdin": ["hash", "esch256", "-"],
    "seal": ["seal", "-i", "big", "-o", "-"],
    "open": ["open", "-i", "big.sealed", "-o", "-"],
    "open-pipe": ["open", "-i", "-", "-o", "-"],
    "pipo": ["pipo", "encrypt", "--mode", "ctr", "-i", "big", "-o", "-"],
    "fpe": ["fpe", "encrypt", "-k", "k", "--column", "card", "--format", "digits", "-i", "c.csv", "-o", "-"],
    "kem": ["kem", "encaps", "--public", "pk", "--ciphertext", "ct", "--shared", "-"],
    "selftest": ["selftest"],
    "keysearch": ["keysearch", "--keyspace", "--cipher", "pipo-64/128", "--key-template", "0" * 30 + "??"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_closed_stdout_exits_141(files, name):
    stdin = None
    if name == "open-pipe":
        stdin = subprocess.Popen(["cat", "big.sealed"], cwd=files, stdout=subprocess.PIPE).stdout
    elif name == "hash-stdin":
        stdin = open(files / "big", "rb")
    try:
        r = to_closed_pipe(COMMANDS[name], files, stdin)
    finally:
        if stdin is not None:
            stdin.close()
    err = r.stderr.decode()
    assert r.returncode == EXIT_PIPE, (name, r.returncode, err)
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_check_piped_to_head_is_not_a_success(tmp_path):
    """The review's case: a reader that takes one line and goes. Enough files that the output outgrows the
    pipe, so that nuri is still checking when head exits."""
    names = [f"file-with-a-long-name-{i:05d}" for i in range(3000)]
    for n in names:
        (tmp_path / n).write_bytes(n.encode())
    r = subprocess.run([NURI_BIN, "hash", "esch256", *names], cwd=tmp_path, capture_output=True, check=True)
    (tmp_path / "SUMS").write_bytes(r.stdout)
    assert len(r.stdout) > 4 * 65536
    p = subprocess.Popen([NURI_BIN, "hash", "esch256", "-c", "SUMS"], cwd=tmp_path, stdout=subprocess.PIPE)
    assert p.stdout.readline() == f"{names[0]}: OK\n".encode()
    p.stdout.close()
    assert p.wait() == EXIT_PIPE
