"""The one pattern syntax (src/fea/pattern.c through nuri.fea_formats): every case of the shared
table tests/fea/pattern_cases.tsv against an independent splice of nuri.fea.encrypt_digits, the
Arrow fast path against the per-value path, NULLs, on_error keep/stop, alphabets and UTF-8."""

import pathlib
import random

import pytest

from nuri import fea
from nuri.fea_formats import ColumnCipher, FitError, Pattern, parse_tweak

pa = pytest.importorskip("pyarrow")
KEY = bytes(range(16))
CASES = pathlib.Path(__file__).resolve().parents[1] / "fea" / "pattern_cases.tsv"


def load_cases():
    out = []
    for line in CASES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            pattern, value, want = line.split("\t")
            out.append((pattern, value, want))
    return out


def reference(pattern, value, tweak=0):
    """The expected ciphertext, written independently of pattern.c: pick the encrypted digits by
    hand, encrypt them with fea.encrypt_digits, put them back."""
    if pattern == "digits":
        pos = [i for i, c in enumerate(value) if c.isdigit()]
    else:
        tmpl, pos, i, k = pattern[len("template:") :], [], 0, 0
        while i < len(tmpl):
            if tmpl[i] == "\\":
                i += 1
            elif tmpl[i] == "#":
                pos.append(k)
            i += 1
            k += 1
    enc = fea.encrypt_digits(KEY, "".join(value[i] for i in pos), tweak=tweak)
    out = list(value)
    for i, c in zip(pos, enc):
        out[i] = c
    return "".join(out)


@pytest.mark.parametrize("pattern,value,want", load_cases())
def test_shared_cases(pattern, value, want):
    cc = ColumnCipher(KEY, pattern, tweak=1)  # 38 digits (n = 127) leave FEA-1 one tweak bit
    if want == "ok":
        c = cc.encrypt([value])[0]
        assert c == reference(pattern, value, tweak=1)
        assert len(c) == len(value) and c != value
        assert cc.decrypt([c]) == [value]
        assert cc.encrypt(pa.array([value, None])).to_pylist() == [c, None]
    else:
        with pytest.raises(FitError, match="row 1") as e:
            cc.encrypt([value])
        assert want[len("error:") :] in str(e.value)


def test_arrow_fast_path_matches_per_value_path():
    rng = random.Random(1)
    for pattern, gen in [
        ("digits", lambda: "".join(rng.choice("0123456789") for _ in range(16))),
        (
            "template:####-####-####-****",
            lambda: "-".join("".join(rng.choice("0123456789") for _ in range(4)) for _ in range(4)),
        ),
    ]:
        vals = [gen() if rng.random() > 0.1 else None for _ in range(3000)]
        cc = ColumnCipher(KEY, pattern, tweak=123456789)
        arr = pa.array(vals)
        fast = cc.encrypt(arr)
        assert arr.to_pylist() == vals  # the input column is never modified (or wiped) in place
        slow = cc.encrypt(vals)
        assert fast.to_pylist() == slow
        assert cc.decrypt(fast).to_pylist() == vals
        sliced = pa.array(vals).slice(7, 100)  # offset arrays and validity bitmaps
        assert cc.encrypt(sliced).to_pylist() == slow[7:107]
        chunked = pa.chunked_array([pa.array(vals[:1000]), pa.array(vals[1000:])])
        assert cc.encrypt(chunked).to_pylist() == slow
    # long arrays go in slices: a bad value in one slice leaves the others on the fast path, rows stay exact
    long = ["4111111111111111"] * 70000 + ["n/a"] + ["5500000000000004"] * 100
    keep = ColumnCipher(KEY, "digits", on_error="keep")
    out = keep.encrypt(pa.array(long)).to_pylist()
    assert out[70000] == "n/a" and keep.problems == [(70001, "n/a", "has no digits")]
    assert set(out[:70000]) == {fea.encrypt_digits(KEY, "4111111111111111")} and len(out) == len(long)


def test_on_error_keep_and_stop():
    vals = ["4111111111111111", "n/a", None, "12", "5500000000000004"]
    keep = ColumnCipher(KEY, "digits", on_error="keep")
    out = keep.encrypt(pa.array(vals)).to_pylist()
    assert out[1:4] == ["n/a", None, "12"] and out[0] != vals[0] and out[4] != vals[4]
    assert [r for r, _, _ in keep.problems] == [2, 4]
    with pytest.raises(FitError, match="row 2: value 'n/a' has no digits"):
        ColumnCipher(KEY, "digits").encrypt(vals)


def test_alphabets_and_utf8():
    hangul = "".join(chr(0xAC00 + i) for i in range(11172))
    cc = ColumnCipher(KEY, "alphabet:" + hangul)
    c = cc.encrypt(["홍길동", None])
    assert len(c[0]) == 3 and all(ch in hangul for ch in c[0]) and cc.decrypt(c) == ["홍길동", None]
    assert c[0] == fea.FPE(KEY).alphabet(hangul).encrypt("홍길동")
    mixed = ColumnCipher(KEY, "alphabet:ab가나다라마바사")  # symbols of 1 and 3 UTF-8 bytes
    v = "a가b나다라마바사ab"
    assert mixed.decrypt(mixed.encrypt([v])) == [v]
    t = ColumnCipher(KEY, "template:카드 ##-##-##", symbols="0123456789abcdef")
    c = t.encrypt(["카드 de-ad-be"])[0]
    assert c.startswith("카드 ") and t.decrypt([c]) == ["카드 de-ad-be"]
    with pytest.raises(FitError, match="outside the alphabet"):
        cc.encrypt(["홍x동"])


def test_bad_patterns():
    for spec, why in [
        ("template:----", "no '#'"),
        ("alphabet:aa", "repeats"),
        ("alphabet:a", "2..65536"),
        ("bogus", "unknown format"),
        ("template:##\\", "lone"),
    ]:
        with pytest.raises(ValueError, match=why):
            Pattern(spec)
    with pytest.raises(ValueError, match="10\\^6"):
        ColumnCipher(KEY, "template:##-###")
    assert ColumnCipher(KEY, "template:##-###", allow_small_domain=True).encrypt(["12-345"])[0] != "12-345"


def test_tweaks():
    assert parse_tweak(b"\x01\x00") == 256 and parse_tweak(None) == 0
    a = ColumnCipher(KEY, "digits", tweak=b"\x07").encrypt(["4111111111111111"])
    assert a == [fea.encrypt_digits(KEY, "4111111111111111", tweak=7)]
    with pytest.raises(FitError, match="2\\*\\*74"):  # n = 54 for 16 digits: FEA-1 takes 74 tweak bits
        ColumnCipher(KEY, "digits", tweak=1 << 80).encrypt(["4111111111111111"])
    two = ColumnCipher(KEY, "digits", tweak=1 << 80, variant=2).encrypt(["4111111111111111"])
    assert two == [fea.encrypt_digits(KEY, "4111111111111111", tweak=1 << 80, variant=2)]
