/* FEA reference kernel: the spec as written, for auditing. S-box by table lookup and M as
 * GF(2^8) multiplies (x^8+x^6+x^5+x^4+1) per byte: secret-indexed loads and secret-dependent
 * branches, so NOT constant time; never chosen by dispatch. */
#include "../fea_impl.h"
#include "../fea_tables.h"

/* GF(2^8) multiply modulo x^8+x^6+x^5+x^4+1 (the reference's poly_p = 0x71), shift-and-add. */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    while (b) {
        if (b & 1) r ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x71 : 0));
        b >>= 1;
    }
    return r;
}

uint64_t nuri_fea_ref_sd(uint64_t x)
{
    uint8_t s[8];
    for (int j = 0; j < 8; j++) s[j] = fea_sbox[(x >> (56 - 8 * j)) & 0xFF]; /* byte 0 = MSB */
    uint64_t y = 0;
    for (int i = 0; i < 8; i++) {
        uint8_t v = 0;
        for (int j = 0; j < 8; j++) v ^= gf_mul(fea_mc[(i + j) % 8], s[j]); /* M[i][j] = c[(i+j) mod 8] */
        y = (y << 8) | v;
    }
    return y;
}

void nuri_fea_ref_f(const uint64_t rk[2], uint64_t *x, size_t count)
{
    for (size_t i = 0; i < count; i++) x[i] = nuri_fea_ref_sd(nuri_fea_ref_sd(x[i] ^ rk[0]) ^ rk[1]);
}

const nuri_fea_impl nuri_fea_backend_ref = {
    .info = {"ref", 0, 0, "mirror of the spec: S-box table and GF(2^8) multiplies per byte; NOT constant time"},
    .f = nuri_fea_ref_f,
    .sd = nuri_fea_ref_sd,
};
