/* Shared by the libFuzzer harnesses: a reader over the fuzzer's input, a property check that aborts
 * (libFuzzer then saves the input as a crash), and the implementations a family can run here. */
#ifndef NURI_FUZZ_UTIL_H
#define NURI_FUZZ_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nuri/nuri.h>

#define PROPERTY(cond, ...)                                                               \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "property failed at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

typedef struct {
    const uint8_t *p;
    size_t n;
} fz_in;

static inline uint8_t fz_u8(fz_in *in)
{
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static inline uint16_t fz_u16(fz_in *in)
{
    uint16_t hi = fz_u8(in);
    return (uint16_t)(hi << 8 | fz_u8(in));
}

/* Up to max bytes (fewer if the input ends); the length is the next byte(s) of the input. */
static inline const uint8_t *fz_bytes(fz_in *in, size_t want, size_t *got)
{
    size_t k = want < in->n ? want : in->n;
    const uint8_t *r = in->p;
    in->p += k;
    in->n -= k;
    *got = k;
    return r;
}

/* Exactly n bytes into out (zero-filled past the end of the input). */
static inline void fz_fill(fz_in *in, uint8_t *out, size_t n)
{
    size_t k;
    const uint8_t *b = fz_bytes(in, n, &k);
    memcpy(out, b, k);
    memset(out + k, 0, n - k);
}

/* Names of the implementations of a family that run on this CPU (at most 16). */
#define FZ_IMPLS(family, names, count)                                                                    \
    do {                                                                                                  \
        count = 0;                                                                                        \
        for (size_t i_ = 0; i_ < nuri_##family##_impl_count() && count < 16; i_++)                        \
            if (nuri_##family##_impl_supported(i_)) names[count++] = nuri_##family##_impl_info(i_)->name; \
    } while (0)

static inline int fz_all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}
/* Nothing released: every byte of a failed call's output buffer is either the sentinel the harness
 * filled it with (an argument error may leave it untouched) or zero (wiped). */
#define FZ_SENTINEL 0xA5
static inline int fz_nothing_released(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0 && p[i] != FZ_SENTINEL) return 0;
    return 1;
}
#endif
