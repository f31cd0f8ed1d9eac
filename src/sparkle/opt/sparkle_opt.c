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
 *  against 26 for the textbook form. */
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
#define ALZ(x, y, c)                                                                               \
    do {                                                                                           \
        y = ROT(y, 15); x += y; y = ROT(y, 9);  y ^= x; x ^= (c);                                  \
        y = ROT(y, 9);  x += y; y = ROT(y, 30); y ^= x; x ^= (c);                                  \
        y = ROT(y, 17); x += y; y = ROT(y, 1);  y ^= x; x ^= (c);                                  \
        y = ROT(y, 23); x += y; y = ROT(y, 24); y ^= x; x ^= (c);                                  \
    } while (0)

/* one step on the branches in slot order (X0,X1,X2,X3,Y0,Y1,Y2,Y3); the step counter is s */
#define STEP4(X0,X1,X2,X3,Y0,Y1,Y2,Y3) \
    do { \
        uint32_t tx_, ty_; \
        Y0 ^= RC16[s & 7]; \
        Y1 ^= ROT(s, 16); \
        ALZ(X0, Y0, C0); ALZ(X1, Y1, C1); ALZ(X2, Y2, C2); ALZ(X3, Y3, C3); \
        tx_ = X0 ^ X1; \
        ty_ = Y0 ^ Y1; \
        tx_ ^= tx_ << 16; /* ROTR(l(xsum), 16) */ \
        ty_ ^= ty_ >> 16; /* l(ysum) */ \
        X2 ^= X0 ^ ty_; Y2 ^= Y0 ^ tx_; \
        X3 ^= X1 ^ ty_; Y3 ^= Y1 ^ tx_; \
    } while (0)

static void perm4(uint32_t *st, unsigned steps)
{
    uint32_t x0 = st[0], y0 = ROT(st[1], 16); uint32_t x1 = st[2], y1 = ROT(st[3], 16); uint32_t x2 = st[4], y2 = ROT(st[5], 16); uint32_t x3 = st[6], y3 = ROT(st[7], 16);
    uint32_t s = 0;
    for (;;) {
        STEP4(x0, x1, x2, x3, y0, y1, y2, y3);
        if (++s == steps) { st[0] = x3; st[1] = ROT(y3, 16); st[2] = x2; st[3] = ROT(y2, 16); st[4] = x0; st[5] = ROT(y0, 16); st[6] = x1; st[7] = ROT(y1, 16); return; }
        STEP4(x3, x2, x0, x1, y3, y2, y0, y1);
        if (++s == steps) { st[0] = x1; st[1] = ROT(y1, 16); st[2] = x0; st[3] = ROT(y0, 16); st[4] = x3; st[5] = ROT(y3, 16); st[6] = x2; st[7] = ROT(y2, 16); return; }
        STEP4(x1, x0, x3, x2, y1, y0, y3, y2);
        if (++s == steps) { st[0] = x2; st[1] = ROT(y2, 16); st[2] = x3; st[3] = ROT(y3, 16); st[4] = x1; st[5] = ROT(y1, 16); st[6] = x0; st[7] = ROT(y0, 16); return; }
        STEP4(x2, x3, x1, x0, y2, y3, y1, y0);
        if (++s == steps) { st[0] = x0; st[1] = ROT(y0, 16); st[2] = x1; st[3] = ROT(y1, 16); st[4] = x2; st[5] = ROT(y2, 16); st[6] = x3; st[7] = ROT(y3, 16); return; }
    }
}

/* one step on the branches in slot order (X0,X1,X2,X3,X4,X5,Y0,Y1,Y2,Y3,Y4,Y5); the step counter is s */
#define STEP6(X0,X1,X2,X3,X4,X5,Y0,Y1,Y2,Y3,Y4,Y5) \
    do { \
        uint32_t tx_, ty_; \
        Y0 ^= RC16[s & 7]; \
        Y1 ^= ROT(s, 16); \
        ALZ(X0, Y0, C0); ALZ(X1, Y1, C1); ALZ(X2, Y2, C2); ALZ(X3, Y3, C3); ALZ(X4, Y4, C4); ALZ(X5, Y5, C5); \
        tx_ = X0 ^ X1 ^ X2; \
        ty_ = Y0 ^ Y1 ^ Y2; \
        tx_ ^= tx_ << 16; /* ROTR(l(xsum), 16) */ \
        ty_ ^= ty_ >> 16; /* l(ysum) */ \
        X3 ^= X0 ^ ty_; Y3 ^= Y0 ^ tx_; \
        X4 ^= X1 ^ ty_; Y4 ^= Y1 ^ tx_; \
        X5 ^= X2 ^ ty_; Y5 ^= Y2 ^ tx_; \
    } while (0)

static void perm6(uint32_t *st, unsigned steps)
{
    uint32_t x0 = st[0], y0 = ROT(st[1], 16); uint32_t x1 = st[2], y1 = ROT(st[3], 16); uint32_t x2 = st[4], y2 = ROT(st[5], 16); uint32_t x3 = st[6], y3 = ROT(st[7], 16); uint32_t x4 = st[8], y4 = ROT(st[9], 16); uint32_t x5 = st[10], y5 = ROT(st[11], 16);
    uint32_t s = 0;
    for (;;) {
        STEP6(x0, x1, x2, x3, x4, x5, y0, y1, y2, y3, y4, y5);
        if (++s == steps) { st[0] = x4; st[1] = ROT(y4, 16); st[2] = x5; st[3] = ROT(y5, 16); st[4] = x3; st[5] = ROT(y3, 16); st[6] = x0; st[7] = ROT(y0, 16); st[8] = x1; st[9] = ROT(y1, 16); st[10] = x2; st[11] = ROT(y2, 16); return; }
        STEP6(x4, x5, x3, x0, x1, x2, y4, y5, y3, y0, y1, y2);
        if (++s == steps) { st[0] = x1; st[1] = ROT(y1, 16); st[2] = x2; st[3] = ROT(y2, 16); st[4] = x0; st[5] = ROT(y0, 16); st[6] = x4; st[7] = ROT(y4, 16); st[8] = x5; st[9] = ROT(y5, 16); st[10] = x3; st[11] = ROT(y3, 16); return; }
        STEP6(x1, x2, x0, x4, x5, x3, y1, y2, y0, y4, y5, y3);
        if (++s == steps) { st[0] = x5; st[1] = ROT(y5, 16); st[2] = x3; st[3] = ROT(y3, 16); st[4] = x4; st[5] = ROT(y4, 16); st[6] = x1; st[7] = ROT(y1, 16); st[8] = x2; st[9] = ROT(y2, 16); st[10] = x0; st[11] = ROT(y0, 16); return; }
        STEP6(x5, x3, x4, x1, x2, x0, y5, y3, y4, y1, y2, y0);
        if (++s == steps) { st[0] = x2; st[1] = ROT(y2, 16); st[2] = x0; st[3] = ROT(y0, 16); st[4] = x1; st[5] = ROT(y1, 16); st[6] = x5; st[7] = ROT(y5, 16); st[8] = x3; st[9] = ROT(y3, 16); st[10] = x4; st[11] = ROT(y4, 16); return; }
        STEP6(x2, x0, x1, x5, x3, x4, y2, y0, y1, y5, y3, y4);
        if (++s == steps) { st[0] = x3; st[1] = ROT(y3, 16); st[2] = x4; st[3] = ROT(y4, 16); st[4] = x5; st[5] = ROT(y5, 16); st[6] = x2; st[7] = ROT(y2, 16); st[8] = x0; st[9] = ROT(y0, 16); st[10] = x1; st[11] = ROT(y1, 16); return; }
        STEP6(x3, x4, x5, x2, x0, x1, y3, y4, y5, y2, y0, y1);
        if (++s == steps) { st[0] = x0; st[1] = ROT(y0, 16); st[2] = x1; st[3] = ROT(y1, 16); st[4] = x2; st[5] = ROT(y2, 16); st[6] = x3; st[7] = ROT(y3, 16); st[8] = x4; st[9] = ROT(y4, 16); st[10] = x5; st[11] = ROT(y5, 16); return; }
    }
}

/* one step on the branches in slot order (X0,X1,X2,X3,X4,X5,X6,X7,Y0,Y1,Y2,Y3,Y4,Y5,Y6,Y7); the step counter is s */
#define STEP8(X0,X1,X2,X3,X4,X5,X6,X7,Y0,Y1,Y2,Y3,Y4,Y5,Y6,Y7) \
    do { \
        uint32_t tx_, ty_; \
        Y0 ^= RC16[s & 7]; \
        Y1 ^= ROT(s, 16); \
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

static void perm8(uint32_t *st, unsigned steps)
{
    uint32_t x0 = st[0], y0 = ROT(st[1], 16); uint32_t x1 = st[2], y1 = ROT(st[3], 16); uint32_t x2 = st[4], y2 = ROT(st[5], 16); uint32_t x3 = st[6], y3 = ROT(st[7], 16); uint32_t x4 = st[8], y4 = ROT(st[9], 16); uint32_t x5 = st[10], y5 = ROT(st[11], 16); uint32_t x6 = st[12], y6 = ROT(st[13], 16); uint32_t x7 = st[14], y7 = ROT(st[15], 16);
    uint32_t s = 0;
    for (;;) {
        STEP8(x0, x1, x2, x3, x4, x5, x6, x7, y0, y1, y2, y3, y4, y5, y6, y7);
        if (++s == steps) { st[0] = x5; st[1] = ROT(y5, 16); st[2] = x6; st[3] = ROT(y6, 16); st[4] = x7; st[5] = ROT(y7, 16); st[6] = x4; st[7] = ROT(y4, 16); st[8] = x0; st[9] = ROT(y0, 16); st[10] = x1; st[11] = ROT(y1, 16); st[12] = x2; st[13] = ROT(y2, 16); st[14] = x3; st[15] = ROT(y3, 16); return; }
        STEP8(x5, x6, x7, x4, x0, x1, x2, x3, y5, y6, y7, y4, y0, y1, y2, y3);
        if (++s == steps) { st[0] = x1; st[1] = ROT(y1, 16); st[2] = x2; st[3] = ROT(y2, 16); st[4] = x3; st[5] = ROT(y3, 16); st[6] = x0; st[7] = ROT(y0, 16); st[8] = x5; st[9] = ROT(y5, 16); st[10] = x6; st[11] = ROT(y6, 16); st[12] = x7; st[13] = ROT(y7, 16); st[14] = x4; st[15] = ROT(y4, 16); return; }
        STEP8(x1, x2, x3, x0, x5, x6, x7, x4, y1, y2, y3, y0, y5, y6, y7, y4);
        if (++s == steps) { st[0] = x6; st[1] = ROT(y6, 16); st[2] = x7; st[3] = ROT(y7, 16); st[4] = x4; st[5] = ROT(y4, 16); st[6] = x5; st[7] = ROT(y5, 16); st[8] = x1; st[9] = ROT(y1, 16); st[10] = x2; st[11] = ROT(y2, 16); st[12] = x3; st[13] = ROT(y3, 16); st[14] = x0; st[15] = ROT(y0, 16); return; }
        STEP8(x6, x7, x4, x5, x1, x2, x3, x0, y6, y7, y4, y5, y1, y2, y3, y0);
        if (++s == steps) { st[0] = x2; st[1] = ROT(y2, 16); st[2] = x3; st[3] = ROT(y3, 16); st[4] = x0; st[5] = ROT(y0, 16); st[6] = x1; st[7] = ROT(y1, 16); st[8] = x6; st[9] = ROT(y6, 16); st[10] = x7; st[11] = ROT(y7, 16); st[12] = x4; st[13] = ROT(y4, 16); st[14] = x5; st[15] = ROT(y5, 16); return; }
        STEP8(x2, x3, x0, x1, x6, x7, x4, x5, y2, y3, y0, y1, y6, y7, y4, y5);
        if (++s == steps) { st[0] = x7; st[1] = ROT(y7, 16); st[2] = x4; st[3] = ROT(y4, 16); st[4] = x5; st[5] = ROT(y5, 16); st[6] = x6; st[7] = ROT(y6, 16); st[8] = x2; st[9] = ROT(y2, 16); st[10] = x3; st[11] = ROT(y3, 16); st[12] = x0; st[13] = ROT(y0, 16); st[14] = x1; st[15] = ROT(y1, 16); return; }
        STEP8(x7, x4, x5, x6, x2, x3, x0, x1, y7, y4, y5, y6, y2, y3, y0, y1);
        if (++s == steps) { st[0] = x3; st[1] = ROT(y3, 16); st[2] = x0; st[3] = ROT(y0, 16); st[4] = x1; st[5] = ROT(y1, 16); st[6] = x2; st[7] = ROT(y2, 16); st[8] = x7; st[9] = ROT(y7, 16); st[10] = x4; st[11] = ROT(y4, 16); st[12] = x5; st[13] = ROT(y5, 16); st[14] = x6; st[15] = ROT(y6, 16); return; }
        STEP8(x3, x0, x1, x2, x7, x4, x5, x6, y3, y0, y1, y2, y7, y4, y5, y6);
        if (++s == steps) { st[0] = x4; st[1] = ROT(y4, 16); st[2] = x5; st[3] = ROT(y5, 16); st[4] = x6; st[5] = ROT(y6, 16); st[6] = x7; st[7] = ROT(y7, 16); st[8] = x3; st[9] = ROT(y3, 16); st[10] = x0; st[11] = ROT(y0, 16); st[12] = x1; st[13] = ROT(y1, 16); st[14] = x2; st[15] = ROT(y2, 16); return; }
        STEP8(x4, x5, x6, x7, x3, x0, x1, x2, y4, y5, y6, y7, y3, y0, y1, y2);
        if (++s == steps) { st[0] = x0; st[1] = ROT(y0, 16); st[2] = x1; st[3] = ROT(y1, 16); st[4] = x2; st[5] = ROT(y2, 16); st[6] = x3; st[7] = ROT(y3, 16); st[8] = x4; st[9] = ROT(y4, 16); st[10] = x5; st[11] = ROT(y5, 16); st[12] = x6; st[13] = ROT(y6, 16); st[14] = x7; st[15] = ROT(y7, 16); return; }
    }
}

void nuri_sparkle_opt_permute(uint32_t *state, unsigned nb, unsigned steps)
{
    if (!steps) return;
    switch (nb) {
    case 4: perm4(state, steps); break;
    case 6: perm6(state, steps); break;
    default: perm8(state, steps); break;
    }
}
