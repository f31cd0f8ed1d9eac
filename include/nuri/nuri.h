/* nuri: fast, verified PIPO, FEA, SPARKLE/Schwaemm/Esch and ML-KEM.
 *
 * Conventions (docs/ARCHITECTURE.md, principle 5):
 *  - every exported symbol starts with nuri_ / NURI_;
 *  - functions that can fail return int: 0 = ok, a negative NURI_E* code otherwise,
 *    and are marked NURI_MUST_CHECK; outputs are zeroed on error;
 *  - the cryptographic core never allocates; secrets are wiped after use;
 *  - sizes exist both as macros and as getters, for FFI callers: nuri_<x>_key_bytes() and the like
 *    are lengths of byte strings, nuri_<x>_ctx_bytes() / nuri_<x>_struct_bytes() sizes of structs. */
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

#define NURI_VERSION_STRING "0.1.0"

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
/* Space-separated names of the bits in `features` (static buffer per call site: not thread-safe). */
NURI_API const char *nuri_cpu_feature_names(uint32_t features, char *buf, size_t buflen);

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
NURI_API void nuri_wipe(void *p, size_t n);
/* 0 if equal, -1 otherwise; time depends on n only. */
NURI_API int nuri_ct_memcmp(const void *a, const void *b, size_t n);

/* OS randomness (getrandom); 0 or NURI_ERANDOM. */
NURI_API NURI_MUST_CHECK int nuri_randombytes(uint8_t *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
