"""Bech32 (BIP 173, checksum constant 1) as age uses it for keys: no 90-character limit (an age
post-quantum recipient is 1,960 characters), one case throughout, the human-readable part lowercased
for the checksum.

>>> from nuri.seal import bech32
>>> bech32.encode("age", bytes(32))
'age1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq5cu47z'
>>> bech32.decode("AGE1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ5CU47Z") == ("AGE", bytes(32))
True
>>> bech32.decode("age1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq5cu47q")
Traceback (most recent call last):
    ...
nuri.seal.bech32.Bech32Error: invalid checksum
"""

CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_INDEX = {c: i for i, c in enumerate(CHARSET)}
_GEN = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)


class Bech32Error(ValueError):
    """Not a well-formed Bech32 string (case, separator, characters, checksum or padding)."""


def _polymod(values):
    chk = 1
    for v in values:
        top = chk >> 25
        chk = ((chk & 0x1FFFFFF) << 5) ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= _GEN[i]
    return chk


def _hrp_expand(hrp):
    h = hrp.lower().encode()
    return [c >> 5 for c in h] + [0] + [c & 31 for c in h]


def _convert(data, frombits, tobits, pad):
    acc = bits = 0
    out = []
    maxv = (1 << tobits) - 1
    for v in data:
        acc = (acc << frombits) | v
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append((acc >> bits) & maxv)
    if pad:
        if bits:
            out.append((acc << (tobits - bits)) & maxv)
    elif bits >= frombits:
        raise Bech32Error("illegal zero padding")
    elif (acc << (tobits - bits)) & maxv:
        raise Bech32Error("non-zero padding")
    return out


def encode(hrp: str, data: bytes) -> str:
    """The Bech32 string of data under hrp, in hrp's case (an uppercase hrp gives an uppercase string)."""
    if not hrp or any(not 33 <= ord(c) <= 126 for c in hrp):
        raise ValueError(f"invalid human-readable part {hrp!r}")
    if hrp.lower() != hrp and hrp.upper() != hrp:
        raise ValueError(f"mixed-case human-readable part {hrp!r}")
    values = _convert(bytes(data), 8, 5, True)
    chk = _polymod(_hrp_expand(hrp) + values + [0] * 6) ^ 1
    s = hrp.lower() + "1" + "".join(CHARSET[v] for v in values)
    s += "".join(CHARSET[(chk >> (5 * (5 - i))) & 31] for i in range(6))
    return s if hrp.lower() == hrp else s.upper()


def decode(s: str):
    """(hrp as written, data bytes) of a Bech32 string; Bech32Error says what is wrong."""
    if s.lower() != s and s.upper() != s:
        raise Bech32Error("mixed case")
    pos = s.rfind("1")
    if pos < 1 or pos + 7 > len(s):
        raise Bech32Error("separator '1' missing or misplaced")
    hrp = s[:pos]
    if any(not 33 <= ord(c) <= 126 for c in hrp):
        raise Bech32Error("invalid character in the human-readable part")
    try:
        values = [_INDEX[c] for c in s[pos + 1 :].lower()]
    except KeyError as e:
        raise Bech32Error(f"invalid character {e.args[0]!r} in the data part") from None
    if _polymod(_hrp_expand(hrp) + values) != 1:
        raise Bech32Error("invalid checksum")
    return hrp, bytes(_convert(values[:-6], 5, 8, False))
