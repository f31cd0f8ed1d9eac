"""nuri-seal v2: public-key recipients (HPKE with ML-KEM-768 and ML-KEM-768+X25519), checked against
pyca/cryptography 50's HPKE in both directions, CLI round trips for 1..5 recipients, and every kind of
tampering (wrong identity, flipped, truncated, reordered, duplicated, spliced): exit 1, nothing written."""

import os
import struct
import subprocess
import sys
import time

import pytest

if os.environ.get("CI"):  # scripts/deps/seal.pip installs pyca/cryptography >= 50: never skip in CI
    import cryptography.hazmat.primitives.hpke  # noqa: F401

pytest.importorskip("nuri.aead", reason="nuri.aead (Schwaemm) is not in this build")
P = pytest.importorskip(
    "cryptography.hazmat.primitives.hpke", reason="pyca/cryptography >= 50 (scripts/deps/seal.pip) is not installed"
)
from cryptography.exceptions import InvalidTag as PycaInvalidTag  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import mlkem as PM  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import x25519 as PX  # noqa: E402

from nuri import InvalidTag as nuri_InvalidTag  # noqa: E402
from nuri import mlkem, seal  # noqa: E402
from nuri.cli.main import main  # noqa: E402
from nuri.seal import hpke  # noqa: E402

NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")
KEMS = {
    "mlkem768": (P.KEM.MLKEM768, hpke.KEM_MLKEM768, 1136),
    "mlkem768-x25519": (P.KEM.MLKEM768_X25519, hpke.KEM_MLKEM768_X25519, 1168),
}
CS, BLOCK = 1024, 1040


def nuri(*argv):
    try:
        return main([str(a) for a in argv])
    except SystemExit as e:
        return e.code


def _suite(kem):
    return P.Suite(KEMS[kem][0], P.KDF.HKDF_SHA256, P.AEAD.CHACHA20_POLY1305)


def _pyca_private(kem, sk):
    if kem == "mlkem768":
        return PM.MLKEM768PrivateKey.from_seed_bytes(sk)
    ms, xs = hpke.xwing_expand(sk)
    return P.MLKEM768X25519PrivateKey(
        PM.MLKEM768PrivateKey.from_seed_bytes(ms), PX.X25519PrivateKey.from_private_bytes(xs)
    )


def _pair(kem):
    """(nuri public bytes, nuri secret bytes loadable by pyca: ML-KEM seed or X-Wing seed)."""
    if kem == "mlkem768":
        k = mlkem.MLKEM768PrivateKey.generate()
        return k.public_key().public_bytes_raw(), k.private_bytes_raw()
    return seal.generate(kem)


def test_nuri_mlkem_keys_load_into_pyca():
    for _ in range(3):
        k = mlkem.MLKEM768PrivateKey.generate()
        pk = PM.MLKEM768PrivateKey.from_seed_bytes(k.private_bytes_raw())
        assert pk.public_key().public_bytes_raw() == k.public_key().public_bytes_raw()
        ss, ct = pk.public_key().encapsulate()
        assert k.decapsulate(ct) == ss
        ss2, ct2 = k.public_key().encapsulate()
        assert pk.decapsulate(ct2) == ss2


@pytest.mark.parametrize("kem", sorted(KEMS))
@pytest.mark.parametrize("info", [b"", b"nuri-seal/v2 file key"])
def test_hpke_interop_both_directions(kem, info):
    suite, kem_id, n = _suite(kem), KEMS[kem][1], KEMS[kem][2]
    for _ in range(3):
        pub, sk = _pair(kem)
        priv = _pyca_private(kem, sk)
        secret = os.urandom(32)
        blob = suite.encrypt(secret, priv.public_key(), info=info)  # pyca seals ...
        assert len(blob) == n
        assert hpke.open(kem_id, sk, blob, info) == secret  # ... nuri opens
        mine = hpke.seal(kem_id, pub, secret, info)  # nuri seals ...
        assert len(mine) == n
        assert suite.decrypt(mine, priv, info=info) == secret  # ... pyca opens
        bad = bytearray(mine)
        bad[5] ^= 1  # altered enc: implicit rejection, then the AEAD fails
        with pytest.raises(PycaInvalidTag):
            suite.decrypt(bytes(bad), priv, info=info)
        with pytest.raises(seal.InvalidTag if hasattr(seal, "InvalidTag") else Exception):
            hpke.open(kem_id, sk, bytes(bad), info)
        with pytest.raises(nuri_InvalidTag):
            hpke.open(kem_id, sk, mine, info + b"x")  # info is bound


def test_hpke_expanded_dk_opens_too():
    ek, dk = mlkem.keygen(768)
    blob = hpke.seal(hpke.KEM_MLKEM768, ek, b"k" * 32, b"i")
    assert hpke.open(hpke.KEM_MLKEM768, dk, blob, b"i") == b"k" * 32


def test_stanza_of_pyca_in_a_nuri_file():
    """A v2 header whose stanza pyca made (with the file key nuri chose) opens through nuri."""
    pub, sk = _pair("mlkem768-x25519")
    fk, h = seal.new_v2_header([pub], chunk_log2=10)
    pyca_blob = _suite("mlkem768-x25519").encrypt(
        fk, _pyca_private("mlkem768-x25519", sk).public_key(), info=seal.recipients.HPKE_INFO
    )
    h.stanzas = [(hpke.KEM_MLKEM768_X25519, pyca_blob)]
    h.mac = seal._v2_mac(fk, h)
    import io

    out = io.BytesIO()
    seal.v2_payload(fk, h).seal(io.BytesIO(b"x" * 3000), out.write)
    assert seal.open_bytes(None, h.to_bytes() + out.getvalue(), identity=sk) == b"x" * 3000


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    d = tmp_path_factory.mktemp("keys")
    out = {}
    for kem in KEMS:
        for j in range(6):
            pk, sk = d / f"{kem}-{j}.pk", d / f"{kem}-{j}.sk"
            assert nuri("kem", "keygen", "--kem", kem, "--public", pk, "--secret", sk) == 0
            out[kem, j] = (pk, sk)
    return out


def _seal(tmp_path, pks, data, name="s"):
    (tmp_path / f"{name}.pt").write_bytes(data)
    args = [a for pk in pks for a in ("-r", pk)]
    assert nuri("seal", *args, "--chunk-log2", "10", "-i", tmp_path / f"{name}.pt", "-o", tmp_path / name) == 0
    return (tmp_path / name).read_bytes()


def _open(tmp_path, sk, blob):
    (tmp_path / "in").write_bytes(blob)
    out = tmp_path / "out"
    if out.exists():
        out.unlink()
    rc = nuri("open", "--identity", sk, "-i", tmp_path / "in", "-o", out)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".nuri-")] == []
    return rc, (out.read_bytes() if out.exists() else None)


def test_key_sizes(keys):
    from nuri.seal.recipients import parse_key_file

    def entry(p):
        (e,) = parse_key_file(p.read_bytes())
        return e.kem, e.kind, len(e.data), e.source

    assert entry(keys["mlkem768", 0][0]) == ("mlkem768", "public", 1184, "nuri")
    assert entry(keys["mlkem768", 0][1]) == ("mlkem768", "secret", 2400, "nuri")
    assert entry(keys["mlkem768-x25519", 0][0]) == ("mlkem768-x25519", "public", 1216, "nuri")
    assert entry(keys["mlkem768-x25519", 0][1]) == ("mlkem768-x25519", "seed", 32, "nuri")
    assert os.stat(keys["mlkem768-x25519", 0][1]).st_mode & 0o077 == 0


@pytest.mark.parametrize("kem", sorted(KEMS))
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_round_trip_recipients(tmp_path, keys, kem, n):
    data = os.urandom(2 * CS + 77 * n)
    blob = _seal(tmp_path, [keys[kem, j][0] for j in range(n)], data)
    hdr_len = 46 + n * (4 + KEMS[kem][2]) + 32
    assert len(blob) == hdr_len + len(data) + 3 * 16
    assert blob[8] == 2
    for j in range(n):  # every recipient opens it
        assert _open(tmp_path, keys[kem, j][1], blob) == (0, data)
    assert _open(tmp_path, keys[kem, 5][1], blob) == (1, None)  # a key pair that is not a recipient


def test_mixed_recipients_and_wrong_kind(tmp_path, keys):
    data = os.urandom(500)
    blob = _seal(tmp_path, [keys["mlkem768", 0][0], keys["mlkem768-x25519", 0][0]], data)
    assert _open(tmp_path, keys["mlkem768", 0][1], blob) == (0, data)
    assert _open(tmp_path, keys["mlkem768-x25519", 0][1], blob) == (0, data)
    assert _open(tmp_path, keys["mlkem768-x25519", 1][1], blob) == (1, None)


def test_not_a_recipient_is_one_line(tmp_path, keys):
    blob = _seal(tmp_path, [keys["mlkem768", 0][0]], b"hello")
    (tmp_path / "in").write_bytes(blob)
    r = subprocess.run(
        [
            NURI_BIN,
            "open",
            "--identity",
            str(keys["mlkem768", 1][1]),
            "-i",
            str(tmp_path / "in"),
            "-o",
            str(tmp_path / "o"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1 and r.stdout == "" and not (tmp_path / "o").exists()
    assert len(r.stderr.strip().splitlines()) == 1 and "not sealed to" in r.stderr


def _parts(blob, n, enc):
    h = 46 + n * (4 + enc) + 32
    body = blob[h:]
    return blob[:h], [body[i : i + BLOCK] for i in range(0, len(body), BLOCK)]


@pytest.mark.parametrize("kem", sorted(KEMS))
def test_tampering_fails_and_writes_nothing(tmp_path, keys, kem):
    pk, sk = keys[kem, 0]
    enc = KEMS[kem][2]
    data = os.urandom(3 * CS + 100)
    blob = _seal(tmp_path, [pk, keys[kem, 1][0]], data)
    hdr, ch = _parts(blob, 2, enc)
    assert len(ch) == 4
    bad_cases = {
        "truncated": [hdr + b"".join(ch[:3]), hdr + ch[0], hdr, blob[:-1], blob[: len(hdr) - 1], blob[:40], b""],
        "reordered": [hdr + b"".join(ch[i] for i in o) for o in ([1, 0, 2, 3], [0, 2, 1, 3], [0, 1, 3, 2])],
        "duplicated": [hdr + b"".join(ch[i] for i in o) for o in ([0, 0, 1, 2, 3], [0, 1, 2, 2, 3])],
        "appended": [blob + b"\0", blob + ch[-1]],
    }
    other = _seal(tmp_path, [pk, keys[kem, 1][0]], os.urandom(3 * CS + 100), "o")
    ohdr, och = _parts(other, 2, enc)
    bad_cases["spliced"] = [hdr + ch[0] + och[1] + ch[2] + ch[3], ohdr + b"".join(ch)]
    flips = [
        9,
        10,
        12,
        45,
        46,
        48,
        100,
        46 + 4 + enc + 7,
        len(hdr) - 32,
        len(hdr) - 1,
        len(hdr),
        len(hdr) + 700,
        len(hdr) + BLOCK + 1030,
        len(blob) - 1,
    ]
    bad_cases["flipped"] = []
    for pos in flips:
        b = bytearray(blob)
        b[pos] ^= 0x01
        bad_cases["flipped"].append(bytes(b))
    for what, cases in bad_cases.items():
        for j, bad in enumerate(cases):
            assert _open(tmp_path, sk, bad) == (1, None), (what, j)
    assert _open(tmp_path, sk, blob) == (0, data)


def test_stanza_removed_or_swapped_fails(tmp_path, keys):
    """The MAC covers the stanza list: dropping the other recipient's stanza fails even for a real recipient."""
    pk0, sk0 = keys["mlkem768", 0]
    blob = _seal(tmp_path, [pk0, keys["mlkem768", 1][0]], b"z" * 3000)
    st = 4 + 1136
    fixed = bytearray(blob[:46])
    fixed[44:46] = struct.pack(">H", 1)
    dropped = bytes(fixed) + blob[46 : 46 + st] + blob[46 + 2 * st :]
    assert _open(tmp_path, sk0, dropped) == (1, None)
    swapped = blob[:46] + blob[46 + st : 46 + 2 * st] + blob[46 : 46 + st] + blob[46 + 2 * st :]
    assert _open(tmp_path, sk0, swapped) == (1, None)


def test_cli_errors(tmp_path, keys):
    (tmp_path / "pt").write_bytes(b"x")
    (tmp_path / "junk.pk").write_bytes(b"\0" * 100)
    assert nuri("seal", "-r", tmp_path / "junk.pk", "-i", tmp_path / "pt", "-o", tmp_path / "s") == 2
    assert nuri("seal", "-r", tmp_path / "missing.pk", "-i", tmp_path / "pt", "-o", tmp_path / "s") == 2
    blob = _seal(tmp_path, [keys["mlkem768", 0][0]], b"x")
    (tmp_path / "k").write_text("00" * 16 + "\n")
    (tmp_path / "in").write_bytes(blob)
    assert nuri("open", "-k", tmp_path / "k", "-i", tmp_path / "in", "-o", tmp_path / "o") == 2  # needs --identity
    assert nuri("open", "-i", tmp_path / "in", "-o", tmp_path / "o") == 2
    assert not (tmp_path / "o").exists()


def test_pipe_streams_authenticated_chunks(tmp_path, keys):
    pk, sk = keys["mlkem768-x25519", 0]
    data = os.urandom(300000)
    sealed = subprocess.run(
        [NURI_BIN, "seal", "-r", str(pk), "-i", "-", "-o", "-"], input=data, capture_output=True, check=True
    ).stdout
    r = subprocess.run(
        [NURI_BIN, "open", "--identity", str(sk), "-i", "-", "-o", "-"], input=sealed, capture_output=True
    )
    assert r.returncode == 0 and r.stdout == data
    hdr_len = 46 + 4 + 1168 + 32
    cut = sealed[: hdr_len + 2 * (65536 + 16) + 10]
    r = subprocess.run([NURI_BIN, "open", "--identity", str(sk), "-i", "-", "-o", "-"], input=cut, capture_output=True)
    assert r.returncode == 1 and r.stdout == data[: 2 * 65536]


def test_argon2_bounds(tmp_path, monkeypatch):
    """A crafted header asking for t=64, m=2 GiB, 64 lanes is refused at once; a user who trusts
    the file raises the limit with --argon2-max."""
    from nuri.seal.header import Header

    h = Header(1, 10, (64, 1 << 21, 64), os.urandom(32)).to_bytes()
    (tmp_path / "evil").write_bytes(h + os.urandom(100))
    monkeypatch.setenv("NURI_PASSPHRASE", "pw")
    t0 = time.monotonic()
    r = subprocess.run(
        [NURI_BIN, "open", "-p", "-i", str(tmp_path / "evil"), "-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        env=dict(os.environ, NURI_PASSPHRASE="pw"),
    )
    assert r.returncode == 1 and "--argon2-max" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert time.monotonic() - t0 < 30 and not (tmp_path / "o").exists()
    with pytest.raises(seal.Argon2LimitError):
        seal.open_bytes(None, h + os.urandom(100)) if False else seal.open_stream(
            __import__("io").BytesIO(h + os.urandom(100)), lambda b: None, passphrase=b"pw"
        )
    # a file above the default limit that the user allows
    (tmp_path / "pt").write_bytes(b"big memory")
    assert nuri("seal", "-p", "--argon2", "9,1024,1", "-i", tmp_path / "pt", "-o", tmp_path / "s") == 0
    assert nuri("open", "-p", "-i", tmp_path / "s", "-o", tmp_path / "o1") == 1
    assert not (tmp_path / "o1").exists()
    assert nuri("open", "-p", "--argon2-max", "9,1024,1", "-i", tmp_path / "s", "-o", tmp_path / "o2") == 0
    assert (tmp_path / "o2").read_bytes() == b"big memory"


def test_memory_bounded_for_a_large_stream(tmp_path):
    """48 MiB sealed from a generator to a file, then opened to a sink, in a fresh process: the peak
    RSS grows by a few 1 MiB groups of chunks, not by the data size."""
    code = r"""
import io, resource, sys
from nuri import seal
from nuri.seal import stream
stream.GROUP_BYTES = 1 << 20  # memory should follow the group size, not the data size
pk, sk = seal.generate("mlkem768")
N = 48 << 20
class Gen(io.RawIOBase):
    left = N
    def readable(self): return True
    def readinto(self, b):
        n = min(len(b), self.left); b[:n] = bytes(n); self.left -= n; return n
class Sink:
    size = 0
    def write(self, b): Sink.size += len(b)
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
seal.open_bytes(None, seal.seal_bytes(None, bytes(100000), recipients=[pk]), identity=sk)  # imports loaded
before = rss()
with open(sys.argv[1], "wb") as f:
    seal.seal_stream(io.BufferedReader(Gen(), 1 << 16), f.write, recipients=[pk])
mid = rss()
with open(sys.argv[1], "rb") as f:
    seal.open_stream(f, Sink().write, identity=sk)
print(Sink.size, mid - before, rss() - before)
"""
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "big")], capture_output=True, text=True, check=True)
    size, seal_mib, open_mib = map(int, r.stdout.split())
    assert size == 48 << 20
    assert seal_mib < 12 and open_mib < 12, (seal_mib, open_mib)


def test_cli_seed_keys_load_into_pyca(tmp_path):
    """nuri kem keygen --seed --format raw writes d || z: pyca's from_seed_bytes gives the same public
    key, and the seed opens files sealed to that public key."""
    pk, sk = tmp_path / "a.pk", tmp_path / "a.seed"
    assert nuri("kem", "keygen", "--seed", "--format", "raw", "--public", pk, "--secret", sk) == 0
    assert len(sk.read_bytes()) == 64 and os.stat(sk).st_mode & 0o077 == 0
    priv = PM.MLKEM768PrivateKey.from_seed_bytes(sk.read_bytes())
    assert priv.public_key().public_bytes_raw() == pk.read_bytes()
    blob = _seal(tmp_path, [pk], b"seeded" * 1000)
    assert _open(tmp_path, sk, blob) == (0, b"seeded" * 1000)
    # and a stanza pyca seals to the CLI's public key opens with the CLI's seed
    pub = PM.MLKEM768PublicKey.from_public_bytes(pk.read_bytes())
    st = _suite("mlkem768").encrypt(b"k" * 32, pub, info=b"i")
    assert hpke.open(hpke.KEM_MLKEM768, sk.read_bytes(), st, b"i") == b"k" * 32


@pytest.mark.parametrize("bad_chunk", [0, 17, 39, 40])
def test_open_goes_through_the_batch_api(monkeypatch, bad_chunk):
    """Payload.seal/open make one C batch call per share of a group (encrypt_spans_into /
    decrypt_spans_into, the multi-instance kernel), and open still names the first failing chunk and
    releases exactly the chunks before it (wherever it sits in the group and in the share)."""
    from nuri.aead import Schwaemm256_128
    from nuri.seal import stream

    monkeypatch.setattr(stream, "GROUP_BYTES", 7 * 1024)  # groups of 7 chunks, shares of 4 and 3
    monkeypatch.setattr(stream, "default_workers", lambda: 2)
    calls = []
    for name in ("encrypt_spans_into", "decrypt_spans_into"):
        real = getattr(Schwaemm256_128, name)

        def spy(self, nonces, src, spans, dst, offsets, ads=None, _real=real, _name=name):
            calls.append((_name, len(spans)))
            return _real(self, nonces, src, spans, dst, offsets, ads)

        monkeypatch.setattr(Schwaemm256_128, name, spy)
    pk, sk = seal.generate("mlkem768")
    data = os.urandom(40 * 1024 + 7)  # 41 chunks of 1 KiB: the last one short
    blob = seal.seal_bytes(None, data, chunk_log2=10, recipients=[pk])
    assert seal.open_bytes(None, blob, identity=sk) == data
    for name in ("encrypt_spans_into", "decrypt_spans_into"):  # shares run at once: any order
        assert sorted(n for fn, n in calls if fn == name) == sorted([4, 3] * 5 + [3, 3])
    hdr = 46 + 4 + 1136 + 32
    bad = bytearray(blob)
    bad[hdr + bad_chunk * BLOCK + 5] ^= 1
    got = []
    import io

    with pytest.raises(seal.InvalidTag, match=f"chunk {bad_chunk} "):
        seal.open_stream(io.BytesIO(bytes(bad)), lambda b: got.append(bytes(b)), identity=sk)
    assert b"".join(got) == data[: bad_chunk * CS]  # exactly the chunks before the bad one


def test_forked_child_seals_and_opens():
    """The worker threads live in a pool kept across payloads; a child forked after the parent used it
    gets its own (the parent's threads do not exist there) instead of waiting forever."""
    import signal

    pk, sk = seal.generate("mlkem768")
    data = os.urandom(3 << 20)
    blob = seal.seal_bytes(None, data, recipients=[pk])  # the parent's pool exists now
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        signal.alarm(60)  # a hang ends the child with SIGALRM instead of blocking the test run
        ok = seal.open_bytes(None, blob, identity=sk) == data
        ok = ok and seal.open_bytes(None, seal.seal_bytes(None, data, recipients=[pk]), identity=sk) == data
        os._exit(0 if ok else 3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status


def test_writer_thread_order_errors_and_progress(monkeypatch):
    """Groups are written by a writer thread while the next ones are read and computed: the writes
    come in order, progress adds up to the payload, and a failing write stops seal and open with
    that error (no hang, no later write)."""
    import io

    from nuri.seal import stream

    monkeypatch.setattr(stream, "GROUP_BYTES", 4 * 1024)  # groups of 4 chunks of 1 KiB
    monkeypatch.setattr(stream, "default_workers", lambda: 2)
    pk, sk = seal.generate("mlkem768")
    data = os.urandom(40 * 1024 + 300)
    got, prog = [], []
    seal.seal_stream(
        io.BytesIO(data), lambda b: got.append(bytes(b)), chunk_log2=10, recipients=[pk], progress=prog.append
    )
    blob = b"".join(got)
    assert sum(prog) == len(data) and len(got) == 1 + 11  # the header, then 11 groups
    back, prog = [], []
    seal.open_stream(io.BytesIO(blob), lambda b: back.append(bytes(b)), identity=sk, progress=prog.append)
    assert b"".join(back) == data and sum(prog) == len(blob) - len(got[0])

    for direction in ("seal", "open"):
        calls = []

        def failing(b):
            calls.append(len(b))
            if len(calls) == 3:
                raise OSError(28, "No space left on device")

        with pytest.raises(OSError, match="No space"):
            if direction == "seal":
                seal.seal_stream(io.BytesIO(data), failing, chunk_log2=10, recipients=[pk])
            else:
                seal.open_stream(io.BytesIO(blob), failing, identity=sk)
        assert len(calls) == 3


def test_missing_credential_is_a_value_error(tmp_path, keys):
    """A credential of the wrong kind for the file is a bad value (ValueError), not a TypeError;
    nothing is written before the error."""
    import io

    blob = _seal(tmp_path, [keys["mlkem768", 0][0]], b"to a recipient")
    written = []
    with pytest.raises(ValueError, match="identity"):
        seal.open_stream(io.BytesIO(blob), written.append, key=os.urandom(16))
    keyed = seal.seal_bytes(os.urandom(16), b"with a key")
    with pytest.raises(ValueError, match="a key is needed"):
        seal.open_stream(io.BytesIO(keyed), written.append, passphrase=b"pw")
    s = seal.Sealer(passphrase=b"pw", argon2=(1, 64, 1))
    pw_blob = s.header + s.update(b"x") + s.finalize()
    with pytest.raises(ValueError, match="a passphrase is needed"):
        seal.open_stream(io.BytesIO(pw_blob), written.append, key=os.urandom(16))
    got = []  # the view handed to write is reused afterwards: copy it (docstring)
    assert seal.open_stream(io.BytesIO(pw_blob), lambda b: got.append(bytes(b)), passphrase=b"pw") == 1
    assert got == [b"x"]
    assert written == []
