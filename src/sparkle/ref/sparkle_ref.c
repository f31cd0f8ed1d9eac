/* SPARKLE reference: a direct transcription of the specification (one step = constant addition,
 * Alzette on every branch, Feistel-type linear layer), loops over branches, state in memory.
 * Used as the baseline and as the oracle of the differential tests. */
#include "../sparkle_impl.h"

static const uint32_t RCON[8] = NURI_SPARKLE_RCON;

static inline uint32_t rotr32(uint32_t v, unsigned n) { return (v >> n) | (v << ((32 - n) & 31)); }

/* ℓ(v) = ROTR32(v ^ (v << 16), 16) */
static inline uint32_t ell(uint32_t v) { return rotr32(v ^ (v << 16), 16); }

/* The ARX-box Alzette with constant c: four rounds (r,s) = (31,24), (17,17), (0,31), (24,16). */
static inline void alzette(uint32_t *x, uint32_t *y, uint32_t c)
{
    static const unsigned R[4] = {31, 17, 0, 24}, S[4] = {24, 17, 31, 16};
    uint32_t a = *x, b = *y;
    for (int k = 0; k < 4; k++) {
        a += rotr32(b, R[k]);
        b ^= rotr32(a, S[k]);
        a ^= c;
    }
    *x = a;
    *y = b;
}

void nuri_sparkle_ref_permute(uint32_t *state, unsigned nb, unsigned steps)
{
    unsigned h = nb / 2;
    for (unsigned s = 0; s < steps; s++) {
        /* constant addition: y0 ^= c[s mod 8], y1 ^= s */
        state[1] ^= RCON[s & 7];
        state[3] ^= (uint32_t)s;
        /* ARX-box layer */
        for (unsigned i = 0; i < nb; i++) alzette(&state[2 * i], &state[2 * i + 1], RCON[i]);
        /* linear layer */
        uint32_t tx = 0, ty = 0;
        for (unsigned j = 0; j < h; j++) {
            tx ^= state[2 * j];
            ty ^= state[2 * j + 1];
        }
        tx = ell(tx);
        ty = ell(ty);
        uint32_t u[4], v[4];
        for (unsigned j = 0; j < h; j++) {
            u[j] = state[2 * (h + j)] ^ state[2 * j] ^ ty;
            v[j] = state[2 * (h + j) + 1] ^ state[2 * j + 1] ^ tx;
        }
        for (unsigned j = 0; j < h; j++) { /* right half <- old left half */
            state[2 * (h + j)] = state[2 * j];
            state[2 * (h + j) + 1] = state[2 * j + 1];
        }
        for (unsigned j = 0; j < h; j++) { /* left half <- (u, v) rotated by one branch */
            unsigned k = j + 1 == h ? 0 : j + 1;
            state[2 * j] = u[k];
            state[2 * j + 1] = v[k];
        }
    }
}

const nuri_sparkle_impl nuri_sparkle_backend_ref = {
    .info = {"ref", 0, 1, "portable C transcription of the specification (loops over branches)"},
    .permute = nuri_sparkle_ref_permute,
    .lanes = 1,
};
