/* PIPO reference implementation: one block at a time, in the designers' byte-oriented form.
 * The state is 8 bytes X[0..7]; bit c of X[j] is input bit j of the S-box applied to column c,
 * so the S-layer is 34 logic operations on whole bytes (no table: constant time). */
#include "../pipo_impl.h"

/* S-layer: the designers' bitsliced S-box (spec §1, "Bitsliced gates"). */
static void sbox(uint8_t X[8])
{
    uint8_t x0 = X[0], x1 = X[1], x2 = X[2], x3 = X[3], x4 = X[4], x5 = X[5], x6 = X[6], x7 = X[7];
    uint8_t t0, t1, t2;
    /* S5_1 */
    x5 ^= x7 & x6;
    x4 ^= x3 & x5;
    x7 ^= x4;
    x6 ^= x3;
    x3 ^= x4 | x5;
    x5 ^= x7;
    x4 ^= x5 & x6;
    /* S3 */
    x2 ^= x1 & x0;
    x0 ^= x2 | x1;
    x1 ^= x2 | x0;
    x2 = (uint8_t)~x2;
    /* extend */
    x7 ^= x1;
    x3 ^= x2;
    x4 ^= x0;
    /* S5_2 */
    t0 = x7;
    t1 = x3;
    t2 = x4;
    x6 ^= t0 & x5;
    t0 ^= x6;
    x6 ^= t2 | t1;
    t1 ^= x5;
    x5 ^= x6 | t2;
    t2 ^= t1 & t0;
    /* truncate and bit swap */
    x2 ^= t0;
    X[7] = x1 ^ t2;
    X[6] = x3;
    X[5] = x4;
    X[4] = x5;
    X[3] = x6;
    X[2] = x2;
    X[1] = x0 ^ t1;
    X[0] = x7;
}

/* Inverse S-layer: each step of sbox() undone in reverse order (34 logic operations). */
static void inv_sbox(uint8_t X[8])
{
    uint8_t x7 = X[0], x3 = X[6], x4 = X[5], x5 = X[4], x6 = X[3];
    /* undo S5_2: t0..t2 started as copies of x7, x3, x4 */
    x5 ^= x6 | x4;
    uint8_t t1 = x3 ^ x5;
    x6 ^= x4 | x3;
    uint8_t t0 = x7 ^ x6;
    x6 ^= x7 & x5;
    uint8_t t2 = x4 ^ (t1 & t0);
    /* undo truncate / output swap */
    uint8_t x1 = X[7] ^ t2, x0 = X[1] ^ t1, x2 = X[2] ^ t0;
    /* undo extend */
    x7 ^= x1;
    x3 ^= x2;
    x4 ^= x0;
    /* undo S3 */
    x2 = (uint8_t)~x2;
    x1 ^= x2 | x0;
    x0 ^= x2 | x1;
    x2 ^= x1 & x0;
    /* undo S5_1 */
    x4 ^= x5 & x6;
    x5 ^= x7;
    x3 ^= x4 | x5;
    x6 ^= x3;
    x7 ^= x4;
    x4 ^= x3 & x5;
    x5 ^= x7 & x6;
    X[0] = x0;
    X[1] = x1;
    X[2] = x2;
    X[3] = x3;
    X[4] = x4;
    X[5] = x5;
    X[6] = x6;
    X[7] = x7;
}

static const uint8_t ROT[8] = NURI_PIPO_ROT;

static inline uint8_t rotl8(uint8_t x, unsigned r) { return (uint8_t)((x << r) | (x >> ((8 - r) & 7))); }

static void add_key(uint8_t X[8], uint64_t rk)
{
    for (int j = 0; j < 8; j++) X[j] ^= (uint8_t)(rk >> (8 * j));
}

static void encrypt_block(const uint64_t *rk, unsigned rounds, uint8_t X[8])
{
    add_key(X, rk[0]);
    for (unsigned i = 1; i <= rounds; i++) {
        sbox(X);
        for (int j = 1; j < 8; j++) X[j] = rotl8(X[j], ROT[j]);
        add_key(X, rk[i]);
    }
}

static void decrypt_block(const uint64_t *rk, unsigned rounds, uint8_t X[8])
{
    for (unsigned i = rounds; i >= 1; i--) {
        add_key(X, rk[i]);
        for (int j = 1; j < 8; j++) X[j] = rotl8(X[j], (8 - ROT[j]) & 7);
        inv_sbox(X);
    }
    add_key(X, rk[0]);
}

void nuri_pipo_ref_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    uint8_t X[8];
    for (size_t b = 0; b < n; b++) {
        memcpy(X, in + 8 * b, 8);
        encrypt_block(rk, rounds, X);
        memcpy(out + 8 * b, X, 8);
    }
    nuri_wipe(X, sizeof X);
}

void nuri_pipo_ref_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    uint8_t X[8];
    for (size_t b = 0; b < n; b++) {
        memcpy(X, in + 8 * b, 8);
        decrypt_block(rk, rounds, X);
        memcpy(out + 8 * b, X, 8);
    }
    nuri_wipe(X, sizeof X);
}

const nuri_pipo_impl nuri_pipo_backend_ref = {
    .info = {"ref", 0, 1, "one block at a time, the designers' byte-oriented form (34-op bitsliced S-layer)"},
    .encrypt = nuri_pipo_ref_encrypt,
    .decrypt = nuri_pipo_ref_decrypt,
};
