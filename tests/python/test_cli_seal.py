"""nuri seal / nuri open (nuri-seal v1 over Schwaemm256-128): round trips, and every kind of tampering
(truncation, reordering, splicing, bit flips, appended data, wrong key) exits 1 and leaves no output."""

import hashlib
import hmac
import os
import stat
import subprocess
import sys

import pytest

from nuri import keyfile
from nuri.cli.main import main

# the installed console script (python -m nuri.cli.main would load main.py twice, as __main__ and as a module)
NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")


def nuri(*argv):
    try:
        return main([str(a) for a in argv])
    except SystemExit as e:
        return e.code


def test_hkdf_rfc5869_case1():
    from nuri.seal import hkdf_sha256

    okm = hkdf_sha256(
        bytes.fromhex("0b" * 22), bytes.fromhex("000102030405060708090a0b0c"), bytes.fromhex("f0f1f2f3f4f5f6f7f8f9"), 42
    )
    assert okm.hex() == ("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    # cross-check against the stdlib HMAC construction for a longer output
    prk = hmac.new(b"s", b"k", hashlib.sha256).digest()
    t1 = hmac.new(prk, b"i\x01", hashlib.sha256).digest()
    t2 = hmac.new(prk, t1 + b"i\x02", hashlib.sha256).digest()
    assert hkdf_sha256(b"k", b"s", b"i", 64) == t1 + t2


def test_header_checks():
    from nuri.seal import HEADER_LEN, Header, SealFormatError

    h = Header.new(chunk_log2=12)
    b = h.to_bytes()
    assert len(b) == HEADER_LEN and b[:8] == b"NURISEAL"
    assert Header.parse(b).to_bytes() == b
    for bad, msg in [
        (b"XURISEAL" + b[8:], "not a nuri sealed file"),
        (b[:8] + b"\x02" + b[9:], "version 2"),
        (b[:10] + b"\x05" + b[11:], "chunk size"),
        (b[:11] + b"\x01" + b[12:], "reserved"),
        (b[:9] + b"\x07" + b[10:], "unknown key derivation"),
        (b[:20], "truncated header"),
        (b"", "not a nuri sealed file"),
    ]:
        with pytest.raises(SealFormatError, match=msg):
            Header.parse(bad)


CS = 1024  # --chunk-log2 10 keeps the files small
BLOCK = CS + 16
HDR = 56


@pytest.fixture
def key(tmp_path):
    pytest.importorskip("nuri.aead", reason="nuri.aead (Schwaemm) is not in this build yet")
    p = tmp_path / "k"
    assert nuri("keygen", "-o", p) == 0
    return p


def seal(tmp_path, key, data, name="s", extra=()):
    (tmp_path / f"{name}.pt").write_bytes(data)
    assert (
        nuri(
            "seal",
            "-k",
            key,
            "--chunk-log2",
            "10",
            "-i",
            tmp_path / f"{name}.pt",
            "-o",
            tmp_path / f"{name}.sealed",
            *extra,
        )
        == 0
    )
    return (tmp_path / f"{name}.sealed").read_bytes()


def open_(tmp_path, key, blob, *extra):
    (tmp_path / "in.sealed").write_bytes(blob)
    out = tmp_path / "out"
    if out.exists():
        out.unlink()
    rc = nuri("open", "-k", key, "-i", tmp_path / "in.sealed", "-o", out, *extra)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".nuri-")]
    assert leftovers == []
    return rc, (out.read_bytes() if out.exists() else None)


@pytest.mark.parametrize("size", [0, 1, CS - 1, CS, CS + 1, 3 * CS, 3 * CS + 17])
def test_round_trip(tmp_path, key, size):
    data = os.urandom(size)
    blob = seal(tmp_path, key, data)
    nchunks = max(1, -(-size // CS))
    assert len(blob) == HDR + size + 16 * nchunks
    assert open_(tmp_path, key, blob) == (0, data)


def test_default_chunk_size_and_large(tmp_path, key):
    data = os.urandom(3 * 65536 + 5)
    (tmp_path / "pt").write_bytes(data)
    assert nuri("seal", "-k", key, "-i", tmp_path / "pt", "-o", tmp_path / "s") == 0
    assert (tmp_path / "s").stat().st_size == HDR + len(data) + 4 * 16
    assert nuri("open", "-k", key, "-i", tmp_path / "s", "-o", tmp_path / "o") == 0
    assert (tmp_path / "o").read_bytes() == data


def test_fresh_salt_each_time(tmp_path, key):
    a = seal(tmp_path, key, b"same", "a")
    b = seal(tmp_path, key, b"same", "b")
    assert a[HDR - 32 : HDR] != b[HDR - 32 : HDR] and a[HDR:] != b[HDR:]


def _chunks(blob):
    body = blob[HDR:]
    return blob[:HDR], [body[i : i + BLOCK] for i in range(0, len(body), BLOCK)]


def test_truncation_detected(tmp_path, key):
    data = os.urandom(3 * CS + 100)
    blob = seal(tmp_path, key, data)
    hdr, ch = _chunks(blob)
    assert len(ch) == 4
    cases = [
        hdr + b"".join(ch[:3]),  # final chunk removed: cut at a chunk boundary
        hdr + b"".join(ch[:1]),
        hdr,
        blob[:-1],
        blob[:-16],
        blob[: HDR + 10],
        blob[:30],
        b"",
    ]
    for bad in cases:
        assert open_(tmp_path, key, bad) == (1, None), len(bad)


def test_reorder_and_duplicate_detected(tmp_path, key):
    blob = seal(tmp_path, key, os.urandom(3 * CS + 100))
    hdr, ch = _chunks(blob)
    for order in ([1, 0, 2, 3], [0, 2, 1, 3], [0, 1, 3, 2], [0, 0, 1, 2, 3], [0, 1, 2, 2, 3], [3]):
        assert open_(tmp_path, key, hdr + b"".join(ch[i] for i in order)) == (1, None), order


def test_splicing_between_files_detected(tmp_path, key):
    a = seal(tmp_path, key, os.urandom(2 * CS + 5), "a")
    b = seal(tmp_path, key, os.urandom(2 * CS + 5), "b")
    ha, ca = _chunks(a)
    hb, cb = _chunks(b)
    assert open_(tmp_path, key, ha + ca[0] + cb[1] + ca[2]) == (1, None)
    assert open_(tmp_path, key, hb + ca[0] + ca[1] + ca[2]) == (1, None)  # header of b on a's chunks


def test_appended_data_detected(tmp_path, key):
    blob = seal(tmp_path, key, os.urandom(CS + 3))
    _, ch = _chunks(blob)
    assert open_(tmp_path, key, blob + b"\x00") == (1, None)
    assert open_(tmp_path, key, blob + ch[-1]) == (1, None)


def test_every_bit_flip_position_class(tmp_path, key):
    blob = seal(tmp_path, key, os.urandom(2 * CS + 50))
    positions = list(range(HDR)) + [
        HDR,
        HDR + 500,
        HDR + CS - 1,
        HDR + CS,
        HDR + CS + 15,
        HDR + BLOCK,
        len(blob) - 17,
        len(blob) - 16,
        len(blob) - 1,
    ]
    for pos in positions:
        for bit in (0, 7):
            bad = bytearray(blob)
            bad[pos] ^= 1 << bit
            assert open_(tmp_path, key, bytes(bad)) == (1, None), (pos, bit)


def test_wrong_key(tmp_path, key):
    blob = seal(tmp_path, key, b"secret")
    other = tmp_path / "other"
    assert nuri("keygen", "-o", other) == 0
    assert open_(tmp_path, other, blob) == (1, None)
    k256 = tmp_path / "k256"
    keyfile.write_key(str(k256), keyfile.read_key(str(key)) * 2)
    assert open_(tmp_path, k256, blob) == (1, None)


def test_all_key_sizes(tmp_path):
    pytest.importorskip("nuri.aead", reason="nuri.aead (Schwaemm) is not in this build yet")
    for bits in (128, 192, 256):
        k = tmp_path / f"k{bits}"
        assert nuri("keygen", "--bits", bits, "-o", k) == 0
        blob = seal(tmp_path, k, b"x" * 2000, name=f"s{bits}")
        assert open_(tmp_path, k, blob) == (0, b"x" * 2000)


def test_existing_output_kept(tmp_path, key):
    blob = seal(tmp_path, key, b"new")
    (tmp_path / "s.sealed").write_bytes(blob)
    (tmp_path / "out").write_bytes(b"precious")
    assert nuri("open", "-k", key, "-i", tmp_path / "s.sealed", "-o", tmp_path / "out") == 2
    assert (tmp_path / "out").read_bytes() == b"precious"
    bad = bytearray(blob)
    bad[-1] ^= 1
    (tmp_path / "bad").write_bytes(bytes(bad))
    assert nuri("open", "-k", key, "-i", tmp_path / "bad", "-o", tmp_path / "out", "--force") == 1
    assert (tmp_path / "out").read_bytes() == b"precious"  # a failed open never replaces it
    assert nuri("open", "-k", key, "-i", tmp_path / "s.sealed", "-o", tmp_path / "out", "--force") == 0
    assert (tmp_path / "out").read_bytes() == b"new"
    assert nuri("seal", "-k", key, "-i", tmp_path / "out", "-o", tmp_path / "s.sealed") == 2


def test_not_a_sealed_file(tmp_path, key):
    (tmp_path / "plain").write_bytes(b"hello world, not sealed at all, long enough for a header......")
    assert nuri("open", "-k", key, "-i", tmp_path / "plain", "-o", tmp_path / "out") == 1
    assert not (tmp_path / "out").exists()


def test_bad_inputs(tmp_path, key, monkeypatch):
    monkeypatch.delenv("NURI_KEY_HEX", raising=False)
    monkeypatch.delenv("NURI_PASSPHRASE", raising=False)
    (tmp_path / "pt").write_bytes(b"x")
    assert nuri("seal", "-i", tmp_path / "pt", "-o", tmp_path / "s") == 2  # no key
    assert nuri("seal", "-k", tmp_path / "nokey", "-i", tmp_path / "pt", "-o", tmp_path / "s") == 2
    (tmp_path / "shortkey").write_text("nuri-key-v1 128 00112233\n")
    assert nuri("seal", "-k", tmp_path / "shortkey", "-i", tmp_path / "pt", "-o", tmp_path / "s") == 2
    assert nuri("seal", "-k", key, "-i", tmp_path / "missing", "-o", tmp_path / "s") == 2
    assert nuri("seal", "-k", key, "-i", tmp_path / "pt", "-o", tmp_path / "nodir" / "s") == 2
    assert nuri("seal", "-k", key, "--chunk-log2", "4", "-i", tmp_path / "pt", "-o", tmp_path / "s") == 2
    assert not (tmp_path / "s").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write to read-only directories")
def test_unwritable_output(tmp_path, key):
    (tmp_path / "pt").write_bytes(b"x")
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o500)
    assert nuri("seal", "-k", key, "-i", tmp_path / "pt", "-o", d / "s") == 2


def test_passphrase(tmp_path, monkeypatch, key):
    argon = ["--argon2", "1,1024,1"]
    (tmp_path / "pt").write_bytes(b"by passphrase")
    (tmp_path / "pw").write_text("correct horse\n")
    assert nuri("seal", "--passphrase-file", tmp_path / "pw", *argon, "-i", tmp_path / "pt", "-o", tmp_path / "s") == 0
    monkeypatch.setenv("NURI_PASSPHRASE", "correct horse")
    assert nuri("open", "-p", "-i", tmp_path / "s", "-o", tmp_path / "o") == 0
    assert (tmp_path / "o").read_bytes() == b"by passphrase"
    monkeypatch.setenv("NURI_PASSPHRASE", "wrong horse")
    assert nuri("open", "-p", "-i", tmp_path / "s", "-o", tmp_path / "o2") == 1
    assert not (tmp_path / "o2").exists()
    assert nuri("open", "-k", key, "-i", tmp_path / "s", "-o", tmp_path / "o3") == 2  # sealed with a passphrase
    blob = (tmp_path / "s").read_bytes()
    bad = bytearray(blob)
    bad[12] ^= 1  # Argon2 t_cost in the header
    (tmp_path / "s2").write_bytes(bytes(bad))
    monkeypatch.setenv("NURI_PASSPHRASE", "correct horse")
    assert nuri("open", "-p", "-i", tmp_path / "s2", "-o", tmp_path / "o4") == 1


def test_open_to_stdout(tmp_path, key):
    data = os.urandom(5000)
    blob = seal(tmp_path, key, data)
    cmd = [NURI_BIN, "open", "-k", str(key), "-o", "-"]
    r = subprocess.run(cmd + ["-i", str(tmp_path / "s.sealed")], capture_output=True)
    assert r.returncode == 0 and r.stdout == data
    # from a pipe each chunk is released once it authenticated (STREAM)
    r = subprocess.run(cmd + ["-i", "-"], input=blob, capture_output=True)
    assert r.returncode == 0 and r.stdout == data
    # a stream cut short: exit 1 after the authenticated whole chunks, never a byte of the cut one
    r = subprocess.run(cmd + ["-i", "-"], input=blob[: HDR + 2 * BLOCK + 100], capture_output=True)
    assert r.returncode == 1 and r.stdout == data[: 2 * CS] and b"chunk 2" in r.stderr
    bad = bytearray(blob)
    bad[-1] ^= 1
    (tmp_path / "bad").write_bytes(bytes(bad))
    r = subprocess.run(cmd + ["-i", str(tmp_path / "bad")], capture_output=True)
    assert r.returncode == 1 and r.stdout == b""  # a regular file is verified before anything is released


def test_pipe_in_and_out(tmp_path, key):
    data = os.urandom(200000)
    base = [NURI_BIN]
    sealed = subprocess.run(
        base + ["seal", "-k", str(key), "-i", "-", "-o", "-"], input=data, capture_output=True, check=True
    ).stdout
    r = subprocess.run(
        base + ["open", "-k", str(key), "-i", "-", "-o", str(tmp_path / "out")], input=sealed, capture_output=True
    )
    assert r.returncode == 0 and (tmp_path / "out").read_bytes() == data
    assert stat.S_IMODE(os.stat(tmp_path / "out").st_mode) & 0o077 == 0o644 & 0o077 & ~os.umask(os.umask(0))
    r = subprocess.run(
        base + ["open", "-k", str(key), "-i", "-", "-o", str(tmp_path / "out2")], input=sealed[:-5], capture_output=True
    )
    assert r.returncode == 1 and not (tmp_path / "out2").exists()


def test_library_api(tmp_path):
    pytest.importorskip("nuri.aead", reason="nuri.aead (Schwaemm) is not in this build yet")
    from nuri import seal as S

    k = os.urandom(16)
    for n in (0, 5, 70000):
        d = os.urandom(n)
        assert S.open_bytes(k, S.seal_bytes(k, d, chunk_log2=10)) == d
    s = S.Sealer(k, chunk_log2=10)
    parts = [os.urandom(n) for n in (1, 1023, 1024, 3000, 0, 7)]
    blob = s.header + b"".join(s.update(p) for p in parts) + s.finalize()
    assert S.open_bytes(k, blob) == b"".join(parts)


def test_unwritable_output_even_for_root(tmp_path, key):
    blob = seal(tmp_path, key, b"x" * 10)
    assert nuri("seal", "-k", key, "-i", tmp_path / "s.pt", "-o", "/proc/nuri-test") == 2
    (tmp_path / "b").write_bytes(blob)
    assert nuri("open", "-k", key, "-i", tmp_path / "b", "-o", "/proc/nuri-test") == 2


def _open_from_offset(tmp_path, prefix, blob, args, env=None):
    """nuri open -i - -o - with stdin a regular file whose offset is past `prefix` (as after
    (read -r line; nuri open -i - -o -) < file): both passes must start where the sealed file does."""
    (tmp_path / "wrapped").write_bytes(prefix + blob)
    with open(tmp_path / "wrapped", "rb") as f:
        f.seek(len(prefix))
        return subprocess.run(
            [NURI_BIN, "open", *[str(a) for a in args], "-i", "-", "-o", "-"],
            stdin=f,
            capture_output=True,
            env=dict(os.environ, NURI_NO_PROGRESS="1", **(env or {})),
        )


@pytest.mark.parametrize("prefix", [b"x", b"some header line\n" * 300])
def test_open_stdin_not_at_offset_zero(tmp_path, key, prefix):
    data = os.urandom(3 * CS + 17)
    blob = seal(tmp_path, key, data)
    r = _open_from_offset(tmp_path, prefix, blob, ["-k", key])
    assert r.returncode == 0 and r.stdout == data, r.stderr
    bad = bytearray(blob)
    bad[-1] ^= 1
    r = _open_from_offset(tmp_path, prefix, bytes(bad), ["-k", key])
    assert r.returncode == 1 and r.stdout == b""


def test_open_age_stdin_not_at_offset_zero(tmp_path):
    pytest.importorskip("cryptography")
    data = os.urandom(70000)
    (tmp_path / "pt").write_bytes(data)
    env = dict(os.environ, NURI_PASSPHRASE="correct horse", NURI_NO_PROGRESS="1")
    r = subprocess.run(
        [NURI_BIN, "seal", "--format", "age", "-p", "--scrypt-work-factor", "10", "-i", "pt", "-o", "pt.age"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
    )
    assert r.returncode == 0, r.stderr
    r = _open_from_offset(
        tmp_path, b"junk\n", (tmp_path / "pt.age").read_bytes(), ["-p"], {"NURI_PASSPHRASE": "correct horse"}
    )
    assert r.returncode == 0 and r.stdout == data, r.stderr
