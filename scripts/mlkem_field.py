"""ML-KEM's field for the table generators: q = 3329, zeta = 17 (a primitive 256th root of unity),
the Montgomery radix R = 2^16 and q^-1 mod R, with the reductions the tables are stated in."""

Q = 3329
ZETA = 17
R = 1 << 16
QINV = pow(Q, -1, R)


def centred(x):
    """x mod q in (-q/2, q/2]."""
    x %= Q
    return x - Q if x > Q // 2 else x


def s16(x):
    """x as a signed 16-bit value (two's complement wrap)."""
    x %= 1 << 16
    return x - (1 << 16) if x >= 1 << 15 else x


def bitrev7(i):
    """The 7-bit reversal of i: the order of the NTT's zetas (FIPS 203 BitRev7)."""
    return int(format(i, "07b")[::-1], 2)
