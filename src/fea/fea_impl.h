/* The FEA backend interface (docs/ARCHITECTURE.md, principle 1). The Feistel network, the tweak schedule,
 * the key schedule and the formatted-data layer are written once (feistel.c, impls.c, format.c);
 * a kernel only supplies the round function on a batch of 64-bit words and one SD layer:
 *
 *   f(rk, x, count):  x[i] = F(x[i]) = SD(SD(x[i] ^ rk[0]) ^ rk[1]) for i < count
 *   sd(x):            one S-layer followed by M (used by the key schedule)
 *
 * Words follow the spec: byte 0 of the SD layer is the most significant byte. */
#ifndef NURI_FEA_IMPL_H
#define NURI_FEA_IMPL_H

#include "nuri/fea.h"
#include "nuri_internal.h"

typedef void (*nuri_fea_f_fn)(const uint64_t rk[2], uint64_t *x, size_t count);
typedef uint64_t (*nuri_fea_sd_fn)(uint64_t x);
/* Optional: one whole Feistel round on a batch, dst[j] ^= F((src[j] << sin) ^ tw[j * tw_stride]) >> sout,
 * with the values kept in registers (feistel.c composes it from f, through a buffer, when NULL). */
typedef void (*nuri_fea_round_fn)(const uint64_t rk[2], const uint64_t *src, uint64_t *dst, const uint64_t *tw,
                                  size_t tw_stride, unsigned sin, unsigned sout, size_t count);

typedef struct nuri_fea_impl {
    nuri_impl_info info;
    nuri_fea_f_fn f;
    nuri_fea_sd_fn sd;
#if !defined(__AVR__)        /* const data sits in the ATmega328P's 2 KiB of RAM: no unused field there */
    nuri_fea_round_fn round; /* NULL: composed from f */
#endif
} nuri_fea_impl;

/* Values per Feistel pass (the kernel's f is called on at most this many words). The batch layer
 * keeps about 5 * 8 * NURI_FEA_CHUNK bytes on the stack: small on the 2 KiB-RAM ATmega328P. */
#ifndef NURI_FEA_CHUNK
#if defined(__AVR__)
#define NURI_FEA_CHUNK 4
#else
#define NURI_FEA_CHUNK 256
#endif
#endif

void nuri_fea_ref_f(const uint64_t rk[2], uint64_t *x, size_t count);
uint64_t nuri_fea_ref_sd(uint64_t x);
void nuri_fea_table_f(const uint64_t rk[2], uint64_t *x, size_t count);
uint64_t nuri_fea_table_sd(uint64_t x);
void nuri_fea_bitplane_f(const uint64_t rk[2], uint64_t *x, size_t count);
uint64_t nuri_fea_bitplane_sd(uint64_t x);
void nuri_fea_ct64_f(const uint64_t rk[2], uint64_t *x, size_t count);
uint64_t nuri_fea_ct64_sd(uint64_t x);
void nuri_fea_gfni_f(const uint64_t rk[2], uint64_t *x, size_t count);
uint64_t nuri_fea_gfni_sd(uint64_t x);
void nuri_fea_aesni_f(const uint64_t rk[2], uint64_t *x, size_t count);
uint64_t nuri_fea_aesni_sd(uint64_t x);
void nuri_fea_vaes_f(const uint64_t rk[2], uint64_t *x, size_t count);
void nuri_fea_aesni_round(const uint64_t rk[2], const uint64_t *src, uint64_t *dst, const uint64_t *tw,
                          size_t tw_stride, unsigned sin, unsigned sout, size_t count);
void nuri_fea_vaes_round(const uint64_t rk[2], const uint64_t *src, uint64_t *dst, const uint64_t *tw, size_t tw_stride,
                         unsigned sin, unsigned sout, size_t count);
uint64_t nuri_fea_vaes_sd(uint64_t x);
void nuri_fea_neon_aes_f(const uint64_t rk[2], uint64_t *x, size_t count);
uint64_t nuri_fea_neon_aes_sd(uint64_t x);
#if defined(__AVR__)
void nuri_fea_avr_f(const uint64_t rk[2], uint64_t *x, size_t count);
uint64_t nuri_fea_avr_sd(uint64_t x);
uint64_t nuri_fea_avr_rc(unsigned variant, unsigned ks, unsigned s); /* round constants in flash */
#endif

/* Feistel core over split halves (feistel.c): a = left (n1 bits), b = right (n2 bits), m <= CHUNK.
 * tl/tr: the round-tweak words, per value (tw_stride 1) or one for all (tw_stride 0). */
void nuri_fea_feistel(const nuri_fea_key *k, int decrypt, uint64_t *a, uint64_t *b, const uint64_t *tl,
                      const uint64_t *tr, size_t tw_stride, size_t m);

/* One value of a batch as 128 bits, whichever width the array holds: wide = nuri_fea_u128[],
 * else uint64_t[] (read as {0, x}). Callers pass wide as a constant, so each width compiles to
 * plain loads and stores (feistel.c, format.c). */
static inline nuri_fea_u128 nuri_fea_get_value(const void *p, size_t i, int wide)
{
    if (wide) return ((const nuri_fea_u128 *)p)[i];
    nuri_fea_u128 v = {0, ((const uint64_t *)p)[i]};
    return v;
}
static inline void nuri_fea_put_value(void *p, size_t i, nuri_fea_u128 v, int wide)
{
    if (wide) ((nuri_fea_u128 *)p)[i] = v;
    else ((uint64_t *)p)[i] = v.lo;
}

/* NURI_OK if (tweaks, ntweaks) is valid for count values under k (see fea.h), else NURI_EINVAL. */
int nuri_fea_check_tweaks(const nuri_fea_key *k, size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks);

#endif
