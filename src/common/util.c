/* Status strings, wiping, constant-time compare, OS randomness. */
#define _DEFAULT_SOURCE 1 /* getrandom */
#include <errno.h>
#include <string.h>

#include "nuri_internal.h"

#if defined(__linux__)
#include <sys/random.h>
#endif

const char *nuri_version(void) { return NURI_VERSION_STRING; }

const char *nuri_strerror(int code)
{
    switch (code) {
    case NURI_OK:
        return "ok";
    case NURI_EINVAL:
        return "invalid argument";
    case NURI_ELENGTH:
        return "wrong length";
    case NURI_EPADDING:
        return "invalid padding";
    case NURI_EUNSUPPORTED:
        return "implementation not supported on this CPU or build";
    case NURI_EAUTH:
        return "authentication failed";
    case NURI_ERANDOM:
        return "operating-system random generator failed";
    case NURI_EBUFFER:
        return "output buffer too small";
    case NURI_ESTATE:
        return "invalid call sequence";
    case NURI_ENOTFOUND:
        return "no implementation of that name";
    case NURI_EDOMAIN:
        return "value outside its domain";
    case NURI_EBADEK:
        return "invalid ML-KEM encapsulation key (a coefficient is >= q)";
    case NURI_EBADDK:
        return "invalid ML-KEM decapsulation key (stored H(ek) does not match ek)";
    case NURI_EWEAKEK:
        return "degenerate ML-KEM encapsulation key (t is zero or mostly zero: anyone could decapsulate)";
    default:
        return "unknown error";
    }
}

void nuri_wipe(void *buf, size_t buf_len)
{
    if (!buf || !buf_len) return;
    memset(buf, 0, buf_len);
#if defined(__GNUC__) || defined(__clang__)
    /* Tell the compiler the zeroed memory is read, so the memset is not removed. */
    __asm__ __volatile__("" : : "r"(buf) : "memory");
#else
    volatile uint8_t *v = (volatile uint8_t *)buf;
    while (buf_len--) *v++ = 0;
#endif
}

int nuri_ct_memcmp(const void *a, const void *b, size_t count)
{
    const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
    uint32_t acc = 0;
    for (size_t i = 0; i < count; i++) acc |= (uint32_t)(x[i] ^ y[i]);
    acc = nuri_value_barrier_u32(acc);
    /* acc in 0..255: (acc - 1) >> 8 is all-ones iff acc == 0. */
    return (int)((((acc - 1) >> 8) & 1) - 1);
}

int nuri_randombytes(uint8_t *out, size_t out_cap)
{
#if defined(__linux__)
    for (size_t got = 0; got < out_cap;) {
        ssize_t r = getrandom(out + got, out_cap - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            nuri_wipe(out, out_cap); /* outputs zeroed on error: no partial randomness */
            return NURI_ERANDOM;
        }
        got += (size_t)r;
    }
    return NURI_OK;
#else
    nuri_wipe(out, out_cap);
    return NURI_ERANDOM; /* bare-metal builds have no entropy source: callers must use the *_derand forms */
#endif
}
