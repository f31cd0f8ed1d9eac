/* SPARKLE / Schwaemm / Esch tests.
 *  - the 12 permutation vectors, for every implementation this CPU can run, and the multi-instance
 *    kernels on batches of every size 1..40;
 *  - the six NIST KAT files regenerated with the NIST genkat loops (Key/Nonce/PT/AD = 00 01 02 ...,
 *    mlen and adlen 0..32; hash Msg 0..1024 bytes), once per implementation, through the one-shot,
 *    streaming and batch APIs, compared byte for byte with the files of tests/vectors/sparkle and
 *    by SHA-256 with the digests embedded from them;
 *  - differential tests on random inputs against ref, decryption of every KAT record, rejection of
 *    every single-bit change of ciphertext, tag, nonce and AD, random-chunk streaming vs one-shot,
 *    and the error paths.
 * Usage: test_sparkle <tests/vectors/sparkle> */
#include <stdlib.h>

#include "nuri/sparkle.h"
#include "sha256.h"
#include "sparkle_impl.h"
#include "sparkle_vectors.h"
#include "test_util.h"

static size_t n_impls;
static const char *impl_names[16];
static int impl_multi[16];

static void load_impls(void)
{
    for (size_t i = 0; i < nuri_sparkle_impl_count(); i++)
        if (nuri_sparkle_impl_supported(i)) {
            impl_multi[n_impls] = nuri_sparkle_impl_multi(i);
            impl_names[n_impls++] = nuri_sparkle_impl_info(i)->name;
        }
    printf("implementations:");
    for (size_t i = 0; i < n_impls; i++) printf(" %s%s", impl_names[i], impl_multi[i] ? "(multi)" : "");
    printf(" (default %s)\n", nuri_sparkle_default_impl());
}

static const nuri_sparkle_impl *get_impl(const char *name)
{
    const nuri_sparkle_impl *impl;
    if (nuri_sparkle_select(name, &impl) != 0) {
        fprintf(stderr, "cannot select %s\n", name);
        exit(2);
    }
    return impl;
}

/* The tests below run one variant with one named implementation at a time: these set up the key or
 * context of the public API with that name (NULL = dispatch) and make the call, so every loop
 * reads as one call. Setup errors are returned as the call's. */
static int perm_bytes(uint8_t *state, size_t state_len, unsigned steps, const char *impl)
{
    nuri_sparkle_ctx c;
    int rc = nuri_sparkle_init(&c, impl);
    return rc ? rc : nuri_sparkle_permute_bytes(&c, state, state_len, steps);
}

static int perm(uint32_t *state, unsigned nb, unsigned steps, const char *impl)
{
    nuri_sparkle_ctx c;
    int rc = nuri_sparkle_init(&c, impl);
    return rc ? rc : nuri_sparkle_permute(&c, state, nb, steps);
}

static int seal(nuri_schwaemm_variant v, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *key,
                size_t key_len, const uint8_t *nonce, size_t nonce_len, const uint8_t *ad, size_t ad_len,
                const uint8_t *msg, size_t msg_len, const char *impl)
{
    nuri_schwaemm_key k;
    int rc = nuri_schwaemm_key_init(&k, v, key, key_len, impl);
    if (rc == NURI_OK)
        rc = nuri_schwaemm_encrypt(&k, out, out_cap, out_len, nonce, nonce_len, ad, ad_len, msg, msg_len);
    nuri_schwaemm_key_wipe(&k);
    return rc;
}

static int unseal(nuri_schwaemm_variant v, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *key,
                  size_t key_len, const uint8_t *nonce, size_t nonce_len, const uint8_t *ad, size_t ad_len,
                  const uint8_t *ct, size_t ct_len, const char *impl)
{
    nuri_schwaemm_key k;
    int rc = nuri_schwaemm_key_init(&k, v, key, key_len, impl);
    if (rc == NURI_OK) rc = nuri_schwaemm_decrypt(&k, out, out_cap, out_len, nonce, nonce_len, ad, ad_len, ct, ct_len);
    nuri_schwaemm_key_wipe(&k);
    return rc;
}

static int sinit(nuri_schwaemm_ctx *c, nuri_schwaemm_variant v, int encrypt, const uint8_t *key, size_t key_len,
                 const uint8_t *nonce, size_t nonce_len, const char *impl)
{
    nuri_schwaemm_key k;
    int rc = nuri_schwaemm_key_init(&k, v, key, key_len, impl);
    if (rc == NURI_OK) rc = nuri_schwaemm_init(c, &k, encrypt, nonce, nonce_len);
    nuri_schwaemm_key_wipe(&k); /* the context keeps its own copy */
    return rc;
}

static int seal_many(nuri_schwaemm_variant v, uint8_t *const *out, const uint8_t *key, size_t key_len,
                     const uint8_t *const *nonces, const uint8_t *const *ads, const size_t *ad_lens,
                     const uint8_t *const *msgs, const size_t *msg_lens, size_t count, const char *impl)
{
    nuri_schwaemm_key k;
    int rc = nuri_schwaemm_key_init(&k, v, key, key_len, impl);
    if (rc == NURI_OK) rc = nuri_schwaemm_encrypt_many(&k, out, nonces, ads, ad_lens, msgs, msg_lens, count);
    nuri_schwaemm_key_wipe(&k);
    return rc;
}

static int unseal_many(nuri_schwaemm_variant v, uint8_t *const *out, const uint8_t *key, size_t key_len,
                       const uint8_t *const *nonces, const uint8_t *const *ads, const size_t *ad_lens,
                       const uint8_t *const *cts, const size_t *ct_lens, int *status, size_t count, const char *impl)
{
    nuri_schwaemm_key k;
    int rc = nuri_schwaemm_key_init(&k, v, key, key_len, impl);
    if (rc == NURI_OK) rc = nuri_schwaemm_decrypt_many(&k, out, nonces, ads, ad_lens, cts, ct_lens, status, count);
    nuri_schwaemm_key_wipe(&k);
    return rc;
}

/* Esch by digest size (32: Esch256, 48: Esch384), as the KAT files name them. */
static nuri_esch_variant esch_variant(size_t dl) { return dl == 32 ? NURI_ESCH256 : NURI_ESCH384; }

static int esch_init(nuri_esch_ctx *c, size_t dl, const char *impl)
{
    return nuri_esch_init(c, esch_variant(dl), impl);
}

static int esch_final(nuri_esch_ctx *c, uint8_t *out, size_t dl)
{
    size_t n = 0;
    int rc = nuri_esch_final(c, out, dl, &n);
    return rc == NURI_OK && n != dl ? -100 : rc;
}

static int esch(size_t dl, uint8_t *out, const uint8_t *in, size_t in_len, const char *impl)
{
    nuri_esch_ctx c;
    int rc = esch_init(&c, dl, impl);
    if (rc == NURI_OK) rc = nuri_esch_update(&c, in, in_len);
    if (rc == NURI_OK) rc = esch_final(&c, out, dl);
    nuri_wipe(&c, sizeof c);
    return rc;
}

static int esch_many(size_t dl, uint8_t *out, const uint8_t *const *msgs, const size_t *lens, size_t count,
                     const char *impl)
{
    nuri_esch_ctx c;
    int rc = esch_init(&c, dl, impl);
    return rc ? rc : nuri_esch_many(&c, out, count * dl, msgs, lens, count);
}

/* ---------------- permutation ---------------- */

static void test_perm_vectors(void)
{
    tu_set_begin();
    for (size_t i = 0; i < n_impls; i++) {
        const nuri_sparkle_impl *impl = get_impl(impl_names[i]);
        for (size_t v = 0; v < sizeof sparkle_perm_vectors / sizeof sparkle_perm_vectors[0]; v++) {
            const sparkle_perm_vector *pv = &sparkle_perm_vectors[v];
            uint8_t st[64], exp[64];
            long n = tu_unhex(st, sizeof st, pv->in);
            tu_unhex(exp, sizeof exp, pv->out);
            CHECK(perm_bytes(st, (size_t)n, pv->steps, impl_names[i]) == 0, "permute rc");
            CHECK_MEM(st, exp, (size_t)n, "%s: SPARKLE%ld-%u vector %zu", impl_names[i], n * 8, pv->steps, v);
            /* the same vector at every position of a batch (multi-instance kernels: lanes, tails) */
            static uint32_t many[40 * 16];
            uint32_t w[16], e[16];
            unsigned nw = (unsigned)n / 4;
            tu_unhex(st, sizeof st, pv->in);
            for (unsigned k = 0; k < nw; k++) {
                w[k] = (uint32_t)st[4 * k] | (uint32_t)st[4 * k + 1] << 8 | (uint32_t)st[4 * k + 2] << 16 |
                       (uint32_t)st[4 * k + 3] << 24;
                e[k] = (uint32_t)exp[4 * k] | (uint32_t)exp[4 * k + 1] << 8 | (uint32_t)exp[4 * k + 2] << 16 |
                       (uint32_t)exp[4 * k + 3] << 24;
            }
            for (size_t cnt = 1; cnt <= 40; cnt += (cnt < 17 ? 1 : 7)) {
                for (size_t k = 0; k < cnt; k++) memcpy(many + k * nw, w, 4 * nw);
                nuri_sparkle_impl_permute_many(impl, many, cnt, nw / 2, pv->steps);
                int ok = 1;
                for (size_t k = 0; k < cnt; k++) ok &= memcmp(many + k * nw, e, 4 * nw) == 0;
                CHECK(ok, "%s: batch of %zu, SPARKLE%u-%u", impl_names[i], cnt, nw * 32, pv->steps);
            }
        }
    }
    /* embedded from the file by scripts/embed_sparkle_vectors.py */
    tu_set_end("test_sparkle", "sparkle_permutation_vectors.txt",
               sizeof sparkle_perm_vectors / sizeof sparkle_perm_vectors[0], 12);
}

static void test_perm_differential(void)
{
    static uint32_t a[41 * 16], b[41 * 16];
    for (size_t i = 0; i < n_impls; i++) {
        const nuri_sparkle_impl *impl = get_impl(impl_names[i]);
        for (unsigned nb = 4; nb <= 8; nb += 2)
            /* every count up to 20, then past opt's 24-step constant table and 64 */
            for (unsigned steps = 1; steps <= 75; steps += steps < 20 ? 1 : 5) {
                size_t cnt = 1 + (size_t)(tu_rand64() % 40);
                tu_randbytes((uint8_t *)a, sizeof a);
                memcpy(b, a, sizeof a);
                for (size_t k = 0; k < cnt; k++) nuri_sparkle_ref_permute(b + 2 * nb * k, nb, steps);
                uint32_t one[16];
                memcpy(one, a, 8 * nb);
                impl->permute(one, nb, steps);
                CHECK_MEM(one, b, 8 * nb, "%s: random state nb=%u steps=%u", impl_names[i], nb, steps);
                nuri_sparkle_impl_permute_many(impl, a, cnt, nb, steps);
                CHECK_MEM(a, b, 8 * nb * cnt, "%s: random batch of %zu nb=%u steps=%u", impl_names[i], cnt, nb, steps);
                CHECK(a[2 * nb * cnt] == b[2 * nb * cnt], "%s: batch wrote past its states", impl_names[i]);
            }
    }
    /* the public word API: steps 0 is the identity, bad nb and bad names fail */
    uint32_t s[16] = {1, 2, 3}, t[16] = {1, 2, 3};
    CHECK(perm(s, 6, 0, NULL) == 0 && memcmp(s, t, sizeof s) == 0, "0 steps = identity");
    CHECK(perm(s, 5, 7, NULL) == NURI_EINVAL, "nb 5 rejected");
    CHECK(perm(s, 6, 7, "nope") == NURI_ENOTFOUND, "unknown impl");
    uint8_t by[64] = {0};
    CHECK(perm_bytes(by, 40, 7, NULL) == NURI_ELENGTH, "40-byte state rejected");
}

/* ---------------- KAT generation ---------------- */

typedef struct {
    char *p;
    size_t n, cap;
} text;

static void tx_add(text *t, const char *s)
{
    size_t l = strlen(s);
    if (t->n + l + 1 > t->cap) {
        t->cap = (t->n + l + 1) * 2;
        t->p = realloc(t->p, t->cap);
        if (!t->p) exit(3);
    }
    memcpy(t->p + t->n, s, l + 1);
    t->n += l;
}

static void tx_field(text *t, const char *name, const uint8_t *v, size_t n)
{
    char hex[2 * 1100 + 1];
    tu_hex(hex, v, n);
    tx_add(t, name);
    tx_add(t, " = ");
    tx_add(t, hex);
    tx_add(t, "\n");
}

static const char *vector_dir;

static void check_text(const text *t, const char *file, const char *what)
{
    uint8_t d[32];
    char hex[65], exp[65];
    tu_sha256(d, t->p, t->n);
    tu_hex(hex, d, 32);
    const char *want = NULL;
    for (size_t i = 0; i < sizeof sparkle_kat_digests / sizeof sparkle_kat_digests[0]; i++)
        if (strcmp(sparkle_kat_digests[i].file, file) == 0) want = sparkle_kat_digests[i].sha256;
    for (int i = 0; i < 64; i++) exp[i] = (char)(want[i] >= 'a' ? want[i] - 32 : want[i]);
    exp[64] = 0;
    CHECK(strcmp(hex, exp) == 0, "%s: %s SHA-256 %s, want %s", what, file, hex, exp);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", vector_dir, file);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return;
    char *buf = malloc(t->n + 2);
    size_t got = fread(buf, 1, t->n + 1, f);
    fclose(f);
    CHECK(got == t->n && memcmp(buf, t->p, t->n) == 0, "%s: %s differs from the file", what, file);
    free(buf);
}

static const char *const aead_files[4] = {"LWC_AEAD_KAT_128_128.txt", "LWC_AEAD_KAT_128_256.txt",
                                          "LWC_AEAD_KAT_192_192.txt", "LWC_AEAD_KAT_256_256.txt"};
static const char *const variant_names[4] = {"Schwaemm128-128", "Schwaemm256-128", "Schwaemm192-192",
                                             "Schwaemm256-256"};

/* method: 0 one-shot, 1 streaming in random chunks, 2 batch API */
static void aead_kat(int v, const char *impl, int method)
{
    uint8_t key[32], nonce[32], msg[32], ad[32], ct[64], pt[64];
    size_t kl = nuri_schwaemm_key_bytes(v), nl = nuri_schwaemm_nonce_bytes(v), tl = nuri_schwaemm_tag_bytes(v);
    for (int i = 0; i < 32; i++) key[i] = nonce[i] = msg[i] = ad[i] = (uint8_t)i;
    static uint8_t batch_ct[33 * 33][64];
    if (method == 2) { /* all 1089 records in one batch call */
        uint8_t *outs[33 * 33];
        const uint8_t *nonces[33 * 33], *ads[33 * 33], *msgs[33 * 33];
        size_t adl[33 * 33], ml[33 * 33];
        for (int m = 0, c = 0; m <= 32; m++)
            for (int a = 0; a <= 32; a++, c++) {
                outs[c] = batch_ct[c];
                nonces[c] = nonce;
                ads[c] = ad;
                msgs[c] = msg;
                adl[c] = (size_t)a;
                ml[c] = (size_t)m;
            }
        int rc = seal_many(v, outs, key, kl, nonces, ads, adl, msgs, ml, 33 * 33, impl);
        CHECK(rc == 0, "encrypt_many rc %d", rc);
    }
    text t = {0};
    char line[64];
    int count = 1;
    for (size_t m = 0; m <= 32; m++)
        for (size_t a = 0; a <= 32; a++) {
            size_t cl = 0;
            memset(ct, 0, sizeof ct);
            if (method == 0) {
                CHECK(seal(v, ct, sizeof ct, &cl, key, kl, nonce, nl, ad, a, msg, m, impl) == 0, "encrypt");
            } else if (method == 1) {
                nuri_schwaemm_ctx c;
                size_t o = 0, w, off = 0;
                int ok = sinit(&c, v, NURI_SCHWAEMM_ENCRYPT, key, kl, nonce, nl, impl) == 0;
                while (off < a) {
                    size_t take = 1 + (size_t)(tu_rand64() % 20);
                    if (take > a - off) take = a - off;
                    ok &= nuri_schwaemm_update_ad(&c, ad + off, take) == 0;
                    off += take;
                }
                for (off = 0; off < m;) {
                    size_t take = (size_t)(tu_rand64() % 40);
                    if (take > m - off) take = m - off;
                    ok &= nuri_schwaemm_encrypt_update(&c, ct + o, sizeof ct - o, &w, msg + off, take) == 0;
                    o += w;
                    off += take;
                }
                ok &= nuri_schwaemm_encrypt_final(&c, ct + o, sizeof ct - o, &w, ct + m, tl) == 0;
                o += w;
                CHECK(ok && o == m, "streaming encrypt");
                cl = m + tl;
            } else {
                memcpy(ct, batch_ct[m * 33 + a], m + tl);
                cl = m + tl;
            }
            snprintf(line, sizeof line, "Count = %d\n", count++);
            tx_add(&t, line);
            tx_field(&t, "Key", key, kl);
            tx_field(&t, "Nonce", nonce, nl);
            tx_field(&t, "PT", msg, m);
            tx_field(&t, "AD", ad, a);
            tx_field(&t, "CT", ct, cl);
            tx_add(&t, "\n");
            if (method == 0) { /* decrypt it back: one-shot and two-pass streaming */
                size_t pl = 99;
                int rc = unseal(v, pt, sizeof pt, &pl, key, kl, nonce, nl, ad, a, ct, cl, impl);
                CHECK(rc == 0 && pl == m && memcmp(pt, msg, m) == 0, "%s decrypt m=%zu a=%zu", impl, m, a);
                nuri_schwaemm_ctx c;
                size_t o = 0, w;
                int ok = sinit(&c, v, NURI_SCHWAEMM_DECRYPT, key, kl, nonce, nl, impl) == 0;
                ok &= nuri_schwaemm_update_ad(&c, ad, a) == 0;
                ok &= nuri_schwaemm_verify_update(&c, ct, m) == 0;
                ok &= nuri_schwaemm_verify_final(&c, ct + m, tl) == 0;
                ok &= nuri_schwaemm_decrypt_update(&c, pt, sizeof pt, &w, ct, m) == 0;
                o += w;
                ok &= nuri_schwaemm_decrypt_final(&c, pt + o, sizeof pt - o, &w, ct + m, tl) == 0;
                o += w;
                CHECK(ok && o == m && memcmp(pt, msg, m) == 0, "%s streaming decrypt m=%zu a=%zu", impl, m, a);
            }
        }
    char what[96];
    snprintf(what, sizeof what, "%s %s (%s)", impl, variant_names[v],
             method == 0   ? "one-shot"
             : method == 1 ? "streaming"
                           : "batch");
    check_text(&t, aead_files[v], what);
    free(t.p);
}

static void hash_kat(size_t dl, const char *impl, int method)
{
    static uint8_t msg[1024], md[1025][48];
    for (int i = 0; i < 1024; i++) msg[i] = (uint8_t)i;
    if (method == 2) {
        static const uint8_t *msgs[1025];
        static size_t lens[1025];
        for (int i = 0; i <= 1024; i++) {
            msgs[i] = msg;
            lens[i] = (size_t)i;
        }
        int rc = esch_many(dl, &md[0][0], msgs, lens, 1025, impl);
        CHECK(rc == 0, "esch_many rc %d", rc);
        /* out is count * dl contiguous: spread into the md rows */
        static uint8_t flat[1025 * 48];
        memcpy(flat, md, sizeof flat);
        for (int i = 0; i <= 1024; i++) memcpy(md[i], flat + (size_t)i * dl, dl);
    }
    text t = {0};
    char line[64];
    for (size_t n = 0; n <= 1024; n++) {
        if (method == 0) {
            CHECK(esch(dl, md[n], msg, n, impl) == 0, "esch");
        } else if (method == 1) {
            nuri_esch_ctx c;
            int ok = esch_init(&c, dl, impl) == 0;
            for (size_t off = 0; off < n;) {
                size_t take = (size_t)(tu_rand64() % 70);
                if (take > n - off) take = n - off;
                ok &= nuri_esch_update(&c, msg + off, take) == 0;
                off += take;
            }
            ok &= esch_final(&c, md[n], dl) == 0;
            CHECK(ok, "streaming esch");
        }
        snprintf(line, sizeof line, "Count = %zu\n", n + 1);
        tx_add(&t, line);
        tx_field(&t, "Msg", msg, n);
        tx_field(&t, "MD", md[n], dl);
        tx_add(&t, "\n");
    }
    char what[96];
    snprintf(what, sizeof what, "%s Esch%zu (%s)", impl, dl * 8,
             method == 0   ? "one-shot"
             : method == 1 ? "streaming"
                           : "batch");
    check_text(&t, dl == 32 ? "LWC_HASH_KAT_256.txt" : "LWC_HASH_KAT_384.txt", what);
    free(t.p);
}

/* Each KAT file: every implementation, through each API, writes the whole file again. */
static void test_kats(void)
{
    for (int v = 0; v < 4; v++) {
        tu_set_begin();
        for (size_t i = 0; i < n_impls; i++)
            for (int method = 0; method < 3; method++) aead_kat(v, impl_names[i], method);
        tu_set_end("test_sparkle", aead_files[v], 33 * 33, 1089);
    }
    for (size_t dl = 32; dl <= 48; dl += 16) {
        tu_set_begin();
        for (size_t i = 0; i < n_impls; i++)
            for (int method = 0; method < 3; method++) hash_kat(dl, impl_names[i], method);
        tu_set_end("test_sparkle", dl == 32 ? "LWC_HASH_KAT_256.txt" : "LWC_HASH_KAT_384.txt", 1024 + 1, 1025);
    }
}

/* ---------------- tampering, streaming, differential ---------------- */

static int rejects(int v, const uint8_t *key, const uint8_t *nonce, const uint8_t *ad, size_t al, const uint8_t *ct,
                   size_t cl, const char *impl)
{
    uint8_t pt[128];
    size_t pl = 77;
    memset(pt, 0xAA, sizeof pt);
    int rc = unseal(v, pt, sizeof pt, &pl, key, nuri_schwaemm_key_bytes(v), nonce, nuri_schwaemm_nonce_bytes(v), ad, al,
                    ct, cl, impl);
    int zero = 1;
    for (size_t i = 0; i < sizeof pt; i++) zero &= pt[i] == 0;
    /* and the streaming form refuses at verify_final */
    nuri_schwaemm_ctx c;
    size_t tl = nuri_schwaemm_tag_bytes(v);
    int s = sinit(&c, v, NURI_SCHWAEMM_DECRYPT, key, nuri_schwaemm_key_bytes(v), nonce, nuri_schwaemm_nonce_bytes(v),
                  impl) == 0 &&
            nuri_schwaemm_update_ad(&c, ad, al) == 0 && nuri_schwaemm_verify_update(&c, ct, cl - tl) == 0 &&
            nuri_schwaemm_verify_final(&c, ct + cl - tl, tl) == NURI_EAUTH;
    size_t w;
    s &= nuri_schwaemm_decrypt_update(&c, pt, sizeof pt, &w, ct, cl - tl) == NURI_ESTATE;
    return rc == NURI_EAUTH && pl == 0 && zero && s;
}

static void test_tamper(void)
{
    const char *impl = impl_names[0];
    static const size_t mlens[] = {0, 1, 16, 23, 40, 64};
    for (int v = 0; v < 4; v++) {
        size_t kl = nuri_schwaemm_key_bytes(v), nl = nuri_schwaemm_nonce_bytes(v), tl = nuri_schwaemm_tag_bytes(v);
        for (size_t mi = 0; mi < sizeof mlens / sizeof mlens[0]; mi++) {
            uint8_t key[32], nonce[32], ad[20], msg[64], ct[96];
            size_t m = mlens[mi], al = mi % 3 == 0 ? 0 : 1 + mi * 3, cl;
            tu_randbytes(key, sizeof key);
            tu_randbytes(nonce, sizeof nonce);
            tu_randbytes(ad, sizeof ad);
            tu_randbytes(msg, sizeof msg);
            CHECK(seal(v, ct, sizeof ct, &cl, key, kl, nonce, nl, ad, al, msg, m, impl) == 0, "encrypt");
            int all = 1;
            for (size_t bit = 0; bit < 8 * cl; bit++) { /* ciphertext and tag */
                ct[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                all &= rejects(v, key, nonce, ad, al, ct, cl, impl);
                ct[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            for (size_t bit = 0; bit < 8 * nl; bit++) {
                nonce[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                all &= rejects(v, key, nonce, ad, al, ct, cl, impl);
                nonce[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            for (size_t bit = 0; bit < 8 * al; bit++) {
                ad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                all &= rejects(v, key, nonce, ad, al, ct, cl, impl);
                ad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            /* truncation / extension of AD by one zero byte, and a truncated ciphertext */
            uint8_t ad2[21];
            memcpy(ad2, ad, al);
            ad2[al] = 0;
            all &= rejects(v, key, nonce, ad2, al + 1, ct, cl, impl);
            if (m) {
                uint8_t ct2[96];
                memcpy(ct2, ct, m - 1);
                memcpy(ct2 + m - 1, ct + m, tl);
                all &= rejects(v, key, nonce, ad, al, ct2, cl - 1, impl);
            }
            CHECK(all, "%s: a modified ciphertext/tag/nonce/AD was accepted (m=%zu, ad=%zu)", variant_names[v], m, al);
            /* and the untouched one still decrypts */
            uint8_t pt[64];
            size_t pl;
            CHECK(unseal(v, pt, sizeof pt, &pl, key, kl, nonce, nl, ad, al, ct, cl, impl) == 0 && pl == m &&
                      memcmp(pt, msg, m) == 0,
                  "round trip");
        }
    }
}

static void test_streaming_random(void)
{
    static uint8_t msg[5000], ad[700], ct[5100], ct2[5100], pt[5100];
    for (size_t i = 0; i < n_impls; i++) {
        const char *impl = impl_names[i];
        for (int trial = 0; trial < 24; trial++) {
            int v = trial % 4;
            size_t kl = nuri_schwaemm_key_bytes(v), nl = nuri_schwaemm_nonce_bytes(v), tl = nuri_schwaemm_tag_bytes(v);
            uint8_t key[32], nonce[32];
            size_t m = (size_t)(tu_rand64() % (trial < 12 ? 300 : 5000)), al = (size_t)(tu_rand64() % 700), cl, o = 0,
                   w;
            tu_randbytes(key, sizeof key);
            tu_randbytes(nonce, sizeof nonce);
            tu_randbytes(msg, m);
            tu_randbytes(ad, al);
            CHECK(seal(v, ct, sizeof ct, &cl, key, kl, nonce, nl, ad, al, msg, m, impl) == 0, "enc");
            /* against ref */
            CHECK(seal(v, ct2, sizeof ct2, &cl, key, kl, nonce, nl, ad, al, msg, m, "ref") == 0 &&
                      memcmp(ct, ct2, cl) == 0,
                  "%s: %s differs from ref (m=%zu ad=%zu)", impl, variant_names[v], m, al);
            nuri_schwaemm_ctx c;
            int ok = sinit(&c, v, NURI_SCHWAEMM_ENCRYPT, key, kl, nonce, nl, impl) == 0;
            for (size_t off = 0; off < al;) {
                size_t take = (size_t)(tu_rand64() % 90);
                if (take > al - off) take = al - off;
                ok &= nuri_schwaemm_update_ad(&c, ad + off, take) == 0;
                off += take;
            }
            for (size_t off = 0; off < m;) {
                size_t take = (size_t)(tu_rand64() % 200);
                if (take > m - off) take = m - off;
                ok &= nuri_schwaemm_encrypt_update(&c, ct2 + o, sizeof ct2 - o, &w, msg + off, take) == 0;
                o += w;
                off += take;
            }
            uint8_t tag[32];
            ok &= nuri_schwaemm_encrypt_final(&c, ct2 + o, sizeof ct2 - o, &w, tag, tl) == 0;
            o += w;
            CHECK(ok && o == m && memcmp(ct2, ct, m) == 0 && memcmp(tag, ct + m, tl) == 0,
                  "%s: %s streaming encrypt != one-shot (m=%zu ad=%zu)", impl, variant_names[v], m, al);
            /* two-pass streaming decryption with different chunkings in the two passes */
            ok = sinit(&c, v, NURI_SCHWAEMM_DECRYPT, key, kl, nonce, nl, impl) == 0;
            ok &= nuri_schwaemm_update_ad(&c, ad, al) == 0;
            for (size_t off = 0; off < m;) {
                size_t take = (size_t)(tu_rand64() % 300);
                if (take > m - off) take = m - off;
                ok &= nuri_schwaemm_verify_update(&c, ct + off, take) == 0;
                off += take;
            }
            ok &= nuri_schwaemm_verify_final(&c, ct + m, tl) == 0;
            o = 0;
            for (size_t off = 0; off < m;) {
                size_t take = (size_t)(tu_rand64() % 100);
                if (take > m - off) take = m - off;
                ok &= nuri_schwaemm_decrypt_update(&c, pt + o, sizeof pt - o, &w, ct + off, take) == 0;
                o += w;
                off += take;
            }
            ok &= nuri_schwaemm_decrypt_final(&c, pt + o, sizeof pt - o, &w, ct + m, tl) == 0;
            o += w;
            CHECK(ok && o == m && memcmp(pt, msg, m) == 0, "%s: %s streaming decrypt (m=%zu)", impl, variant_names[v],
                  m);
            /* one-shot decrypt, in place (long messages take the two-pass path) */
            memcpy(ct2, ct, cl);
            size_t pl;
            CHECK(unseal(v, ct2, cl, &pl, key, kl, nonce, nl, ad, al, ct2, cl, impl) == 0 && pl == m &&
                      memcmp(ct2, msg, m) == 0,
                  "%s: in-place decrypt (m=%zu)", impl, m);
            /* in-place encrypt */
            memcpy(ct2, msg, m);
            CHECK(seal(v, ct2, sizeof ct2, &cl, key, kl, nonce, nl, ad, al, ct2, m, impl) == 0 &&
                      memcmp(ct2, ct, cl) == 0,
                  "in-place encrypt");
            /* a second pass over a different ciphertext is caught by decrypt_final */
            if (m > 0) {
                ok = sinit(&c, v, NURI_SCHWAEMM_DECRYPT, key, kl, nonce, nl, impl) == 0;
                ok &= nuri_schwaemm_update_ad(&c, ad, al) == 0;
                ok &= nuri_schwaemm_verify_update(&c, ct, m) == 0;
                ok &= nuri_schwaemm_verify_final(&c, ct + m, tl) == 0;
                memcpy(ct2, ct, m);
                ct2[m - 1] ^= 1;
                ok &= nuri_schwaemm_decrypt_update(&c, pt, sizeof pt, &w, ct2, m) == 0;
                ok &= nuri_schwaemm_decrypt_final(&c, pt + w, sizeof pt - w, &w, ct + m, tl) == NURI_EAUTH;
                CHECK(ok, "%s: changed second pass not detected", impl);
            }
            /* Esch: random chunking vs one-shot vs ref */
            for (size_t dl = 32; dl <= 48; dl += 16) {
                uint8_t d1[48], d2[48], d3[48];
                CHECK(esch(dl, d1, msg, m, impl) == 0 && esch(dl, d3, msg, m, "ref") == 0, "esch");
                nuri_esch_ctx h, h2;
                ok = esch_init(&h, dl, impl) == 0;
                size_t half = m / 2, copied = 0;
                int did_copy = 0; /* a flag, not `copied`: half may be 0 (m = 0 or 1) */
                for (size_t off = 0; off < m;) {
                    size_t take = (size_t)(tu_rand64() % 50);
                    if (take > m - off) take = m - off;
                    if (!did_copy && off + take > half) { /* copy mid-stream (a plain struct copy) */
                        take = half - off;
                        ok &= nuri_esch_update(&h, msg + off, take) == 0;
                        off += take;
                        memcpy(&h2, &h, sizeof h);
                        copied = off;
                        did_copy = 1;
                        continue;
                    }
                    ok &= nuri_esch_update(&h, msg + off, take) == 0;
                    off += take;
                }
                ok &= esch_final(&h, d2, dl) == 0;
                CHECK(ok && memcmp(d1, d2, dl) == 0 && memcmp(d1, d3, dl) == 0, "%s: Esch%zu streaming (m=%zu)", impl,
                      dl * 8, m);
                if (did_copy || m == 0) {
                    uint8_t d4[48];
                    if (m == 0) ok &= esch_init(&h2, dl, impl) == 0;
                    ok &= nuri_esch_update(&h2, msg + copied, m - copied) == 0;
                    ok &= esch_final(&h2, d4, dl) == 0;
                    CHECK(ok && memcmp(d4, d1, dl) == 0, "%s: copied Esch context (m=%zu)", impl, m);
                }
            }
        }
    }
}

static void test_batch_random(void)
{
    enum { N = 37 };
    static uint8_t msgs[N][300], outs[N][300 + 32], digests[N * 48], ads[N][40];
    const uint8_t *mp[N], *ap[N], *np[N];
    uint8_t *op[N], nonces[N][32], key[32];
    size_t ml[N], al[N];
    for (size_t i = 0; i < n_impls; i++) {
        for (int v = 0; v < 4; v++) {
            tu_randbytes(key, sizeof key);
            for (int k = 0; k < N; k++) {
                ml[k] = (size_t)(tu_rand64() % 300);
                al[k] = (size_t)(tu_rand64() % 40);
                tu_randbytes(msgs[k], ml[k]);
                tu_randbytes(ads[k], al[k]);
                tu_randbytes(nonces[k], 32);
                mp[k] = msgs[k];
                ap[k] = ads[k];
                np[k] = nonces[k];
                op[k] = outs[k];
            }
            size_t kl = nuri_schwaemm_key_bytes(v), nl = nuri_schwaemm_nonce_bytes(v);
            int rc = seal_many(v, op, key, kl, np, ap, al, mp, ml, N, impl_names[i]);
            int ok = rc == 0;
            for (int k = 0; k < N; k++) {
                uint8_t ct[340];
                size_t cl;
                ok &= seal(v, ct, sizeof ct, &cl, key, kl, nonces[k], nl, ads[k], al[k], msgs[k], ml[k], "ref") == 0 &&
                      memcmp(ct, outs[k], cl) == 0;
            }
            CHECK(ok, "%s: %s encrypt_many differs from ref", impl_names[i], variant_names[v]);
            /* without AD */
            rc = seal_many(v, op, key, kl, np, NULL, NULL, mp, ml, N, impl_names[i]);
            ok = rc == 0;
            for (int k = 0; k < N; k++) {
                uint8_t ct[340];
                size_t cl;
                ok &= seal(v, ct, sizeof ct, &cl, key, kl, nonces[k], nl, NULL, 0, msgs[k], ml[k], "ref") == 0 &&
                      memcmp(ct, outs[k], cl) == 0;
            }
            CHECK(ok, "%s: %s encrypt_many without AD differs from ref", impl_names[i], variant_names[v]);
        }
        for (size_t dl = 32; dl <= 48; dl += 16) {
            for (size_t cnt = 0; cnt <= N; cnt += 3) {
                CHECK(esch_many(dl, digests, mp, ml, cnt, impl_names[i]) == 0, "esch_many");
                int ok = 1;
                for (size_t k = 0; k < cnt; k++) {
                    uint8_t d[48];
                    ok &= esch(dl, d, msgs[k], ml[k], "ref") == 0 && memcmp(d, digests + k * dl, dl) == 0;
                }
                CHECK(ok, "%s: esch_many(%zu) of %zu messages", impl_names[i], dl, cnt);
            }
            /* uniform block counts (the transposed fast path): lengths 49..64, 0..16, all 64 */
            for (int shape = 0; shape < 3; shape++) {
                size_t ul[N];
                for (int k = 0; k < N; k++)
                    ul[k] = shape == 0 ? 49 + (size_t)(tu_rand64() % 16) : shape == 1 ? (size_t)(tu_rand64() % 17) : 64;
                CHECK(esch_many(dl, digests, mp, ul, N, impl_names[i]) == 0, "esch_many");
                int ok = 1;
                for (size_t k = 0; k < N; k++) {
                    uint8_t d[48];
                    ok &= esch(dl, d, msgs[k], ul[k], "ref") == 0 && memcmp(d, digests + k * dl, dl) == 0;
                }
                CHECK(ok, "%s: esch_many(%zu) uniform shape %d", impl_names[i], dl, shape);
            }
        }
    }
    uint8_t d[32 * 2];
    const uint8_t *two[2] = {msgs[0], msgs[1]};
    size_t tl2[2] = {64, 64};
    uint8_t e0[32], e1[32];
    CHECK(nuri_esch256_many(d, sizeof d, two, tl2, 2) == 0 && nuri_esch256(e0, msgs[0], 64) == 0 &&
              nuri_esch256(e1, msgs[1], 64) == 0 && memcmp(d, e0, 32) == 0 && memcmp(d + 32, e1, 32) == 0,
          "esch256_many (dispatch)");
    uint8_t d384[48];
    CHECK(nuri_esch384_many(d384, sizeof d384, two, tl2, 1) == 0, "esch384_many");
    CHECK(nuri_esch256_many(d, sizeof d - 1, two, tl2, 2) == NURI_EBUFFER && d[0] == 0 && d[sizeof d - 2] == 0,
          "esch256_many: out_cap below count * 32 refused, out zeroed");
}

/* decrypt_many: the opening of encrypt_many, per message: plaintexts of intact messages, zeroes
 * and NURI_EAUTH for the tampered ones (ciphertext, tag or AD changed), in place and not. */
static int all_zero_bytes(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}

static void test_batch_decrypt(void)
{
    enum { N = 37 };
    static uint8_t msgs[N][300], cts[N][300 + 32], pts[N][300 + 32], ads[N][40];
    const uint8_t *mp[N], *ap[N], *np[N], *cp[N];
    uint8_t *op[N], *pp[N], nonces[N][32], key[32];
    size_t ml[N], al[N], cl[N];
    int status[N];
    for (size_t i = 0; i < n_impls; i++) {
        for (int v = 0; v < 4; v++) {
            size_t kl = nuri_schwaemm_key_bytes(v), tl = nuri_schwaemm_tag_bytes(v);
            tu_randbytes(key, sizeof key);
            for (int k = 0; k < N; k++) {
                ml[k] = (size_t)(tu_rand64() % 300);
                al[k] = (size_t)(tu_rand64() % 40);
                tu_randbytes(msgs[k], ml[k]);
                tu_randbytes(ads[k], al[k]);
                tu_randbytes(nonces[k], 32);
                mp[k] = msgs[k], ap[k] = ads[k], np[k] = nonces[k], op[k] = cts[k], cp[k] = cts[k], pp[k] = pts[k];
                cl[k] = ml[k] + tl;
            }
            CHECK(seal_many(v, op, key, kl, np, ap, al, mp, ml, N, impl_names[i]) == 0, "encrypt_many");
            int rc = unseal_many(v, pp, key, kl, np, ap, al, cp, cl, status, N, impl_names[i]);
            int ok = rc == 0;
            for (int k = 0; k < N; k++) ok &= status[k] == 0 && memcmp(pts[k], msgs[k], ml[k]) == 0;
            CHECK(ok, "%s: %s decrypt_many opens encrypt_many", impl_names[i], variant_names[v]);
            /* tamper with every 5th message: a ciphertext byte, a tag byte or an AD byte in turn */
            for (int k = 0; k < N; k += 5) {
                int what = (k / 5) % 3;
                if (what == 0 && ml[k]) cts[k][tu_rand64() % ml[k]] ^= 1;
                else if (what == 2 && al[k]) ads[k][0] ^= 0x80;
                else cts[k][ml[k] + tu_rand64() % tl] ^= 0x10;
            }
            for (int k = 0; k < N; k++) memset(pts[k], 0xAA, sizeof pts[k]);
            rc = unseal_many(v, pp, key, kl, np, ap, al, cp, cl, status, N, impl_names[i]);
            ok = rc == NURI_EAUTH;
            for (int k = 0; k < N; k++) {
                if (k % 5 == 0) ok &= status[k] == NURI_EAUTH && all_zero_bytes(pts[k], ml[k]);
                else ok &= status[k] == 0 && memcmp(pts[k], msgs[k], ml[k]) == 0;
            }
            CHECK(ok, "%s: %s decrypt_many: tampered messages zeroed with NURI_EAUTH, the others opened", impl_names[i],
                  variant_names[v]);
            /* in place: out[i] == cts[i] */
            rc = unseal_many(v, op, key, kl, np, ap, al, cp, cl, NULL, N, impl_names[i]);
            ok = rc == NURI_EAUTH;
            for (int k = 0; k < N; k++)
                ok &= k % 5 == 0 ? all_zero_bytes(cts[k], ml[k]) : memcmp(cts[k], msgs[k], ml[k]) == 0;
            CHECK(ok, "%s: %s decrypt_many in place", impl_names[i], variant_names[v]);
            /* bad arguments: every output zeroed, every status the error */
            for (int k = 0; k < N; k++) memset(pts[k], 0xAA, sizeof pts[k]);
            nuri_schwaemm_key unset = {.variant = (nuri_schwaemm_variant)v}; /* no implementation: not set up */
            rc = nuri_schwaemm_decrypt_many(&unset, pp, np, ap, al, cp, cl, status, N);
            ok = rc == NURI_ESTATE;
            for (int k = 0; k < N; k++) ok &= status[k] == NURI_ESTATE && all_zero_bytes(pts[k], ml[k]);
            size_t short_len[1] = {tl - 1};
            ok &= unseal_many(v, pp, key, kl, np, ap, al, cp, short_len, status, 1, impl_names[i]) == NURI_ELENGTH;
            CHECK(ok, "%s: %s decrypt_many errors zero the outputs", impl_names[i], variant_names[v]);
        }
    }
}

/* Uniform runs (the transposed duplex32 path of Schwaemm256-128 / 256-256 on avx2): batches whose
 * consecutive messages share their lengths, in runs longer and shorter than the kernel's lanes,
 * with a differently sized message between runs; every implementation against ref one-shot, and
 * decrypt_many of the result (out of place, in place, one tampered message per run). */
static void test_batch_uniform(void)
{
    enum { N = 41, MAXM = 1100 };
    static const struct {
        size_t m, a;
    } shapes[] = {{0, 0}, {1, 0}, {31, 5}, {32, 0}, {33, 32}, {64, 33}, {65, 1}, {96, 0}, {1023, 7}, {MAXM - 1, 40}};
    static uint8_t msgs[N][MAXM], cts[N][MAXM + 32], pts[N][MAXM + 32], ads[N][40];
    const uint8_t *mp[N], *ap[N], *np[N], *cp[N];
    uint8_t *op[N], *pp[N], nonces[N][32], key[32];
    size_t ml[N], al[N], cl[N];
    int status[N];
    for (size_t i = 0; i < n_impls; i++) {
        for (int v = 0; v < 4; v++) {
            size_t kl = nuri_schwaemm_key_bytes(v), nl = nuri_schwaemm_nonce_bytes(v), tl = nuri_schwaemm_tag_bytes(v);
            for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
                /* run lengths: 1 + random 0..20, then one odd message, and so on */
                size_t run = 0, cnt = (size_t)(2 + tu_rand64() % (N - 1));
                tu_randbytes(key, sizeof key);
                for (size_t k = 0; k < cnt; k++) {
                    if (run == 0) run = 1 + (size_t)(tu_rand64() % 21);
                    int odd = --run == 0 && k + 1 < cnt;
                    ml[k] = odd ? (size_t)(tu_rand64() % MAXM) : shapes[sh].m;
                    al[k] = odd ? (size_t)(tu_rand64() % 40) : shapes[sh].a;
                    tu_randbytes(msgs[k], ml[k]);
                    tu_randbytes(ads[k], al[k]);
                    tu_randbytes(nonces[k], 32);
                    mp[k] = msgs[k], ap[k] = ads[k], np[k] = nonces[k], op[k] = cts[k], cp[k] = cts[k], pp[k] = pts[k];
                    cl[k] = ml[k] + tl;
                }
                int with_ad = sh % 2 == 0;
                int ok = seal_many(v, op, key, kl, np, with_ad ? ap : NULL, with_ad ? al : NULL, mp, ml, cnt,
                                   impl_names[i]) == 0;
                for (size_t k = 0; k < cnt; k++) {
                    uint8_t ct[MAXM + 32];
                    size_t ol;
                    ok &= seal(v, ct, sizeof ct, &ol, key, kl, nonces[k], nl, ads[k], with_ad ? al[k] : 0, msgs[k],
                               ml[k], "ref") == 0 &&
                          ol == cl[k] && memcmp(ct, cts[k], ol) == 0;
                }
                CHECK(ok, "%s: %s encrypt_many uniform runs (m=%zu a=%zu, %zu messages) differs from ref",
                      impl_names[i], variant_names[v], shapes[sh].m, shapes[sh].a, cnt);
                int rc = unseal_many(v, pp, key, kl, np, with_ad ? ap : NULL, with_ad ? al : NULL, cp, cl, status, cnt,
                                     impl_names[i]);
                ok = rc == 0;
                for (size_t k = 0; k < cnt; k++) ok &= status[k] == 0 && memcmp(pts[k], msgs[k], ml[k]) == 0;
                CHECK(ok, "%s: %s decrypt_many uniform runs (m=%zu)", impl_names[i], variant_names[v], shapes[sh].m);
                /* tamper with every 7th: its ciphertext when it has one, else its tag; then open in place */
                for (size_t k = 0; k < cnt; k += 7) cts[k][tu_rand64() % cl[k]] ^= (uint8_t)(1u << (k % 8));
                rc = unseal_many(v, op, key, kl, np, with_ad ? ap : NULL, with_ad ? al : NULL, cp, cl, status, cnt,
                                 impl_names[i]);
                ok = rc == NURI_EAUTH;
                for (size_t k = 0; k < cnt; k++)
                    ok &= k % 7 == 0 ? status[k] == NURI_EAUTH && all_zero_bytes(cts[k], ml[k])
                                     : status[k] == 0 && memcmp(cts[k], msgs[k], ml[k]) == 0;
                CHECK(ok, "%s: %s decrypt_many uniform runs in place, tampered ones zeroed (m=%zu)", impl_names[i],
                      variant_names[v], shapes[sh].m);
            }
        }
    }
}

/* ---------------- error paths ---------------- */

static void test_errors(void)
{
    uint8_t key[32] = {0}, nonce[32] = {0}, buf[128] = {0}, tag[32];
    size_t ol = 5;
    nuri_schwaemm_ctx c;
    nuri_schwaemm_key k;
    /* key setup: the variant, the key length and the implementation are checked there */
    CHECK(nuri_schwaemm_key_init(&k, NURI_SCHWAEMM256_128, key, 15, NULL) == NURI_ELENGTH, "short key");
    CHECK(nuri_schwaemm_key_init(&k, (nuri_schwaemm_variant)7, key, 16, NULL) == NURI_EINVAL, "bad variant");
    CHECK(nuri_schwaemm_key_init(&k, NURI_SCHWAEMM256_128, key, 16, "nope") == NURI_ENOTFOUND &&
              nuri_schwaemm_key_impl_name(&k) == NULL,
          "unknown impl");
    CHECK(nuri_schwaemm_key_init(&k, NURI_SCHWAEMM256_128, key, 16, "ref") == 0 &&
              strcmp(nuri_schwaemm_key_impl_name(&k), "ref") == 0,
          "the key runs the implementation it was set up with");
    CHECK(nuri_schwaemm_encrypt(&k, buf, sizeof buf, &ol, nonce, 16, NULL, 0, buf, 10) == NURI_ELENGTH && ol == 0,
          "short nonce");
    memset(buf, 0x55, sizeof buf);
    CHECK(nuri_schwaemm_encrypt(&k, buf, 20, &ol, nonce, 32, NULL, 0, nonce, 10) == NURI_EBUFFER && buf[0] == 0 &&
              buf[19] == 0 && buf[20] == 0x55,
          "small output buffer zeroed");
    CHECK(nuri_schwaemm_decrypt(&k, buf, sizeof buf, &ol, nonce, 32, NULL, 0, buf, 15) == NURI_ELENGTH,
          "ciphertext shorter than the tag");
    nuri_schwaemm_key_wipe(&k);
    memset(buf, 0x55, sizeof buf);
    CHECK(nuri_schwaemm_encrypt(&k, buf, sizeof buf, &ol, nonce, 32, NULL, 0, nonce, 10) == NURI_ESTATE && buf[0] == 0,
          "a wiped key is refused, output zeroed");
    CHECK(nuri_schwaemm_init(&c, &k, NURI_SCHWAEMM_ENCRYPT, nonce, 32) == NURI_ESTATE, "init from a wiped key");
    CHECK(nuri_schwaemm_key_bytes((nuri_schwaemm_variant)9) == 0 &&
              nuri_schwaemm_nonce_bytes(NURI_SCHWAEMM128_128) == 16 &&
              nuri_schwaemm_tag_bytes(NURI_SCHWAEMM256_256) == 32 &&
              nuri_schwaemm_rate_bytes(NURI_SCHWAEMM192_192) == 24 && nuri_schwaemm_ctx_bytes() == sizeof c &&
              nuri_schwaemm_key_struct_bytes() == sizeof k,
          "size getters");
    CHECK(nuri_schwaemm_key_bytes(NURI_SCHWAEMM192_192) == NURI_SCHWAEMM192_192_KEY_BYTES &&
              nuri_schwaemm_nonce_bytes(NURI_SCHWAEMM256_128) == NURI_SCHWAEMM256_128_NONCE_BYTES &&
              nuri_schwaemm_tag_bytes(NURI_SCHWAEMM128_128) == NURI_SCHWAEMM128_128_TAG_BYTES,
          "size macros = getters");
    /* call sequences */
    CHECK(nuri_schwaemm_key_init(&k, NURI_SCHWAEMM128_128, key, 16, NULL) == 0, "key");
    CHECK(nuri_schwaemm_init(&c, &k, NURI_SCHWAEMM_ENCRYPT, nonce, 16) == 0, "init");
    CHECK(nuri_schwaemm_verify_update(&c, buf, 3) == NURI_ESTATE, "verify on an encryption context");
    CHECK(nuri_schwaemm_encrypt_update(&c, buf, sizeof buf, &ol, buf, 40) == 0 && ol == 32, "encrypt_update");
    CHECK(nuri_schwaemm_encrypt_update(&c, buf, 10, &ol, buf, 40) == NURI_EBUFFER, "small update buffer");
    CHECK(nuri_schwaemm_update_ad(&c, buf, 3) == NURI_ESTATE, "AD after message");
    CHECK(nuri_schwaemm_encrypt_final(&c, buf, sizeof buf, &ol, tag, 15) == NURI_EBUFFER, "tag capacity");
    CHECK(nuri_schwaemm_init(&c, &k, NURI_SCHWAEMM_ENCRYPT, nonce, 16) == 0, "init");
    CHECK(nuri_schwaemm_encrypt_update(&c, buf, sizeof buf, &ol, buf, 40) == 0 && ol == 32, "encrypt_update");
    CHECK(nuri_schwaemm_encrypt_final(&c, buf, sizeof buf, &ol, tag, sizeof tag) == 0 && ol == 8,
          "final (tag_cap larger than the tag)");
    CHECK(nuri_schwaemm_encrypt_final(&c, buf, sizeof buf, &ol, tag, 16) == NURI_ESTATE, "final twice");
    CHECK(nuri_schwaemm_init(&c, &k, NURI_SCHWAEMM_DECRYPT, nonce, 16) == 0, "init");
    CHECK(nuri_schwaemm_decrypt_update(&c, buf, sizeof buf, &ol, buf, 3) == NURI_ESTATE, "decrypt before verify");
    CHECK(nuri_schwaemm_encrypt_update(&c, buf, sizeof buf, &ol, buf, 3) == NURI_ESTATE, "encrypt on decrypt ctx");
    nuri_schwaemm_ctx_wipe(&c);
    nuri_schwaemm_key_wipe(&k);
    nuri_esch_ctx h;
    uint8_t md[48];
    CHECK(nuri_esch_init(&h, (nuri_esch_variant)33, NULL) == NURI_EINVAL, "esch variant");
    CHECK(nuri_esch_init(&h, NURI_ESCH256, "nope") == NURI_ENOTFOUND, "esch unknown impl");
    CHECK(nuri_esch_init(&h, NURI_ESCH256, "ref") == 0 && strcmp(nuri_esch_ctx_impl_name(&h), "ref") == 0,
          "esch impl name");
    CHECK(nuri_esch_digest_bytes(NURI_ESCH256) == NURI_ESCH256_DIGEST_BYTES &&
              nuri_esch_digest_bytes(NURI_ESCH384) == NURI_ESCH384_DIGEST_BYTES &&
              nuri_esch_digest_bytes((nuri_esch_variant)32) == 0,
          "esch digest sizes");
    ol = 5;
    memset(md, 0x55, sizeof md);
    CHECK(nuri_esch_final(&h, md, 31, &ol) == NURI_EBUFFER && ol == 0 && md[0] == 0 && md[30] == 0 && md[31] == 0x55,
          "esch out_cap below the digest: refused, out zeroed");
    CHECK(nuri_esch_init(&h, NURI_ESCH256, NULL) == 0 && nuri_esch_final(&h, md, 48, &ol) == 0 && ol == 32,
          "esch out_cap above the digest: 32 bytes written");
    CHECK(nuri_esch_update(&h, md, 1) == NURI_ESTATE && nuri_esch_final(&h, md, 48, &ol) == NURI_ESTATE,
          "update / final after final");
    CHECK(nuri_esch_ctx_bytes() == sizeof h, "ctx size");
    const uint8_t *mp[1] = {md};
    size_t ml[1] = {1};
    CHECK(nuri_esch_many(&h, md, sizeof md, mp, ml, 1) == NURI_ESTATE, "esch_many with a finished context");
    CHECK(nuri_esch_init(&h, NURI_ESCH384, NULL) == 0 && nuri_esch_many(&h, md, 47, mp, ml, 1) == NURI_EBUFFER,
          "esch_many out_cap");
    /* the permutation context */
    nuri_sparkle_ctx pc = {0};
    uint32_t s[16] = {0};
    CHECK(nuri_sparkle_permute(&pc, s, 6, 7) == NURI_ESTATE, "permute without init");
    CHECK(nuri_sparkle_init(&pc, "nope") == NURI_ENOTFOUND && nuri_sparkle_ctx_impl_name(&pc) == NULL,
          "permute: unknown impl");
    CHECK(nuri_sparkle_init(&pc, "ref") == 0 && strcmp(nuri_sparkle_ctx_impl_name(&pc), "ref") == 0, "permute: ref");
}

/* In place: out == in exactly is allowed (one-shot and batch, both directions) and gives the
 * out-of-place result; out overlapping in partially (shifted by 1..64 bytes either way) is refused
 * with NURI_EINVAL and nothing written, since the lane engine reads each block after earlier
 * output blocks were written. Without the check a forward shift gave a ciphertext whose tag never
 * verifies. The batch forms check each message against its own output. */
static void test_overlap(void)
{
    static uint8_t buf[600], save[600], ref[400], key[32], nonce[32], ad[20];
    for (int v = 0; v < 4; v++) {
        const size_t kl = nuri_schwaemm_key_bytes(v), nl = nuri_schwaemm_nonce_bytes(v),
                     tl = nuri_schwaemm_tag_bytes(v), len = 200;
        size_t rl = 0, ol = 0;
        tu_randbytes(key, kl), tu_randbytes(nonce, nl), tu_randbytes(ad, sizeof ad);
        tu_randbytes(buf, sizeof buf);
        CHECK(seal(v, ref, sizeof ref, &rl, key, kl, nonce, nl, ad, sizeof ad, buf + 100, len, NULL) == 0,
              "variant %d reference", v);
        /* exact aliasing, encrypt and decrypt */
        memcpy(save, buf, sizeof buf);
        int ok = seal(v, buf + 100, len + tl, &ol, key, kl, nonce, nl, ad, sizeof ad, buf + 100, len, NULL) == 0 &&
                 memcmp(buf + 100, ref, rl) == 0;
        ok &= unseal(v, buf + 100, len, &ol, key, kl, nonce, nl, ad, sizeof ad, buf + 100, rl, NULL) == 0 &&
              memcmp(buf + 100, save + 100, len) == 0;
        CHECK(ok, "variant %d: in place (out == in) encrypts and decrypts", v);
        int refused = 1, untouched = 1;
        for (int d = -64; d <= 64; d++) {
            if (d == 0) continue;
            memcpy(buf, save, sizeof buf);
            int rc = seal(v, buf + 100 + d, len + tl, &ol, key, kl, nonce, nl, ad, sizeof ad, buf + 100, len, NULL);
            refused &= rc == NURI_EINVAL && ol == 0;
            untouched &= memcmp(buf, save, sizeof buf) == 0;
            memcpy(buf + 100, ref, rl);
            rc = unseal(v, buf + 100 + d, len, &ol, key, kl, nonce, nl, ad, sizeof ad, buf + 100, rl, NULL);
            refused &= rc == NURI_EINVAL;
        }
        CHECK(refused && untouched, "variant %d: partial overlap (1..64 bytes either way) refused, nothing written", v);
        /* the batch forms: message 1 of 3 overlaps its output, shifted forward by 1..64 */
        refused = 1;
        for (int d = 1; d <= 64; d++) {
            memcpy(buf, save, sizeof buf);
            uint8_t o0[300], o2[300];
            uint8_t *outs[3] = {o0, buf + 100 + d, o2};
            const uint8_t *ins[3] = {save, buf + 100, save + 300}, *nonces[3] = {nonce, nonce, nonce};
            size_t lens[3] = {50, len, 60};
            int st[3];
            refused &= seal_many(v, outs, key, kl, nonces, NULL, NULL, ins, lens, 3, NULL) == NURI_EINVAL &&
                       memcmp(buf, save, sizeof buf) == 0;
            size_t clens[3] = {50 + tl, len + tl, 60 + tl};
            refused &= unseal_many(v, outs, key, kl, nonces, NULL, NULL, ins, clens, st, 3, NULL) == NURI_EINVAL &&
                       st[1] == NURI_EINVAL && memcmp(buf, save, sizeof buf) == 0;
        }
        CHECK(refused, "variant %d: batch with a partially overlapping message refused, nothing written", v);
    }
}

/* Streaming outputs zeroed on error: out (out_cap bytes) and tag filled with a pattern first, and
 * *out_len = 0, for every error of the four output functions; bytes past out_cap untouched. */
static int zeroed(const uint8_t *b, size_t n)
{
    int z = 1;
    for (size_t i = 0; i < n; i++) z &= b[i] == 0;
    return z;
}

#define FILL() (memset(buf, 0xA5, sizeof buf), memset(tag, 0xA5, sizeof tag), ol = 77)
static void test_stream_errors_zero(void)
{
    uint8_t key[32] = {1}, nonce[32] = {2}, msg[64] = {3}, buf[128], tag[32], ct[64 + 16];
    size_t ol;
    nuri_schwaemm_ctx c;
    /* encryption: small buffer, small tag buffer, small final buffer, out of sequence */
    CHECK(sinit(&c, 0, NURI_SCHWAEMM_ENCRYPT, key, 16, nonce, 16, NULL) == 0, "init");
    FILL();
    CHECK(nuri_schwaemm_encrypt_update(&c, buf, 10, &ol, msg, 40) == NURI_EBUFFER && ol == 0 && zeroed(buf, 10) &&
              buf[10] == 0xA5,
          "encrypt_update EBUFFER zeroes out");
    FILL();
    CHECK(nuri_schwaemm_encrypt_update(&c, buf, sizeof buf, &ol, msg, 40) == 0 && ol == 32, "encrypt_update");
    FILL();
    CHECK(nuri_schwaemm_encrypt_final(&c, buf, 20, &ol, tag, 15) == NURI_EBUFFER && ol == 0 && zeroed(buf, 20) &&
              buf[20] == 0xA5 && zeroed(tag, 15) && tag[15] == 0xA5,
          "encrypt_final: a tag_cap below the tag zeroes out and tag");
    FILL();
    CHECK(nuri_schwaemm_encrypt_final(&c, buf, 4, &ol, tag, 16) == NURI_EBUFFER && ol == 0 && zeroed(buf, 4) &&
              buf[4] == 0xA5 && zeroed(tag, 16),
          "encrypt_final EBUFFER zeroes out and tag");
    CHECK(nuri_schwaemm_encrypt_final(&c, ct + 32, 32, &ol, ct + 64, 16) == 0 && ol == 8, "encrypt_final");
    FILL();
    CHECK(nuri_schwaemm_encrypt_final(&c, buf, 30, &ol, tag, 16) == NURI_ESTATE && ol == 0 && zeroed(buf, 30) &&
              zeroed(tag, 16),
          "encrypt_final ESTATE zeroes out and tag");
    FILL();
    CHECK(nuri_schwaemm_encrypt_update(&c, buf, 30, &ol, msg, 3) == NURI_ESTATE && ol == 0 && zeroed(buf, 30),
          "encrypt_update ESTATE zeroes out");
    /* the 40-byte ciphertext of msg[0..40) and its tag */
    CHECK(seal(0, ct, sizeof ct, &ol, key, 16, nonce, 16, NULL, 0, msg, 40, NULL) == 0 && ol == 56, "one-shot encrypt");
    /* decryption */
    CHECK(sinit(&c, 0, NURI_SCHWAEMM_DECRYPT, key, 16, nonce, 16, NULL) == 0, "init");
    FILL();
    CHECK(nuri_schwaemm_decrypt_update(&c, buf, 30, &ol, ct, 40) == NURI_ESTATE && ol == 0 && zeroed(buf, 30),
          "decrypt_update before verify zeroes out");
    FILL();
    CHECK(nuri_schwaemm_decrypt_final(&c, buf, 30, &ol, ct + 40, 16) == NURI_ESTATE && ol == 0 && zeroed(buf, 30),
          "decrypt_final before verify zeroes out");
    FILL();
    CHECK(nuri_schwaemm_encrypt_update(&c, buf, 30, &ol, msg, 3) == NURI_ESTATE && ol == 0 && zeroed(buf, 30),
          "encrypt_update on a decryption context zeroes out");
    CHECK(nuri_schwaemm_verify_update(&c, ct, 40) == 0 && nuri_schwaemm_verify_final(&c, ct + 40, 16) == 0, "verify");
    FILL();
    CHECK(nuri_schwaemm_decrypt_update(&c, buf, 10, &ol, ct, 40) == NURI_EBUFFER && ol == 0 && zeroed(buf, 10) &&
              buf[10] == 0xA5,
          "decrypt_update EBUFFER zeroes out");
    CHECK(nuri_schwaemm_decrypt_update(&c, buf, sizeof buf, &ol, ct, 40) == 0 && ol == 32, "decrypt_update");
    FILL();
    CHECK(nuri_schwaemm_decrypt_final(&c, buf, 20, &ol, ct + 40, 15) == NURI_ELENGTH && ol == 0 && zeroed(buf, 20) &&
              buf[20] == 0xA5,
          "decrypt_final ELENGTH zeroes out");
    FILL();
    CHECK(nuri_schwaemm_decrypt_final(&c, buf, 4, &ol, ct + 40, 16) == NURI_EBUFFER && ol == 0 && zeroed(buf, 4) &&
              buf[4] == 0xA5,
          "decrypt_final EBUFFER zeroes out");
    uint8_t bad[16];
    memcpy(bad, ct + 40, 16);
    bad[0] ^= 1;
    FILL();
    CHECK(nuri_schwaemm_decrypt_final(&c, buf, 30, &ol, bad, 16) == NURI_EAUTH && ol == 0 && zeroed(buf, 30) &&
              buf[30] == 0xA5,
          "decrypt_final EAUTH zeroes out_cap bytes");
    FILL();
    CHECK(nuri_schwaemm_decrypt_final(&c, buf, 30, &ol, ct + 40, 16) == NURI_ESTATE && ol == 0 && zeroed(buf, 30),
          "decrypt_final after final zeroes out");
    nuri_schwaemm_ctx_wipe(&c);
    /* Esch */
    nuri_esch_ctx h;
    FILL();
    CHECK(esch_init(&h, 32, NULL) == 0 && nuri_esch_final(&h, buf, 31, &ol) == NURI_EBUFFER && ol == 0 &&
              zeroed(buf, 31) && buf[31] == 0xA5,
          "esch_final EBUFFER zeroes out");
    CHECK(esch_final(&h, buf, 32) == 0, "esch_final");
    FILL();
    CHECK(nuri_esch_final(&h, buf, 40, &ol) == NURI_ESTATE && ol == 0 && zeroed(buf, 40) && buf[40] == 0xA5,
          "esch_final after final zeroes out");
    const uint8_t *mp[2] = {msg, msg};
    size_t ml[2] = {1, 2};
    FILL();
    CHECK(esch_init(&h, 48, NULL) == 0 && nuri_esch_many(&h, buf, 95, mp, ml, 2) == NURI_EBUFFER && zeroed(buf, 95) &&
              buf[95] == 0xA5,
          "esch_many EBUFFER zeroes out");
    nuri_esch_ctx unset = {0};
    FILL();
    CHECK(nuri_esch_many(&unset, buf, 96, mp, ml, 2) == NURI_ESTATE && zeroed(buf, 96) && buf[96] == 0xA5,
          "esch_many with a context not set up zeroes out");
}
#undef FILL

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_sparkle <tests/vectors/sparkle>\n");
        return 2;
    }
    vector_dir = argv[1];
    printf("seed %llu\n", (unsigned long long)tu_seed_from_env());
    load_impls();
    test_perm_vectors();
    test_perm_differential();
    test_kats();
    test_tamper();
    test_streaming_random();
    test_batch_random();
    test_batch_decrypt();
    test_batch_uniform();
    test_errors();
    test_overlap();
    test_stream_errors_zero();
    return tu_finish("test_sparkle");
}
