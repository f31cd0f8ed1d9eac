"""Python golden models for the hardware units, written from FIPS 202 / FIPS 203.

The tests check the RTL against these models and the models against independent references
(hashlib for Keccak, nuri's C library for full ML-KEM operations), so a wrong model cannot hide
a wrong RTL block.
"""

Q = 3329

# ---- FIPS 202 -----------------------------------------------------------------------------
_RC = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808A,
    0x8000000080008000,
    0x000000000000808B,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008A,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000A,
    0x000000008000808B,
    0x800000000000008B,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800A,
    0x800000008000000A,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
]
_RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]
M64 = (1 << 64) - 1


def _rotl(v, n):
    return ((v << n) | (v >> (64 - n))) & M64 if n else v


def keccak_f1600(lanes):
    """lanes: 25 ints, lane (x, y) at index x + 5y."""
    a = list(lanes)
    for rnd in range(24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x + 4) % 5] ^ _rotl(c[(x + 1) % 5], 1) for x in range(5)]
        b = [0] * 25
        for y in range(5):
            for x in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rotl(a[x + 5 * y] ^ d[x], _RHO[x + 5 * y])
        a = [
            b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]) & M64 for y in range(5) for x in range(5)
        ]
        a[0] ^= _RC[rnd]
    return a


def lanes_to_int(lanes):
    return sum(v << (64 * i) for i, v in enumerate(lanes))


def int_to_lanes(v):
    return [(v >> (64 * i)) & M64 for i in range(25)]


def bytes_to_int(b):
    return int.from_bytes(b, "little")


# ---- FIPS 203 NTT (Algorithms 9-12) ---------------------------------------------------------
def _bitrev7(i):
    return int(format(i, "07b")[::-1], 2)


ZETAS = [pow(17, _bitrev7(i), Q) for i in range(128)]
GAMMAS = [pow(17, 2 * _bitrev7(i) + 1, Q) for i in range(128)]


def ntt(f):
    f = list(f)
    i = 1
    length = 128
    while length >= 2:
        for start in range(0, 256, 2 * length):
            z = ZETAS[i]
            i += 1
            for j in range(start, start + length):
                t = z * f[j + length] % Q
                f[j + length] = (f[j] - t) % Q
                f[j] = (f[j] + t) % Q
        length //= 2
    return f


def intt(f):
    f = list(f)
    i = 127
    length = 2
    while length <= 128:
        for start in range(0, 256, 2 * length):
            z = ZETAS[i]
            i -= 1
            for j in range(start, start + length):
                t = f[j]
                f[j] = (t + f[j + length]) % Q
                f[j + length] = z * (f[j + length] - t) % Q
        length *= 2
    return [x * 3303 % Q for x in f]


def basemul(f, g):
    h = [0] * 256
    for i in range(128):
        a0, a1, b0, b1 = f[2 * i], f[2 * i + 1], g[2 * i], g[2 * i + 1]
        h[2 * i] = (a0 * b0 + a1 * b1 * GAMMAS[i]) % Q
        h[2 * i + 1] = (a0 * b1 + a1 * b0) % Q
    return h


def sample_ntt(xof_bytes):
    """FIPS 203 Algorithm 7 on a byte string long enough (SHAKE128 output)."""
    a, i = [], 0
    while len(a) < 256:
        c0, c1, c2 = xof_bytes[i], xof_bytes[i + 1], xof_bytes[i + 2]
        i += 3
        d1 = c0 + 256 * (c1 % 16)
        d2 = c1 // 16 + 16 * c2
        if d1 < Q:
            a.append(d1)
        if d2 < Q and len(a) < 256:
            a.append(d2)
    return a


def sample_cbd(prf_bytes, eta):
    """FIPS 203 Algorithm 8."""
    bits = [(prf_bytes[k // 8] >> (k % 8)) & 1 for k in range(8 * 64 * eta)]
    f = []
    for i in range(256):
        x = sum(bits[2 * i * eta + j] for j in range(eta))
        y = sum(bits[2 * i * eta + eta + j] for j in range(eta))
        f.append((x - y) % Q)
    return f


def compress(x, d):
    return ((x << d) + Q // 2) // Q % (1 << d)


def decompress(y, d):
    return (y * Q + (1 << (d - 1))) >> d


def byte_encode(f, d):
    v = sum(c << (d * i) for i, c in enumerate(f))
    return v.to_bytes(32 * d, "little")


def byte_decode(b, d):
    v = int.from_bytes(b, "little")
    return [(v >> (d * i)) & ((1 << d) - 1) for i in range(256)]
