/* One Keccak-f[1600] round pair (A -> E -> A) as macros over 25 named lanes, and the round
 * constants. Shared by the portable permutation (fips202.c, uint64_t lanes) and the four-way
 * AVX2 permutation (keccakx4_avx2.c, 4 x uint64_t vector lanes): the operators ^ ~ & << >>
 * act lane-wise on GCC/Clang vector types, so the round is written once for both. */
#ifndef NURI_KECCAK_ROUND_H
#define NURI_KECCAK_ROUND_H

#include <stdint.h>

/* Rotation; an includer may define its own ROL first (e.g. with byte shuffles). */
#ifndef ROL
#define ROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))
#endif

static const uint64_t RC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL, 0x000000000000808bULL,
    0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL, 0x0000000000000088ULL,
    0x0000000080008009ULL, 0x000000008000000aULL, 0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

/* One round: theta (c, d), rho and pi (b = rotated lanes of one output row), chi; iota is
 * applied by the caller to lane 0. Lane index i = x + 5y. Output row y' takes lane (x, x')
 * with x = 3(y' - 3x') mod 5 into column x'. */
#define KECCAK_ROUND_AE             \
    c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20; \
    c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21; \
    c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22; \
    c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23; \
    c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24; \
    d0 = c4 ^ ROL(c1, 1);           \
    d1 = c0 ^ ROL(c2, 1);           \
    d2 = c1 ^ ROL(c3, 1);           \
    d3 = c2 ^ ROL(c4, 1);           \
    d4 = c3 ^ ROL(c0, 1);           \
    b0 = a0 ^ d0;                   \
    b1 = ROL(a6 ^ d1, 44);          \
    b2 = ROL(a12 ^ d2, 43);         \
    b3 = ROL(a18 ^ d3, 21);         \
    b4 = ROL(a24 ^ d4, 14);         \
    e0 = b0 ^ (~b1 & b2);           \
    e1 = b1 ^ (~b2 & b3);           \
    e2 = b2 ^ (~b3 & b4);           \
    e3 = b3 ^ (~b4 & b0);           \
    e4 = b4 ^ (~b0 & b1);           \
    b0 = ROL(a3 ^ d3, 28);          \
    b1 = ROL(a9 ^ d4, 20);          \
    b2 = ROL(a10 ^ d0, 3);          \
    b3 = ROL(a16 ^ d1, 45);         \
    b4 = ROL(a22 ^ d2, 61);         \
    e5 = b0 ^ (~b1 & b2);           \
    e6 = b1 ^ (~b2 & b3);           \
    e7 = b2 ^ (~b3 & b4);           \
    e8 = b3 ^ (~b4 & b0);           \
    e9 = b4 ^ (~b0 & b1);           \
    b0 = ROL(a1 ^ d1, 1);           \
    b1 = ROL(a7 ^ d2, 6);           \
    b2 = ROL(a13 ^ d3, 25);         \
    b3 = ROL(a19 ^ d4, 8);          \
    b4 = ROL(a20 ^ d0, 18);         \
    e10 = b0 ^ (~b1 & b2);          \
    e11 = b1 ^ (~b2 & b3);          \
    e12 = b2 ^ (~b3 & b4);          \
    e13 = b3 ^ (~b4 & b0);          \
    e14 = b4 ^ (~b0 & b1);          \
    b0 = ROL(a4 ^ d4, 27);          \
    b1 = ROL(a5 ^ d0, 36);          \
    b2 = ROL(a11 ^ d1, 10);         \
    b3 = ROL(a17 ^ d2, 15);         \
    b4 = ROL(a23 ^ d3, 56);         \
    e15 = b0 ^ (~b1 & b2);          \
    e16 = b1 ^ (~b2 & b3);          \
    e17 = b2 ^ (~b3 & b4);          \
    e18 = b3 ^ (~b4 & b0);          \
    e19 = b4 ^ (~b0 & b1);          \
    b0 = ROL(a2 ^ d2, 62);          \
    b1 = ROL(a8 ^ d3, 55);          \
    b2 = ROL(a14 ^ d4, 39);         \
    b3 = ROL(a15 ^ d0, 41);         \
    b4 = ROL(a21 ^ d1, 2);          \
    e20 = b0 ^ (~b1 & b2);          \
    e21 = b1 ^ (~b2 & b3);          \
    e22 = b2 ^ (~b3 & b4);          \
    e23 = b3 ^ (~b4 & b0);          \
    e24 = b4 ^ (~b0 & b1);

#define KECCAK_ROUND_EA             \
    c0 = e0 ^ e5 ^ e10 ^ e15 ^ e20; \
    c1 = e1 ^ e6 ^ e11 ^ e16 ^ e21; \
    c2 = e2 ^ e7 ^ e12 ^ e17 ^ e22; \
    c3 = e3 ^ e8 ^ e13 ^ e18 ^ e23; \
    c4 = e4 ^ e9 ^ e14 ^ e19 ^ e24; \
    d0 = c4 ^ ROL(c1, 1);           \
    d1 = c0 ^ ROL(c2, 1);           \
    d2 = c1 ^ ROL(c3, 1);           \
    d3 = c2 ^ ROL(c4, 1);           \
    d4 = c3 ^ ROL(c0, 1);           \
    b0 = e0 ^ d0;                   \
    b1 = ROL(e6 ^ d1, 44);          \
    b2 = ROL(e12 ^ d2, 43);         \
    b3 = ROL(e18 ^ d3, 21);         \
    b4 = ROL(e24 ^ d4, 14);         \
    a0 = b0 ^ (~b1 & b2);           \
    a1 = b1 ^ (~b2 & b3);           \
    a2 = b2 ^ (~b3 & b4);           \
    a3 = b3 ^ (~b4 & b0);           \
    a4 = b4 ^ (~b0 & b1);           \
    b0 = ROL(e3 ^ d3, 28);          \
    b1 = ROL(e9 ^ d4, 20);          \
    b2 = ROL(e10 ^ d0, 3);          \
    b3 = ROL(e16 ^ d1, 45);         \
    b4 = ROL(e22 ^ d2, 61);         \
    a5 = b0 ^ (~b1 & b2);           \
    a6 = b1 ^ (~b2 & b3);           \
    a7 = b2 ^ (~b3 & b4);           \
    a8 = b3 ^ (~b4 & b0);           \
    a9 = b4 ^ (~b0 & b1);           \
    b0 = ROL(e1 ^ d1, 1);           \
    b1 = ROL(e7 ^ d2, 6);           \
    b2 = ROL(e13 ^ d3, 25);         \
    b3 = ROL(e19 ^ d4, 8);          \
    b4 = ROL(e20 ^ d0, 18);         \
    a10 = b0 ^ (~b1 & b2);          \
    a11 = b1 ^ (~b2 & b3);          \
    a12 = b2 ^ (~b3 & b4);          \
    a13 = b3 ^ (~b4 & b0);          \
    a14 = b4 ^ (~b0 & b1);          \
    b0 = ROL(e4 ^ d4, 27);          \
    b1 = ROL(e5 ^ d0, 36);          \
    b2 = ROL(e11 ^ d1, 10);         \
    b3 = ROL(e17 ^ d2, 15);         \
    b4 = ROL(e23 ^ d3, 56);         \
    a15 = b0 ^ (~b1 & b2);          \
    a16 = b1 ^ (~b2 & b3);          \
    a17 = b2 ^ (~b3 & b4);          \
    a18 = b3 ^ (~b4 & b0);          \
    a19 = b4 ^ (~b0 & b1);          \
    b0 = ROL(e2 ^ d2, 62);          \
    b1 = ROL(e8 ^ d3, 55);          \
    b2 = ROL(e14 ^ d4, 39);         \
    b3 = ROL(e15 ^ d0, 41);         \
    b4 = ROL(e21 ^ d1, 2);          \
    a20 = b0 ^ (~b1 & b2);          \
    a21 = b1 ^ (~b2 & b3);          \
    a22 = b2 ^ (~b3 & b4);          \
    a23 = b3 ^ (~b4 & b0);          \
    a24 = b4 ^ (~b0 & b1);

#endif
