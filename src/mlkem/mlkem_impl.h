/* The ML-KEM backend interface. The FIPS 203 logic (kem.c) is written once over these kernels;
 * an implementation (ref/, opt/, avx2/, avx512/, neon/) fills one nuri_mlkem_backend.
 *
 * Conventions (every backend must keep them; tests/mlkem checks each backend against ref):
 *  - a polynomial is 256 int16_t coefficients, aligned to 64 bytes (one AVX-512 register);
 *  - R = 2^16 (Montgomery), q = 3329; "|x| < q" means any representative in (-q, q);
 *  - NTT domain is FIPS 203's bit-reversed order, pairs (2i, 2i+1) multiplied mod X^2 - gamma_i. */
#ifndef NURI_MLKEM_IMPL_H
#define NURI_MLKEM_IMPL_H

#include "fips202.h"
#include "nuri/mlkem.h"
#include "nuri_internal.h"

#define MLKEM_N         256
#define MLKEM_Q         3329
#define MLKEM_KMAX      4
#define MLKEM_POLYBYTES 384
#define MLKEM_SYMBYTES  32

typedef struct mlk_poly {
    _Alignas(64) int16_t c[MLKEM_N];
} mlk_poly;

/* b[2i+1] * gamma_i for the base multiplication, computed once per reused operand. */
typedef struct mlk_mulcache {
    _Alignas(64) int16_t c[MLKEM_N / 2];
} mlk_mulcache;

/* One group of noise polynomials: r[i] = SamplePolyCBD_eta(PRF_eta(seed, nonce0 + i)), i < n. */
typedef struct mlk_noise {
    mlk_poly *r;
    const uint8_t *seed;
    unsigned n, eta;
    uint8_t nonce0;
} mlk_noise;

/* The independent Keccak work of one step of kem.c, for the optional sample_many hook: rows
 * [row0, row0 + rows) of the k x k matrix as gen_matrix makes it (a == NULL: none; a is the whole
 * matrix; rows other than all k only when the backend has keygen_rows), n_noise groups of noise
 * polynomials as sample_cbd makes them, n_jobs one-shot hashes of rate `rate` as keccak_jobs runs
 * them, and n_absorb whole 136-byte blocks of absorb_in XORed into the SHA3-256 state absorb_st[25]
 * with a permutation after each (a hash in progress: no padding, no output). No output may be an
 * input of another item of the same request. */
typedef struct mlk_sample_req {
    mlk_poly *a;
    const uint8_t *rho;
    unsigned k;
    int transposed;
    const mlk_noise *noise;
    unsigned n_noise;
    const nuri_keccak_job *jobs;
    unsigned n_jobs, rate;
    unsigned row0, rows;
    uint64_t *absorb_st;
    const uint8_t *absorb_in;
    unsigned n_absorb;
} mlk_sample_req;

typedef struct nuri_mlkem_backend {
    nuri_impl_info info;
    /* Forward NTT. In: |x| <= q. Out: NTT domain, |x| < q. */
    void (*ntt)(mlk_poly *r);
    /* R * NTT^-1 (undoes the R^-1 left by basemul_acc). In: |x| < q. Out: |x| < q. */
    void (*invntt)(mlk_poly *r);
    /* cache[i] = b[2i+1] * gamma_i mod q, |.| < q. In: |b| < q. */
    void (*mulcache)(mlk_mulcache *cache, const mlk_poly *b);
    /* r = R^-1 * sum_{i<k} a[i] o b[i] (NTT domain). In: a in [0, q), |b| < q, bc[i] = mulcache(b[i]).
     * Out: |r| < q. */
    void (*basemul_acc)(mlk_poly *r, const mlk_poly *a, const mlk_poly *b, const mlk_mulcache *bc, unsigned k);
    /* r = r * R mod q. In: any int16. Out: |r| < q. */
    void (*tomont)(mlk_poly *r);
    /* Canonical representative. In: any int16. Out: [0, q). */
    void (*reduce)(mlk_poly *r);
    /* ByteEncode12 of a poly in [0, q) (384 bytes). */
    void (*tobytes)(uint8_t r[MLKEM_POLYBYTES], const mlk_poly *a);
    /* ByteDecode12 with FIPS 203's reduction mod q. Out: [0, q). */
    void (*frombytes)(mlk_poly *r, const uint8_t a[MLKEM_POLYBYTES]);
    /* ByteEncode_d(Compress_d(a)), d in {1, 4, 5, 10, 11}, writes 32*d bytes. In: [0, q). */
    void (*compress)(uint8_t *r, const mlk_poly *a, unsigned d);
    /* Decompress_d(ByteDecode_d(a)), reads 32*d bytes. Out: [0, q). */
    void (*decompress)(mlk_poly *r, const uint8_t *a, unsigned d);
    /* r[i] = SamplePolyCBD_eta(PRF_eta(seed, nonce0 + i)) for i < n (n <= 2*MLKEM_KMAX + 1). */
    void (*sample_cbd)(mlk_poly *r, unsigned n, const uint8_t seed[MLKEM_SYMBYTES], uint8_t nonce0, unsigned eta);
    /* k x k matrix, row-major: a[i*k + j] = SampleNTT(rho || j || i), or rho || i || j when transposed.
     * Out: [0, q). rho is public. */
    void (*gen_matrix)(mlk_poly *a, const uint8_t rho[MLKEM_SYMBYTES], unsigned k, int transposed);
    /* The independent one-shot hashes of one step (H(ek) and J(z || c) in decapsulation; H, G, J
     * of several operations in the batch forms): nuri_keccak_jobs, or a SIMD form running up to
     * four at once. */
    void (*keccak_jobs)(const nuri_keccak_job *jobs, unsigned n, unsigned rate);
    /* Optional hooks (NULL = kem.c's generic path over the kernels above): */
    /* Everything in *req at once, with outputs equal to keccak_jobs, gen_matrix and sample_cbd
     * called one after the other (the generic path), so that a SIMD Keccak can keep all its lanes
     * busy: the long H(ek) and J(z || c) sponges beside the matrix entries and the noise. */
    void (*sample_many)(const mlk_sample_req *req);
    /* Rows of the matrix per sampling request in key generation (needs sample_many): fewer than k
     * lets H(ek) absorb the rows of t already encoded while the next rows are sampled, in lanes the
     * matrix leaves free. NULL, or k: the whole matrix at once. */
    unsigned (*keygen_rows)(unsigned k);
    /* The pass of kem.c's ek check over ByteDecode12 of t-hat (ek[0:384k]; ek is public and may be
     * read up to 8 bytes further, inside rho): *bad = nonzero when some value is >= q, *zeros =
     * the number of zero values. NULL: kem.c's portable pass. */
    void (*ek_scan)(const uint8_t *ek, unsigned k, unsigned *bad, unsigned *zeros);
    /* The single-state Keccak-f[1600] of kem.c's own sponge work (the blocks of H(ek) left after
     * key generation's last matrix step). NULL: nuri_keccakf1600. */
    void (*keccakf1)(uint64_t s[25]);
} nuri_mlkem_backend;

extern const nuri_mlkem_backend nuri_mlkem_backend_ref;
extern const nuri_mlkem_backend nuri_mlkem_backend_opt;
#if defined(NURI_HAVE_MLKEM_AVX2)
extern const nuri_mlkem_backend nuri_mlkem_backend_avx2; /* x86-64 builds; needs AVX2 at run time */
#endif
#if defined(NURI_HAVE_MLKEM_AVX512)
extern const nuri_mlkem_backend nuri_mlkem_backend_avx512; /* x86-64 builds; needs AVX-512 at run time */
#endif
#if defined(NURI_HAVE_MLKEM_NEON)
extern const nuri_mlkem_backend nuri_mlkem_backend_neon; /* AArch64 builds (and the emulated NEON test build) */
#endif

/* Shared portable pieces (defined in ref/, reused by opt/). */
unsigned nuri_mlkem_rej_uniform(int16_t *r, unsigned len, const uint8_t *buf, size_t buflen);
void nuri_mlkem_cbd(mlk_poly *r, const uint8_t *buf, unsigned eta);
void nuri_mlkem_ref_tobytes(uint8_t r[MLKEM_POLYBYTES], const mlk_poly *a);
void nuri_mlkem_ref_frombytes(mlk_poly *r, const uint8_t a[MLKEM_POLYBYTES]);
void nuri_mlkem_ref_compress(uint8_t *r, const mlk_poly *a, unsigned d);
void nuri_mlkem_ref_decompress(mlk_poly *r, const uint8_t *a, unsigned d);

/* Parameter sets. */
typedef struct mlk_params {
    unsigned level, k, eta1, eta2, du, dv;
    size_t ek_bytes, dk_bytes, ct_bytes;
} mlk_params;

const mlk_params *nuri_mlkem_params(unsigned level);

/* The FIPS 203 algorithms (kem.c). Lengths are already checked by the caller. */
/* be: the implementation whose ek_scan runs (NULL or no hook: the portable pass). */
int nuri_mlkem_check_ek_internal(const nuri_mlkem_backend *be, const mlk_params *p, const uint8_t *ek);
int nuri_mlkem_check_dk_internal(const mlk_params *p, const uint8_t *dk);
void nuri_mlkem_keygen_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ek, uint8_t *dk,
                                const uint8_t d[32], const uint8_t z[32]);
void nuri_mlkem_encaps_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ct, uint8_t ss[32],
                                const uint8_t *ek, const uint8_t m[32]);
/* Decapsulation runs the §7.3 hash check itself (alongside J): NURI_EINVAL if dk fails it. */
int nuri_mlkem_decaps_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t ss[32], const uint8_t *ct,
                               const uint8_t *dk);
/* Batch forms: n operations, items back to back (ct/ss/ek/m strides: ct_bytes, 32, ek_bytes, 32).
 * encaps: every ek has passed the modulus check; expansion of ek is shared by consecutive equal
 * eks. decaps: one dk for all items, hash-checked once (NURI_EINVAL, nothing written). */
void nuri_mlkem_encaps_many_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ct, uint8_t *ss,
                                     const uint8_t *ek, const uint8_t *m, size_t n);
int nuri_mlkem_decaps_many_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ss, const uint8_t *ct,
                                    const uint8_t *dk, size_t n);

#endif
