/* FIPS 203 ML-KEM, written once over the backend interface (mlkem_impl.h).
 * K-PKE (Algorithms 13-15) and ML-KEM internal algorithms (16-18), plus the §7.2/§7.3 input
 * checks. Every branch here depends on public data only (parameters, ek, c, the rho seed);
 * the re-encryption comparison and the implicit-rejection choice are branch-free. */
#include "mlkem_impl.h"

static const mlk_params PARAMS[3] = {
    {512, 2, 3, 2, 10, 4, NURI_MLKEM512_EK_BYTES, NURI_MLKEM512_DK_BYTES, NURI_MLKEM512_CT_BYTES},
    {768, 3, 2, 2, 10, 4, NURI_MLKEM768_EK_BYTES, NURI_MLKEM768_DK_BYTES, NURI_MLKEM768_CT_BYTES},
    {1024, 4, 2, 2, 11, 5, NURI_MLKEM1024_EK_BYTES, NURI_MLKEM1024_DK_BYTES, NURI_MLKEM1024_CT_BYTES},
};

const mlk_params *nuri_mlkem_params(unsigned level)
{
    for (size_t i = 0; i < sizeof PARAMS / sizeof PARAMS[0]; i++)
        if (PARAMS[i].level == level) return &PARAMS[i];
    return NULL;
}

/* H = SHA3-256, G = SHA3-512, J = SHAKE256(., 32): run as nuri_keccak_job lists through the
 * backend (SHA3-512 rate 72, the others 136), so independent hashes can share a SIMD permutation. */

/* §7.2 modulus check: every 12-bit value of ByteDecode12(ek[0:384k]) must be < q (equivalent to
 * ByteEncode12(ByteDecode12(x)) == x, since decoding reduces mod q). ek is public. Four values
 * (6 bytes) per step, each moved into its own 16-bit slot: a value is >= q exactly when adding
 * 4096 - q sets bit 12 of its slot (no carry leaves a slot). The 8-byte load of the last step
 * reads 2 bytes of rho, still inside ek.
 *
 * Beyond FIPS 203, the same pass counts the zero values of t-hat: an ek with MLKEM_EK_MAX_ZEROS
 * (16 per polynomial, 1/16 of t-hat) or more is degenerate and refused with NURI_EWEAKEK. With t = 0
 * the ciphertext's v = e2 + Decompress1(m) carries m in the clear; t-hat with few nonzero values
 * confines t^T y to a subspace small enough to search. A key from KeyGen has t-hat uniform mod q:
 * about 256k / q (0.08k) zeros, and 16k or more with probability far below 2^-128. A value is
 * nonzero exactly when adding 0xFFF sets bit 12 of its slot; the four bits are summed by a
 * multiply. Branch-free, though ek is public. (docs/mlkem.md: what is refused and why.) */
#define MLKEM_EK_MAX_ZEROS(k) (16u * (k))

int nuri_mlkem_check_ek_internal(const nuri_mlkem_backend *be, const mlk_params *p, const uint8_t *ek)
{
    if (be && be->ek_scan) {
        unsigned bad, zeros;
        be->ek_scan(ek, p->k, &bad, &zeros);
        if (bad) return NURI_EBADEK;
        return zeros >= MLKEM_EK_MAX_ZEROS(p->k) ? NURI_EWEAKEK : NURI_OK;
    }
    uint64_t bad = 0, nonzero = 0;
    for (size_t i = 0; i < 384 * (size_t)p->k; i += 6) {
        uint64_t w = nuri_load64_le(ek + i);
        uint64_t x = (w & 0xFFFu) | ((w << 4) & 0xFFF0000ULL) | ((w << 8) & 0xFFF00000000ULL) |
                     ((w << 12) & 0xFFF000000000000ULL);
        bad |= (x + 0x02FF02FF02FF02FFULL) & 0x1000100010001000ULL;
        uint64_t nz = ((x + 0x0FFF0FFF0FFF0FFFULL) & 0x1000100010001000ULL) >> 12; /* one bit per slot */
        nonzero += (nz * 0x0001000100010001ULL) >> 48;                             /* their sum, 0..4 */
    }
    if (bad) return NURI_EBADEK;
    return 256u * p->k - nonzero >= MLKEM_EK_MAX_ZEROS(p->k) ? NURI_EWEAKEK : NURI_OK;
}

/* §7.3 hash check: H(dk[384k : 768k+32]) == dk[768k+32 : 768k+64]. Both are public parts of dk. */
int nuri_mlkem_check_dk_internal(const mlk_params *p, const uint8_t *dk)
{
    uint8_t h[32];
    size_t off = 384 * (size_t)p->k;
    nuri_sha3_256(h, dk + off, p->ek_bytes);
    return nuri_ct_memcmp(h, dk + off + p->ek_bytes, 32) == 0 ? NURI_OK : NURI_EBADDK;
}

/* The independent Keccak work of one step: the backend's sample_many hook, or the generic path
 * (the hashes, the matrix, the noise groups, one kernel call after the other). */
static void sample_many(const nuri_mlkem_backend *be, const mlk_sample_req *q)
{
    if (be->sample_many) {
        be->sample_many(q);
        return;
    }
    if (q->n_jobs) be->keccak_jobs(q->jobs, q->n_jobs, q->rate);
    if (q->a) be->gen_matrix(q->a, q->rho, q->k, q->transposed); /* all rows: row0 = 0, rows = k here */
    for (unsigned i = 0; i < q->n_noise; i++)
        be->sample_cbd(q->noise[i].r, q->noise[i].n, q->noise[i].seed, q->noise[i].nonce0, q->noise[i].eta);
    for (unsigned b = 0; b < q->n_absorb; b++) {
        for (unsigned i = 0; i < 17; i++) q->absorb_st[i] ^= nuri_load64_le(q->absorb_in + 136 * b + 8 * i);
        nuri_keccakf1600(q->absorb_st);
    }
}

/* The end of SHA3-256: the last len bytes of the message into st (which holds the blocks before
 * them), the padding, the output. */
static void sha3_256_finish(const nuri_mlkem_backend *be, uint64_t st[25], const uint8_t *in, size_t len,
                            uint8_t out[32])
{
    void (*permute)(uint64_t *) = be->keccakf1 ? be->keccakf1 : nuri_keccakf1600;
    uint8_t blk[136];
    for (; len >= 136; in += 136, len -= 136) {
        for (unsigned i = 0; i < 17; i++) st[i] ^= nuri_load64_le(in + 8 * i);
        permute(st);
    }
    memset(blk, 0, sizeof blk);
    memcpy(blk, in, len);
    blk[len] ^= 0x06;
    blk[135] ^= 0x80;
    for (unsigned i = 0; i < 17; i++) st[i] ^= nuri_load64_le(blk + 8 * i);
    permute(st);
    for (unsigned i = 0; i < 4; i++) nuri_store64_le(out + 8 * i, st[i]);
}

/* ---- K-PKE ---- */

/* K-PKE.KeyGen (Algorithm 13) from (rho, sigma) = G(d || k), with h = H(ek) of ML-KEM.KeyGen:
 * the matrix comes in steps of be->keygen_rows rows, and while a step samples its rows, H(ek)
 * absorbs the whole blocks of the rows of t encoded so far (ek and rho are public). */
static void pke_keygen(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ek, uint8_t *dk_pke, uint8_t h[32],
                       const uint8_t d[32])
{
    const unsigned k = p->k;
    const unsigned step = be->sample_many && be->keygen_rows ? be->keygen_rows(k) : k;
    uint8_t in[33], rs[64];
    mlk_poly a[MLKEM_KMAX * MLKEM_KMAX], se[2 * MLKEM_KMAX], t;
    mlk_poly *s = se, *e = se + k;
    mlk_mulcache sc[MLKEM_KMAX];
    uint64_t hst[25] = {0};
    size_t hashed = 0; /* bytes of ek absorbed into hst */

    memcpy(in, d, 32);
    in[32] = (uint8_t)k;
    nuri_keccak_job g = {NULL, 0, in, 33, rs, 64, 0x06}; /* (rho, sigma) = G(d || k) */
    be->keccak_jobs(&g, 1, 72);
    const uint8_t *rho = rs, *sigma = rs + 32;
    /* rho is public (it is part of ek); sampling A branches on it. */
    NURI_CT_PUBLIC(rs, 32);

    const mlk_noise se_noise = {se, sigma, 2 * k, p->eta1, 0}; /* s: nonces 0..k-1, e: k..2k-1 */
    for (unsigned r0 = 0; r0 < k; r0 += step) {
        const unsigned rows = k - r0 < step ? k - r0 : step, blocks = (unsigned)((384 * r0 - hashed) / 136);
        const mlk_sample_req req = {a, rho, k,    0,   r0 ? NULL : &se_noise, r0 ? 0 : 1, NULL, 0,
                                    0, r0,  rows, hst, ek + hashed,           blocks};
        sample_many(be, &req);
        hashed += 136 * (size_t)blocks;
        if (r0 == 0)
            for (unsigned i = 0; i < k; i++) {
                be->ntt(&s[i]);
                be->ntt(&e[i]);
                be->mulcache(&sc[i], &s[i]);
            }
        for (unsigned i = r0; i < r0 + rows; i++) {
            be->basemul_acc(&t, &a[i * k], s, sc, k);
            be->tomont(&t);
            for (unsigned j = 0; j < MLKEM_N; j++) t.c[j] = (int16_t)(t.c[j] + e[i].c[j]);
            be->reduce(&t);
            be->tobytes(ek + 384 * i, &t);
        }
    }
    for (unsigned i = 0; i < k; i++) {
        be->reduce(&s[i]);
        be->tobytes(dk_pke + 384 * i, &s[i]);
    }
    memcpy(ek + 384 * k, rho, 32);
    if (hashed) {
        sha3_256_finish(be, hst, ek + hashed, p->ek_bytes - hashed, h);
    } else {
        nuri_keccak_job hj = {NULL, 0, ek, p->ek_bytes, h, 32, 0x06}; /* H(ek) */
        be->keccak_jobs(&hj, 1, 136);
    }

    nuri_wipe(in, sizeof in);
    nuri_wipe(rs, sizeof rs);
    nuri_wipe(se, 2 * k * sizeof se[0]);
    nuri_wipe(sc, k * sizeof sc[0]);
    nuri_wipe(&t, sizeof t);
}

/* The public-key side of K-PKE.Encrypt (Algorithm 14, lines 2-8): t = ByteDecode12(ek) and the
 * transposed matrix A^T. Batch forms expand once for all operations under one key. */
typedef struct mlk_ekx {
    mlk_poly at[MLKEM_KMAX * MLKEM_KMAX], t[MLKEM_KMAX];
} mlk_ekx;

static void decode_t(const nuri_mlkem_backend *be, const mlk_params *p, mlk_ekx *x, const uint8_t *ek)
{
    for (unsigned i = 0; i < p->k; i++) be->frombytes(&x->t[i], ek + 384 * i);
}

/* A sampling request for the transposed matrix of ek (its rho), with the given hashes. */
static mlk_sample_req matrix_req(const mlk_params *p, mlk_ekx *x, const uint8_t *ek, const nuri_keccak_job *jobs,
                                 unsigned n_jobs)
{
    return (mlk_sample_req){x->at, ek + 384 * p->k, p->k, 1, NULL, 0, jobs, n_jobs, 136, 0, p->k, NULL, NULL, 0};
}

static void expand_ek(const nuri_mlkem_backend *be, const mlk_params *p, mlk_ekx *x, const uint8_t *ek)
{
    decode_t(be, p, x, ek);
    be->gen_matrix(x->at, ek + 384 * p->k, p->k, 1);
}

/* The noise of one K-PKE.Encrypt (lines 9-17): y (eta1, nonces 0..k-1), then e1 and e2 (eta2,
 * nonces k..2k; e2 = e[k]), sampled ahead so that a backend can share Keccak permutations among
 * several operations' noise and other hashing. */
typedef struct mlk_encnoise {
    mlk_poly y[MLKEM_KMAX], e[MLKEM_KMAX + 1];
} mlk_encnoise;

static void encnoise_groups(const mlk_params *p, mlk_noise g[2], mlk_encnoise *nz, const uint8_t coins[32])
{
    g[0] = (mlk_noise){nz->y, coins, p->k, p->eta1, 0};
    g[1] = (mlk_noise){nz->e, coins, p->k + 1, p->eta2, (uint8_t)p->k};
}

/* K-PKE.Encrypt (Algorithm 14) over an expanded ek (which has passed the modulus check or comes
 * from dk), with its noise already sampled from the coins (consumed: wiped here). */
static void pke_encrypt(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ct, const mlk_ekx *x,
                        const uint8_t m[32], mlk_encnoise *nz)
{
    const unsigned k = p->k;
    mlk_poly *y = nz->y, *e1 = nz->e, u, mu;
    mlk_mulcache yc[MLKEM_KMAX];

    for (unsigned i = 0; i < k; i++) {
        be->ntt(&y[i]);
        be->mulcache(&yc[i], &y[i]);
    }
    for (unsigned i = 0; i < k; i++) {
        be->basemul_acc(&u, &x->at[i * k], y, yc, k);
        be->invntt(&u);
        for (unsigned j = 0; j < MLKEM_N; j++) u.c[j] = (int16_t)(u.c[j] + e1[i].c[j]);
        be->reduce(&u);
        be->compress(ct + 32 * p->du * i, &u, p->du);
    }
    be->basemul_acc(&u, x->t, y, yc, k);
    be->invntt(&u);
    be->decompress(&mu, m, 1);
    for (unsigned j = 0; j < MLKEM_N; j++) u.c[j] = (int16_t)(u.c[j] + e1[k].c[j] + mu.c[j]);
    be->reduce(&u);
    be->compress(ct + 32 * p->du * k, &u, p->dv);

    nuri_wipe(nz->y, k * sizeof nz->y[0]);
    nuri_wipe(nz->e, (k + 1) * sizeof nz->e[0]);
    nuri_wipe(yc, k * sizeof yc[0]);
    nuri_wipe(&u, sizeof u);
    nuri_wipe(&mu, sizeof mu);
}

/* K-PKE.Decrypt (Algorithm 15) with s = ByteDecode12(dk_PKE) already decoded. */
static void pke_decrypt(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t m[32], const mlk_poly *s,
                        const uint8_t *ct)
{
    const unsigned k = p->k;
    mlk_poly u[MLKEM_KMAX], w, v;
    mlk_mulcache uc[MLKEM_KMAX];

    for (unsigned i = 0; i < k; i++) {
        be->decompress(&u[i], ct + 32 * p->du * i, p->du);
        be->ntt(&u[i]);
        be->mulcache(&uc[i], &u[i]);
    }
    be->basemul_acc(&w, s, u, uc, k);
    be->invntt(&w);
    be->decompress(&v, ct + 32 * p->du * k, p->dv);
    for (unsigned j = 0; j < MLKEM_N; j++) w.c[j] = (int16_t)(v.c[j] - w.c[j]);
    be->reduce(&w);
    be->compress(m, &w, 1);

    nuri_wipe(&w, sizeof w);
}

static void decode_s(const nuri_mlkem_backend *be, const mlk_params *p, mlk_poly *s, const uint8_t *dk_pke)
{
    for (unsigned i = 0; i < p->k; i++) be->frombytes(&s[i], dk_pke + 384 * i);
}

/* ---- ML-KEM internal algorithms ---- */

void nuri_mlkem_keygen_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ek, uint8_t *dk,
                                const uint8_t d[32], const uint8_t z[32])
{
    size_t pke = 384 * (size_t)p->k;
    pke_keygen(be, p, ek, dk, dk + pke + p->ek_bytes, d); /* dk = dk_PKE || ek || H(ek) || z */
    memcpy(dk + pke, ek, p->ek_bytes);
    memcpy(dk + pke + p->ek_bytes + 32, z, 32);
}


/* Lines 7-11 of ML-KEM.Decaps_internal (Algorithm 18) for one ciphertext, once m' = Decrypt(c),
 * (K', r') = G(m' || h) and K-bar = J(z || c) are known: re-encrypt, compare in constant time,
 * select K' or K-bar without branching. */
static void decaps_finish(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t ss[32], const uint8_t *ct,
                          const mlk_ekx *x, const uint8_t m[32], mlk_encnoise *nz, const uint8_t kr[64],
                          const uint8_t kbar[32])
{
    uint8_t ct2[NURI_MLKEM_MAX_CT_BYTES];
    pke_encrypt(be, p, ct2, x, m, nz); /* nz: sampled from r' = kr[32..63] */
    /* mask = 0xFF..FF if c == c' else 0: nuri_ct_memcmp returns 0 or -1 without branching. */
    uint32_t diff = (uint32_t)nuri_ct_memcmp(ct, ct2, p->ct_bytes); /* 0 or 0xFFFFFFFF */
    uint8_t keep = (uint8_t)~nuri_value_barrier_u32(diff);
    for (size_t i = 0; i < 32; i++) ss[i] = (uint8_t)((kr[i] & keep) | (kbar[i] & (uint8_t)~keep));
    nuri_wipe(ct2, p->ct_bytes);
}


/* ---- batch forms: groups of four operations share each Keccak step (and the ek expansion) ---- */

#define GROUP 4

/* n operations in groups of `group` (GROUP, or 1 for a single operation, whose frame then holds
 * the noise of one operation only: nz has room for `group`). */
static void encaps_groups(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ct, uint8_t *ss,
                          const uint8_t *ek, const uint8_t *m, size_t n, unsigned group, mlk_encnoise *nz)
{
    mlk_ekx x;
    const uint8_t *expanded = NULL; /* the ek that x holds (eks are public: comparing them may branch) */
    uint8_t h[GROUP][32], kr[GROUP][64], g_in[GROUP][64];
    nuri_keccak_job jobs[GROUP];
    mlk_noise ng[2 * GROUP];
    for (size_t i0 = 0; i0 < n; i0 += group) {
        const unsigned cnt = n - i0 < group ? (unsigned)(n - i0) : group;
        const uint8_t *ek0 = ek + i0 * p->ek_bytes;
        for (unsigned j = 0; j < cnt; j++) /* H(ek) */
            jobs[j] = (nuri_keccak_job){NULL, 0, ek + (i0 + j) * p->ek_bytes, p->ek_bytes, h[j], 32, 0x06};
        if (!expanded || memcmp(expanded, ek0, p->ek_bytes) != 0) { /* with the first item's matrix */
            decode_t(be, p, &x, ek0);
            const mlk_sample_req req = matrix_req(p, &x, ek0, jobs, cnt);
            sample_many(be, &req);
            expanded = ek0;
        } else {
            be->keccak_jobs(jobs, cnt, 136);
        }
        for (unsigned j = 0; j < cnt; j++) { /* (K, r) = G(m || H(ek)) */
            memcpy(g_in[j], m + (i0 + j) * 32, 32);
            memcpy(g_in[j] + 32, h[j], 32);
            jobs[j] = (nuri_keccak_job){NULL, 0, g_in[j], 64, kr[j], 64, 0x06};
        }
        be->keccak_jobs(jobs, cnt, 72);
        for (unsigned j = 0; j < cnt; j++) encnoise_groups(p, &ng[2 * j], &nz[j], kr[j] + 32);
        const mlk_sample_req noise = {NULL, NULL, 0, 0, ng, 2 * cnt, NULL, 0, 0, 0, 0, NULL, NULL, 0};
        sample_many(be, &noise);
        for (unsigned j = 0; j < cnt; j++) {
            const uint8_t *ekj = ek + (i0 + j) * p->ek_bytes;
            if (memcmp(expanded, ekj, p->ek_bytes) != 0) {
                expand_ek(be, p, &x, ekj);
                expanded = ekj;
            }
            pke_encrypt(be, p, ct + (i0 + j) * p->ct_bytes, &x, m + (i0 + j) * 32, &nz[j]);
            memcpy(ss + (i0 + j) * 32, kr[j], 32);
        }
    }
    nuri_wipe(kr, sizeof kr);
    nuri_wipe(g_in, sizeof g_in);
}

void nuri_mlkem_encaps_many_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ct, uint8_t *ss,
                                     const uint8_t *ek, const uint8_t *m, size_t n)
{
    mlk_encnoise nz[GROUP];
    encaps_groups(be, p, ct, ss, ek, m, n, GROUP, nz);
}

void nuri_mlkem_encaps_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ct, uint8_t ss[32],
                                const uint8_t *ek, const uint8_t m[32])
{
    mlk_encnoise nz[1];
    encaps_groups(be, p, ct, ss, ek, m, 1, 1, nz);
}

static int decaps_groups(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ss, const uint8_t *ct,
                         const uint8_t *dk, size_t n, unsigned group, mlk_encnoise *nz)
{
    const size_t pke = 384 * (size_t)p->k;
    const uint8_t *ek = dk + pke, *h = ek + p->ek_bytes, *z = h + 32;
    uint8_t hchk[32], m[GROUP][32], kr[GROUP][64], kbar[GROUP][32], g_in[GROUP][64];
    nuri_keccak_job jobs[GROUP + 1];
    mlk_noise ng[2 * GROUP];
    mlk_poly s[MLKEM_KMAX];
    mlk_ekx x;
    int rc = NURI_OK;

    decode_s(be, p, s, dk);
    decode_t(be, p, &x, ek);
    for (size_t i0 = 0; i0 < n; i0 += group) {
        const unsigned cnt = n - i0 < group ? (unsigned)(n - i0) : group;
        for (unsigned j = 0; j < cnt; j++) { /* m' = Decrypt(dk_PKE, c); (K', r') = G(m' || h) */
            pke_decrypt(be, p, m[j], s, ct + (i0 + j) * p->ct_bytes);
            memcpy(g_in[j], m[j], 32);
            memcpy(g_in[j] + 32, h, 32);
            jobs[j] = (nuri_keccak_job){NULL, 0, g_in[j], 64, kr[j], 64, 0x06};
        }
        be->keccak_jobs(jobs, cnt, 72);
        /* K-bar = J(z || c), the re-encryption noise from r', and in the first group the §7.3 hash
         * check H(ek) == h and the matrix of ek */
        unsigned nj = 0;
        if (i0 == 0) jobs[nj++] = (nuri_keccak_job){NULL, 0, ek, p->ek_bytes, hchk, 32, 0x06};
        for (unsigned j = 0; j < cnt; j++) {
            jobs[nj++] = (nuri_keccak_job){z, 32, ct + (i0 + j) * p->ct_bytes, p->ct_bytes, kbar[j], 32, 0x1F};
            encnoise_groups(p, &ng[2 * j], &nz[j], kr[j] + 32);
        }
        mlk_sample_req req = matrix_req(p, &x, ek, jobs, nj);
        req.noise = ng;
        req.n_noise = 2 * cnt;
        if (i0) req.a = NULL;
        sample_many(be, &req);
        if (i0 == 0 && nuri_ct_memcmp(hchk, h, 32) != 0) {
            rc = NURI_EBADDK;
            goto out;
        }
        for (unsigned j = 0; j < cnt; j++)
            decaps_finish(be, p, ss + (i0 + j) * 32, ct + (i0 + j) * p->ct_bytes, &x, m[j], &nz[j], kr[j], kbar[j]);
    }
out:
    nuri_wipe(m, sizeof m);
    nuri_wipe(kr, sizeof kr);
    nuri_wipe(kbar, sizeof kbar);
    nuri_wipe(g_in, sizeof g_in);
    if (rc != NURI_OK) /* the first group's noise, sampled but not consumed (pke_encrypt wipes it) */
        for (size_t j = 0; j < n && j < group; j++) nuri_wipe(&nz[j], sizeof nz[j]);
    nuri_wipe(s, p->k * sizeof s[0]);
    return rc;
}

int nuri_mlkem_decaps_many_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ss, const uint8_t *ct,
                                    const uint8_t *dk, size_t n)
{
    mlk_encnoise nz[GROUP];
    return decaps_groups(be, p, ss, ct, dk, n, GROUP, nz);
}

int nuri_mlkem_decaps_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t ss[32], const uint8_t *ct,
                               const uint8_t *dk)
{
    mlk_encnoise nz[1];
    return decaps_groups(be, p, ss, ct, dk, 1, 1, nz);
}
