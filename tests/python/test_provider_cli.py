"""The OpenSSL 3 provider nuri.so from OpenSSL's own command-line tools (`make check-provider`).

NURI_PROVIDER_DIR names the directory holding nuri.so and the nuri-prov-decap helper (a small
EVP program: `openssl pkeyutl -decap` exists only from OpenSSL 3.4). `make check-provider` builds
both and sets it; run outside it, these tests skip and say why.
"""

import os
import shutil
import subprocess
import sys

import pytest

from nuri import mlkem, pipo

PROV = os.environ.get("NURI_PROVIDER_DIR")
pytestmark = pytest.mark.skipif(
    not PROV, reason="NURI_PROVIDER_DIR is not set: run `make check-provider` (it builds nuri.so and sets it)"
)
NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")
KEY = "000102030405060708090a0b0c0d0e0f"
IV = "0f0e0d0c0b0a0908"


def openssl(*args, check=True, data=None):
    env = dict(os.environ, OPENSSL_MODULES=PROV)
    r = subprocess.run(["openssl", *map(str, args)], env=env, input=data, capture_output=True)
    if check and r.returncode != 0:
        raise AssertionError(f"openssl {' '.join(map(str, args))} failed: {r.stderr.decode(errors='replace')}")
    return r


def test_provider_is_there():
    assert os.path.exists(os.path.join(PROV, "nuri.so")), f"nuri.so missing in {PROV}"
    assert shutil.which("openssl"), "the openssl tool is missing (scripts/deps/host.apt installs libssl-dev/openssl)"


def test_list_providers():
    out = openssl("list", "-providers", "-provider-path", PROV, "-provider", "nuri").stdout.decode()
    assert "nuri" in out and "status: active" in out
    ciphers = openssl("list", "-cipher-algorithms", "-provider", "nuri").stdout.decode()
    for name in ("PIPO-128-CTR", "PIPO-256-CBC", "SCHWAEMM256-128", "SCHWAEMM256-256"):
        assert f"{name} @ nuri" in ciphers
    assert "ML-KEM-768" in openssl("list", "-kem-algorithms", "-provider", "nuri").stdout.decode()


@pytest.mark.parametrize("mode", ["ctr", "cbc", "ecb"])
@pytest.mark.parametrize("bits", [128, 256])
def test_enc_round_trip_matches_library(tmp_path, mode, bits):
    key = bytes.fromhex(KEY * (bits // 128))
    msg = os.urandom(1000) + b"tail"
    (tmp_path / "m").write_bytes(msg)
    ivargs = [] if mode == "ecb" else ["-iv", IV]
    common = [f"-pipo-{bits}-{mode}", "-K", key.hex(), *ivargs, "-provider", "nuri", "-provider", "default"]
    openssl("enc", *common, "-in", tmp_path / "m", "-out", tmp_path / "c")
    ct = (tmp_path / "c").read_bytes()
    # the same bytes as the library (openssl enc pads block modes with PKCS#7)
    want = pipo.encrypt(
        key, msg, mode, iv=None if mode == "ecb" else bytes.fromhex(IV), padding="none" if mode == "ctr" else "pkcs7"
    )
    assert ct == want
    openssl("enc", "-d", *common, "-in", tmp_path / "c", "-out", tmp_path / "p")
    assert (tmp_path / "p").read_bytes() == msg


@pytest.mark.parametrize("last", [0x00, 0x09, 0xFF])
def test_enc_wrong_padding_fails(tmp_path, last):
    # A ciphertext whose last plaintext block ends in a byte no PKCS#7 padding can end in (0, or more
    # than the 8-byte block). Random bytes would carry valid padding about once in 256 runs.
    plain = os.urandom(63) + bytes([last])
    ct = pipo.encrypt(bytes.fromhex(KEY), plain, "cbc", iv=bytes.fromhex(IV), padding="none")
    (tmp_path / "c").write_bytes(ct)
    r = openssl(
        "enc",
        "-d",
        "-pipo-128-cbc",
        "-K",
        KEY,
        "-iv",
        IV,
        "-provider",
        "nuri",
        "-provider",
        "default",
        "-in",
        tmp_path / "c",
        "-out",
        tmp_path / "p",
        check=False,
    )
    assert r.returncode != 0 and b"bad decrypt" in r.stderr


def test_enc_refuses_aead(tmp_path):
    (tmp_path / "m").write_bytes(b"x")
    r = openssl(
        "enc",
        "-schwaemm256-128",
        "-K",
        KEY,
        "-iv",
        "00" * 32,
        "-provider",
        "nuri",
        "-provider",
        "default",
        "-in",
        tmp_path / "m",
        check=False,
    )
    assert r.returncode != 0 and b"AEAD ciphers not supported" in r.stderr


@pytest.mark.parametrize("alg", ["esch256", "esch384"])
def test_dgst_matches_nuri_hash(tmp_path, alg):
    f = tmp_path / "data.bin"
    f.write_bytes(os.urandom(5000))
    out = openssl("dgst", f"-{alg}", "-provider", "nuri", f).stdout.decode().strip()
    assert out.startswith(f"{alg.upper()}(")
    ours = subprocess.run([NURI_BIN, "hash", alg, str(f)], capture_output=True, check=True).stdout.decode().split()[0]
    assert out.rsplit("= ", 1)[1] == ours


def _spki_public_key(der, level):
    """ek from SubjectPublicKeyInfo DER: SEQUENCE { SEQUENCE { OID 2.16.840.1.101.3.4.4.n }, BIT STRING }."""
    n = {512: 1, 768: 2, 1024: 3}[level]
    ek_len = mlkem.sizes(level)[0]
    body = 13 + 4 + 1 + ek_len  # AlgorithmIdentifier, BIT STRING header, unused-bits byte, ek
    assert der[:4] == bytes([0x30, 0x82]) + body.to_bytes(2, "big")
    assert der[4:17] == bytes.fromhex("300b0609608648016503040400")[:-1] + bytes([n])
    assert der[17:22] == bytes([0x03, 0x82]) + (ek_len + 1).to_bytes(2, "big") + b"\x00"
    assert len(der) == 22 + ek_len
    return der[22:]


@pytest.mark.parametrize("form", ["PEM", "DER"])
def test_genpkey_mlkem768_python_encaps_provider_decaps(tmp_path, form):
    key = tmp_path / f"k.{form.lower()}"
    openssl("genpkey", "-algorithm", "ML-KEM-768", "-provider", "nuri", "-outform", form, "-out", key)
    # read back: the key parses and its public half comes out as SubjectPublicKeyInfo DER
    openssl("pkey", "-in", key, "-inform", form, "-provider", "nuri", "-provider", "default", "-noout")
    pub = openssl(
        "pkey", "-in", key, "-inform", form, "-pubout", "-outform", "DER", "-provider", "nuri", "-provider", "default"
    ).stdout
    ek = _spki_public_key(pub, 768)
    mlkem.check_encapsulation_key(768, ek)
    text = openssl(
        "pkey", "-in", key, "-inform", form, "-text_pub", "-noout", "-provider", "nuri", "-provider", "default"
    ).stdout.decode()
    assert text.startswith("ML-KEM-768 Public-Key:\nek:") and "dk:" not in text
    assert bytes.fromhex(text.split("ek:", 1)[1].replace(":", "").replace("\n", "").replace(" ", "")) == ek
    shared, ct = mlkem.encaps(768, ek)
    (tmp_path / "ct").write_bytes(ct)
    r = subprocess.run(
        [os.path.join(PROV, "tests", "nuri-prov-decap"), PROV, str(key), str(tmp_path / "ct")], capture_output=True
    )
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    assert r.stdout.decode().strip() == shared.hex()
    # a different ciphertext gives a different key (implicit rejection), not the sender's
    bad = bytearray(ct)
    bad[0] ^= 1
    (tmp_path / "ct").write_bytes(bytes(bad))
    r = subprocess.run(
        [os.path.join(PROV, "tests", "nuri-prov-decap"), PROV, str(key), str(tmp_path / "ct")],
        capture_output=True,
        check=True,
    )
    assert r.stdout.decode().strip() != shared.hex()


def test_genpkey_encrypted_key(tmp_path):
    key = tmp_path / "k.pem"
    prov = ["-provider", "nuri", "-provider", "default"]
    openssl("genpkey", "-algorithm", "ML-KEM-512", *prov, "-aes256", "-pass", "pass:secret", "-out", key)
    data = key.read_bytes()
    assert b"BEGIN ENCRYPTED PRIVATE KEY" in data and b"BEGIN PRIVATE KEY" not in data
    r = openssl("pkey", "-in", key, "-passin", "pass:wrong", *prov, "-noout", check=False)
    assert r.returncode != 0
    plain = openssl("pkey", "-in", key, "-passin", "pass:secret", *prov).stdout
    assert plain.startswith(b"-----BEGIN PRIVATE KEY-----")
    (tmp_path / "plain.pem").write_bytes(plain)
    pub = openssl("pkey", "-in", tmp_path / "plain.pem", "-pubout", "-outform", "DER", *prov).stdout
    shared, ct = mlkem.encaps(512, _spki_public_key(pub, 512))
    (tmp_path / "ct").write_bytes(ct)
    r = subprocess.run(
        [os.path.join(PROV, "tests", "nuri-prov-decap"), PROV, str(tmp_path / "plain.pem"), str(tmp_path / "ct")],
        capture_output=True,
        check=True,
    )
    assert r.stdout.decode().strip() == shared.hex()
