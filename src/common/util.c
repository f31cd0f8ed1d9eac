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

void nuri_wipe(void *p, size_t n)
{
    if (!p || !n) return;
    memset(p, 0, n);
#if defined(__GNUC__) || defined(__clang__)
    /* Tell the compiler the zeroed memory is read, so the memset is not removed. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    volatile uint8_t *v = (volatile uint8_t *)p;
    while (n--) *v++ = 0;
#endif
}

int nuri_ct_memcmp(const void *a, const void *b, size_t n)
{
    const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
    uint32_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= (uint32_t)(x[i] ^ y[i]);
    acc = nuri_value_barrier_u32(acc);
    /* acc in 0..255: (acc - 1) >> 8 is all-ones iff acc == 0. */
    return (int)((((acc - 1) >> 8) & 1) - 1);
}

int nuri_randombytes(uint8_t *out, size_t n)
{
#if defined(__linux__)
    while (n > 0) {
        ssize_t r = getrandom(out, n, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            return NURI_ERANDOM;
        }
        out += r;
        n -= (size_t)r;
    }
    return NURI_OK;
#else
    (void)out;
    (void)n;
    return NURI_ERANDOM; /* bare-metal builds have no entropy source: callers must use the *_derand forms */
#endif
}
