/* ML-KEM-512, ML-KEM-768 and ML-KEM-1024 (FIPS 203, August 2024).
 *
 * Keys and ciphertexts are the FIPS 203 byte strings: ek = ByteEncode12(t) || rho,
 * dk = dk_PKE || ek || H(ek) || z. The shared key is 32 bytes.
 *
 * Input checks (FIPS 203 §7.2, §7.3): encapsulation rejects an ek of the wrong length or whose
 * 12-bit coefficients are not all < q = 3329 (modulus check); decapsulation rejects a ciphertext
 * or dk of the wrong length and a dk whose stored H(ek) does not match its ek (hash check).
 * A well-formed but wrong ciphertext is NOT an error: decapsulation then returns the implicit
 * rejection key J(z || c), chosen in constant time.
 *
 * Two forms: the fixed-size functions per parameter set (nuri_mlkem768_encaps ..., arrays sized by
 * macros, dispatch chooses the implementation) and the length-checked functions over a context
 * (nuri_mlkem_ctx: the level and the implementation, chosen once by nuri_mlkem_init), for FFI
 * callers and for choosing an implementation by name.
 *
 * Every function returns 0 or a negative NURI_E* code and zeroes its outputs on error:
 * NURI_ELENGTH (an input length), NURI_EBUFFER (an output buffer too small), NURI_EINVAL
 * (unknown level), NURI_EBADEK (an ek failing the modulus check), NURI_EWEAKEK (a degenerate ek,
 * refused beyond FIPS 203: 16k or more of the 256k coefficients of t-hat zero; with t = 0 the
 * ciphertext carries m in the clear; checked wherever an ek is checked, after the modulus check),
 * NURI_EBADDK (a dk failing the hash check), NURI_ERANDOM (the OS random generator failed),
 * NURI_ENOTFOUND / NURI_EUNSUPPORTED (impl), NURI_ESTATE (a context that was not initialised).
 * The *_derand forms take the randomness explicitly (keygen: 64 bytes d || z; encaps: 32 bytes m);
 * they are the FIPS 203 ML-KEM.KeyGen_internal / Encaps_internal, meant for tests and for
 * callers with their own DRBG. Secret inputs and intermediates are wiped. */
#ifndef NURI_MLKEM_H
#define NURI_MLKEM_H

#include "nuri/nuri.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NURI_MLKEM512_EK_BYTES       800
#define NURI_MLKEM512_DK_BYTES       1632
#define NURI_MLKEM512_CT_BYTES       768
#define NURI_MLKEM768_EK_BYTES       1184
#define NURI_MLKEM768_DK_BYTES       2400
#define NURI_MLKEM768_CT_BYTES       1088
#define NURI_MLKEM1024_EK_BYTES      1568
#define NURI_MLKEM1024_DK_BYTES      3168
#define NURI_MLKEM1024_CT_BYTES      1568
#define NURI_MLKEM_SS_BYTES          32 /* shared key */
#define NURI_MLKEM_KEYGEN_SEED_BYTES 64 /* d || z */
#define NURI_MLKEM_ENCAPS_SEED_BYTES 32 /* m */
#define NURI_MLKEM_MAX_EK_BYTES      NURI_MLKEM1024_EK_BYTES
#define NURI_MLKEM_MAX_DK_BYTES      NURI_MLKEM1024_DK_BYTES
#define NURI_MLKEM_MAX_CT_BYTES      NURI_MLKEM1024_CT_BYTES

/* The parameter sets; the values are the names' numbers. */
typedef enum { NURI_MLKEM512 = 512, NURI_MLKEM768 = 768, NURI_MLKEM1024 = 1024 } nuri_mlkem_level;

/* Sizes by level; 0 for any other value. */
NURI_API size_t nuri_mlkem_ek_bytes(nuri_mlkem_level level);
NURI_API size_t nuri_mlkem_dk_bytes(nuri_mlkem_level level);
NURI_API size_t nuri_mlkem_ct_bytes(nuri_mlkem_level level);
NURI_API size_t nuri_mlkem_ss_bytes(void);
NURI_API size_t nuri_mlkem_ctx_bytes(void);

/* ---- Fixed-size API per parameter set (dispatch picks the implementation; honours NURI_IMPL).
 * Defined one by one in src/mlkem/levels.c. ---- */
NURI_API NURI_MUST_CHECK int nuri_mlkem512_keygen(uint8_t ek[NURI_MLKEM512_EK_BYTES],
                                                  uint8_t dk[NURI_MLKEM512_DK_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem512_keygen_derand(uint8_t ek[NURI_MLKEM512_EK_BYTES],
                                                         uint8_t dk[NURI_MLKEM512_DK_BYTES],
                                                         const uint8_t seed[NURI_MLKEM_KEYGEN_SEED_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem512_encaps(uint8_t ct[NURI_MLKEM512_CT_BYTES], uint8_t ss[NURI_MLKEM_SS_BYTES],
                                                  const uint8_t ek[NURI_MLKEM512_EK_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem512_encaps_derand(uint8_t ct[NURI_MLKEM512_CT_BYTES],
                                                         uint8_t ss[NURI_MLKEM_SS_BYTES],
                                                         const uint8_t ek[NURI_MLKEM512_EK_BYTES],
                                                         const uint8_t m[NURI_MLKEM_ENCAPS_SEED_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem512_decaps(uint8_t ss[NURI_MLKEM_SS_BYTES],
                                                  const uint8_t ct[NURI_MLKEM512_CT_BYTES],
                                                  const uint8_t dk[NURI_MLKEM512_DK_BYTES]);

NURI_API NURI_MUST_CHECK int nuri_mlkem768_keygen(uint8_t ek[NURI_MLKEM768_EK_BYTES],
                                                  uint8_t dk[NURI_MLKEM768_DK_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem768_keygen_derand(uint8_t ek[NURI_MLKEM768_EK_BYTES],
                                                         uint8_t dk[NURI_MLKEM768_DK_BYTES],
                                                         const uint8_t seed[NURI_MLKEM_KEYGEN_SEED_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem768_encaps(uint8_t ct[NURI_MLKEM768_CT_BYTES], uint8_t ss[NURI_MLKEM_SS_BYTES],
                                                  const uint8_t ek[NURI_MLKEM768_EK_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem768_encaps_derand(uint8_t ct[NURI_MLKEM768_CT_BYTES],
                                                         uint8_t ss[NURI_MLKEM_SS_BYTES],
                                                         const uint8_t ek[NURI_MLKEM768_EK_BYTES],
                                                         const uint8_t m[NURI_MLKEM_ENCAPS_SEED_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem768_decaps(uint8_t ss[NURI_MLKEM_SS_BYTES],
                                                  const uint8_t ct[NURI_MLKEM768_CT_BYTES],
                                                  const uint8_t dk[NURI_MLKEM768_DK_BYTES]);

NURI_API NURI_MUST_CHECK int nuri_mlkem1024_keygen(uint8_t ek[NURI_MLKEM1024_EK_BYTES],
                                                   uint8_t dk[NURI_MLKEM1024_DK_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem1024_keygen_derand(uint8_t ek[NURI_MLKEM1024_EK_BYTES],
                                                          uint8_t dk[NURI_MLKEM1024_DK_BYTES],
                                                          const uint8_t seed[NURI_MLKEM_KEYGEN_SEED_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem1024_encaps(uint8_t ct[NURI_MLKEM1024_CT_BYTES], uint8_t ss[NURI_MLKEM_SS_BYTES],
                                                   const uint8_t ek[NURI_MLKEM1024_EK_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem1024_encaps_derand(uint8_t ct[NURI_MLKEM1024_CT_BYTES],
                                                          uint8_t ss[NURI_MLKEM_SS_BYTES],
                                                          const uint8_t ek[NURI_MLKEM1024_EK_BYTES],
                                                          const uint8_t m[NURI_MLKEM_ENCAPS_SEED_BYTES]);
NURI_API NURI_MUST_CHECK int nuri_mlkem1024_decaps(uint8_t ss[NURI_MLKEM_SS_BYTES],
                                                   const uint8_t ct[NURI_MLKEM1024_CT_BYTES],
                                                   const uint8_t dk[NURI_MLKEM1024_DK_BYTES]);

/* ---- Batch forms: n independent operations in one call (servers, files sealed to many keys) ----
 * Items are fixed-size and back to back: ct[i], ss[i], ek[i], m[i]. encaps_many encapsulates to
 * n keys (repeat a key to encapsulate to it several times); decaps_many decapsulates n ciphertexts
 * under ONE decapsulation key (a server's key). Each item's result is bit-identical to the single
 * call's. The status is for the whole call: 0 when every item succeeded; on any error (an ek that
 * fails its modulus check: NURI_EBADEK, a degenerate ek: NURI_EWEAKEK, a dk that fails its hash check: NURI_EBADDK, a length:
 * NURI_ELENGTH, the OS random generator: NURI_ERANDOM) every output is zeroed and no item is
 * returned (find a bad ek with nuri_mlkem_check_ek). An invalid
 * ciphertext is no error (implicit rejection, as in decaps). n = 0 does nothing and returns 0.
 * The implementation interleaves the items: their hashes run four per Keccak-x4 call on AVX2, a
 * key's matrix is expanded once for consecutive items under the same key, and decaps_many checks
 * its dk once. */
NURI_API NURI_MUST_CHECK int nuri_mlkem512_encaps_many(uint8_t ct[][NURI_MLKEM512_CT_BYTES],
                                                       uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                                       const uint8_t ek[][NURI_MLKEM512_EK_BYTES], size_t n);
NURI_API NURI_MUST_CHECK int nuri_mlkem512_encaps_many_derand(uint8_t ct[][NURI_MLKEM512_CT_BYTES],
                                                              uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                                              const uint8_t ek[][NURI_MLKEM512_EK_BYTES],
                                                              const uint8_t m[][NURI_MLKEM_ENCAPS_SEED_BYTES],
                                                              size_t n);
NURI_API NURI_MUST_CHECK int nuri_mlkem512_decaps_many(uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                                       const uint8_t ct[][NURI_MLKEM512_CT_BYTES],
                                                       const uint8_t dk[NURI_MLKEM512_DK_BYTES], size_t n);
NURI_API NURI_MUST_CHECK int nuri_mlkem768_encaps_many(uint8_t ct[][NURI_MLKEM768_CT_BYTES],
                                                       uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                                       const uint8_t ek[][NURI_MLKEM768_EK_BYTES], size_t n);
NURI_API NURI_MUST_CHECK int nuri_mlkem768_encaps_many_derand(uint8_t ct[][NURI_MLKEM768_CT_BYTES],
                                                              uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                                              const uint8_t ek[][NURI_MLKEM768_EK_BYTES],
                                                              const uint8_t m[][NURI_MLKEM_ENCAPS_SEED_BYTES],
                                                              size_t n);
NURI_API NURI_MUST_CHECK int nuri_mlkem768_decaps_many(uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                                       const uint8_t ct[][NURI_MLKEM768_CT_BYTES],
                                                       const uint8_t dk[NURI_MLKEM768_DK_BYTES], size_t n);
NURI_API NURI_MUST_CHECK int nuri_mlkem1024_encaps_many(uint8_t ct[][NURI_MLKEM1024_CT_BYTES],
                                                        uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                                        const uint8_t ek[][NURI_MLKEM1024_EK_BYTES], size_t n);
NURI_API NURI_MUST_CHECK int nuri_mlkem1024_encaps_many_derand(uint8_t ct[][NURI_MLKEM1024_CT_BYTES],
                                                               uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                                               const uint8_t ek[][NURI_MLKEM1024_EK_BYTES],
                                                               const uint8_t m[][NURI_MLKEM_ENCAPS_SEED_BYTES],
                                                               size_t n);
NURI_API NURI_MUST_CHECK int nuri_mlkem1024_decaps_many(uint8_t ss[][NURI_MLKEM_SS_BYTES],
                                                        const uint8_t ct[][NURI_MLKEM1024_CT_BYTES],
                                                        const uint8_t dk[NURI_MLKEM1024_DK_BYTES], size_t n);

/* ---- Length-checked API over a context (for FFI callers and a named implementation) ---- */
struct nuri_mlkem_backend;
typedef struct nuri_mlkem_ctx {
    nuri_mlkem_level level;
    const struct nuri_mlkem_backend *impl;
} nuri_mlkem_ctx;

/* impl NULL = dispatch (honours NURI_IMPL=mlkem:<name>). Errors: NURI_EINVAL (level),
 * NURI_ENOTFOUND / NURI_EUNSUPPORTED (impl). The context holds no secret. */
NURI_API NURI_MUST_CHECK int nuri_mlkem_init(nuri_mlkem_ctx *ctx, nuri_mlkem_level level, const char *impl);
NURI_API const char *nuri_mlkem_ctx_impl_name(const nuri_mlkem_ctx *ctx);

/* Every output buffer with its capacity (at least the size of the level's byte string, else
 * NURI_EBUFFER; exactly that size is written), every input with its exact length (NURI_ELENGTH).
 * seed = NULL (seed_len 0) and m = NULL (m_len 0) draw the randomness from the OS. */
NURI_API NURI_MUST_CHECK int nuri_mlkem_keygen(const nuri_mlkem_ctx *ctx, uint8_t *ek, size_t ek_cap, uint8_t *dk,
                                               size_t dk_cap, const uint8_t *seed, size_t seed_len);
NURI_API NURI_MUST_CHECK int nuri_mlkem_encaps(const nuri_mlkem_ctx *ctx, uint8_t *ct, size_t ct_cap, uint8_t *ss,
                                               size_t ss_cap, const uint8_t *ek, size_t ek_len, const uint8_t *m,
                                               size_t m_len);
NURI_API NURI_MUST_CHECK int nuri_mlkem_decaps(const nuri_mlkem_ctx *ctx, uint8_t *ss, size_t ss_cap, const uint8_t *ct,
                                               size_t ct_len, const uint8_t *dk, size_t dk_len);
/* The batch forms (semantics above): n items; ct_cap >= n * ct bytes, ss_cap >= n * 32,
 * ek_len = n * ek bytes, m_len = n * 32 (or m = NULL, m_len = 0: OS randomness); decaps_many
 * takes one dk. */
NURI_API NURI_MUST_CHECK int nuri_mlkem_encaps_many(const nuri_mlkem_ctx *ctx, uint8_t *ct, size_t ct_cap, uint8_t *ss,
                                                    size_t ss_cap, const uint8_t *ek, size_t ek_len, const uint8_t *m,
                                                    size_t m_len, size_t n);
NURI_API NURI_MUST_CHECK int nuri_mlkem_decaps_many(const nuri_mlkem_ctx *ctx, uint8_t *ss, size_t ss_cap,
                                                    const uint8_t *ct, size_t ct_len, const uint8_t *dk, size_t dk_len,
                                                    size_t n);
/* The FIPS 203 input checks on their own: 0 if the key passes, NURI_ELENGTH / NURI_EINVAL /
 * NURI_EBADEK / NURI_EWEAKEK (check_ek) / NURI_EBADDK (check_dk) otherwise. */
NURI_API NURI_MUST_CHECK int nuri_mlkem_check_ek(nuri_mlkem_level level, const uint8_t *ek, size_t ek_len);
NURI_API NURI_MUST_CHECK int nuri_mlkem_check_dk(nuri_mlkem_level level, const uint8_t *dk, size_t dk_len);

/* Registry. */
NURI_API size_t nuri_mlkem_impl_count(void);
NURI_API const nuri_impl_info *nuri_mlkem_impl_info(size_t i);
NURI_API int nuri_mlkem_impl_supported(size_t i);
NURI_API const char *nuri_mlkem_default_impl(void);

#ifdef __cplusplus
}
#endif
#endif
