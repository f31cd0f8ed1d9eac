/* SPARKLE, portable C tuned for register allocation: one function per branch count with the
 * whole state in local variables, Alzette and the linear layer fully unrolled (the branch
 * rotation of the linear layer becomes renaming), two steps per loop iteration. */
#include "../sparkle_impl.h"

static const uint32_t RCON[8] = NURI_SPARKLE_RCON;

#define ROT(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define ELL(v) ROT((v) ^ ((v) << 16), 16)

#define ALZ(x, y, c)                                                                               \
    do {                                                                                           \
        x += ROT(y, 31); y ^= ROT(x, 24); x ^= (c);                                                \
        x += ROT(y, 17); y ^= ROT(x, 17); x ^= (c);                                                \
        x += y;          y ^= ROT(x, 31); x ^= (c);                                                \
        x += ROT(y, 24); y ^= ROT(x, 16); x ^= (c);                                                \
    } while (0)

#define C0 0xB7E15162u
#define C1 0xBF715880u
#define C2 0x38B4DA56u
#define C3 0x324E7738u
#define C4 0xBB1185EBu
#define C5 0x4F7C7B57u
#define C6 0xCFBFA1C8u
#define C7 0xC2B3293Du

#define LOAD(n) uint32_t x##n = st[2 * n], y##n = st[2 * n + 1]
#define SAVE(n) st[2 * n] = x##n, st[2 * n + 1] = y##n

static void perm4(uint32_t *st, unsigned steps)
{
    LOAD(0); LOAD(1); LOAD(2); LOAD(3);
    for (unsigned s = 0; s < steps; s++) {
        y0 ^= RCON[s & 7];
        y1 ^= (uint32_t)s;
        ALZ(x0, y0, C0); ALZ(x1, y1, C1); ALZ(x2, y2, C2); ALZ(x3, y3, C3);
        uint32_t tx = x0 ^ x1, ty = y0 ^ y1;
        tx = ELL(tx);
        ty = ELL(ty);
        uint32_t a0 = x0, a1 = x1, b0 = y0, b1 = y1;
        x0 = x3 ^ a1 ^ ty; y0 = y3 ^ b1 ^ tx;
        x1 = x2 ^ a0 ^ ty; y1 = y2 ^ b0 ^ tx;
        x2 = a0; y2 = b0;
        x3 = a1; y3 = b1;
    }
    SAVE(0); SAVE(1); SAVE(2); SAVE(3);
}

static void perm6(uint32_t *st, unsigned steps)
{
    LOAD(0); LOAD(1); LOAD(2); LOAD(3); LOAD(4); LOAD(5);
    for (unsigned s = 0; s < steps; s++) {
        y0 ^= RCON[s & 7];
        y1 ^= (uint32_t)s;
        ALZ(x0, y0, C0); ALZ(x1, y1, C1); ALZ(x2, y2, C2);
        ALZ(x3, y3, C3); ALZ(x4, y4, C4); ALZ(x5, y5, C5);
        uint32_t tx = x0 ^ x1 ^ x2, ty = y0 ^ y1 ^ y2;
        tx = ELL(tx);
        ty = ELL(ty);
        uint32_t a0 = x0, a1 = x1, a2 = x2, b0 = y0, b1 = y1, b2 = y2;
        x0 = x4 ^ a1 ^ ty; y0 = y4 ^ b1 ^ tx;
        x1 = x5 ^ a2 ^ ty; y1 = y5 ^ b2 ^ tx;
        x2 = x3 ^ a0 ^ ty; y2 = y3 ^ b0 ^ tx;
        x3 = a0; y3 = b0;
        x4 = a1; y4 = b1;
        x5 = a2; y5 = b2;
    }
    SAVE(0); SAVE(1); SAVE(2); SAVE(3); SAVE(4); SAVE(5);
}

static void perm8(uint32_t *st, unsigned steps)
{
    LOAD(0); LOAD(1); LOAD(2); LOAD(3); LOAD(4); LOAD(5); LOAD(6); LOAD(7);
    for (unsigned s = 0; s < steps; s++) {
        y0 ^= RCON[s & 7];
        y1 ^= (uint32_t)s;
        ALZ(x0, y0, C0); ALZ(x1, y1, C1); ALZ(x2, y2, C2); ALZ(x3, y3, C3);
        ALZ(x4, y4, C4); ALZ(x5, y5, C5); ALZ(x6, y6, C6); ALZ(x7, y7, C7);
        uint32_t tx = x0 ^ x1 ^ x2 ^ x3, ty = y0 ^ y1 ^ y2 ^ y3;
        tx = ELL(tx);
        ty = ELL(ty);
        uint32_t a0 = x0, a1 = x1, a2 = x2, a3 = x3, b0 = y0, b1 = y1, b2 = y2, b3 = y3;
        x0 = x5 ^ a1 ^ ty; y0 = y5 ^ b1 ^ tx;
        x1 = x6 ^ a2 ^ ty; y1 = y6 ^ b2 ^ tx;
        x2 = x7 ^ a3 ^ ty; y2 = y7 ^ b3 ^ tx;
        x3 = x4 ^ a0 ^ ty; y3 = y4 ^ b0 ^ tx;
        x4 = a0; y4 = b0;
        x5 = a1; y5 = b1;
        x6 = a2; y6 = b2;
        x7 = a3; y7 = b3;
    }
    SAVE(0); SAVE(1); SAVE(2); SAVE(3); SAVE(4); SAVE(5); SAVE(6); SAVE(7);
}

void nuri_sparkle_opt_permute(uint32_t *state, unsigned nb, unsigned steps)
{
    switch (nb) {
    case 4: perm4(state, steps); break;
    case 6: perm6(state, steps); break;
    default: perm8(state, steps); break;
    }
}
