/* Internal helpers shared by all families (not installed). */
#ifndef NURI_INTERNAL_H
#define NURI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nuri/nuri.h"

#if defined(__x86_64__) || defined(_M_X64)
#define NURI_X86_64 1
#endif
#if defined(__aarch64__)
#define NURI_AARCH64 1
#endif

/* Pick an implementation for `family` from `infos` (ordered fastest first).
 * `forced` (may be NULL) overrides NURI_IMPL. Returns the index, or a negative NURI_E*:
 * NURI_ENOTFOUND for an unknown forced name, NURI_EUNSUPPORTED if the CPU lacks its features. */
int nuri_dispatch(const char *family, const nuri_impl_info *const *infos, size_t n, const char *forced);

/* Registry lists (src/<family>/impls.c), one line per backend:
 *     NURI_IF(NURI_HAVE_PIPO_AVX2, &nuri_pipo_backend_avx2)
 * expands to "&nuri_pipo_backend_avx2," when the macro NURI_HAVE_PIPO_AVX2 is defined to 1 (by
 * nuri_backend() in family.cmake: the backend is built) and to nothing otherwise. NURI_IF(1, x)
 * always lists x. (The test for "defined to 1" is the usual placeholder-comma trick.) */
#define NURI_IF(cfg, entry)           NURI_IF_1(cfg, entry)
#define NURI_IF_1(cfg, entry)         NURI_IF_2(NURI_IF_PLACEHOLDER_##cfg, entry)
#define NURI_IF_PLACEHOLDER_1         0,
#define NURI_IF_2(arg_or_junk, entry) NURI_IF_3(NURI_IF_SECOND(arg_or_junk 1, 0, ~), entry)
#define NURI_IF_SECOND(a, b, ...)     b
#define NURI_IF_3(on, entry)          NURI_IF_4(on, entry)
#define NURI_IF_4(on, entry)          NURI_IF_SELECT_##on(entry)
#define NURI_IF_SELECT_1(entry)       entry,
#define NURI_IF_SELECT_0(entry)

/* getenv of NURI_IMPL / NURI_CPU_MASK, cheap when the environment did not change (env.c). */
enum { NURI_ENV_IMPL, NURI_ENV_CPU_MASK, NURI_ENV_COUNT };
const char *nuri_getenv_cached(int which);

/* 1 if the CPU (after NURI_CPU_MASK) has every feature in `need`. */
int nuri_cpu_has(uint32_t need);

/* 1 if the byte ranges [a, a + alen) and [b, b + blen) overlap without starting at the same
 * address: the partial overlap that in-place APIs refuse (out == in exactly is in place and
 * allowed; a shifted output would overwrite input not yet read). Addresses compared as integers. */
static inline int nuri_overlap_partial(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return alen && blen && x != y && x < y + blen && y < x + alen;
}

/* Value barrier: hides a value from the optimiser so masks built from secrets stay branch-free. */
static inline uint64_t nuri_value_barrier_u64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(x));
#endif
    return x;
}
static inline uint32_t nuri_value_barrier_u32(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(x));
#endif
    return x;
}

/* All-ones if x == 0, else 0; constant time. */
static inline uint64_t nuri_ct_is_zero_mask_u64(uint64_t x)
{
    x = nuri_value_barrier_u64(x);
    return ((x | (0 - x)) >> 63) - 1;
}

static inline uint64_t nuri_load64_le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}
static inline void nuri_store64_le(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, 8);
}
static inline uint64_t nuri_load64_be(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
    return v;
}
static inline void nuri_store64_be(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}
static inline uint32_t nuri_load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline void nuri_store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Marks memory as secret for valgrind constant-time checks (no-op unless NURI_CT_VALGRIND). */
#ifdef NURI_CT_VALGRIND
#include <valgrind/memcheck.h>
#define NURI_CT_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define NURI_CT_PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#else
#define NURI_CT_SECRET(p, n) ((void)(p), (void)(n))
#define NURI_CT_PUBLIC(p, n) ((void)(p), (void)(n))
#endif

#endif
