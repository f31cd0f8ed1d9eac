"""Known-answer files for nuri-seal v1 and v2 (docs/seal-format.md): tests/seal/kat/ holds files made
with fixed keys, salts, file keys and KEM randomness. The test rebuilds each byte for byte from the
parameters below through the library, and opens each stored file through the CLI.

Regenerate (only when the format changes on purpose): python tests/python/test_seal_kat.py --write"""

import hashlib
import io
import os
import sys

import pytest

if os.environ.get("CI"):  # scripts/deps/seal.pip installs pyca/cryptography >= 50: never skip in CI
    import cryptography.hazmat.primitives.hpke  # noqa: F401

KAT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "seal", "kat")
PT = bytes((i * 7 + 3) % 256 for i in range(2500))  # 3 chunks of 1 KiB (2^10): 1024, 1024, 452
PASSPHRASE = b"correct horse battery staple"
MLKEM_SEED = bytes(range(64))  # identity 1: ML-KEM-768 seed d || z
XWING_SEED = bytes(range(64, 96))  # identity 2: ML-KEM-768+X25519 seed
FILE_KEY = bytes(range(100, 132))
RAND_MLKEM = bytes(range(200, 232))  # ML-KEM m for the stanza of identity 1
RAND_XWING = bytes(range(150, 214))  # ML-KEM m || X25519 ephemeral secret for identity 2


def build():
    """{file name: bytes} of every known-answer file."""
    from nuri import seal
    from nuri.seal import hpke
    from nuri.seal.video import segment_name

    out = {}

    def v1(kdf, salt, key=None, pw=None, argon2=(0, 0, 0), pt=PT):
        h = seal.Header.new(kdf, 10, argon2, salt=salt)
        b = io.BytesIO()
        b.write(h.to_bytes())
        seal._v1_payload(h, key, pw, 1, argon2_limit=None).seal(io.BytesIO(pt), b.write)
        return b.getvalue()

    out["v1-key.nseal"] = v1(seal.KDF_KEY, bytes(range(32)), key=bytes(range(16)))
    out["v1-key-empty.nseal"] = v1(seal.KDF_KEY, bytes(range(1, 33)), key=bytes(range(16)), pt=b"")
    out["v1-passphrase.nseal"] = v1(seal.KDF_ARGON2ID, bytes(range(32, 64)), pw=PASSPHRASE, argon2=(2, 256, 1))

    from nuri import mlkem

    ek = mlkem.keygen(768, MLKEM_SEED)[0]
    xpk = hpke.xwing_public_key(XWING_SEED)

    def v2(kind, salt, segments=None):
        fk, h = seal.new_v2_header(
            [ek, xpk], 10, kind=kind, file_key=FILE_KEY, salt=salt, rands=[RAND_MLKEM, RAND_XWING]
        )
        if segments is None:
            b = io.BytesIO()
            b.write(h.to_bytes())
            seal.v2_payload(fk, h, 1).seal(io.BytesIO(PT), b.write)
            return {"v2-two-recipients.nseal": b.getvalue()}
        files = {"video/stream.nseal": h.to_bytes()}
        for i, seg in enumerate(segments):
            b = io.BytesIO()
            seal.v2_payload(fk, h, 1, segment=(i, i == len(segments) - 1)).seal(io.BytesIO(seg), b.write)
            files["video/" + segment_name(i)] = b.getvalue()
        return files

    out.update(v2(seal.KIND_FILE, b"\x5a" * 32))
    out.update(v2(seal.KIND_VIDEO, b"\xa5" * 32, [PT[:1500], PT[1500:]]))
    out["ids/mlkem768.seed"] = MLKEM_SEED
    out["ids/mlkem768.pk"] = ek
    out["ids/mlkem768-x25519.seed"] = XWING_SEED
    out["ids/mlkem768-x25519.pk"] = xpk
    out["plaintext.bin"] = PT
    return out


PLAYLIST = (
    "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n"
    "#NURI-SEAL-HEADER:stream.nseal\n#EXTINF:1.000,\nseg00000.ts.nseal\n#EXTINF:1.000,\n"
    "seg00001.ts.nseal\n#EXT-X-ENDLIST\n"
)


def write():
    files = build()
    files["video/playlist.m3u8"] = PLAYLIST.encode()
    for name, data in files.items():
        p = os.path.join(KAT, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
    with open(os.path.join(KAT, "SHA256SUMS"), "w") as f:
        for name in sorted(files):
            f.write(f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n")


def _stored(name):
    with open(os.path.join(KAT, name), "rb") as f:
        return f.read()


def test_files_rebuild_byte_for_byte():
    pytest.importorskip("nuri.aead")
    pytest.importorskip("cryptography.hazmat.primitives.hpke")
    files = build()
    for name, data in files.items():
        assert _stored(name) == data, name
    sums = dict(reversed(line.split("  ")) for line in open(os.path.join(KAT, "SHA256SUMS")).read().splitlines())
    for name, digest in sums.items():
        assert hashlib.sha256(_stored(name)).hexdigest() == digest, name
    # sizes as docs/seal-format.md computes them
    assert len(files["v1-key.nseal"]) == 56 + 2500 + 3 * 16
    assert len(files["v1-key-empty.nseal"]) == 56 + 16
    assert len(files["v2-two-recipients.nseal"]) == 46 + (4 + 1136) + (4 + 1168) + 32 + 2500 + 3 * 16


def test_stored_files_open(tmp_path):
    pytest.importorskip("nuri.aead")
    pytest.importorskip("cryptography.hazmat.primitives.hpke")
    from nuri.cli.main import main

    def nuri(*argv):
        try:
            return main([str(a) for a in argv])
        except SystemExit as e:
            return e.code

    k = tmp_path / "k"
    k.write_text("nuri-key-v1 128 " + bytes(range(16)).hex() + "\n")
    assert nuri("open", "-k", k, "-i", os.path.join(KAT, "v1-key.nseal"), "-o", tmp_path / "a") == 0
    assert (tmp_path / "a").read_bytes() == PT
    assert nuri("open", "-k", k, "-i", os.path.join(KAT, "v1-key-empty.nseal"), "-o", tmp_path / "e") == 0
    assert (tmp_path / "e").read_bytes() == b""
    pw = tmp_path / "pw"
    pw.write_bytes(PASSPHRASE + b"\n")
    assert (
        nuri("open", "--passphrase-file", pw, "-i", os.path.join(KAT, "v1-passphrase.nseal"), "-o", tmp_path / "b") == 0
    )
    assert (tmp_path / "b").read_bytes() == PT
    for ident in ("mlkem768.seed", "mlkem768-x25519.seed"):
        out = tmp_path / ident
        assert (
            nuri(
                "open",
                "--identity",
                os.path.join(KAT, "ids", ident),
                "-i",
                os.path.join(KAT, "v2-two-recipients.nseal"),
                "-o",
                out,
            )
            == 0
        )
        assert out.read_bytes() == PT
        vout = tmp_path / (ident + ".ts")
        assert (
            nuri(
                "video",
                "open",
                "--identity",
                os.path.join(KAT, "ids", ident),
                "-i",
                os.path.join(KAT, "video"),
                "-o",
                vout,
            )
            == 0
        )
        assert vout.read_bytes() == PT


if __name__ == "__main__" and "--write" in sys.argv:
    write()
