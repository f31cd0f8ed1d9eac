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
    switch (level) {
    case 512: return &PARAMS[0];
    case 768: return &PARAMS[1];
    case 1024: return &PARAMS[2];
    default: return NULL;
    }
}

/* H = SHA3-256, G = SHA3-512, J = SHAKE256(., 32). */
static void hash_g(uint8_t out[64], const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    uint8_t buf[64];
    memcpy(buf, a, alen);
    memcpy(buf + alen, b, blen);
    nuri_sha3_512(out, buf, alen + blen);
    nuri_wipe(buf, sizeof buf);
}

static void hash_j(uint8_t out[32], const uint8_t z[32], const uint8_t *c, size_t clen)
{
    nuri_shake_ctx x;
    nuri_shake256_init(&x);
    nuri_shake_absorb(&x, z, 32);
    nuri_shake_absorb(&x, c, clen);
    nuri_shake_squeeze(&x, out, 32);
    nuri_shake_wipe(&x);
}

/* §7.2 modulus check: every 12-bit value of ByteDecode12(ek[0:384k]) must be < q (equivalent to
 * ByteEncode12(ByteDecode12(x)) == x, since decoding reduces mod q). ek is public. */
int nuri_mlkem_check_ek_internal(const mlk_params *p, const uint8_t *ek)
{
    unsigned bad = 0;
    for (size_t i = 0; i < 384 * (size_t)p->k; i += 3) {
        unsigned a = ek[i] | ((unsigned)(ek[i + 1] & 15) << 8);
        unsigned b = (ek[i + 1] >> 4) | ((unsigned)ek[i + 2] << 4);
        bad |= (a >= MLKEM_Q) | (b >= MLKEM_Q);
    }
    return bad ? NURI_EINVAL : NURI_OK;
}

/* §7.3 hash check: H(dk[384k : 768k+32]) == dk[768k+32 : 768k+64]. Both are public parts of dk. */
int nuri_mlkem_check_dk_internal(const mlk_params *p, const uint8_t *dk)
{
    uint8_t h[32];
    size_t off = 384 * (size_t)p->k;
    nuri_sha3_256(h, dk + off, p->ek_bytes);
    return nuri_ct_memcmp(h, dk + off + p->ek_bytes, 32) == 0 ? NURI_OK : NURI_EINVAL;
}

/* ---- K-PKE ---- */

/* K-PKE.KeyGen (Algorithm 13) from (rho, sigma) = G(d || k). */
static void pke_keygen(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ek, uint8_t *dk_pke,
                       const uint8_t d[32])
{
    const unsigned k = p->k;
    uint8_t in[33], rs[64];
    mlk_poly a[MLKEM_KMAX * MLKEM_KMAX], se[2 * MLKEM_KMAX], t;
    mlk_poly *s = se, *e = se + k;
    mlk_mulcache sc[MLKEM_KMAX];

    memcpy(in, d, 32);
    in[32] = (uint8_t)k;
    nuri_sha3_512(rs, in, 33);
    const uint8_t *rho = rs, *sigma = rs + 32;
    /* rho is public (it is part of ek); sampling A branches on it. */
    NURI_CT_PUBLIC(rs, 32);

    be->gen_matrix(a, rho, k, 0);
    be->sample_cbd(se, 2 * k, sigma, 0, p->eta1); /* s: nonces 0..k-1, e: k..2k-1 */
    for (unsigned i = 0; i < k; i++) {
        be->ntt(&s[i]);
        be->ntt(&e[i]);
        be->mulcache(&sc[i], &s[i]);
    }
    for (unsigned i = 0; i < k; i++) {
        be->basemul_acc(&t, &a[i * k], s, sc, k);
        be->tomont(&t);
        for (unsigned j = 0; j < MLKEM_N; j++) t.c[j] = (int16_t)(t.c[j] + e[i].c[j]);
        be->reduce(&t);
        be->tobytes(ek + 384 * i, &t);
        be->reduce(&s[i]);
        be->tobytes(dk_pke + 384 * i, &s[i]);
    }
    memcpy(ek + 384 * k, rho, 32);

    nuri_wipe(in, sizeof in);
    nuri_wipe(rs, sizeof rs);
    nuri_wipe(se, sizeof se);
    nuri_wipe(sc, sizeof sc);
    nuri_wipe(&t, sizeof t);
}

/* K-PKE.Encrypt (Algorithm 14). ek has passed the modulus check (or comes from dk). */
static void pke_encrypt(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ct, const uint8_t *ek,
                        const uint8_t m[32], const uint8_t coins[32])
{
    const unsigned k = p->k;
    mlk_poly at[MLKEM_KMAX * MLKEM_KMAX], t[MLKEM_KMAX], y[MLKEM_KMAX], e1[MLKEM_KMAX + 1], u, mu;
    mlk_mulcache yc[MLKEM_KMAX];

    for (unsigned i = 0; i < k; i++) be->frombytes(&t[i], ek + 384 * i);
    be->gen_matrix(at, ek + 384 * k, k, 1);
    be->sample_cbd(y, k, coins, 0, p->eta1);
    be->sample_cbd(e1, k + 1, coins, (uint8_t)k, p->eta2); /* e1[0..k-1], then e2 = e1[k] */
    for (unsigned i = 0; i < k; i++) {
        be->ntt(&y[i]);
        be->mulcache(&yc[i], &y[i]);
    }
    for (unsigned i = 0; i < k; i++) {
        be->basemul_acc(&u, &at[i * k], y, yc, k);
        be->invntt(&u);
        for (unsigned j = 0; j < MLKEM_N; j++) u.c[j] = (int16_t)(u.c[j] + e1[i].c[j]);
        be->reduce(&u);
        be->compress(ct + 32 * p->du * i, &u, p->du);
    }
    be->basemul_acc(&u, t, y, yc, k);
    be->invntt(&u);
    be->decompress(&mu, m, 1);
    for (unsigned j = 0; j < MLKEM_N; j++) u.c[j] = (int16_t)(u.c[j] + e1[k].c[j] + mu.c[j]);
    be->reduce(&u);
    be->compress(ct + 32 * p->du * k, &u, p->dv);

    nuri_wipe(y, sizeof y);
    nuri_wipe(e1, sizeof e1);
    nuri_wipe(yc, sizeof yc);
    nuri_wipe(&u, sizeof u);
    nuri_wipe(&mu, sizeof mu);
}

/* K-PKE.Decrypt (Algorithm 15). */
static void pke_decrypt(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t m[32], const uint8_t *dk_pke,
                        const uint8_t *ct)
{
    const unsigned k = p->k;
    mlk_poly u[MLKEM_KMAX], s[MLKEM_KMAX], w, v;
    mlk_mulcache uc[MLKEM_KMAX];

    for (unsigned i = 0; i < k; i++) {
        be->decompress(&u[i], ct + 32 * p->du * i, p->du);
        be->ntt(&u[i]);
        be->mulcache(&uc[i], &u[i]);
        be->frombytes(&s[i], dk_pke + 384 * i);
    }
    be->basemul_acc(&w, s, u, uc, k);
    be->invntt(&w);
    be->decompress(&v, ct + 32 * p->du * k, p->dv);
    for (unsigned j = 0; j < MLKEM_N; j++) w.c[j] = (int16_t)(v.c[j] - w.c[j]);
    be->reduce(&w);
    be->compress(m, &w, 1);

    nuri_wipe(s, sizeof s);
    nuri_wipe(&w, sizeof w);
}

/* ---- ML-KEM internal algorithms ---- */

void nuri_mlkem_keygen_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ek, uint8_t *dk,
                                const uint8_t d[32], const uint8_t z[32])
{
    size_t pke = 384 * (size_t)p->k;
    pke_keygen(be, p, ek, dk, d);
    memcpy(dk + pke, ek, p->ek_bytes);
    nuri_sha3_256(dk + pke + p->ek_bytes, ek, p->ek_bytes);
    memcpy(dk + pke + p->ek_bytes + 32, z, 32);
}

void nuri_mlkem_encaps_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t *ct, uint8_t ss[32],
                                const uint8_t *ek, const uint8_t m[32])
{
    uint8_t h[32], kr[64];
    nuri_sha3_256(h, ek, p->ek_bytes);
    hash_g(kr, m, 32, h, 32); /* (K, r) = G(m || H(ek)) */
    pke_encrypt(be, p, ct, ek, m, kr + 32);
    memcpy(ss, kr, 32);
    nuri_wipe(kr, sizeof kr);
}

void nuri_mlkem_decaps_internal(const nuri_mlkem_backend *be, const mlk_params *p, uint8_t ss[32],
                                const uint8_t *ct, const uint8_t *dk)
{
    const size_t pke = 384 * (size_t)p->k;
    const uint8_t *ek = dk + pke, *h = ek + p->ek_bytes, *z = h + 32;
    uint8_t m[32], kr[64], kbar[32], ct2[NURI_MLKEM_MAX_CT_BYTES];

    pke_decrypt(be, p, m, dk, ct);
    hash_g(kr, m, 32, h, 32); /* (K', r') = G(m' || h) */
    hash_j(kbar, z, ct, p->ct_bytes);
    pke_encrypt(be, p, ct2, ek, m, kr + 32);
    /* mask = 0xFF..FF if c == c' else 0: nuri_ct_memcmp returns 0 or -1 without branching. */
    uint32_t diff = (uint32_t)nuri_ct_memcmp(ct, ct2, p->ct_bytes); /* 0 or 0xFFFFFFFF */
    uint8_t keep = (uint8_t)~nuri_value_barrier_u32(diff);
    for (size_t i = 0; i < 32; i++) ss[i] = (uint8_t)((kr[i] & keep) | (kbar[i] & (uint8_t)~keep));

    nuri_wipe(m, sizeof m);
    nuri_wipe(kr, sizeof kr);
    nuri_wipe(kbar, sizeof kbar);
    nuri_wipe(ct2, sizeof ct2);
}
