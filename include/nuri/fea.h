/* FEA-1 and FEA-2 format-preserving encryption (TTAK.KO-12.0275), as the KISA reference code
 * implements it (see docs/fea.md and tests/vectors/fea/README.md).
 *
 * Values are n-bit integers, 8 <= n <= 128; the left Feistel half is the top ceil(n/2) bits.
 * Tweaks are integers: FEA-1 takes 0 <= T < 2^(128-n), split T = T_L || T_R with
 * |T_L| = 64 - floor(n/2) and |T_R| = 64 - ceil(n/2); FEA-2 takes 0 <= T < 2^128, T_L = high
 * 64 bits, T_R = low 64 bits. Out-of-range tweaks and values are errors (NURI_EINVAL /
 * NURI_EDOMAIN), never truncated.
 *
 * Formatted data (radix r, L symbols): the symbols form x < r^L, n = bit length of r^L, and the
 * result is re-encrypted while >= r^L (cycle-walking). The number of re-encryptions is public
 * (it depends on the ciphertext), as in every cycle-walking FPE. Domains smaller than 2^8 are
 * refused; domains smaller than 10^6 need NURI_FEA_ALLOW_SMALL_DOMAIN, because practical attacks
 * on small FEA domains are published (Beyne, ePrint 2021/815; Dunkelman et al., ePrint 2020/1311)
 * and NIST requires 10^6 for FF1. */
#ifndef NURI_FEA_H
#define NURI_FEA_H

#include "nuri/nuri.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NURI_FEA_MIN_BITS        8
#define NURI_FEA_MAX_BITS        128
#define NURI_FEA_MAX_ROUNDS      24
#define NURI_FEA_MIN_DIGITS      3
#define NURI_FEA_MAX_DIGITS      38
#define NURI_FEA_MAX_RADIX       65536
#define NURI_FEA_MIN_SAFE_DOMAIN 1000000
/* flags for nuri_fea_fmt_init */
#define NURI_FEA_ALLOW_SMALL_DOMAIN 1

/* The two FEA variants (the values are the standard's numbers). */
typedef enum { NURI_FEA1 = 1, NURI_FEA2 = 2 } nuri_fea_variant;

/* A 128-bit integer as two words (values with n > 64, and tweaks). */
typedef struct nuri_fea_u128 {
    uint64_t hi, lo;
} nuri_fea_u128;

struct nuri_fea_impl;

/* Expanded key for one (key, variant, n): round keys computed once. Fixed size, no allocation. */
typedef struct nuri_fea_key {
    uint64_t rk[NURI_FEA_MAX_ROUNDS][2]; /* (RKa, RKb) of each round */
    unsigned n, n1, n2;                  /* block bits, left half ceil(n/2), right half floor(n/2) */
    unsigned rounds;
    nuri_fea_variant variant;
    const struct nuri_fea_impl *impl;
} nuri_fea_key;

/* sizeof(nuri_fea_key) and sizeof(nuri_fea_fmt), for FFI callers that allocate them (not key lengths). */
NURI_API size_t nuri_fea_key_struct_bytes(void);
/* variant NURI_FEA1 or NURI_FEA2 (NURI_EINVAL otherwise); key_len 16, 24 or 32; 8 <= nbits <= 128.
 * impl NULL = dispatch (honours NURI_IMPL=fea:<name>). */
NURI_API NURI_MUST_CHECK int nuri_fea_key_init(nuri_fea_key *k, const uint8_t *key, size_t key_len,
                                               nuri_fea_variant variant, unsigned nbits, const char *impl);
NURI_API void nuri_fea_key_wipe(nuri_fea_key *k);
NURI_API const char *nuri_fea_key_impl_name(const nuri_fea_key *k);
/* Number of tweak bits the key accepts: 128 - n (FEA-1) or 128 (FEA-2). */
NURI_API unsigned nuri_fea_tweak_bits(const nuri_fea_key *k);

/* Batch API. count values; tweaks: NULL (T = 0 for all), or an array of ntweaks entries with
 * ntweaks == 1 (one tweak for all) or ntweaks == count (one per value). in and out may alias
 * exactly; any other overlap is NURI_EINVAL with nothing written. Errors (outputs zeroed):
 * NURI_EINVAL (tweak out of range, bad ntweaks, n > 64 for the u64 forms), NURI_EDOMAIN (a value
 * >= 2^n). */
NURI_API NURI_MUST_CHECK int nuri_fea_encrypt_u64(const nuri_fea_key *k, uint64_t *out, const uint64_t *in,
                                                  size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks);
NURI_API NURI_MUST_CHECK int nuri_fea_decrypt_u64(const nuri_fea_key *k, uint64_t *out, const uint64_t *in,
                                                  size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks);
/* Same for any n (values as {hi, lo}). */
NURI_API NURI_MUST_CHECK int nuri_fea_encrypt_u128(const nuri_fea_key *k, nuri_fea_u128 *out, const nuri_fea_u128 *in,
                                                   size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks);
NURI_API NURI_MUST_CHECK int nuri_fea_decrypt_u128(const nuri_fea_key *k, nuri_fea_u128 *out, const nuri_fea_u128 *in,
                                                   size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks);

/* Registry. */
NURI_API size_t nuri_fea_impl_count(void);
NURI_API const nuri_impl_info *nuri_fea_impl_info(size_t i);
NURI_API int nuri_fea_impl_supported(size_t i);
NURI_API const char *nuri_fea_default_impl(void);

/* ---- Formatted data: L symbols of radix r (decimal: r = 10) ---- */
typedef struct nuri_fea_fmt {
    nuri_fea_key key;
    nuri_fea_u128 domain; /* r^L */
    unsigned radix, len;
} nuri_fea_fmt;

NURI_API size_t nuri_fea_fmt_struct_bytes(void);
/* Bit length of radix^nsymbols (the n FEA runs on), or 0 if radix^nsymbols >= 2^128 or an argument
 * is out of range. */
NURI_API unsigned nuri_fea_fmt_nbits(unsigned radix, unsigned nsymbols);
/* A format of nsymbols symbols of radix radix: 2 <= radix <= 65536, nsymbols >= 1,
 * 2^8 <= radix^nsymbols < 2^128 (NURI_EDOMAIN otherwise); radix^nsymbols < 10^6 needs
 * flags & NURI_FEA_ALLOW_SMALL_DOMAIN (NURI_EDOMAIN otherwise). impl as for nuri_fea_key_init. */
NURI_API NURI_MUST_CHECK int nuri_fea_fmt_init(nuri_fea_fmt *f, const uint8_t *key, size_t key_len,
                                               nuri_fea_variant variant, unsigned radix, unsigned nsymbols,
                                               unsigned flags, const char *impl);
NURI_API void nuri_fea_fmt_wipe(nuri_fea_fmt *f);

/* count records of len symbol indices each (0 <= symbol < radix), packed. NURI_EDOMAIN if a
 * symbol is >= radix. Tweaks as in the batch API (for the key's n = nuri_fea_fmt_nbits). */
NURI_API NURI_MUST_CHECK int nuri_fea_fmt_encrypt(const nuri_fea_fmt *f, uint16_t *out, const uint16_t *in,
                                                  size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks);
NURI_API NURI_MUST_CHECK int nuri_fea_fmt_decrypt(const nuri_fea_fmt *f, uint16_t *out, const uint16_t *in,
                                                  size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks);
/* Decimal strings (radix-10 formats only): count records of len ASCII digits each, packed, no
 * terminators. NURI_EDOMAIN if a character is not a digit. */
NURI_API NURI_MUST_CHECK int nuri_fea_fmt_encrypt_digits(const nuri_fea_fmt *f, char *out, const char *in, size_t count,
                                                         const nuri_fea_u128 *tweaks, size_t ntweaks);
NURI_API NURI_MUST_CHECK int nuri_fea_fmt_decrypt_digits(const nuri_fea_fmt *f, char *out, const char *in, size_t count,
                                                         const nuri_fea_u128 *tweaks, size_t ntweaks);
/* Integer form: values 0 <= x < radix^len, cycle-walked (the primitive under the two above). */
NURI_API NURI_MUST_CHECK int nuri_fea_fmt_encrypt_u128(const nuri_fea_fmt *f, nuri_fea_u128 *out,
                                                       const nuri_fea_u128 *in, size_t count,
                                                       const nuri_fea_u128 *tweaks, size_t ntweaks);
NURI_API NURI_MUST_CHECK int nuri_fea_fmt_decrypt_u128(const nuri_fea_fmt *f, nuri_fea_u128 *out,
                                                       const nuri_fea_u128 *in, size_t count,
                                                       const nuri_fea_u128 *tweaks, size_t ntweaks);

/* The same on 64-bit words, for formats with radix^len < 2^64 (n <= 64; NURI_EINVAL otherwise):
 * every decimal format up to 19 digits. */
NURI_API NURI_MUST_CHECK int nuri_fea_fmt_encrypt_u64(const nuri_fea_fmt *f, uint64_t *out, const uint64_t *in,
                                                      size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks);
NURI_API NURI_MUST_CHECK int nuri_fea_fmt_decrypt_u64(const nuri_fea_fmt *f, uint64_t *out, const uint64_t *in,
                                                      size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks);
/* The decimal parser and formatter under the _digits functions, for values that are not packed
 * (one string per database row): constant time, no branch or table index on a digit.
 * nuri_fea_digits_to_u64: digits_len (1..19) ASCII digits (exactly digits[0..digits_len) is
 * read) -> *x; NURI_EDOMAIN (*x = 0) if a character is not a digit, NURI_EINVAL if digits_len is
 * out of range.
 * nuri_fea_u64_to_digits: fills out_cap (1..19) bytes of out with x mod 10^out_cap as ASCII
 * digits (leading zeros kept); NURI_EINVAL if out_cap is out of range. */
NURI_API NURI_MUST_CHECK int nuri_fea_digits_to_u64(const char *digits, size_t digits_len, uint64_t *x);
NURI_API NURI_MUST_CHECK int nuri_fea_u64_to_digits(uint64_t x, char *out, size_t out_cap);

/* ---- Patterns: one syntax for which characters of a value are encrypted (CLI, Python,
 * PostgreSQL, DuckDB, Spark all use these functions; docs/fea.md#patterns) ----
 *   digits             every ASCII digit 0-9 of the value is encrypted, as one decimal number;
 *                      every other character stays in place
 *   template:PATTERN   '#' = encrypted symbol, '*' = symbol kept in clear, '\x' = x literally,
 *                      any other character must appear as is (templates take an optional alphabet,
 *                      default the ten digits)
 *   alphabet:SYMBOLS   every character is one of SYMBOLS (UTF-8, 2..65536 distinct); all encrypted
 * Values are UTF-8. A pattern keeps pointers to spec and symbols: they must outlive it. Messages
 * (msg, msg_cap; may be NULL) are one line naming what is wrong with the value, written to be
 * prefixed by "value 'x' ". */
#define NURI_FEA_PATTERN_DIGITS      1
#define NURI_FEA_PATTERN_TEMPLATE    2
#define NURI_FEA_PATTERN_ALPHABET    3
#define NURI_FEA_PATTERN_MAX_SYMBOLS 128

typedef struct nuri_fea_pattern {
    const char *tmpl;    /* template text (after "template:"), kind TEMPLATE */
    const char *symbols; /* UTF-8 alphabet, or NULL = the ten ASCII digits */
    size_t tmpl_len, symbols_len;
    unsigned kind, radix;
    size_t nenc, nchars; /* template: '#' count and character count */
} nuri_fea_pattern;

/* spec as above; symbols (may be NULL) = the alphabet of a template. NURI_EINVAL with a message. */
NURI_API NURI_MUST_CHECK int nuri_fea_pattern_init(nuri_fea_pattern *p, const char *spec, size_t spec_len,
                                                   const char *symbols, size_t symbols_len, char *msg, size_t msg_cap);
/* Refuses radix^nsymbols < 2^8, >= 2^128, and < 10^6 unless flags & NURI_FEA_ALLOW_SMALL_DOMAIN. */
NURI_API NURI_MUST_CHECK int nuri_fea_pattern_check_domain(unsigned radix, size_t nsymbols, unsigned flags, char *msg,
                                                           size_t msg_cap);
/* The symbol indices of value to encrypt, in order, into syms[NURI_FEA_PATTERN_MAX_SYMBOLS]; their
 * count in *syms_len (the format is then nuri_fea_fmt_init(radix = p->radix, nsymbols = *syms_len)).
 * NURI_EDOMAIN with a message when the value does not fit the pattern or its domain. */
NURI_API NURI_MUST_CHECK int nuri_fea_pattern_split(const nuri_fea_pattern *p, const char *value, size_t value_len,
                                                    uint16_t syms[NURI_FEA_PATTERN_MAX_SYMBOLS], size_t *syms_len,
                                                    unsigned flags, char *msg, size_t msg_cap);
/* Bytes the joined value may take (out_cap for nuri_fea_pattern_join). */
NURI_API size_t nuri_fea_pattern_max_out(const nuri_fea_pattern *p, size_t value_len);
/* value with its encrypted symbols replaced by syms (from nuri_fea_fmt_encrypt/decrypt of what
 * split returned). NURI_EINVAL if value/syms_len are not what split saw, NURI_EBUFFER if out_cap is
 * below nuri_fea_pattern_max_out; on an error *out_len = 0 and the nuri_fea_pattern_max_out bytes
 * (at most out_cap) of out are zeroed. No terminator is written. */
NURI_API NURI_MUST_CHECK int nuri_fea_pattern_join(const nuri_fea_pattern *p, const char *value, size_t value_len,
                                                   const uint16_t *syms, size_t syms_len, char *out, size_t out_cap,
                                                   size_t *out_len);

#ifdef __cplusplus
}
#endif
#endif
