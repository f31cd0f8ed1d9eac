/* Small AES-256 block encryption (FIPS 197) for tests: S-box computed from its definition
 * (multiplicative inverse in GF(2^8), then the affine map), key expansion, 14 rounds. */
#include "aes256.h"

#include <string.h>

static uint8_t xtime(uint8_t x) { return (uint8_t)((x << 1) ^ ((x >> 7) * 0x1b)); }

static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (; b; b >>= 1, a = xtime(a))
        if (b & 1) r ^= a;
    return r;
}

static uint8_t sbox(uint8_t x)
{
    uint8_t inv = 0; /* x^254 = x^-1 (0 for 0) */
    if (x) {
        inv = 1;
        for (int i = 0; i < 254; i++) inv = gmul(inv, x);
    }
    uint8_t r = 0x63;
    for (int i = 0; i < 5; i++) r ^= (uint8_t)((inv << i) | (inv >> (8 - i)));
    return r;
}

void tu_aes256_encrypt(const uint8_t key[32], const uint8_t in[16], uint8_t out[16])
{
    static uint8_t S[256];
    static int ready;
    uint8_t w[240], s[16], t[16], rcon = 1;
    if (!ready) {
        for (int i = 0; i < 256; i++) S[i] = sbox((uint8_t)i);
        ready = 1;
    }
    memcpy(w, key, 32);
    for (int i = 8; i < 60; i++) {
        uint8_t k[4];
        memcpy(k, w + 4 * (i - 1), 4);
        if (i % 8 == 0) {
            const uint8_t k0 = k[0];
            k[0] = (uint8_t)(S[k[1]] ^ rcon);
            k[1] = S[k[2]];
            k[2] = S[k[3]];
            k[3] = S[k0];
            rcon = xtime(rcon);
        } else if (i % 8 == 4) {
            for (int j = 0; j < 4; j++) k[j] = S[k[j]];
        }
        for (int j = 0; j < 4; j++) w[4 * i + j] = (uint8_t)(w[4 * (i - 8) + j] ^ k[j]);
    }
    for (int i = 0; i < 16; i++) s[i] = (uint8_t)(in[i] ^ w[i]);
    for (int r = 1; r <= 14; r++) {
        for (int c = 0; c < 4; c++) /* SubBytes and ShiftRows: row i of column c from column c + i */
            for (int i = 0; i < 4; i++) t[4 * c + i] = S[s[4 * ((c + i) % 4) + i]];
        for (int c = 0; c < 4 && r < 14; c++) { /* MixColumns */
            const uint8_t *a = t + 4 * c;
            uint8_t m[4];
            for (int i = 0; i < 4; i++)
                m[i] =
                    (uint8_t)(xtime(a[i]) ^ xtime(a[(i + 1) % 4]) ^ a[(i + 1) % 4] ^ a[(i + 2) % 4] ^ a[(i + 3) % 4]);
            memcpy(t + 4 * c, m, 4);
        }
        for (int i = 0; i < 16; i++) s[i] = (uint8_t)(t[i] ^ w[16 * r + i]);
    }
    memcpy(out, s, 16);
}
