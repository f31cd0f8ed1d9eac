"""age v1 files in nuri (nuri/seal/age.py, nuri seal --format age, nuri open of age files).

Known answers first: every C2SP CCTV age vector (c2sp.org/CCTV/age from the Go
module proxy, in NURI_AGE_CCTV_DIR; make check-age-smoke sets it) opens to its payload hash or fails
the way it says; Bech32 strings of BIP 173. Then independent implementations: pyca/cryptography's
HPKE opens and makes the mlkem768x25519 stanzas, and a decoder written here from the specification
with pyca's primitives alone opens what nuri writes. Then round trips at the chunk boundaries,
armored and not, the rules (mixing, scrypt alone, work limits, an empty final chunk) and the CLI's
fault behaviour. The real age tool is the judge in tests/age/cross.py (make check-age)."""

import binascii
import hashlib
import hmac
import io
import os
import pathlib
import re
import subprocess
import sys
import zlib

import pytest

P = pytest.importorskip(
    "cryptography.hazmat.primitives.hpke", reason="pyca/cryptography >= 50 (scripts/deps/seal.pip) is not installed"
)
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import mlkem as PM  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import x25519 as PX  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305  # noqa: E402
from cryptography.hazmat.primitives.kdf.hkdf import HKDF  # noqa: E402
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt  # noqa: E402

from nuri import InvalidTag  # noqa: E402
from nuri.cli.main import main  # noqa: E402
from nuri.seal import NotRecipientError, age, bech32, hpke, recipients  # noqa: E402

# The C2SP CCTV age vectors come from the Go module proxy (c2sp.org/CCTV/age, pinned in mk/age.mk) at
# test time, not from the tree: make check-age-smoke / check-age download them and pass the folder.
_CCTV_DIR = os.environ.get("NURI_AGE_CCTV_DIR")
CCTV = pathlib.Path(_CCTV_DIR) if _CCTV_DIR else None
needs_cctv = pytest.mark.skipif(
    CCTV is None, reason="NURI_AGE_CCTV_DIR not set: make check-age-smoke runs the CCTV vectors (needs Go)"
)
NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")
KiB = 1024
BOUNDARY_SIZES = [0, 1, 64 * KiB - 1, 64 * KiB, 64 * KiB + 1, 128 * KiB, 256 * KiB - 1, 256 * KiB, 256 * KiB + 1]
BOUNDARY_SIZES += [64 * 64 * KiB + 1]


def nuri(*argv):
    try:
        return main([str(a) for a in argv])
    except SystemExit as e:
        return e.code


# ---- C2SP CCTV vectors ----


def _vector(path):
    head, body = path.read_bytes().split(b"\n\n", 1)
    meta, ids, pws = {}, [], []
    for line in head.decode().splitlines():
        k, v = line.split(": ", 1)
        if k == "identity":
            ids.append(v)
        elif k == "passphrase":
            pws.append(v)
        else:
            meta[k] = v
    if meta.get("compressed") == "zlib":
        body = zlib.decompress(body)
    return meta, ids, pws, body


def _outcome(body, idents, armored):
    """What nuri makes of an age file: (CCTV expectation name, plaintext released before any error)."""
    out = io.BytesIO()
    src = age.ArmorReader(io.BytesIO(body)) if armored else io.BytesIO(body)
    try:
        h = age.read_header(src)
        key = age.file_key(h, idents)
        age.open_payload(src, out.write, key)
        return "success", out.getvalue()
    except age.AgeArmorError:
        return "armor failure", out.getvalue()
    except age.AgeHeaderError:
        return "header failure", out.getvalue()
    except NotRecipientError:
        return "no match", out.getvalue()
    except InvalidTag as e:
        return ("HMAC failure" if "header MAC" in str(e) else "payload failure"), out.getvalue()


@needs_cctv
@pytest.mark.parametrize("name", sorted(p.name for p in CCTV.iterdir()) if CCTV else ["(not downloaded)"])
def test_cctv_vector(name):
    meta, ids, pws, body = _vector(CCTV / name)
    idents = [i for v in ids for i in recipients.load_identities(v.encode() + b"\n")]
    idents += [age.ScryptIdentity(p) for p in pws]
    got, released = _outcome(body, idents, meta.get("armored") == "yes")
    assert got == meta["expect"], (name, meta.get("comment"))
    if got == "success":
        assert hashlib.sha256(released).hexdigest() == meta["payload"]
    elif got == "payload failure":
        # age releases every chunk that authenticates before the fault (the vector's payload hash);
        # nuri releases a prefix of that, whole chunks, never more
        ages = _age_releases(body, bytes.fromhex(meta["file key"]), meta.get("armored") == "yes")
        assert hashlib.sha256(ages).hexdigest() == meta["payload"]
        assert ages.startswith(released) and len(released) % 65536 == 0


def _age_releases(body, file_key, armored):
    """The plaintext age's reader hands out before a payload fails, found chunk by chunk with pyca
    (a full chunk is tried as not-last, then as last)."""
    src = age.ArmorReader(io.BytesIO(body)) if armored else io.BytesIO(body)
    age.read_header(src)
    rest = src.read()
    nonce, payload = rest[:16], rest[16:]
    aead = ChaCha20Poly1305(_hkdf(file_key, nonce, b"payload"))
    out = []
    for n, o in enumerate(range(0, len(payload), 65552)):
        c, got = payload[o : o + 65552], None
        for last in (0, 1) if len(c) == 65552 else (1,):
            try:
                got = aead.decrypt(n.to_bytes(11, "big") + bytes([last]), c, None)
                break
            except Exception:
                continue
        if got is None or (last and n and not got):  # a fault, or an empty final chunk after others
            break
        out.append(got)
        if last:  # the final chunk: anything after it is the fault
            break
    return b"".join(out)


@needs_cctv
def test_cctv_vectors_present():
    assert len(list(CCTV.iterdir())) == 147


@needs_cctv
def test_cctv_through_the_cli(tmp_path):
    """The CLI on a sample of vectors: success writes the payload, every failure exits 1 with one line and
    no output (a file sealed with the hybrid identity, an armored one, a bad tag, a bad MAC, a short chunk)."""
    for name, want in [
        ("hybrid", 0),
        ("armor_x25519", 0),
        ("x25519_grease", 0),
        ("hybrid_bad_tag", 1),
        ("hmac_bad", 1),
        ("stream_short_chunk", 1),
        ("stream_last_chunk_empty", 1),
        ("x25519_low_order", 1),
        ("stanza_missing_final_line", 1),
    ]:
        meta, ids, _, body = _vector(CCTV / name)
        (tmp_path / "in").write_bytes(body)
        (tmp_path / "id").write_text("# identity\n" + "\n".join(ids) + "\n")
        out = tmp_path / "out"
        r = subprocess.run(
            [NURI_BIN, "open", "--identity", tmp_path / "id", "-i", tmp_path / "in", "-o", out],
            capture_output=True,
            text=True,
        )
        assert r.returncode == want, (name, r.stderr)
        if want == 0:
            assert hashlib.sha256(out.read_bytes()).hexdigest() == meta["payload"]
            out.unlink()
        else:
            assert not out.exists() and "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".nuri")] == []


@needs_cctv
def test_cctv_scrypt_limit_before_the_passphrase(tmp_path):
    """A passphrase file asking for work factor 23 is refused before anything is asked or computed."""
    _, _, _, body = _vector(CCTV / "scrypt_work_factor_23")
    (tmp_path / "in").write_bytes(body)
    r = subprocess.run(
        [NURI_BIN, "open", "-i", tmp_path / "in", "-o", tmp_path / "out"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={k: v for k, v in os.environ.items() if k != "NURI_PASSPHRASE"},
    )
    assert r.returncode == 1 and "work factor 23" in r.stderr and not (tmp_path / "out").exists()


# ---- Bech32 (BIP 173 examples) and age key strings ----


@pytest.mark.parametrize(
    "s",
    [
        "A12UEL5L",
        "a12uel5l",
        "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
    ],
)
def test_bech32_valid(s):
    hrp, data = bech32.decode(s)
    assert data == b"" and bech32.encode(hrp, data) == s


@pytest.mark.parametrize(
    "s", ["A12UEL5l", "1nwldj5", "pzry9x0s0muk", "x1b4n0q5v", "li1dgmt3", "A1G7SGD8", "10a06t8", "1qzzfhee", "a12uel5x"]
)
def test_bech32_invalid(s):
    with pytest.raises(bech32.Bech32Error):
        bech32.decode(s)


def test_age_key_strings():
    seed = bytes(range(32))
    pk = hpke.xwing_public_key(seed)
    r, i = age.key_string("mlkem768-x25519", "public", pk), age.key_string("mlkem768-x25519", "seed", seed)
    assert r.startswith("age1pq1") and len(r) == 1959 and i.startswith("AGE-SECRET-KEY-PQ-1") and i.isupper()
    assert age.parse_key_string(r) == ("mlkem768-x25519", "public", pk)
    assert age.parse_key_string(i) == ("mlkem768-x25519", "seed", seed)
    x = age.X25519Identity(seed)
    assert str(x).startswith("AGE-SECRET-KEY-1") and str(x.recipient()).startswith("age1")
    assert age.parse_key_string(str(x)) == ("x25519", "secret", seed)
    for bad in (i.lower(), r.upper(), r[:-1] + ("q" if r[-1] != "q" else "p"), "age1yubikey1qqqqqqqqqq", "hello"):
        with pytest.raises(ValueError):
            age.parse_key_string(bad)


def test_identity_file_is_what_age_keygen_writes():
    seed = os.urandom(32)
    text = age.identity_file(seed, created="2026-01-02T03:04:05Z")
    lines = text.splitlines()
    assert lines[0] == "# created: 2026-01-02T03:04:05Z"
    assert lines[1] == "# public key: " + age.key_string("mlkem768-x25519", "public", hpke.xwing_public_key(seed))
    (ident,) = recipients.load_identities(text.encode())
    assert (ident.kem, ident.sk) == (hpke.KEM_MLKEM768_X25519, seed)


# ---- independent implementations ----


def _pyca_xwing(seed):
    ms, xs = hpke.xwing_expand(seed)
    return P.MLKEM768X25519PrivateKey(
        PM.MLKEM768PrivateKey.from_seed_bytes(ms), PX.X25519PrivateKey.from_private_bytes(xs)
    )


def _suite():
    return P.Suite(P.KEM.MLKEM768_X25519, P.KDF.HKDF_SHA256, P.AEAD.CHACHA20_POLY1305)


def test_pq_stanza_against_pyca_hpke():
    """nuri's mlkem768x25519 stanza opens with pyca's HPKE, and a stanza pyca makes opens in nuri."""
    seed = os.urandom(32)
    pk = hpke.xwing_public_key(seed)
    fk, h = age.new_header([recipients.Recipient.of(hpke.KEM_MLKEM768_X25519, pk)])
    (s,) = h.stanzas
    assert s.type == "mlkem768x25519" and len(s.args) == 1 and len(s.body) == 32
    blob = age.b64decode(s.args[0].encode()) + s.body
    assert _suite().decrypt(blob, _pyca_xwing(seed), info=age.PQ_LABEL) == fk
    # pyca wraps a file key; nuri's header built around that stanza opens with the seed
    fk2 = os.urandom(16)
    ct = _suite().encrypt(fk2, _pyca_xwing(seed).public_key(), info=age.PQ_LABEL)
    st = age.Stanza("mlkem768x25519", [age.b64encode(ct[:1120]).decode()], ct[1120:])
    h2 = age.AgeHeader([st])
    h2.mac = age.header_mac(fk2, h2.body)
    ident = recipients.Identity.of(hpke.KEM_MLKEM768_X25519, seed)
    assert age.file_key(age.read_header(io.BytesIO(h2.to_bytes())), [ident]) == fk2


def _hkdf(ikm, salt, info, n=32):
    return HKDF(hashes.SHA256(), n, salt, info).derive(ikm)


def _independent_open(blob, x25519_sk=None, passphrase=None):
    """age's specification, written out with pyca's primitives and the standard library alone."""
    lines = blob.split(b"\n")
    assert lines[0] == b"age-encryption.org/v1"
    i, fk = 1, None
    while not lines[i].startswith(b"---"):
        args = lines[i].split(b" ")[1:]
        i += 1
        body = b""
        while True:
            ln = lines[i]
            i += 1
            body += binascii.a2b_base64(ln + b"=" * (-len(ln) % 4)) if ln else b""
            if len(ln) < 64:
                break
        if args[0] == b"X25519" and x25519_sk is not None:
            share = binascii.a2b_base64(args[1] + b"=")
            sk = PX.X25519PrivateKey.from_private_bytes(x25519_sk)
            ss = sk.exchange(PX.X25519PublicKey.from_public_bytes(share))
            key = _hkdf(ss, share + sk.public_key().public_bytes_raw(), b"age-encryption.org/v1/X25519")
            fk = ChaCha20Poly1305(key).decrypt(bytes(12), body, None)
        if args[0] == b"scrypt" and passphrase is not None:
            salt = binascii.a2b_base64(args[1] + b"==")
            key = Scrypt(b"age-encryption.org/v1/scrypt" + salt, 32, 2 ** int(args[2]), 8, 1).derive(passphrase)
            fk = ChaCha20Poly1305(key).decrypt(bytes(12), body, None)
    header_end = sum(len(x) + 1 for x in lines[:i]) + 3
    mac = binascii.a2b_base64(lines[i][4:] + b"=")
    assert hmac.new(_hkdf(fk, b"", b"header"), blob[:header_end], "sha256").digest() == mac
    rest = blob[sum(len(x) + 1 for x in lines[: i + 1]) :]
    nonce, payload = rest[:16], rest[16:]
    aead = ChaCha20Poly1305(_hkdf(fk, nonce, b"payload"))
    out, n = [], 0
    chunks = [payload[o : o + 65536 + 16] for o in range(0, len(payload), 65536 + 16)] or [b""]
    for n, c in enumerate(chunks):
        last = n == len(chunks) - 1
        out.append(aead.decrypt(n.to_bytes(11, "big") + bytes([last]), c, None))
    return b"".join(out)


@pytest.mark.parametrize("size", [0, 1, 65536, 65537, 3 * 65536 + 5])
def test_independent_decoder_opens_nuri_files(size):
    data = os.urandom(size)
    x = age.X25519Identity.generate()
    assert _independent_open(age.seal_bytes(data, [x.recipient()]), x25519_sk=x.sk) == data
    blob = age.seal_bytes(data, [age.ScryptRecipient(b"pw", 4)])
    assert _independent_open(blob, passphrase=b"pw") == data


# ---- round trips, rules ----


@pytest.fixture(scope="module")
def ids():
    seed = os.urandom(32)
    pq = recipients.Identity.of(hpke.KEM_MLKEM768_X25519, seed)
    pq_r = recipients.Recipient.of(hpke.KEM_MLKEM768_X25519, hpke.xwing_public_key(seed))
    x = age.X25519Identity.generate()
    return pq, pq_r, x


@pytest.mark.parametrize("size", BOUNDARY_SIZES)
@pytest.mark.parametrize("armor", [False, True])
def test_round_trip_sizes(ids, size, armor):
    pq, pq_r, x = ids
    data = os.urandom(size)
    blob = age.seal_bytes(data, [pq_r], armor=armor)
    chunks = max(1, -(-size // 65536))
    if not armor:
        assert len(blob) == len(age.read_header(io.BytesIO(blob)).to_bytes()) + 16 + size + 16 * chunks
    else:
        assert blob.startswith(age.ARMOR_BEGIN + b"\n") and blob.endswith(age.ARMOR_END + b"\n")
    assert age.open_bytes(blob, [x, pq]) == data
    with pytest.raises(NotRecipientError):
        age.open_bytes(blob, [x])


def test_armor_crlf_and_whitespace_and_small_reads(ids):
    pq, pq_r, _ = ids
    data = os.urandom(200_000)
    blob = age.seal_bytes(data, [pq_r], armor=True)
    assert age.open_bytes(blob.replace(b"\n", b"\r\n"), [pq]) == data  # the careful path, every line
    assert age.open_bytes(b"\n  \t\n" + blob + b"\n\n  ", [pq]) == data
    r = age.ArmorReader(io.BytesIO(blob))
    got = b"".join(iter(lambda: r.read(7), b""))  # the bytes of the binary file, 7 at a time
    assert got == age.ArmorReader(io.BytesIO(blob)).read()
    lines = blob.split(b"\n")
    mid = len(lines) // 2
    with pytest.raises(InvalidTag):  # a line of the payload removed: the armor is fine, a chunk is not
        age.open_bytes(b"\n".join(lines[:mid] + lines[mid + 1 :]), [pq])
    for bad in (
        b"\n".join(lines[:3] + [lines[3][:-1]] + lines[4:]),  # a short line in the middle
        b"\n".join(lines[:3] + [lines[3] + b"A"] + lines[4:]),  # 65 columns
        blob[:-40],  # no END line
        blob + b"x",  # data after it
        blob + b" " * 1024,  # too much trailing space
    ):
        with pytest.raises(age.AgeArmorError):
            age.open_bytes(bad, [pq])


def test_recipient_rules(ids):
    pq, pq_r, x = ids
    with pytest.raises(ValueError, match="quantum"):
        age.new_header([pq_r, x.recipient()])
    blob = age.seal_bytes(b"mixed", [pq_r, x.recipient()], allow_mixed=True)
    assert age.open_bytes(blob, [x]) == age.open_bytes(blob, [pq]) == b"mixed"
    with pytest.raises(ValueError, match="only recipient"):
        age.new_header([age.ScryptRecipient(b"pw", 4), x.recipient()])
    with pytest.raises(ValueError, match="ML-KEM-768 key alone"):
        age.new_header([recipients.Recipient.from_bytes(recipients.generate("mlkem768")[0])])
    # a header with scrypt beside another stanza is malformed, whatever identity is offered
    fk, h = age.new_header([x.recipient()])
    _, hs = age.new_header([age.ScryptRecipient(b"pw", 4)], file_key=fk)
    both = age.AgeHeader(h.stanzas + hs.stanzas)
    both.mac = age.header_mac(fk, both.body)
    with pytest.raises(age.AgeHeaderError, match="only stanza"):
        age.file_key(both, [x])
    with pytest.raises(age.ScryptLimitError):
        age.file_key(hs, [age.ScryptIdentity(b"pw", max_work_factor=3)])
    with pytest.raises(NotRecipientError, match="incorrect passphrase"):
        age.file_key(hs, [age.ScryptIdentity(b"wrong")])
    assert age.file_key(hs, [age.ScryptIdentity(b"pw")]) == fk


def test_unknown_stanzas_are_skipped_and_covered_by_the_mac(ids):
    _, _, x = ids
    fk, h = age.new_header([x.recipient()])
    g = age.AgeHeader([age.Stanza("grease-x", ["a", "b!"], os.urandom(70))] + h.stanzas)
    g.mac = age.header_mac(fk, g.body)
    assert age.file_key(age.read_header(io.BytesIO(g.to_bytes())), [x]) == fk
    g2 = age.AgeHeader([age.Stanza("grease-y", ["a", "b!"], g.stanzas[0].body)] + h.stanzas, mac=g.mac)
    with pytest.raises(InvalidTag, match="header MAC"):
        age.file_key(g2, [x])


def test_empty_final_chunk_after_others_is_refused(ids):
    """The sealer never writes it; a file that has one (every tag valid) fails, as age requires."""
    _, _, x = ids
    fk, h = age.new_header([x.recipient()])
    nonce = os.urandom(16)
    aead = ChaCha20Poly1305(_hkdf(fk, nonce, b"payload"))
    c0 = aead.encrypt(bytes(11) + b"\x00", b"a" * 65536, None)
    c1 = aead.encrypt((1).to_bytes(11, "big") + b"\x01", b"", None)
    with pytest.raises(InvalidTag):
        age.open_bytes(h.to_bytes() + nonce + c0 + c1, [x])
    c0_last = aead.encrypt(bytes(11) + b"\x01", b"a" * 65536, None)
    assert age.open_bytes(h.to_bytes() + nonce + c0_last, [x]) == b"a" * 65536


def test_header_limits():
    with pytest.raises(age.AgeHeaderError, match="2 MiB"):
        age.read_header(io.BytesIO(age.INTRO + b"-> x\n" + (b"A" * 64 + b"\n") * 40000))
    body = age.INTRO + b"-> x\n\n" * 1025 + b"--- " + age.b64encode(bytes(32)) + b"\n"
    with pytest.raises(age.AgeHeaderError, match="1024"):
        age.read_header(io.BytesIO(body))


# ---- the CLI ----


@pytest.fixture(scope="module")
def cli_keys(tmp_path_factory):
    d = tmp_path_factory.mktemp("agekeys")
    assert nuri("kem", "keygen", "--format", "age", "-o", d / "id.txt", "--public", d / "id.pub") == 0
    assert nuri("kem", "keygen", "--kem", "mlkem768-x25519", "--public", d / "n.pk", "--secret", d / "n.sk") == 0
    assert nuri("kem", "keygen", "--public", d / "m.pk", "--secret", d / "m.sk") == 0  # ML-KEM-768
    x = age.X25519Identity.generate()
    (d / "x.txt").write_text(f"# an age X25519 identity\n{x}\n")
    (d / "x.pub").write_text(f"{x.recipient()}\n")
    return d


def _open(tmp_path, blob, *args):
    (tmp_path / "in").write_bytes(blob)
    out = tmp_path / "out"
    if out.exists():
        out.unlink()
    rc = nuri("open", *args, "-i", tmp_path / "in", "-o", out)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".nuri-")] == []
    return rc, (out.read_bytes() if out.exists() else None)


def test_keygen_format_age_prints_the_recipient(tmp_path, capsys):
    assert nuri("kem", "keygen", "--format", "age", "-o", tmp_path / "k") == 0
    recipient = capsys.readouterr().out.strip()
    text = (tmp_path / "k").read_text()
    assert f"# public key: {recipient}\n" in text and recipient.startswith("age1pq1")
    assert os.stat(tmp_path / "k").st_mode & 0o077 == 0


@pytest.mark.parametrize("armor", [[], ["-a"]])
def test_cli_round_trip(tmp_path, cli_keys, armor):
    d = cli_keys
    data = os.urandom(150_000)
    (tmp_path / "p").write_bytes(data)
    pub = (d / "id.pub").read_text().strip()
    rf = tmp_path / "recips"
    rf.write_text(f"# team\n\n{pub}\n# and the nuri key's age form is the same kind\n")
    cases = [
        (["-r", pub], {"id.txt"}),
        (["-r", rf], {"id.txt"}),
        (["-r", d / "n.pk"], {"n.sk"}),  # a nuri ML-KEM-768+X25519 key file is an age recipient too
        (["-r", pub, "-r", d / "n.pk"], {"id.txt", "n.sk"}),
    ]
    for rs, openers in cases:
        o = tmp_path / "s.age"
        if o.exists():
            o.unlink()
        assert nuri("seal", "--format", "age", *armor, *rs, "-i", tmp_path / "p", "-o", o) == 0
        blob = o.read_bytes()
        assert blob.startswith(age.ARMOR_BEGIN if armor else age.INTRO)
        for ident in ("id.txt", "n.sk"):
            want = (0, data) if ident in openers else (1, None)
            assert _open(tmp_path, blob, "--identity", d / ident) == want
            assert _open(tmp_path, blob, "--identity", d / "x.txt", "--identity", d / ident) == want


def test_cli_v2_with_age_keys(tmp_path, cli_keys):
    """A nuri v2 file sealed to an age1pq1 recipient opens with the matching age identity file."""
    d = cli_keys
    (tmp_path / "p").write_bytes(b"v2 to an age key" * 1000)
    pub = (d / "id.pub").read_text().strip()
    assert nuri("seal", "-r", pub, "-i", tmp_path / "p", "-o", tmp_path / "s") == 0
    blob = (tmp_path / "s").read_bytes()
    assert blob[:9] == b"NURISEAL\x02"
    assert _open(tmp_path, blob, "--identity", d / "id.txt") == (0, b"v2 to an age key" * 1000)
    assert _open(tmp_path, blob, "--identity", d / "n.sk") == (1, None)
    assert nuri("seal", "-r", d / "x.pub", "-i", tmp_path / "p", "-o", tmp_path / "s2") == 2  # X25519: age only


def test_cli_usage_errors(tmp_path, cli_keys, monkeypatch):
    d = cli_keys
    (tmp_path / "p").write_bytes(b"x")
    o = tmp_path / "o"
    monkeypatch.setenv("NURI_PASSPHRASE", "pw")
    for args in (
        ["--format", "age", "-r", d / "id.pub", "-r", d / "x.pub"],  # PQ and classic
        ["--format", "age", "-r", d / "m.pk"],  # ML-KEM-768 alone
        ["--format", "age", "-r", d / "x.pub", "-p"],  # passphrase beside a recipient
        ["--format", "age", "-k", d / "id.txt"],
        ["--format", "age", "-r", d / "x.pub", "--chunk-log2", "12"],
        ["--format", "age", "-r", d / "id.txt"],  # an identity where a recipient goes
        ["-a", "-r", d / "n.pk"],  # armor is for age files
        ["--format", "age"],
        ["--format", "age", "-r", "age1pq1notakey"],
    ):
        assert nuri("seal", *args, "-i", tmp_path / "p", "-o", o) == 2, args
        assert not o.exists()
    assert (
        nuri(
            "seal",
            "--format",
            "age",
            "--allow-mixed",
            "-r",
            d / "id.pub",
            "-r",
            d / "x.pub",
            "-i",
            tmp_path / "p",
            "-o",
            o,
        )
        == 0
    )
    blob = o.read_bytes()
    assert _open(tmp_path, blob, "--identity", d / "x.txt") == (0, b"x")
    assert _open(tmp_path, blob, "-p") == (1, None)  # not passphrase-encrypted (or a tampered stanza type)
    assert _open(tmp_path, blob) == (2, None)  # nothing to open it with
    assert _open(tmp_path, blob, "-k", d / "id.txt") == (2, None)


def test_cli_passphrase(tmp_path, monkeypatch):
    monkeypatch.setenv("NURI_PASSPHRASE", "correct horse")
    data = os.urandom(70_000)
    (tmp_path / "p").write_bytes(data)
    assert (
        nuri("seal", "--format", "age", "-p", "--scrypt-work-factor", "5", "-i", tmp_path / "p", "-o", tmp_path / "s")
        == 0
    )
    blob = (tmp_path / "s").read_bytes()
    assert re.match(rb"age-encryption.org/v1\n-> scrypt [A-Za-z0-9+/]{22} 5\n", blob)
    assert _open(tmp_path, blob, "-p") == (0, data)
    assert _open(tmp_path, blob, "-p", "--scrypt-max", "4") == (1, None)
    assert _open(tmp_path, blob, "--identity", tmp_path / "p") == (1, None)  # identities for a passphrase file
    monkeypatch.setenv("NURI_PASSPHRASE", "wrong")
    assert _open(tmp_path, blob, "-p") == (1, None)


def test_cli_faults_write_nothing(tmp_path, cli_keys):
    d = cli_keys
    data = os.urandom(3 * 65536 + 100)
    (tmp_path / "p").write_bytes(data)
    assert nuri("seal", "--format", "age", "-r", d / "x.pub", "-i", tmp_path / "p", "-o", tmp_path / "s") == 0
    blob = (tmp_path / "s").read_bytes()
    hlen = blob.index(b"\n---") + 49
    for bad in (
        blob[:-1],
        blob[: hlen + 16 + 65552],  # cut at a chunk boundary
        blob + b"\x00",
        blob[:hlen] + blob[hlen + 1 :],
        blob[:100] + bytes([blob[100] ^ 1]) + blob[101:],
        blob[: hlen + 20] + bytes([blob[hlen + 20] ^ 1]) + blob[hlen + 21 :],
        blob[: len(blob) - 5] + bytes([blob[-5] ^ 1]) + blob[len(blob) - 4 :],
    ):
        assert _open(tmp_path, bad, "--identity", d / "x.txt") == (1, None)
    assert _open(tmp_path, blob, "--identity", d / "id.txt") == (1, None)  # not a recipient
    assert _open(tmp_path, blob, "--identity", d / "x.txt") == (0, data)


def test_cli_stdout_from_file_and_pipe(tmp_path, cli_keys):
    d = cli_keys
    data = os.urandom(5 * 65536)
    (tmp_path / "p").write_bytes(data)
    assert nuri("seal", "--format", "age", "-a", "-r", d / "x.pub", "-i", tmp_path / "p", "-o", tmp_path / "s") == 0
    r = subprocess.run(
        [NURI_BIN, "open", "--identity", d / "x.txt", "-i", tmp_path / "s", "-o", "-"], capture_output=True
    )
    assert r.returncode == 0 and r.stdout == data
    blob = (tmp_path / "s").read_bytes()
    r = subprocess.run(
        [NURI_BIN, "open", "--identity", d / "x.txt", "-i", "-", "-o", "-"], input=blob, capture_output=True
    )
    assert r.returncode == 0 and r.stdout == data
    cut = blob[: len(blob) // 2]  # a stream cut short: exit 1 after what authenticated, never more
    r = subprocess.run(
        [NURI_BIN, "open", "--identity", d / "x.txt", "-i", "-", "-o", "-"], input=cut, capture_output=True
    )
    assert r.returncode == 1 and data.startswith(r.stdout) and len(r.stdout) < len(data)
    (tmp_path / "c").write_bytes(cut)  # from a file: nothing at all
    r = subprocess.run(
        [NURI_BIN, "open", "--identity", d / "x.txt", "-i", tmp_path / "c", "-o", "-"], capture_output=True
    )
    assert r.returncode == 1 and r.stdout == b""
