/* SPARKLE, portable C tuned for the register allocator and for instruction count.
 *  - One function per branch count, the whole state in local variables, every step fully unrolled.
 *  - The linear layer's branch rotation is pure renaming: the loop body holds 2*h steps (the period
 *    of that renaming), each step written with its own variable order, and may exit after any step.
 *  - The y words are kept rotated: Y = ROTR(y, b) with b chosen per half-round so that every ARX
 *    operation works in place and needs no register copy. x += ROTR(y, r) becomes "rotate Y in
 *    place to ROTR(y, r), add"; y ^= ROTR(x, s) becomes "rotate Y in place to ROTR(y, -s), xor x".
 *    Between steps Y = ROTR(y, 16), where the linear layer gets cheaper too:
 *    l(ysum) = Ysum ^ (Ysum >> 16) and ROTR(l(xsum), 16) = xsum ^ (xsum << 16).
 *  An Alzette is then 20 single-instruction operations (two-operand machines need no moves),
 *  against 26 for the textbook form.
 *  - On x86 an empty asm pins each rotated Y in its register: without it GCC folds the two
 *    rotations of a half-round into one rotation of the previous value, which costs a register
 *    copy per half-round and adds spills (measured: ~4% slower for SPARKLE384-11).
 *  - The step constants (y0 ^= c[s mod 8], y1 ^= s, both in the rotated form) come from a table
 *    walked by pointer, so the loop keeps no step counter and needs no constant arithmetic.
 *  Where this stands (bench/bench_sparkle.c, x86-64 Zen 5): the scalar ALUs are the limit. The
 *  loop is ~143 ALU operations per SPARKLE384 step (120 of them the six Alzettes) and runs at
 *  ~3.9 per cycle; an Alzette-shaped instruction mix tops out near 4.1. SIMD does not help a
 *  single state here: vector integer ops have 2-cycle latency on this core, so an Alzette in
 *  lanes is a 32-cycle chain (measured 1.5x slower than this code, and 1.05x slower when only
 *  the right half runs in lanes next to the scalar left half). */
#include "../sparkle_impl.h"

#define ROT(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

#define C0 0xB7E15162u
#define C1 0xBF715880u
#define C2 0x38B4DA56u
#define C3 0x324E7738u
#define C4 0xBB1185EBu
#define C5 0x4F7C7B57u
#define C6 0xCFBFA1C8u
#define C7 0xC2B3293Du

/* round constants as they are XORed into Y0 = ROTR(y0, 16) */
static const uint32_t RC16[8] = {0x5162B7E1u, 0x5880BF71u, 0xDA5638B4u, 0x7738324Eu,
                                 0x85EBBB11u, 0x7B574F7Cu, 0xA1C8CFBFu, 0x293DC2B3u};

/* Alzette with Y = ROTR(y, 16) on entry and exit. Representations: 16 -> 31 (add) -> 8 (xor) ->
 * 17 -> 15 -> 0 -> 1 -> 24 -> 16. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define PIN(v) __asm__("" : "+r"(v))
#else /* three-operand ISAs (AArch64 folds rotations into eor operands): leave it to the compiler */
#define PIN(v) ((void)0)
#endif
/* the step macros are laid out as tables (one ARX-box or branch per column) */
/* clang-format off */
#define ALZ(x, y, c)                                                                               \
    do {                                                                                           \
        y = ROT(y, 15); PIN(y); x += y; y = ROT(y, 9);  y ^= x; x ^= (c);                          \
        y = ROT(y, 9);  PIN(y); x += y; y = ROT(y, 30); y ^= x; x ^= (c);                          \
        y = ROT(y, 17); PIN(y); x += y; y = ROT(y, 1);  y ^= x; x ^= (c);                          \
        y = ROT(y, 23); PIN(y); x += y; y = ROT(y, 24); y ^= x; x ^= (c);                          \
    } while (0)

/* one step on the branches in slot order (X0,X1,X2,X3,Y0,Y1,Y2,Y3); K = step index within the loop body, constants kc[2K], kc[2K+1] */
#define STEP4(X0,X1,X2,X3,Y0,Y1,Y2,Y3,K) \
    do { \
        uint32_t tx_, ty_; \
        Y0 ^= kc[2 * (K)]; \
        Y1 ^= kc[2 * (K) + 1]; \
        ALZ(X0, Y0, C0); ALZ(X1, Y1, C1); ALZ(X2, Y2, C2); ALZ(X3, Y3, C3); \
        tx_ = X0 ^ X1; \
        ty_ = Y0 ^ Y1; \
        tx_ ^= tx_ << 16; /* ROTR(l(xsum), 16) */ \
        ty_ ^= ty_ >> 16; /* l(ysum) */ \
        X2 ^= X0 ^ ty_; Y2 ^= Y0 ^ tx_; \
        X3 ^= X1 ^ ty_; Y3 ^= Y1 ^ tx_; \
    } while (0)

static void perm4(uint32_t *st, const uint32_t *kc, uint32_t n)
{
    uint32_t x0 = st[0], y0 = ROT(st[1], 16); uint32_t x1 = st[2], y1 = ROT(st[3], 16); uint32_t x2 = st[4], y2 = ROT(st[5], 16); uint32_t x3 = st[6], y3 = ROT(st[7], 16);
    for (;;) {
        STEP4(x0, x1, x2, x3, y0, y1, y2, y3, 0);
        if (n == 1) { st[0] = x3; st[1] = ROT(y3, 16); st[2] = x2; st[3] = ROT(y2, 16); st[4] = x0; st[5] = ROT(y0, 16); st[6] = x1; st[7] = ROT(y1, 16); return; }
        STEP4(x3, x2, x0, x1, y3, y2, y0, y1, 1);
        if (n == 2) { st[0] = x1; st[1] = ROT(y1, 16); st[2] = x0; st[3] = ROT(y0, 16); st[4] = x3; st[5] = ROT(y3, 16); st[6] = x2; st[7] = ROT(y2, 16); return; }
        STEP4(x1, x0, x3, x2, y1, y0, y3, y2, 2);
        if (n == 3) { st[0] = x2; st[1] = ROT(y2, 16); st[2] = x3; st[3] = ROT(y3, 16); st[4] = x1; st[5] = ROT(y1, 16); st[6] = x0; st[7] = ROT(y0, 16); return; }
        STEP4(x2, x3, x1, x0, y2, y3, y1, y0, 3);
        if (n == 4) { st[0] = x0; st[1] = ROT(y0, 16); st[2] = x1; st[3] = ROT(y1, 16); st[4] = x2; st[5] = ROT(y2, 16); st[6] = x3; st[7] = ROT(y3, 16); return; }
        kc += 8;
        n -= 4;
    }
}

/* one step on the branches in slot order (X0,X1,X2,X3,X4,X5,Y0,Y1,Y2,Y3,Y4,Y5); K = step index within the loop body, constants kc[2K], kc[2K+1] */
#define STEP6(X0,X1,X2,X3,X4,X5,Y0,Y1,Y2,Y3,Y4,Y5,K) \
    do { \
        uint32_t tx_, ty_; \
        Y0 ^= kc[2 * (K)]; \
        Y1 ^= kc[2 * (K) + 1]; \
        ALZ(X0, Y0, C0); ALZ(X1, Y1, C1); ALZ(X2, Y2, C2); ALZ(X3, Y3, C3); ALZ(X4, Y4, C4); ALZ(X5, Y5, C5); \
        tx_ = X0 ^ X1 ^ X2; \
        ty_ = Y0 ^ Y1 ^ Y2; \
        tx_ ^= tx_ << 16; /* ROTR(l(xsum), 16) */ \
        ty_ ^= ty_ >> 16; /* l(ysum) */ \
        X3 ^= X0 ^ ty_; Y3 ^= Y0 ^ tx_; \
        X4 ^= X1 ^ ty_; Y4 ^= Y1 ^ tx_; \
        X5 ^= X2 ^ ty_; Y5 ^= Y2 ^ tx_; \
    } while (0)

static void perm6(uint32_t *st, const uint32_t *kc, uint32_t n)
{
    uint32_t x0 = st[0], y0 = ROT(st[1], 16); uint32_t x1 = st[2], y1 = ROT(st[3], 16); uint32_t x2 = st[4], y2 = ROT(st[5], 16); uint32_t x3 = st[6], y3 = ROT(st[7], 16); uint32_t x4 = st[8], y4 = ROT(st[9], 16); uint32_t x5 = st[10], y5 = ROT(st[11], 16);
    for (;;) {
        STEP6(x0, x1, x2, x3, x4, x5, y0, y1, y2, y3, y4, y5, 0);
        if (n == 1) { st[0] = x4; st[1] = ROT(y4, 16); st[2] = x5; st[3] = ROT(y5, 16); st[4] = x3; st[5] = ROT(y3, 16); st[6] = x0; st[7] = ROT(y0, 16); st[8] = x1; st[9] = ROT(y1, 16); st[10] = x2; st[11] = ROT(y2, 16); return; }
        STEP6(x4, x5, x3, x0, x1, x2, y4, y5, y3, y0, y1, y2, 1);
        if (n == 2) { st[0] = x1; st[1] = ROT(y1, 16); st[2] = x2; st[3] = ROT(y2, 16); st[4] = x0; st[5] = ROT(y0, 16); st[6] = x4; st[7] = ROT(y4, 16); st[8] = x5; st[9] = ROT(y5, 16); st[10] = x3; st[11] = ROT(y3, 16); return; }
        STEP6(x1, x2, x0, x4, x5, x3, y1, y2, y0, y4, y5, y3, 2);
        if (n == 3) { st[0] = x5; st[1] = ROT(y5, 16); st[2] = x3; st[3] = ROT(y3, 16); st[4] = x4; st[5] = ROT(y4, 16); st[6] = x1; st[7] = ROT(y1, 16); st[8] = x2; st[9] = ROT(y2, 16); st[10] = x0; st[11] = ROT(y0, 16); return; }
        STEP6(x5, x3, x4, x1, x2, x0, y5, y3, y4, y1, y2, y0, 3);
        if (n == 4) { st[0] = x2; st[1] = ROT(y2, 16); st[2] = x0; st[3] = ROT(y0, 16); st[4] = x1; st[5] = ROT(y1, 16); st[6] = x5; st[7] = ROT(y5, 16); st[8] = x3; st[9] = ROT(y3, 16); st[10] = x4; st[11] = ROT(y4, 16); return; }
        STEP6(x2, x0, x1, x5, x3, x4, y2, y0, y1, y5, y3, y4, 4);
        if (n == 5) { st[0] = x3; st[1] = ROT(y3, 16); st[2] = x4; st[3] = ROT(y4, 16); st[4] = x5; st[5] = ROT(y5, 16); st[6] = x2; st[7] = ROT(y2, 16); st[8] = x0; st[9] = ROT(y0, 16); st[10] = x1; st[11] = ROT(y1, 16); return; }
        STEP6(x3, x4, x5, x2, x0, x1, y3, y4, y5, y2, y0, y1, 5);
        if (n == 6) { st[0] = x0; st[1] = ROT(y0, 16); st[2] = x1; st[3] = ROT(y1, 16); st[4] = x2; st[5] = ROT(y2, 16); st[6] = x3; st[7] = ROT(y3, 16); st[8] = x4; st[9] = ROT(y4, 16); st[10] = x5; st[11] = ROT(y5, 16); return; }
        kc += 12;
        n -= 6;
    }
}

/* one step on the branches in slot order (X0,X1,X2,X3,X4,X5,X6,X7,Y0,Y1,Y2,Y3,Y4,Y5,Y6,Y7); K = step index within the loop body, constants kc[2K], kc[2K+1] */
#define STEP8(X0,X1,X2,X3,X4,X5,X6,X7,Y0,Y1,Y2,Y3,Y4,Y5,Y6,Y7,K) \
    do { \
        uint32_t tx_, ty_; \
        Y0 ^= kc[2 * (K)]; \
        Y1 ^= kc[2 * (K) + 1]; \
        ALZ(X0, Y0, C0); ALZ(X1, Y1, C1); ALZ(X2, Y2, C2); ALZ(X3, Y3, C3); ALZ(X4, Y4, C4); ALZ(X5, Y5, C5); ALZ(X6, Y6, C6); ALZ(X7, Y7, C7); \
        tx_ = X0 ^ X1 ^ X2 ^ X3; \
        ty_ = Y0 ^ Y1 ^ Y2 ^ Y3; \
        tx_ ^= tx_ << 16; /* ROTR(l(xsum), 16) */ \
        ty_ ^= ty_ >> 16; /* l(ysum) */ \
        X4 ^= X0 ^ ty_; Y4 ^= Y0 ^ tx_; \
        X5 ^= X1 ^ ty_; Y5 ^= Y1 ^ tx_; \
        X6 ^= X2 ^ ty_; Y6 ^= Y2 ^ tx_; \
        X7 ^= X3 ^ ty_; Y7 ^= Y3 ^ tx_; \
    } while (0)

static void perm8(uint32_t *st, const uint32_t *kc, uint32_t n)
{
    uint32_t x0 = st[0], y0 = ROT(st[1], 16); uint32_t x1 = st[2], y1 = ROT(st[3], 16); uint32_t x2 = st[4], y2 = ROT(st[5], 16); uint32_t x3 = st[6], y3 = ROT(st[7], 16); uint32_t x4 = st[8], y4 = ROT(st[9], 16); uint32_t x5 = st[10], y5 = ROT(st[11], 16); uint32_t x6 = st[12], y6 = ROT(st[13], 16); uint32_t x7 = st[14], y7 = ROT(st[15], 16);
    for (;;) {
        STEP8(x0, x1, x2, x3, x4, x5, x6, x7, y0, y1, y2, y3, y4, y5, y6, y7, 0);
        if (n == 1) { st[0] = x5; st[1] = ROT(y5, 16); st[2] = x6; st[3] = ROT(y6, 16); st[4] = x7; st[5] = ROT(y7, 16); st[6] = x4; st[7] = ROT(y4, 16); st[8] = x0; st[9] = ROT(y0, 16); st[10] = x1; st[11] = ROT(y1, 16); st[12] = x2; st[13] = ROT(y2, 16); st[14] = x3; st[15] = ROT(y3, 16); return; }
        STEP8(x5, x6, x7, x4, x0, x1, x2, x3, y5, y6, y7, y4, y0, y1, y2, y3, 1);
        if (n == 2) { st[0] = x1; st[1] = ROT(y1, 16); st[2] = x2; st[3] = ROT(y2, 16); st[4] = x3; st[5] = ROT(y3, 16); st[6] = x0; st[7] = ROT(y0, 16); st[8] = x5; st[9] = ROT(y5, 16); st[10] = x6; st[11] = ROT(y6, 16); st[12] = x7; st[13] = ROT(y7, 16); st[14] = x4; st[15] = ROT(y4, 16); return; }
        STEP8(x1, x2, x3, x0, x5, x6, x7, x4, y1, y2, y3, y0, y5, y6, y7, y4, 2);
        if (n == 3) { st[0] = x6; st[1] = ROT(y6, 16); st[2] = x7; st[3] = ROT(y7, 16); st[4] = x4; st[5] = ROT(y4, 16); st[6] = x5; st[7] = ROT(y5, 16); st[8] = x1; st[9] = ROT(y1, 16); st[10] = x2; st[11] = ROT(y2, 16); st[12] = x3; st[13] = ROT(y3, 16); st[14] = x0; st[15] = ROT(y0, 16); return; }
        STEP8(x6, x7, x4, x5, x1, x2, x3, x0, y6, y7, y4, y5, y1, y2, y3, y0, 3);
        if (n == 4) { st[0] = x2; st[1] = ROT(y2, 16); st[2] = x3; st[3] = ROT(y3, 16); st[4] = x0; st[5] = ROT(y0, 16); st[6] = x1; st[7] = ROT(y1, 16); st[8] = x6; st[9] = ROT(y6, 16); st[10] = x7; st[11] = ROT(y7, 16); st[12] = x4; st[13] = ROT(y4, 16); st[14] = x5; st[15] = ROT(y5, 16); return; }
        STEP8(x2, x3, x0, x1, x6, x7, x4, x5, y2, y3, y0, y1, y6, y7, y4, y5, 4);
        if (n == 5) { st[0] = x7; st[1] = ROT(y7, 16); st[2] = x4; st[3] = ROT(y4, 16); st[4] = x5; st[5] = ROT(y5, 16); st[6] = x6; st[7] = ROT(y6, 16); st[8] = x2; st[9] = ROT(y2, 16); st[10] = x3; st[11] = ROT(y3, 16); st[12] = x0; st[13] = ROT(y0, 16); st[14] = x1; st[15] = ROT(y1, 16); return; }
        STEP8(x7, x4, x5, x6, x2, x3, x0, x1, y7, y4, y5, y6, y2, y3, y0, y1, 5);
        if (n == 6) { st[0] = x3; st[1] = ROT(y3, 16); st[2] = x0; st[3] = ROT(y0, 16); st[4] = x1; st[5] = ROT(y1, 16); st[6] = x2; st[7] = ROT(y2, 16); st[8] = x7; st[9] = ROT(y7, 16); st[10] = x4; st[11] = ROT(y4, 16); st[12] = x5; st[13] = ROT(y5, 16); st[14] = x6; st[15] = ROT(y6, 16); return; }
        STEP8(x3, x0, x1, x2, x7, x4, x5, x6, y3, y0, y1, y2, y7, y4, y5, y6, 6);
        if (n == 7) { st[0] = x4; st[1] = ROT(y4, 16); st[2] = x5; st[3] = ROT(y5, 16); st[4] = x6; st[5] = ROT(y6, 16); st[6] = x7; st[7] = ROT(y7, 16); st[8] = x3; st[9] = ROT(y3, 16); st[10] = x0; st[11] = ROT(y0, 16); st[12] = x1; st[13] = ROT(y1, 16); st[14] = x2; st[15] = ROT(y2, 16); return; }
        STEP8(x4, x5, x6, x7, x3, x0, x1, x2, y4, y5, y6, y7, y3, y0, y1, y2, 7);
        if (n == 8) { st[0] = x0; st[1] = ROT(y0, 16); st[2] = x1; st[3] = ROT(y1, 16); st[4] = x2; st[5] = ROT(y2, 16); st[6] = x3; st[7] = ROT(y3, 16); st[8] = x4; st[9] = ROT(y4, 16); st[10] = x5; st[11] = ROT(y5, 16); st[12] = x6; st[13] = ROT(y6, 16); st[14] = x7; st[15] = ROT(y7, 16); return; }
        kc += 16;
        n -= 8;
    }
}
/* clang-format on */

/* step constants as XORed into Y0 and Y1 (both rotated by 16) for steps 0..KC_STEPS-1 */
#define KC_STEPS 24
static const uint32_t KC[2 * KC_STEPS] = {
    0x5162B7E1u, 0x00000000u, 0x5880BF71u, 0x00010000u, 0xDA5638B4u, 0x00020000u, 0x7738324Eu, 0x00030000u,
    0x85EBBB11u, 0x00040000u, 0x7B574F7Cu, 0x00050000u, 0xA1C8CFBFu, 0x00060000u, 0x293DC2B3u, 0x00070000u,
    0x5162B7E1u, 0x00080000u, 0x5880BF71u, 0x00090000u, 0xDA5638B4u, 0x000A0000u, 0x7738324Eu, 0x000B0000u,
    0x85EBBB11u, 0x000C0000u, 0x7B574F7Cu, 0x000D0000u, 0xA1C8CFBFu, 0x000E0000u, 0x293DC2B3u, 0x000F0000u,
    0x5162B7E1u, 0x00100000u, 0x5880BF71u, 0x00110000u, 0xDA5638B4u, 0x00120000u, 0x7738324Eu, 0x00130000u,
    0x85EBBB11u, 0x00140000u, 0x7B574F7Cu, 0x00150000u, 0xA1C8CFBFu, 0x00160000u, 0x293DC2B3u, 0x00170000u,
};

void nuri_sparkle_opt_permute(uint32_t *state, unsigned nb, unsigned steps)
{
    uint32_t local[2 * KC_STEPS];
    const uint32_t *kc = KC;
    uint32_t s0 = 0;
    while (steps) {
        uint32_t n = steps < KC_STEPS ? steps : KC_STEPS;
        if (s0) { /* beyond the static table (only for step counts SPARKLE never uses) */
            for (uint32_t i = 0; i < n; i++) {
                local[2 * i] = RC16[(s0 + i) & 7];
                local[2 * i + 1] = ROT(s0 + i, 16);
            }
            kc = local;
        }
        switch (nb) {
        case 4:
            perm4(state, kc, n);
            break;
        case 6:
            perm6(state, kc, n);
            break;
        default:
            perm8(state, kc, n);
            break;
        }
        steps -= n;
        s0 += n;
    }
}

const nuri_sparkle_impl nuri_sparkle_backend_opt = {
    .info = {"opt", 0, 1, "portable C, state in locals, Alzette and linear layer unrolled per branch count"},
    .permute = nuri_sparkle_opt_permute,
    .lanes = 1,
};
