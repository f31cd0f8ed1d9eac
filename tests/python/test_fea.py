"""nuri.fea: vectors through the Python API, batches (numpy and lists), per-value tweaks,
formats (digits, alphabets, templates, RRN) and ValueError messages naming the allowed range."""

import random

import pytest

import nuri
from nuri import fea

from vectors import VECTORS, passed, records

# from tests/vectors/fea/fea1_128.txt (COUNT 0)
KEY0 = bytes(range(16))


def test_first_vector():
    assert fea.encrypt(KEY0, 0x43, 8, tweak=0x228B0724BB8F48A3C27A0DF00DBDE8) == 0x24
    assert fea.decrypt(KEY0, 0x24, 8, tweak=0x228B0724BB8F48A3C27A0DF00DBDE8) == 0x43


@pytest.mark.parametrize("impl", fea.implementations())
def test_vector_files(impl):
    n = 0
    for var in (1, 2):
        for kb in (128, 192, 256):
            start = n
            for r in records(VECTORS / "fea" / f"fea{var}_{kb}.txt"):
                if "KEY" not in r:
                    continue
                key, bits = bytes.fromhex(r["KEY"]), int(r["n"])
                tw = int(r["TWEAK"], 16) if r["TWEAK"] else 0
                pt, ct = int(r["PT"], 16), int(r["CT"], 16)
                assert fea.encrypt(key, pt, bits, tweak=tw, variant=var, impl=impl) == ct
                assert fea.decrypt(key, ct, bits, tweak=tw, variant=var, impl=impl) == pt
                n += 1
            passed(__name__, f"fea{var}_{kb}.txt", n - start)
    assert n == 168


def test_batch_numpy_and_lists():
    np = pytest.importorskip("numpy")
    rng = random.Random(5)
    key = bytes(rng.getrandbits(8) for _ in range(32))
    for bits in (8, 33, 54, 64):
        vals = np.array([rng.getrandbits(bits) for _ in range(1000)], dtype=np.uint64)
        tws = [rng.getrandbits(128 - bits) for _ in range(1000)]
        c = fea.encrypt_batch(key, vals, bits, tweak=tws)
        assert c.dtype == np.uint64 and c.shape == vals.shape
        assert all(int(c[i]) == fea.encrypt(key, int(vals[i]), bits, tweak=tws[i]) for i in range(0, 1000, 97))
        assert (fea.decrypt_batch(key, c, bits, tweak=tws) == vals).all()
    vals = [rng.getrandbits(100) for _ in range(50)]
    c = fea.encrypt_batch(key, vals, 100, tweak=7, variant=2)
    assert fea.decrypt_batch(key, c, 100, tweak=7, variant=2) == vals
    assert c[3] == fea.encrypt(key, vals[3], 100, tweak=7, variant=2)


def test_errors_name_the_range():
    with pytest.raises(ValueError, match=r"0 <= tweak < 2\*\*74"):
        fea.encrypt(KEY0, 1, 54, tweak=1 << 74)
    with pytest.raises(ValueError, match=r"0 <= tweak < 2\*\*128"):
        fea.encrypt(KEY0, 1, 54, tweak=-1, variant=2)
    with pytest.raises(ValueError, match=r"0 <= value < 2\*\*54"):
        fea.encrypt(KEY0, 1 << 54, 54)
    with pytest.raises(ValueError, match=r"8 <= nbits <= 128"):
        fea.encrypt(KEY0, 1, 7)
    with pytest.raises(ValueError, match="16, 24 or 32 bytes"):
        fea.encrypt(bytes(20), 1, 54)
    with pytest.raises(ValueError, match="variant must be 1"):
        fea.encrypt(KEY0, 1, 54, variant=3)
    with pytest.raises(ValueError, match="10\\*\\*6"):
        fea.encrypt_digits(KEY0, "12345")
    with pytest.raises(ValueError, match="3 <= length <= 38"):
        fea.encrypt_digits(KEY0, "12")
    with pytest.raises(ValueError, match="decimal digits"):
        fea.encrypt_digits(KEY0, "12345678x")
    assert len(fea.encrypt_digits(KEY0, "12345", allow_small_domain=True)) == 5


def test_digits_roundtrip_every_length():
    rng = random.Random(9)
    for L in range(3, 39):
        s = "".join(rng.choice("0123456789") for _ in range(L))
        for var in (1, 2):
            c = fea.encrypt_digits(KEY0, s, tweak=L % 2, variant=var, allow_small_domain=True)
            assert len(c) == L and c.isdigit()
            assert fea.decrypt_digits(KEY0, c, tweak=L % 2, variant=var, allow_small_domain=True) == s


def test_digits_equals_cycle_walk_on_integers():
    s = "0000123456789012"
    c = fea.encrypt_digits(KEY0, s, tweak=99)
    x = int(s)
    while True:
        x = fea.encrypt(KEY0, x, 54, tweak=99)
        if x < 10**16:
            break
    assert c == f"{x:016d}"


def test_digits_batch_mixed_lengths_and_tweaks():
    strs = ["4111111111111111", "0000000000", "123456789", "9999999999999999"]
    tws = [1, 2, 3, 4]
    c = fea.encrypt_digits_batch(KEY0, strs, tweak=tws)
    assert [len(x) for x in c] == [len(x) for x in strs]
    assert c == [fea.encrypt_digits(KEY0, s, tweak=t) for s, t in zip(strs, tws)]
    assert fea.decrypt_digits_batch(KEY0, c, tweak=tws) == strs


def test_alphabet_and_radix():
    f = fea.FPE(KEY0)
    hexa = f.alphabet("0123456789abcdef")
    s = "deadbeefcafe"
    c = hexa.encrypt(s)
    assert len(c) == len(s) and all(ch in "0123456789abcdef" for ch in c) and hexa.decrypt(c) == s
    hangul = f.alphabet([chr(0xAC00 + i) for i in range(11172)])
    name = "\ud64d\uae38\ub3d9"
    c = hangul.encrypt(name)
    assert len(c) == 3 and all(0xAC00 <= ord(ch) < 0xAC00 + 11172 for ch in c) and hangul.decrypt(c) == name
    with pytest.raises(ValueError, match="outside the alphabet"):
        hexa.encrypt("xyz123456789")
    rows = [[1, 2, 3, 4, 5, 6, 7, 8]] * 3
    c = fea.encrypt_radix_batch(KEY0, rows, 36, tweak=[1, 2, 3])
    assert fea.decrypt_radix_batch(KEY0, c, 36, tweak=[1, 2, 3]) == rows


def test_templates():
    f = fea.FPE(KEY0, variant=2, tweak=5)
    card = f.template("####-####-####-####", keep_last=4)
    c = card.encrypt("4111-1111-1111-1234")
    assert c[4] == c[9] == c[14] == "-" and c.endswith("1234") and c.replace("-", "").isdigit()
    assert card.decrypt(c) == "4111-1111-1111-1234"
    phone = f.template("010-####-####")
    c = phone.encrypt("010-1234-5678")
    assert c.startswith("010-") and c[8] == "-" and phone.decrypt(c) == "010-1234-5678"
    with pytest.raises(ValueError, match="does not match template"):
        phone.encrypt("011-1234-5678")
    with pytest.raises(ValueError, match="does not match template"):
        card.encrypt("4111 1111 1111 1234")
    rrn = f.rrn(keep_date=True)
    c = rrn.encrypt("900101-1234567")
    assert c.startswith("900101-") and len(c) == 14 and rrn.decrypt(c) == "900101-1234567"
    full = f.rrn(keep_date=False)
    c = full.encrypt("900101-1234567")
    assert c[6] == "-" and full.decrypt(c) == "900101-1234567"
    batch = card.encrypt_batch(["4111-1111-1111-1111", "5500-0000-0000-0004"])
    assert card.decrypt_batch(batch) == ["4111-1111-1111-1111", "5500-0000-0000-0004"]
    with pytest.raises(ValueError, match="10\\*\\*6"):
        fea.FPE(KEY0).template("##-####", keep_last=2)


def test_implementations_agree():
    rng = random.Random(3)
    vals = [rng.getrandbits(77) for _ in range(40)]
    outs = [fea.encrypt_batch(KEY0, vals, 77, tweak=11, impl=i) for i in fea.implementations()]
    assert all(o == outs[0] for o in outs)
    assert fea.default_implementation() in fea.implementations()


def test_key_cache_follows_key_params_and_dispatch(monkeypatch):
    """Per-value calls reuse expanded keys (fea._cache); results must follow the key's contents,
    the parameters and NURI_IMPL, and the cache stays bounded."""
    s = "1234567890123456"
    fea.clear_cache()
    k1, k2 = bytes(16), bytes(range(16))
    c1, c2 = fea.encrypt_digits(k1, s), fea.encrypt_digits(k2, s)
    assert c1 != c2 and fea.encrypt_digits(k1, s) == c1 and fea.decrypt_digits(k1, c1) == s
    # the same answer as an uncached key built for the call
    fresh = fea._Fmt(k2, 10, 16, 1, False, "ref").digits([s], 0, True)[0]
    assert fresh == c2
    # a mutable key changed between calls is a different key
    ba = bytearray(k1)
    assert fea.encrypt_digits(ba, s) == c1
    ba[0] ^= 1
    assert fea.encrypt_digits(ba, s) == fea.encrypt_digits(bytes(ba), s) != c1
    # variant, tweak and n are part of what is cached
    assert fea.encrypt_digits(k1, s, variant=2) != c1
    assert fea.encrypt_digits(k1, s, tweak=5) != c1
    assert fea.encrypt(k1, 1234, 64) != fea.encrypt(k1, 1234, 63)
    # dispatch changes (NURI_IMPL) give a key for the implementation now forced
    f_default = fea._fmt_for(k1, 10, 16, 1, False, None)
    monkeypatch.setenv("NURI_IMPL", "fea:ref")
    f_ref = fea._fmt_for(k1, 10, 16, 1, False, None)
    assert f_ref is not f_default and fea.encrypt_digits(k1, s) == c1
    monkeypatch.setenv("NURI_IMPL", "fea:no-such-impl")
    with pytest.raises(nuri.UnsupportedImplementation):
        fea.encrypt_digits(k1, s)  # not answered from the cache
    monkeypatch.delenv("NURI_IMPL")
    assert fea._fmt_for(k1, 10, 16, 1, False, None) is f_default
    for i in range(3 * fea._CACHE_MAX):
        fea.encrypt_digits(i.to_bytes(16, "big"), s)
    assert len(fea._cache) <= fea._CACHE_MAX
    fea.clear_cache()
    assert not fea._cache


def test_bench_per_call_records():
    """nuri bench fea adds per-call Python records (schema only: no timing is asserted)."""
    from nuri.tools import bench

    recs = bench.run_fea_per_call(quick=True, impl="table")
    assert [(r["op"], r["param"]) for r in recs] == [
        ("python-digits-per-call", "FEA-1/128 16 digits"),
        ("python-digits-per-call-cpu", "FEA-1/128 16 digits"),
        ("python-digits-per-call", "FEA-2/128 16 digits"),
        ("python-digits-per-call-cpu", "FEA-2/128 16 digits"),
    ]
    keys = {"family", "impl", "op", "param", "size", "platform", "metric", "median", "min", "max", "runs"}
    assert all(
        set(r) == keys and r["impl"] == "table" and r["metric"] == "values_per_s" and r["median"] > 0 for r in recs
    )
    assert bench.run_fea_per_call(quick=True, impl="no-such-impl") == []
