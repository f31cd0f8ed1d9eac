/* nuri: fast, verified PIPO, FEA, SPARKLE/Schwaemm/Esch and ML-KEM.
 *
 * Stability: from version 1.0.0 the public headers (nuri/nuri.h and the family headers beside it),
 * the exported symbols of libnuri (tests/abi/exports.txt) and the Python API follow semantic
 * versioning: a minor release only adds, a patch release changes nothing a caller can see, and
 * anything a 1.x caller relies on changes only with 2.0.0. NURI_VERSION_* below say which version a header belongs to.
 *
 * The conventions every family header follows (tests/abi/check_api_names.py checks the names):
 *
 *  - Names. Every exported symbol starts with nuri_ (types, functions) or NURI_ (macros).
 *  - Status. Functions that can fail return int: 0 (NURI_OK) or a negative NURI_E* code below;
 *    they are marked NURI_MUST_CHECK. On an error every output is zeroed (the out_cap bytes of a
 *    buffer, *out_len = 0), so a caller that ignores a failure never sees a partial result.
 *  - Implementation choice. Each family has a registry of implementations (ref, avx2, ...).
 *    A parameter named `impl` (const char *: an implementation name, NULL = dispatch, which
 *    honours NURI_IMPL=<family>:<name>) exists only where a key or a context is created:
 *    nuri_<x>_key_init, nuri_<x>_init (and nuri_fea_fmt_init). Every other function runs the
 *    implementation stored in its key or context; the one-shot conveniences without one
 *    (nuri_esch256, nuri_mlkem768_encaps, ...) use dispatch. The registry functions
 *    nuri_<family>_impl_count / _impl_info(i) / _impl_supported(i) / _default_impl() list them.
 *  - Variants and parameter sets are enum types (nuri_schwaemm_variant, nuri_esch_variant,
 *    nuri_fea_variant, nuri_mlkem_level, nuri_pipo_mode, nuri_padding), never bare integers.
 *  - Buffers. An input is (const uint8_t *x, size_t x_len). An output is (uint8_t *out,
 *    size_t out_cap): out_cap is the room the caller gives (NURI_EBUFFER when it is too small),
 *    followed by size_t *out_len when the number of bytes written varies (it receives that
 *    number). When the length to produce is the caller's choice (SHAKE output, the digits of a
 *    number), the function fills exactly out_cap bytes. Typed arrays count elements, not bytes
 *    (uint64_t *hits, size_t hits_cap, size_t *hits_len). Fixed-size byte strings in the
 *    fixed-size APIs are arrays sized by macros (uint8_t ct[NURI_MLKEM768_CT_BYTES]); a batch of
 *    items counts them in `count` or `n`.
 *  - Sizes exist both as macros and as getters, for FFI callers: nuri_<x>_key_bytes() and the like
 *    are lengths of byte strings, nuri_<x>_ctx_bytes() / nuri_<x>_struct_bytes() sizes of structs.
 *  - Memory. The cryptographic core never allocates; secrets are wiped after use; keys and
 *    contexts are plain structs the caller owns, wiped with nuri_<x>_key_wipe / _ctx_wipe. */
#ifndef NURI_NURI_H
#define NURI_NURI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define NURI_MUST_CHECK __attribute__((warn_unused_result))
#else
#define NURI_MUST_CHECK
#endif

/* NURI_API marks the public API: the only symbols the shared library exports. libnuri is built
 * with -fvisibility=hidden and NURI_BUILD_LIBRARY; for users of the headers NURI_API is empty.
 * tests/abi/check_exports.sh checks that the exported set equals the NURI_API declarations. */
#if defined(NURI_BUILD_LIBRARY) && (defined(__GNUC__) || defined(__clang__)) && !defined(__AVR__)
#define NURI_API __attribute__((visibility("default")))
#else
#define NURI_API
#endif

#define NURI_VERSION_MAJOR  1
#define NURI_VERSION_MINOR  0
#define NURI_VERSION_PATCH  0
#define NURI_VERSION_STRING "1.0.0"

/* Status codes. */
#define NURI_OK           0
#define NURI_EINVAL       (-1)  /* an argument is out of its allowed range */
#define NURI_ELENGTH      (-2)  /* a length is wrong (key, IV, data not a whole number of blocks) */
#define NURI_EPADDING     (-3)  /* PKCS#7 padding is invalid */
#define NURI_EUNSUPPORTED (-4)  /* the requested implementation cannot run on this CPU / build */
#define NURI_EAUTH        (-5)  /* authentication failed (tag mismatch) */
#define NURI_ERANDOM      (-6)  /* the operating system's random generator failed */
#define NURI_EBUFFER      (-7)  /* an output buffer is too small */
#define NURI_ESTATE       (-8)  /* call sequence error (e.g. update after final) */
#define NURI_ENOTFOUND    (-9)  /* no implementation of that name */
#define NURI_EDOMAIN      (-10) /* a value is outside its domain (e.g. FPE value >= radix^len) */
#define NURI_EBADEK       (-11) /* ML-KEM encapsulation key fails the FIPS 203 modulus check */
#define NURI_EBADDK       (-12) /* ML-KEM decapsulation key fails the FIPS 203 hash check (H(ek) stored in dk) */
#define NURI_EWEAKEK      (-13) /* ML-KEM encapsulation key is degenerate (t mostly zero): refused beyond FIPS 203 */

NURI_API const char *nuri_strerror(int code);
/* NURI_VERSION_STRING of the library that is linked (may be newer than the header's). */
NURI_API const char *nuri_version(void);

/* ---- CPU features and the implementation registry ---- */

/* Feature bits, as reported by nuri_cpu_features(). */
#define NURI_CPU_SSE2       (1u << 0)
#define NURI_CPU_SSSE3      (1u << 1)
#define NURI_CPU_SSE41      (1u << 2)
#define NURI_CPU_AVX        (1u << 3)
#define NURI_CPU_AVX2       (1u << 4)
#define NURI_CPU_BMI2       (1u << 5)
#define NURI_CPU_AVX512F    (1u << 6)
#define NURI_CPU_AVX512BW   (1u << 7)
#define NURI_CPU_AVX512VL   (1u << 8)
#define NURI_CPU_AVX512DQ   (1u << 9)
#define NURI_CPU_GFNI       (1u << 10)
#define NURI_CPU_AESNI      (1u << 11)
#define NURI_CPU_PCLMUL     (1u << 12)
#define NURI_CPU_AVX512VBMI (1u << 13)
#define NURI_CPU_VAES       (1u << 14)  /* AES instructions on ymm/zmm */
#define NURI_CPU_NEON       (1ul << 16) /* ul: int is 16 bits on AVR */
#define NURI_CPU_ARM_AES    (1ul << 17) /* ARMv8 Cryptography Extension: AESE/AESD/AESMC */
#define NURI_CPU_ARM_SHA3   (1ul << 18) /* ARMv8.2 SHA-3 extension: EOR3/RAX1/XAR/BCAX */

/* Features of the running CPU that the OS also enabled (XCR0 checked for AVX/AVX-512),
 * minus any bits masked with the environment variable NURI_CPU_MASK (hex, bits to clear). */
NURI_API uint32_t nuri_cpu_features(void);
/* Space-separated names of the bits in `features`, NUL-terminated, written to out (truncated to
 * out_cap - 1 characters); returns out. */
NURI_API const char *nuri_cpu_feature_names(uint32_t features, char *out, size_t out_cap);

/* What every registered implementation declares. */
typedef struct nuri_impl_info {
    const char *name;      /* e.g. "ref", "bitslice64", "avx512" */
    uint32_t cpu_features; /* NURI_CPU_* bits it needs */
    int constant_time;     /* 1 = no secret-dependent branches or memory indices */
    const char *description;
} nuri_impl_info;

/* The family registries: nuri_<family>_impl_count() / nuri_<family>_impl_info(i) are declared
 * in each family header. Dispatch picks the first (fastest) constant-time entry whose features
 * the CPU has; NURI_IMPL=<family>:<name>[,<family>:<name>...] forces one. */

/* ---- Constant-time and memory helpers ---- */
/* Zeroes buf_len bytes at buf in a way the compiler cannot remove. */
NURI_API void nuri_wipe(void *buf, size_t buf_len);
/* 0 if the count bytes at a and b are equal, -1 otherwise; time depends on count only. */
NURI_API int nuri_ct_memcmp(const void *a, const void *b, size_t count);

/* OS randomness (getrandom): fills out_cap bytes; 0 or NURI_ERANDOM (out zeroed). */
NURI_API NURI_MUST_CHECK int nuri_randombytes(uint8_t *out, size_t out_cap);

#ifdef __cplusplus
}
#endif
#endif
