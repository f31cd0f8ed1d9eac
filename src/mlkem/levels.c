/* The fixed-size ML-KEM API, one plain definition per parameter set and operation (so that
 * `grep nuri_mlkem768_decaps` finds it): each sets up a context with dispatch (honours NURI_IMPL)
 * and calls the length-checked form in impls.c with the level's sizes. */
#include "mlkem_impl.h"

/* The status of a call made with a context that init set up: when init failed (the context is
 * zeroed), the call has zeroed its outputs (NURI_ESTATE) and init's error is the one to report. */
static int status(int init_rc, int call_rc) { return init_rc != NURI_OK ? init_rc : call_rc; }

/* n * item bytes, or 0 when n items of the largest kind (an ek or a ct) would overflow: then every
 * size of the call is 0, so the length-checked form refuses it (NURI_EBUFFER) and zeroes nothing,
 * since no buffer of that size can exist. */
static size_t times(size_t n, size_t item)
{
    return n > SIZE_MAX / NURI_MLKEM_MAX_EK_BYTES || n > SIZE_MAX / NURI_MLKEM_MAX_CT_BYTES ? 0 : n * item;
}

/* ---- ML-KEM-512 ---- */

int nuri_mlkem512_keygen(uint8_t ek[NURI_MLKEM512_EK_BYTES], uint8_t dk[NURI_MLKEM512_DK_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM512, NULL);
    return status(rc, nuri_mlkem_keygen(&ctx, ek, NURI_MLKEM512_EK_BYTES, dk, NURI_MLKEM512_DK_BYTES, NULL, 0));
}

int nuri_mlkem512_keygen_derand(uint8_t ek[NURI_MLKEM512_EK_BYTES], uint8_t dk[NURI_MLKEM512_DK_BYTES],
                                const uint8_t seed[NURI_MLKEM_KEYGEN_SEED_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM512, NULL);
    return status(rc, nuri_mlkem_keygen(&ctx, ek, NURI_MLKEM512_EK_BYTES, dk, NURI_MLKEM512_DK_BYTES, seed,
                                        NURI_MLKEM_KEYGEN_SEED_BYTES));
}

int nuri_mlkem512_encaps(uint8_t ct[NURI_MLKEM512_CT_BYTES], uint8_t ss[NURI_MLKEM_SS_BYTES],
                         const uint8_t ek[NURI_MLKEM512_EK_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM512, NULL);
    return status(rc, nuri_mlkem_encaps(&ctx, ct, NURI_MLKEM512_CT_BYTES, ss, NURI_MLKEM_SS_BYTES, ek,
                                        NURI_MLKEM512_EK_BYTES, NULL, 0));
}

int nuri_mlkem512_encaps_derand(uint8_t ct[NURI_MLKEM512_CT_BYTES], uint8_t ss[NURI_MLKEM_SS_BYTES],
                                const uint8_t ek[NURI_MLKEM512_EK_BYTES], const uint8_t m[NURI_MLKEM_ENCAPS_SEED_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM512, NULL);
    return status(rc, nuri_mlkem_encaps(&ctx, ct, NURI_MLKEM512_CT_BYTES, ss, NURI_MLKEM_SS_BYTES, ek,
                                        NURI_MLKEM512_EK_BYTES, m, NURI_MLKEM_ENCAPS_SEED_BYTES));
}

int nuri_mlkem512_decaps(uint8_t ss[NURI_MLKEM_SS_BYTES], const uint8_t ct[NURI_MLKEM512_CT_BYTES],
                         const uint8_t dk[NURI_MLKEM512_DK_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM512, NULL);
    return status(
        rc, nuri_mlkem_decaps(&ctx, ss, NURI_MLKEM_SS_BYTES, ct, NURI_MLKEM512_CT_BYTES, dk, NURI_MLKEM512_DK_BYTES));
}

int nuri_mlkem512_encaps_many(uint8_t ct[][NURI_MLKEM512_CT_BYTES], uint8_t ss[][NURI_MLKEM_SS_BYTES],
                              const uint8_t ek[][NURI_MLKEM512_EK_BYTES], size_t n)
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM512, NULL);
    return status(rc, nuri_mlkem_encaps_many(&ctx, (uint8_t *)ct, times(n, NURI_MLKEM512_CT_BYTES), (uint8_t *)ss,
                                             times(n, NURI_MLKEM_SS_BYTES), (const uint8_t *)ek,
                                             times(n, NURI_MLKEM512_EK_BYTES), NULL, 0, n));
}

int nuri_mlkem512_encaps_many_derand(uint8_t ct[][NURI_MLKEM512_CT_BYTES], uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                     const uint8_t ek[][NURI_MLKEM512_EK_BYTES],
                                     const uint8_t m[][NURI_MLKEM_ENCAPS_SEED_BYTES], size_t n)
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM512, NULL);
    return status(rc, nuri_mlkem_encaps_many(&ctx, (uint8_t *)ct, times(n, NURI_MLKEM512_CT_BYTES), (uint8_t *)ss,
                                             times(n, NURI_MLKEM_SS_BYTES), (const uint8_t *)ek,
                                             times(n, NURI_MLKEM512_EK_BYTES), (const uint8_t *)m,
                                             times(n, NURI_MLKEM_ENCAPS_SEED_BYTES), n));
}

int nuri_mlkem512_decaps_many(uint8_t ss[][NURI_MLKEM_SS_BYTES], const uint8_t ct[][NURI_MLKEM512_CT_BYTES],
                              const uint8_t dk[NURI_MLKEM512_DK_BYTES], size_t n)
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM512, NULL);
    return status(rc, nuri_mlkem_decaps_many(&ctx, (uint8_t *)ss, times(n, NURI_MLKEM_SS_BYTES), (const uint8_t *)ct,
                                             times(n, NURI_MLKEM512_CT_BYTES), dk, NURI_MLKEM512_DK_BYTES, n));
}

/* ---- ML-KEM-768 ---- */

int nuri_mlkem768_keygen(uint8_t ek[NURI_MLKEM768_EK_BYTES], uint8_t dk[NURI_MLKEM768_DK_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM768, NULL);
    return status(rc, nuri_mlkem_keygen(&ctx, ek, NURI_MLKEM768_EK_BYTES, dk, NURI_MLKEM768_DK_BYTES, NULL, 0));
}

int nuri_mlkem768_keygen_derand(uint8_t ek[NURI_MLKEM768_EK_BYTES], uint8_t dk[NURI_MLKEM768_DK_BYTES],
                                const uint8_t seed[NURI_MLKEM_KEYGEN_SEED_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM768, NULL);
    return status(rc, nuri_mlkem_keygen(&ctx, ek, NURI_MLKEM768_EK_BYTES, dk, NURI_MLKEM768_DK_BYTES, seed,
                                        NURI_MLKEM_KEYGEN_SEED_BYTES));
}

int nuri_mlkem768_encaps(uint8_t ct[NURI_MLKEM768_CT_BYTES], uint8_t ss[NURI_MLKEM_SS_BYTES],
                         const uint8_t ek[NURI_MLKEM768_EK_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM768, NULL);
    return status(rc, nuri_mlkem_encaps(&ctx, ct, NURI_MLKEM768_CT_BYTES, ss, NURI_MLKEM_SS_BYTES, ek,
                                        NURI_MLKEM768_EK_BYTES, NULL, 0));
}

int nuri_mlkem768_encaps_derand(uint8_t ct[NURI_MLKEM768_CT_BYTES], uint8_t ss[NURI_MLKEM_SS_BYTES],
                                const uint8_t ek[NURI_MLKEM768_EK_BYTES], const uint8_t m[NURI_MLKEM_ENCAPS_SEED_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM768, NULL);
    return status(rc, nuri_mlkem_encaps(&ctx, ct, NURI_MLKEM768_CT_BYTES, ss, NURI_MLKEM_SS_BYTES, ek,
                                        NURI_MLKEM768_EK_BYTES, m, NURI_MLKEM_ENCAPS_SEED_BYTES));
}

int nuri_mlkem768_decaps(uint8_t ss[NURI_MLKEM_SS_BYTES], const uint8_t ct[NURI_MLKEM768_CT_BYTES],
                         const uint8_t dk[NURI_MLKEM768_DK_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM768, NULL);
    return status(
        rc, nuri_mlkem_decaps(&ctx, ss, NURI_MLKEM_SS_BYTES, ct, NURI_MLKEM768_CT_BYTES, dk, NURI_MLKEM768_DK_BYTES));
}

int nuri_mlkem768_encaps_many(uint8_t ct[][NURI_MLKEM768_CT_BYTES], uint8_t ss[][NURI_MLKEM_SS_BYTES],
                              const uint8_t ek[][NURI_MLKEM768_EK_BYTES], size_t n)
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM768, NULL);
    return status(rc, nuri_mlkem_encaps_many(&ctx, (uint8_t *)ct, times(n, NURI_MLKEM768_CT_BYTES), (uint8_t *)ss,
                                             times(n, NURI_MLKEM_SS_BYTES), (const uint8_t *)ek,
                                             times(n, NURI_MLKEM768_EK_BYTES), NULL, 0, n));
}

int nuri_mlkem768_encaps_many_derand(uint8_t ct[][NURI_MLKEM768_CT_BYTES], uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                     const uint8_t ek[][NURI_MLKEM768_EK_BYTES],
                                     const uint8_t m[][NURI_MLKEM_ENCAPS_SEED_BYTES], size_t n)
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM768, NULL);
    return status(rc, nuri_mlkem_encaps_many(&ctx, (uint8_t *)ct, times(n, NURI_MLKEM768_CT_BYTES), (uint8_t *)ss,
                                             times(n, NURI_MLKEM_SS_BYTES), (const uint8_t *)ek,
                                             times(n, NURI_MLKEM768_EK_BYTES), (const uint8_t *)m,
                                             times(n, NURI_MLKEM_ENCAPS_SEED_BYTES), n));
}

int nuri_mlkem768_decaps_many(uint8_t ss[][NURI_MLKEM_SS_BYTES], const uint8_t ct[][NURI_MLKEM768_CT_BYTES],
                              const uint8_t dk[NURI_MLKEM768_DK_BYTES], size_t n)
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM768, NULL);
    return status(rc, nuri_mlkem_decaps_many(&ctx, (uint8_t *)ss, times(n, NURI_MLKEM_SS_BYTES), (const uint8_t *)ct,
                                             times(n, NURI_MLKEM768_CT_BYTES), dk, NURI_MLKEM768_DK_BYTES, n));
}

/* ---- ML-KEM-1024 ---- */

int nuri_mlkem1024_keygen(uint8_t ek[NURI_MLKEM1024_EK_BYTES], uint8_t dk[NURI_MLKEM1024_DK_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM1024, NULL);
    return status(rc, nuri_mlkem_keygen(&ctx, ek, NURI_MLKEM1024_EK_BYTES, dk, NURI_MLKEM1024_DK_BYTES, NULL, 0));
}

int nuri_mlkem1024_keygen_derand(uint8_t ek[NURI_MLKEM1024_EK_BYTES], uint8_t dk[NURI_MLKEM1024_DK_BYTES],
                                 const uint8_t seed[NURI_MLKEM_KEYGEN_SEED_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM1024, NULL);
    return status(rc, nuri_mlkem_keygen(&ctx, ek, NURI_MLKEM1024_EK_BYTES, dk, NURI_MLKEM1024_DK_BYTES, seed,
                                        NURI_MLKEM_KEYGEN_SEED_BYTES));
}

int nuri_mlkem1024_encaps(uint8_t ct[NURI_MLKEM1024_CT_BYTES], uint8_t ss[NURI_MLKEM_SS_BYTES],
                          const uint8_t ek[NURI_MLKEM1024_EK_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM1024, NULL);
    return status(rc, nuri_mlkem_encaps(&ctx, ct, NURI_MLKEM1024_CT_BYTES, ss, NURI_MLKEM_SS_BYTES, ek,
                                        NURI_MLKEM1024_EK_BYTES, NULL, 0));
}

int nuri_mlkem1024_encaps_derand(uint8_t ct[NURI_MLKEM1024_CT_BYTES], uint8_t ss[NURI_MLKEM_SS_BYTES],
                                 const uint8_t ek[NURI_MLKEM1024_EK_BYTES],
                                 const uint8_t m[NURI_MLKEM_ENCAPS_SEED_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM1024, NULL);
    return status(rc, nuri_mlkem_encaps(&ctx, ct, NURI_MLKEM1024_CT_BYTES, ss, NURI_MLKEM_SS_BYTES, ek,
                                        NURI_MLKEM1024_EK_BYTES, m, NURI_MLKEM_ENCAPS_SEED_BYTES));
}

int nuri_mlkem1024_decaps(uint8_t ss[NURI_MLKEM_SS_BYTES], const uint8_t ct[NURI_MLKEM1024_CT_BYTES],
                          const uint8_t dk[NURI_MLKEM1024_DK_BYTES])
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM1024, NULL);
    return status(
        rc, nuri_mlkem_decaps(&ctx, ss, NURI_MLKEM_SS_BYTES, ct, NURI_MLKEM1024_CT_BYTES, dk, NURI_MLKEM1024_DK_BYTES));
}

int nuri_mlkem1024_encaps_many(uint8_t ct[][NURI_MLKEM1024_CT_BYTES], uint8_t ss[][NURI_MLKEM_SS_BYTES],
                               const uint8_t ek[][NURI_MLKEM1024_EK_BYTES], size_t n)
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM1024, NULL);
    return status(rc, nuri_mlkem_encaps_many(&ctx, (uint8_t *)ct, times(n, NURI_MLKEM1024_CT_BYTES), (uint8_t *)ss,
                                             times(n, NURI_MLKEM_SS_BYTES), (const uint8_t *)ek,
                                             times(n, NURI_MLKEM1024_EK_BYTES), NULL, 0, n));
}

int nuri_mlkem1024_encaps_many_derand(uint8_t ct[][NURI_MLKEM1024_CT_BYTES], uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                      const uint8_t ek[][NURI_MLKEM1024_EK_BYTES],
                                      const uint8_t m[][NURI_MLKEM_ENCAPS_SEED_BYTES], size_t n)
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM1024, NULL);
    return status(rc, nuri_mlkem_encaps_many(&ctx, (uint8_t *)ct, times(n, NURI_MLKEM1024_CT_BYTES), (uint8_t *)ss,
                                             times(n, NURI_MLKEM_SS_BYTES), (const uint8_t *)ek,
                                             times(n, NURI_MLKEM1024_EK_BYTES), (const uint8_t *)m,
                                             times(n, NURI_MLKEM_ENCAPS_SEED_BYTES), n));
}

int nuri_mlkem1024_decaps_many(uint8_t ss[][NURI_MLKEM_SS_BYTES], const uint8_t ct[][NURI_MLKEM1024_CT_BYTES],
                               const uint8_t dk[NURI_MLKEM1024_DK_BYTES], size_t n)
{
    nuri_mlkem_ctx ctx;
    int rc = nuri_mlkem_init(&ctx, NURI_MLKEM1024, NULL);
    return status(rc, nuri_mlkem_decaps_many(&ctx, (uint8_t *)ss, times(n, NURI_MLKEM_SS_BYTES), (const uint8_t *)ct,
                                             times(n, NURI_MLKEM1024_CT_BYTES), dk, NURI_MLKEM1024_DK_BYTES, n));
}
