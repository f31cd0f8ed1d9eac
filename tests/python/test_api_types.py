"""The public Python API raises TypeError for wrong types, as pyca/cryptography and hashlib do (never
the digest of b"" for None, a tweak '1' taken as 1, or [1] from encrypt_batch([1.5])).
Every public function is called with each argument replaced by values of wrong types."""

import pytest

from nuri import aead, fea, mlkem, pipo, sparkle
from nuri import hash as H

K16, K32 = bytes(16), bytes(32)
WRONG_BYTES = [None, 1, 1.5, "abc", True, [1, 2]]
WRONG_INT = [None, 1.5, "5", True, b"5", [5]]
WRONG_STR = [None, 1, 1.5, b"ctr", True]
WRONG_IMPL = [1, 1.5, b"ref", True]


def cases():
    """(name, function of one argument that puts the wrong value in one place, wrong values)"""
    c = []
    s = aead.Schwaemm256_128(K16)
    c += [
        ("esch256(data)", lambda v: H.esch256(v), WRONG_BYTES),
        ("esch384(data)", lambda v: H.esch384(v), WRONG_BYTES),
        ("Esch256(data)", lambda v: H.Esch256(v), WRONG_BYTES),
        ("Esch256().update", lambda v: H.Esch256().update(v), WRONG_BYTES),
        ("Esch256(impl=)", lambda v: H.Esch256(b"", impl=v), WRONG_IMPL),
        ("esch256_many", lambda v: H.esch256_many([b"a", v]), WRONG_BYTES),
        ("esch256_many(messages)", lambda v: H.esch256_many(v), [None, 1, 1.5, True]),
        ("Schwaemm(key)", lambda v: aead.Schwaemm256_128(v), WRONG_BYTES),
        ("Schwaemm(impl=)", lambda v: aead.Schwaemm256_128(K16, impl=v), WRONG_IMPL),
        ("Schwaemm.encrypt(nonce)", lambda v: s.encrypt(v, b"", b""), WRONG_BYTES),
        ("Schwaemm.encrypt(data)", lambda v: s.encrypt(K32, v, b""), WRONG_BYTES),
        ("Schwaemm.encrypt(ad)", lambda v: s.encrypt(K32, b"", v), [1, 1.5, "abc", True]),
        ("Schwaemm.decrypt(data)", lambda v: s.decrypt(K32, v, b""), WRONG_BYTES),
        ("Schwaemm.encrypt_many(messages)", lambda v: s.encrypt_many([K32], [v]), WRONG_BYTES),
        ("pipo.encrypt_block(key)", lambda v: pipo.encrypt_block(v, bytes(8)), WRONG_BYTES),
        ("pipo.encrypt_block(block)", lambda v: pipo.encrypt_block(K16, v), WRONG_BYTES),
        ("pipo.encrypt(data)", lambda v: pipo.encrypt(K16, v, "ctr", iv=bytes(8)), WRONG_BYTES),
        ("pipo.encrypt(mode)", lambda v: pipo.encrypt(K16, b"", v, iv=bytes(8)), WRONG_STR),
        ("pipo.encrypt(iv)", lambda v: pipo.encrypt(K16, b"", "ctr", iv=v), [1, 1.5, "abc", True]),
        ("pipo.encrypt(padding)", lambda v: pipo.encrypt(K16, b"", "ecb", padding=v), WRONG_STR),
        ("pipo.decrypt(data)", lambda v: pipo.decrypt(K16, v, "ctr", iv=bytes(8)), WRONG_BYTES),
        ("pipo.Encryptor(key)", lambda v: pipo.Encryptor(v, "ctr", iv=bytes(8)), WRONG_BYTES),
        ("pipo.Encryptor(mode)", lambda v: pipo.Encryptor(K16, v, iv=bytes(8)), WRONG_STR),
        ("pipo.Encryptor.update", lambda v: pipo.Encryptor(K16, "ctr", iv=bytes(8)).update(v), WRONG_BYTES),
        ("sparkle.permute(state)", lambda v: sparkle.permute(v, 7), WRONG_BYTES),
        ("sparkle.permute(steps)", lambda v: sparkle.permute(bytes(32), v), WRONG_INT),
        ("sparkle.permute(impl)", lambda v: sparkle.permute(bytes(32), 7, impl=v), WRONG_IMPL),
        ("mlkem.keygen(level)", lambda v: mlkem.keygen(v), WRONG_INT),
        ("mlkem.keygen(seed)", lambda v: mlkem.keygen(768, v), [1, 1.5, "abc", True]),
        ("mlkem.keygen(impl)", lambda v: mlkem.keygen(768, impl=v), WRONG_IMPL),
        ("mlkem.encaps(ek)", lambda v: mlkem.encaps(768, v), WRONG_BYTES),
        ("mlkem.decaps(ct)", lambda v: mlkem.decaps(768, bytes(2400), v), WRONG_BYTES),
        ("mlkem.check_encapsulation_key", lambda v: mlkem.check_encapsulation_key(768, v), WRONG_BYTES),
        ("mlkem.check_decapsulation_key", lambda v: mlkem.check_decapsulation_key(768, v), WRONG_BYTES),
        ("mlkem.sizes(level)", lambda v: mlkem.sizes(v), WRONG_INT),
        ("fea.encrypt(key)", lambda v: fea.encrypt(v, 1, 64), WRONG_BYTES),
        ("fea.encrypt(value)", lambda v: fea.encrypt(K16, v, 64), WRONG_INT),
        ("fea.encrypt(nbits)", lambda v: fea.encrypt(K16, 1, v), WRONG_INT),
        ("fea.encrypt(tweak)", lambda v: fea.encrypt(K16, 1, 64, tweak=v), [1.5, "1", True, b"1", None]),
        ("fea.encrypt(variant)", lambda v: fea.encrypt(K16, 1, 64, variant=v), WRONG_INT),
        ("fea.encrypt(impl)", lambda v: fea.encrypt(K16, 1, 64, impl=v), WRONG_IMPL),
        ("fea.encrypt_batch(values)", lambda v: fea.encrypt_batch(K16, [v], 64), [1.5, True, "5", None, b"5"]),
        ("fea.encrypt_batch(values >64)", lambda v: fea.encrypt_batch(K16, [v], 100), [1.5, True, "5", None]),
        ("fea.encrypt_batch(values)", lambda v: fea.encrypt_batch(K16, v, 64), [None, 1, 1.5]),
        (
            "fea.encrypt_batch(tweaks)",
            lambda v: fea.encrypt_batch(K16, [1, 2], 64, tweak=[1, v]),
            [1.5, "1", True, None],
        ),
        ("fea.encrypt_digits(digits)", lambda v: fea.encrypt_digits(K16, v), [None, 123456, 1.5, b"123456"]),
        ("fea.encrypt_digits(tweak)", lambda v: fea.encrypt_digits(K16, "123456", tweak=v), [1.5, "1", True, b"1"]),
        (
            "fea.encrypt_digits_batch(tweaks)",
            lambda v: fea.encrypt_digits_batch(K16, ["123456", "654321"], tweak=[0, v]),
            [1.5, "1", True, None],
        ),
        (
            "fea.encrypt_digits_batch(strings)",
            lambda v: fea.encrypt_digits_batch(K16, ["123456", v]),
            [None, 123456, 1.5],
        ),
        ("fea.encrypt_radix_batch(radix)", lambda v: fea.encrypt_radix_batch(K16, [[1] * 8], v), WRONG_INT),
        (
            "fea.encrypt_radix_batch(symbol)",
            lambda v: fea.encrypt_radix_batch(K16, [[1] * 7 + [v]], 16),
            [1.5, "1", True, None],
        ),
        (
            "fea.encrypt_radix_batch(tweaks)",
            lambda v: fea.encrypt_radix_batch(K16, [[1] * 8, [2] * 8], 16, tweak=[0, v]),
            [1.5, "1", True, None],
        ),
        ("fea.FPE(key)", lambda v: fea.FPE(v), WRONG_BYTES),
        ("fea.FPE(tweak)", lambda v: fea.FPE(K16, tweak=v).encrypt_digits("123456"), [1.5, "1", True]),
        ("fea.FPE.encrypt_digits", lambda v: fea.FPE(K16).encrypt_digits(v), [None, 123456, 1.5, b"123456"]),
        ("fea.FPE.template.encrypt", lambda v: fea.FPE(K16).template("######").encrypt(v), [None, 123456, 1.5, b"1"]),
    ]
    return c


CASES = [(name, fn, v) for name, fn, vals in cases() for v in vals]


@pytest.mark.parametrize("name,fn,value", CASES, ids=[f"{n}-{v!r}" for n, _, v in CASES])
def test_wrong_type_is_type_error(name, fn, value):
    with pytest.raises(TypeError):
        fn(value)


def test_right_types_still_work():
    """The same calls with the right types (and bytes-likes, numpy integers) succeed."""
    np = pytest.importorskip("numpy")
    assert H.esch256(bytearray(b"abc")) == H.esch256(memoryview(b"abc")) == H.esch256(b"abc")
    assert fea.encrypt(K16, np.uint64(5), np.int64(64), tweak=np.int32(3)) == fea.encrypt(K16, 5, 64, tweak=3)
    assert list(fea.encrypt_batch(K16, [1, 2], 64, tweak=[0, 1])) == [
        fea.encrypt(K16, 1, 64),
        fea.encrypt(K16, 2, 64, tweak=1),
    ]
    assert sparkle.permute(bytes(32), np.int64(7)) == sparkle.permute(bytes(32), 7)
    assert mlkem.sizes(np.int16(768)) == mlkem.sizes(768)
