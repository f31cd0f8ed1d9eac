/* One Keccak-f[1600] round (A -> E) over 25 named two-lane vectors, in two forms over operations
 * that the SHA-3 extension of ARMv8.2 provides as single instructions and plain NEON builds from
 * two or three (keccakx2_neon_sha3.c and keccakx2_neon.c define them; KX2_ROUND for the first,
 * KX2_ROUND_ROL, which needs ROL(x, n) = rol(x, n) instead of XAR, for the second):
 *   EOR3(a, b, c)  a ^ b ^ c                     (theta's column parities)
 *   RAX1(a, b)     a ^ rol(b, 1)                 (theta's D)
 *   XAR(a, b, n)   rol(a ^ b, n), 0 < n < 64     (theta applied, rho)
 *   BCAX(a, b, c)  a ^ (b & ~c)                  (chi)
 * Lane index i = x + 5y. The lanes move by pi as they are read: output row y' of chi takes the
 * lanes (x, y) with y' = 2x + 3y, in the order of keccak_round.h. `a`, `e` are name prefixes (the
 * caller declares a0..a24, e0..e24, b0..b24, c0..c4, d0..d4); `rc` is the round constant in both
 * lanes (iota). */
#ifndef NURI_KECCAKX2_ROUND_H
#define NURI_KECCAKX2_ROUND_H

#include "keccak_round.h" /* RC, the round constants */

/* The SHA-3-extension form (XAR fuses theta's XOR and rho's rotation): theta, then all 25 lanes rotated and moved by pi (b), then chi row by row: at most 32 vectors
 * are live at any point (25 lanes and theta's D; 25 b and the row being written), so a compiler
 * can keep the state in the 32 NEON registers. */
#define KX2_ROUND(a, e, rc)                           \
    c0 = EOR3(EOR3(a##0, a##5, a##10), a##15, a##20); \
    c1 = EOR3(EOR3(a##1, a##6, a##11), a##16, a##21); \
    c2 = EOR3(EOR3(a##2, a##7, a##12), a##17, a##22); \
    c3 = EOR3(EOR3(a##3, a##8, a##13), a##18, a##23); \
    c4 = EOR3(EOR3(a##4, a##9, a##14), a##19, a##24); \
    d1 = RAX1(c0, c2);                                \
    d3 = RAX1(c2, c4);                                \
    d0 = RAX1(c4, c1);                                \
    d2 = RAX1(c1, c3);                                \
    d4 = RAX1(c3, c0);                                \
    b0 = veorq_u64(a##0, d0);                         \
    b1 = XAR(a##6, d1, 44);                           \
    b2 = XAR(a##12, d2, 43);                          \
    b3 = XAR(a##18, d3, 21);                          \
    b4 = XAR(a##24, d4, 14);                          \
    b5 = XAR(a##3, d3, 28);                           \
    b6 = XAR(a##9, d4, 20);                           \
    b7 = XAR(a##10, d0, 3);                           \
    b8 = XAR(a##16, d1, 45);                          \
    b9 = XAR(a##22, d2, 61);                          \
    b10 = XAR(a##1, d1, 1);                           \
    b11 = XAR(a##7, d2, 6);                           \
    b12 = XAR(a##13, d3, 25);                         \
    b13 = XAR(a##19, d4, 8);                          \
    b14 = XAR(a##20, d0, 18);                         \
    b15 = XAR(a##4, d4, 27);                          \
    b16 = XAR(a##5, d0, 36);                          \
    b17 = XAR(a##11, d1, 10);                         \
    b18 = XAR(a##17, d2, 15);                         \
    b19 = XAR(a##23, d3, 56);                         \
    b20 = XAR(a##2, d2, 62);                          \
    b21 = XAR(a##8, d3, 55);                          \
    b22 = XAR(a##14, d4, 39);                         \
    b23 = XAR(a##15, d0, 41);                         \
    b24 = XAR(a##21, d1, 2);                          \
    e##0 = veorq_u64(BCAX(b0, b2, b1), (rc));         \
    e##1 = BCAX(b1, b3, b2);                          \
    e##2 = BCAX(b2, b4, b3);                          \
    e##3 = BCAX(b3, b0, b4);                          \
    e##4 = BCAX(b4, b1, b0);                          \
    e##5 = BCAX(b5, b7, b6);                          \
    e##6 = BCAX(b6, b8, b7);                          \
    e##7 = BCAX(b7, b9, b8);                          \
    e##8 = BCAX(b8, b5, b9);                          \
    e##9 = BCAX(b9, b6, b5);                          \
    e##10 = BCAX(b10, b12, b11);                      \
    e##11 = BCAX(b11, b13, b12);                      \
    e##12 = BCAX(b12, b14, b13);                      \
    e##13 = BCAX(b13, b10, b14);                      \
    e##14 = BCAX(b14, b11, b10);                      \
    e##15 = BCAX(b15, b17, b16);                      \
    e##16 = BCAX(b16, b18, b17);                      \
    e##17 = BCAX(b17, b19, b18);                      \
    e##18 = BCAX(b18, b15, b19);                      \
    e##19 = BCAX(b19, b16, b15);                      \
    e##20 = BCAX(b20, b22, b21);                      \
    e##21 = BCAX(b21, b23, b22);                      \
    e##22 = BCAX(b22, b24, b23);                      \
    e##23 = BCAX(b23, b20, b24);                      \
    e##24 = BCAX(b24, b21, b20);

/* The plain-NEON form, where a rotation costs two instructions (SHL + SRI) whatever it is fused
 * with: theta's D XORed into the five lanes of its column as soon as it is made (the parities and
 * the D die early), then row by row the five lanes of a chi row rotated and chi applied at once,
 * so that no more than 30 vectors are live and GCC keeps the whole round in registers (the form
 * above spills a dozen vectors every two rounds here). The same instructions as KX2_ROUND's plain
 * NEON expansion: 20 + 15 (theta) + 25 + 48 (theta's D, rho) + 50 (chi) + 1 (iota). */
#define KX2_ROUND_ROL(a, e, rc)                       \
    c0 = EOR3(EOR3(a##0, a##5, a##10), a##15, a##20); \
    c1 = EOR3(EOR3(a##1, a##6, a##11), a##16, a##21); \
    c2 = EOR3(EOR3(a##2, a##7, a##12), a##17, a##22); \
    c3 = EOR3(EOR3(a##3, a##8, a##13), a##18, a##23); \
    c4 = EOR3(EOR3(a##4, a##9, a##14), a##19, a##24); \
    d1 = RAX1(c0, c2);                                \
    a##1 = veorq_u64(a##1, d1);                       \
    a##6 = veorq_u64(a##6, d1);                       \
    a##11 = veorq_u64(a##11, d1);                     \
    a##16 = veorq_u64(a##16, d1);                     \
    a##21 = veorq_u64(a##21, d1);                     \
    d3 = RAX1(c2, c4);                                \
    a##3 = veorq_u64(a##3, d3);                       \
    a##8 = veorq_u64(a##8, d3);                       \
    a##13 = veorq_u64(a##13, d3);                     \
    a##18 = veorq_u64(a##18, d3);                     \
    a##23 = veorq_u64(a##23, d3);                     \
    d0 = RAX1(c4, c1);                                \
    a##0 = veorq_u64(a##0, d0);                       \
    a##5 = veorq_u64(a##5, d0);                       \
    a##10 = veorq_u64(a##10, d0);                     \
    a##15 = veorq_u64(a##15, d0);                     \
    a##20 = veorq_u64(a##20, d0);                     \
    d2 = RAX1(c1, c3);                                \
    a##2 = veorq_u64(a##2, d2);                       \
    a##7 = veorq_u64(a##7, d2);                       \
    a##12 = veorq_u64(a##12, d2);                     \
    a##17 = veorq_u64(a##17, d2);                     \
    a##22 = veorq_u64(a##22, d2);                     \
    d4 = RAX1(c3, c0);                                \
    a##4 = veorq_u64(a##4, d4);                       \
    a##9 = veorq_u64(a##9, d4);                       \
    a##14 = veorq_u64(a##14, d4);                     \
    a##19 = veorq_u64(a##19, d4);                     \
    a##24 = veorq_u64(a##24, d4);                     \
    b0 = a##0;                                        \
    b1 = ROL(a##6, 44);                               \
    b2 = ROL(a##12, 43);                              \
    b3 = ROL(a##18, 21);                              \
    b4 = ROL(a##24, 14);                              \
    e##0 = veorq_u64(BCAX(b0, b2, b1), (rc));         \
    e##1 = BCAX(b1, b3, b2);                          \
    e##2 = BCAX(b2, b4, b3);                          \
    e##3 = BCAX(b3, b0, b4);                          \
    e##4 = BCAX(b4, b1, b0);                          \
    b5 = ROL(a##3, 28);                               \
    b6 = ROL(a##9, 20);                               \
    b7 = ROL(a##10, 3);                               \
    b8 = ROL(a##16, 45);                              \
    b9 = ROL(a##22, 61);                              \
    e##5 = BCAX(b5, b7, b6);                          \
    e##6 = BCAX(b6, b8, b7);                          \
    e##7 = BCAX(b7, b9, b8);                          \
    e##8 = BCAX(b8, b5, b9);                          \
    e##9 = BCAX(b9, b6, b5);                          \
    b10 = ROL(a##1, 1);                               \
    b11 = ROL(a##7, 6);                               \
    b12 = ROL(a##13, 25);                             \
    b13 = ROL(a##19, 8);                              \
    b14 = ROL(a##20, 18);                             \
    e##10 = BCAX(b10, b12, b11);                      \
    e##11 = BCAX(b11, b13, b12);                      \
    e##12 = BCAX(b12, b14, b13);                      \
    e##13 = BCAX(b13, b10, b14);                      \
    e##14 = BCAX(b14, b11, b10);                      \
    b15 = ROL(a##4, 27);                              \
    b16 = ROL(a##5, 36);                              \
    b17 = ROL(a##11, 10);                             \
    b18 = ROL(a##17, 15);                             \
    b19 = ROL(a##23, 56);                             \
    e##15 = BCAX(b15, b17, b16);                      \
    e##16 = BCAX(b16, b18, b17);                      \
    e##17 = BCAX(b17, b19, b18);                      \
    e##18 = BCAX(b18, b15, b19);                      \
    e##19 = BCAX(b19, b16, b15);                      \
    b20 = ROL(a##2, 62);                              \
    b21 = ROL(a##8, 55);                              \
    b22 = ROL(a##14, 39);                             \
    b23 = ROL(a##15, 41);                             \
    b24 = ROL(a##21, 2);                              \
    e##20 = BCAX(b20, b22, b21);                      \
    e##21 = BCAX(b21, b23, b22);                      \
    e##22 = BCAX(b22, b24, b23);                      \
    e##23 = BCAX(b23, b20, b24);                      \
    e##24 = BCAX(b24, b21, b20);

/* The whole permutation on s (lane i of instance j at s[2i + j]) with one of the round forms above:
 * load, 24 rounds, store. The includer defines the operations and names the function. The rounds
 * are unrolled (about 15 KiB of code for the plain-NEON form): the loop's counter, branch and
 * constant loads go, and the register allocator sees one long block. */
#if defined(__GNUC__)
#define KX2_UNROLL _Pragma("GCC unroll 12")
#else
#define KX2_UNROLL
#endif
#define KX2_PERMUTE_BODY(s, ROUND)                                                                                 \
    uint64x2_t a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, \
        a22, a23, a24;                                                                                             \
    uint64x2_t e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20, e21, \
        e22, e23, e24;                                                                                             \
    uint64x2_t b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16, b17, b18, b19, b20, b21, \
        b22, b23, b24, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;                                                     \
    a0 = vld1q_u64(s + 0);                                                                                         \
    a1 = vld1q_u64(s + 2);                                                                                         \
    a2 = vld1q_u64(s + 4);                                                                                         \
    a3 = vld1q_u64(s + 6);                                                                                         \
    a4 = vld1q_u64(s + 8);                                                                                         \
    a5 = vld1q_u64(s + 10);                                                                                        \
    a6 = vld1q_u64(s + 12);                                                                                        \
    a7 = vld1q_u64(s + 14);                                                                                        \
    a8 = vld1q_u64(s + 16);                                                                                        \
    a9 = vld1q_u64(s + 18);                                                                                        \
    a10 = vld1q_u64(s + 20);                                                                                       \
    a11 = vld1q_u64(s + 22);                                                                                       \
    a12 = vld1q_u64(s + 24);                                                                                       \
    a13 = vld1q_u64(s + 26);                                                                                       \
    a14 = vld1q_u64(s + 28);                                                                                       \
    a15 = vld1q_u64(s + 30);                                                                                       \
    a16 = vld1q_u64(s + 32);                                                                                       \
    a17 = vld1q_u64(s + 34);                                                                                       \
    a18 = vld1q_u64(s + 36);                                                                                       \
    a19 = vld1q_u64(s + 38);                                                                                       \
    a20 = vld1q_u64(s + 40);                                                                                       \
    a21 = vld1q_u64(s + 42);                                                                                       \
    a22 = vld1q_u64(s + 44);                                                                                       \
    a23 = vld1q_u64(s + 46);                                                                                       \
    a24 = vld1q_u64(s + 48);                                                                                       \
    KX2_UNROLL for (int r = 0; r < 24; r += 2)                                                                     \
    {                                                                                                              \
        ROUND(a, e, vld1q_dup_u64(&RC[r]));                                                                        \
        ROUND(e, a, vld1q_dup_u64(&RC[r + 1]));                                                                    \
    }                                                                                                              \
    vst1q_u64(s + 0, a0);                                                                                          \
    vst1q_u64(s + 2, a1);                                                                                          \
    vst1q_u64(s + 4, a2);                                                                                          \
    vst1q_u64(s + 6, a3);                                                                                          \
    vst1q_u64(s + 8, a4);                                                                                          \
    vst1q_u64(s + 10, a5);                                                                                         \
    vst1q_u64(s + 12, a6);                                                                                         \
    vst1q_u64(s + 14, a7);                                                                                         \
    vst1q_u64(s + 16, a8);                                                                                         \
    vst1q_u64(s + 18, a9);                                                                                         \
    vst1q_u64(s + 20, a10);                                                                                        \
    vst1q_u64(s + 22, a11);                                                                                        \
    vst1q_u64(s + 24, a12);                                                                                        \
    vst1q_u64(s + 26, a13);                                                                                        \
    vst1q_u64(s + 28, a14);                                                                                        \
    vst1q_u64(s + 30, a15);                                                                                        \
    vst1q_u64(s + 32, a16);                                                                                        \
    vst1q_u64(s + 34, a17);                                                                                        \
    vst1q_u64(s + 36, a18);                                                                                        \
    vst1q_u64(s + 38, a19);                                                                                        \
    vst1q_u64(s + 40, a20);                                                                                        \
    vst1q_u64(s + 42, a21);                                                                                        \
    vst1q_u64(s + 44, a22);                                                                                        \
    vst1q_u64(s + 46, a23);                                                                                        \
    vst1q_u64(s + 48, a24)

#endif
