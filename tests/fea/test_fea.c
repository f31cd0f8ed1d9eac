/* FEA tests: every vector (the files of tests/vectors/fea, and the same vectors embedded) for every
 * implementation this CPU runs, single and batched (one tweak / one tweak per value); differential
 * tests across implementations on random keys, n, tweaks and values; decrypt(encrypt(x)) = x for
 * every n; tweak/value/argument errors; formatted data (digits, alphabets) checked against an
 * explicit cycle-walk over the binary API, round trips, and format errors.
 * Usage: test_fea <tests/vectors/fea> */
#include <stdlib.h>
#include <string.h>

#include "nuri/fea.h"
#include "fea_vectors.h"
#include "test_util.h"

static size_t n_impls;
static const char *impl_names[16];

static void load_impls(void)
{
    for (size_t i = 0; i < nuri_fea_impl_count(); i++)
        if (nuri_fea_impl_supported(i)) impl_names[n_impls++] = nuri_fea_impl_info(i)->name;
    printf("implementations:");
    for (size_t i = 0; i < n_impls; i++) printf(" %s", impl_names[i]);
    printf(" (default %s)\n", nuri_fea_default_impl());
}

static int hexdig(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* big-endian hex integer (up to 32 digits, may be empty) */
static nuri_fea_u128 hex128(const char *s)
{
    nuri_fea_u128 v = {0, 0};
    for (; *s && hexdig(*s) >= 0; s++) {
        v.hi = (v.hi << 4) | (v.lo >> 60);
        v.lo = (v.lo << 4) | (uint64_t)hexdig(*s);
    }
    return v;
}

static int eq128(nuri_fea_u128 a, nuri_fea_u128 b) { return a.hi == b.hi && a.lo == b.lo; }

static void key_for(nuri_fea_key *k, const uint8_t *key, size_t kl, unsigned variant, unsigned n, const char *impl)
{
    int rc = nuri_fea_key_init(k, key, kl, variant, n, impl);
    if (rc != NURI_OK) {
        fprintf(stderr, "key_init(%s, FEA-%u, n=%u) failed: %s\n", impl ? impl : "default", variant, n,
                nuri_strerror(rc));
        exit(2);
    }
}

#define BATCH 70

static int decimal_kats; /* vectors that are also known answers of the decimal path */

/* A vector with n = bitlen(10^L) (L <= 19) whose PT and CT are both < 10^L is a known answer of
 * the decimal format of L digits: the first encryption lands in the domain, so no cycle-walk. It
 * checks nuri_fea_fmt_encrypt_u64 and the digit parser/formatter against the reference's numbers. */
static void check_decimal_vector(const char *impl, unsigned variant, unsigned n, const uint8_t *key, size_t kl,
                                 nuri_fea_u128 tw, nuri_fea_u128 pt, nuri_fea_u128 ct)
{
    uint64_t dom = 1;
    unsigned L = 0;
    while (L < 19 && nuri_fea_fmt_nbits(10, L) < n) {
        L++;
        dom *= 10;
    }
    if (n > 64 || L < 3 || nuri_fea_fmt_nbits(10, L) != n || pt.hi || ct.hi || pt.lo >= dom || ct.lo >= dom) return;
    nuri_fea_fmt f;
    if (nuri_fea_fmt_init(&f, key, kl, variant, 10, L, NURI_FEA_ALLOW_SMALL_DOMAIN, impl) != 0) {
        CHECK(0, "%s decimal L=%u init", impl, L);
        return;
    }
    uint64_t o = 1, back = 1;
    char s[20], c[20];
    int ok = nuri_fea_fmt_encrypt_u64(&f, &o, &pt.lo, 1, &tw, 1) == 0 && o == ct.lo;
    ok &= nuri_fea_fmt_decrypt_u64(&f, &back, &ct.lo, 1, &tw, 1) == 0 && back == pt.lo;
    ok &= nuri_fea_u64_to_digits(pt.lo, s, L) == 0;
    ok &= nuri_fea_fmt_encrypt_digits(&f, c, s, 1, &tw, 1) == 0;
    ok &= nuri_fea_digits_to_u64(c, L, &o) == 0 && o == ct.lo;
    CHECK(ok, "%s FEA-%u n=%u: decimal known answer (L = %u)", impl, variant, n, L);
    decimal_kats++;
    nuri_fea_fmt_wipe(&f);
}

static void check_vector(const char *impl, unsigned variant, unsigned n, const char *khex, const char *thex,
                         const char *phex, const char *chex)
{
    uint8_t key[32];
    long kl = tu_unhex(key, sizeof key, khex);
    nuri_fea_u128 tw = hex128(thex), pt = hex128(phex), ct = hex128(chex), out;
    nuri_fea_key k;
    key_for(&k, key, (size_t)kl, variant, n, impl);
    CHECK(nuri_fea_encrypt_u128(&k, &out, &pt, 1, &tw, 1) == 0 && eq128(out, ct), "%s FEA-%u/%ld n=%u key %s encrypt",
          impl, variant, kl * 8, n, khex);
    CHECK(nuri_fea_decrypt_u128(&k, &out, &ct, 1, &tw, 1) == 0 && eq128(out, pt), "%s FEA-%u/%ld n=%u key %s decrypt",
          impl, variant, kl * 8, n, khex);
    /* batched: the vector at every position, with one tweak and with a tweak per value */
    nuri_fea_u128 in[BATCH], o[BATCH], tws[BATCH];
    for (int i = 0; i < BATCH; i++) {
        in[i] = pt;
        tws[i] = tw;
    }
    int ok = nuri_fea_encrypt_u128(&k, o, in, BATCH, tws, BATCH) == 0;
    for (int i = 0; i < BATCH; i++) ok &= eq128(o[i], ct);
    ok &= nuri_fea_decrypt_u128(&k, o, o, BATCH, &tw, 1) == 0;
    for (int i = 0; i < BATCH; i++) ok &= eq128(o[i], pt);
    CHECK(ok, "%s FEA-%u n=%u key %s batched", impl, variant, n, khex);
    if (n <= 64) {
        uint64_t v[BATCH];
        for (int i = 0; i < BATCH; i++) v[i] = pt.lo;
        ok = nuri_fea_encrypt_u64(&k, v, v, BATCH, tws, BATCH) == 0;
        for (int i = 0; i < BATCH; i++) ok &= v[i] == ct.lo;
        ok &= nuri_fea_decrypt_u64(&k, v, v, BATCH, &tw, 1) == 0;
        for (int i = 0; i < BATCH; i++) ok &= v[i] == pt.lo;
        CHECK(ok, "%s FEA-%u n=%u key %s u64 batched", impl, variant, n, khex);
    }
    nuri_fea_key_wipe(&k);
    check_decimal_vector(impl, variant, n, key, (size_t)kl, tw, pt, ct);
}

static void test_embedded_vectors(void)
{
    size_t nv = sizeof fea_vectors / sizeof fea_vectors[0];
    for (size_t i = 0; i < n_impls; i++)
        for (size_t v = 0; v < nv; v++) {
            const fea_vector *t = &fea_vectors[v];
            if (i == 0) /* the vector file's key size names the key it gives */
                CHECK(strlen(t->key) * 4 == (size_t)t->key_bits, "vector %zu: key of %zu hex digits for FEA-%d/%d", v,
                      strlen(t->key), t->variant, t->key_bits);
            check_vector(impl_names[i], (unsigned)t->variant, (unsigned)t->n, t->key, t->tweak, t->pt, t->ct);
            /* the tweak split matches the words the KISA API was given (TW0 = T_L, TW1 = T_R) */
            nuri_fea_u128 tw = hex128(t->tweak), w0 = hex128(t->tw0), w1 = hex128(t->tw1);
            unsigned n1 = ((unsigned)t->n + 1) / 2, rbits = 64 - n1;
            if (t->variant == 1 && i == 0) {
                uint64_t tr = rbits ? tw.lo & ((UINT64_C(1) << rbits) - 1) : 0;
                uint64_t tl = rbits ? (tw.lo >> rbits) | (tw.hi << (64 - rbits)) : tw.lo;
                CHECK(tl == w0.lo && tr == w1.lo, "tweak split n=%d", t->n);
            }
        }
    printf("embedded vectors: %zu x %zu implementations\n", nv, n_impls);
}

static void test_vector_files(const char *dir)
{
    static const char *files[] = {"fea1_128.txt", "fea1_192.txt", "fea1_256.txt",
                                  "fea2_128.txt", "fea2_192.txt", "fea2_256.txt"};
    for (int f = 0; f < 6; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        tu_set_begin();
        unsigned long count = 0;
        tu_kv kv;
        if (tu_kv_open(&kv, path) != 0) {
            CHECK(0, "cannot open %s", path);
        } else {
            unsigned variant = (unsigned)(files[f][3] - '0');
            while (tu_kv_next(&kv)) {
                const char *k = tu_kv_get(&kv, "KEY"), *n = tu_kv_get(&kv, "n"), *t = tu_kv_get(&kv, "TWEAK");
                const char *p = tu_kv_get(&kv, "PT"), *c = tu_kv_get(&kv, "CT");
                if (!k || !n || !p || !c) continue;
                for (size_t i = 0; i < n_impls; i++)
                    check_vector(impl_names[i], variant, (unsigned)atoi(n), k, t ? t : "", p, c);
                count++;
            }
            tu_kv_close(&kv);
        }
        tu_set_end("test_fea", files[f], count, 28);
    }
}

static nuri_fea_u128 rand_bits(unsigned bits)
{
    nuri_fea_u128 v = {tu_rand64(), tu_rand64()};
    if (bits == 0) {
        v.hi = v.lo = 0;
    } else if (bits <= 64) {
        v.hi = 0;
        v.lo = bits == 64 ? v.lo : v.lo & ((UINT64_C(1) << bits) - 1);
    } else if (bits < 128) v.hi &= (UINT64_C(1) << (bits - 64)) - 1;
    return v;
}

/* random keys, variants, key sizes, n, per-value tweaks and values: every implementation agrees
 * with the first one; then decrypt(encrypt(x)) = x for every n */
static void test_differential(void)
{
    enum { CNT = 150 };
    static const size_t kls[3] = {16, 24, 32};
    nuri_fea_u128 in[CNT], tw[CNT], ref[CNT], o[CNT], back[CNT];
    int mism = 0, rt = 0, runs = 0;
    for (unsigned n = 8; n <= 128; n++) {
        unsigned variant = 1 + (n & 1);
        for (int rep = 0; rep < 2; rep++, variant = 3 - variant) {
            uint8_t key[32];
            tu_randbytes(key, sizeof key);
            size_t kl = kls[tu_rand64() % 3];
            unsigned tbits = variant == 1 ? 128 - n : 128;
            size_t cnt = 1 + tu_rand64() % CNT;
            for (size_t i = 0; i < cnt; i++) {
                in[i] = rand_bits(n);
                tw[i] = rand_bits(tbits);
            }
            for (size_t ii = 0; ii < n_impls; ii++) {
                nuri_fea_key k;
                key_for(&k, key, kl, variant, n, impl_names[ii]);
                if (nuri_fea_encrypt_u128(&k, o, in, cnt, tw, cnt) != 0) mism++;
                if (ii == 0) memcpy(ref, o, cnt * sizeof o[0]);
                for (size_t i = 0; i < cnt; i++) mism += !eq128(o[i], ref[i]);
                if (nuri_fea_decrypt_u128(&k, back, o, cnt, tw, cnt) != 0) rt++;
                for (size_t i = 0; i < cnt; i++) rt += !eq128(back[i], in[i]);
                /* the single-tweak path equals the per-value path with equal tweaks */
                nuri_fea_u128 one[3];
                if (cnt >= 3) {
                    nuri_fea_u128 t3[3] = {tw[0], tw[0], tw[0]};
                    nuri_fea_u128 o3[3];
                    if (nuri_fea_encrypt_u128(&k, one, in, 3, &tw[0], 1) != 0) mism++;
                    if (nuri_fea_encrypt_u128(&k, o3, in, 3, t3, 3) != 0) mism++;
                    for (int i = 0; i < 3; i++) mism += !eq128(one[i], o3[i]);
                    mism += !eq128(one[0], ref[0]);
                }
                if (n <= 64) { /* the u64 API agrees with the u128 one */
                    uint64_t v[CNT];
                    for (size_t i = 0; i < cnt; i++) v[i] = in[i].lo;
                    if (nuri_fea_encrypt_u64(&k, v, v, cnt, tw, cnt) != 0) mism++;
                    for (size_t i = 0; i < cnt; i++) mism += v[i] != ref[i].lo || ref[i].hi != 0;
                }
                nuri_fea_key_wipe(&k);
                runs++;
            }
        }
    }
    CHECK(mism == 0, "differential: %d mismatches across implementations", mism);
    CHECK(rt == 0, "round trip: %d failures", rt);
    printf("differential + round trip: n = 8..128, %d runs\n", runs);
}

static void test_errors(void)
{
    uint8_t key[32] = {1, 2, 3};
    nuri_fea_key k;
    CHECK(nuri_fea_key_init(&k, key, 20, 1, 64, NULL) == NURI_ELENGTH, "key length 20");
    CHECK(nuri_fea_key_init(&k, key, 16, 3, 64, NULL) == NURI_EINVAL, "variant 3");
    CHECK(nuri_fea_key_init(&k, key, 16, 1, 7, NULL) == NURI_EINVAL, "n = 7");
    CHECK(nuri_fea_key_init(&k, key, 16, 1, 129, NULL) == NURI_EINVAL, "n = 129");
    CHECK(nuri_fea_key_init(&k, key, 16, 1, 64, "nosuch") == NURI_ENOTFOUND, "unknown impl");
    /* former names (src/common/dispatch.c) select the renamed implementations */
    static const char *const renamed[2][2] = {{"vaes", "avx2-vaes"}, {"gfni", "avx512-gfni"}};
    for (int r = 0; r < 2; r++) {
        int rc_new = nuri_fea_key_init(&k, key, 16, 1, 64, renamed[r][1]);
        int rc_old = nuri_fea_key_init(&k, key, 16, 1, 64, renamed[r][0]);
        CHECK(rc_old == rc_new && (rc_old != 0 || strcmp(nuri_fea_key_impl_name(&k), renamed[r][1]) == 0),
              "former name %s -> %s (rc %d, %d)", renamed[r][0], renamed[r][1], rc_old, rc_new);
    }
    for (unsigned n = 8; n <= 128; n++) {
        key_for(&k, key, 16, 1, n, NULL);
        CHECK(nuri_fea_tweak_bits(&k) == 128 - n, "tweak bits n=%u", n);
        nuri_fea_u128 x = {0, 5}, o = {7, 7};
        nuri_fea_u128 lim = {0, 0}, max; /* 2^(128-n) and 2^(128-n) - 1 */
        unsigned tb = 128 - n;
        if (tb >= 64) lim.hi = UINT64_C(1) << (tb - 64);
        else lim.lo = UINT64_C(1) << tb;
        max = lim;
        if (max.lo == 0) {
            max.hi--;
            max.lo = ~UINT64_C(0);
        } else max.lo--;
        CHECK(nuri_fea_encrypt_u128(&k, &o, &x, 1, &max, 1) == 0, "n=%u max tweak accepted", n);
        o.hi = o.lo = 7;
        CHECK(nuri_fea_encrypt_u128(&k, &o, &x, 1, &lim, 1) == NURI_EINVAL && o.hi == 0 && o.lo == 0,
              "n=%u tweak 2^(128-n) refused, output zeroed", n);
        nuri_fea_u128 two[2] = {max, lim}, xs[2] = {x, x}, os[2];
        CHECK(nuri_fea_encrypt_u128(&k, os, xs, 2, two, 2) == NURI_EINVAL, "n=%u per-value tweak out of range", n);
        if (n < 128) {
            nuri_fea_u128 big = {0, 0};
            if (n >= 64) big.hi = UINT64_C(1) << (n - 64);
            else big.lo = UINT64_C(1) << n;
            CHECK(nuri_fea_encrypt_u128(&k, &o, &big, 1, NULL, 0) == NURI_EDOMAIN, "n=%u value 2^n refused", n);
        }
        if (n <= 64) {
            uint64_t v = n < 64 ? UINT64_C(1) << n : 0, ov = 9;
            if (n < 64)
                CHECK(nuri_fea_encrypt_u64(&k, &ov, &v, 1, NULL, 0) == NURI_EDOMAIN && ov == 0, "u64 n=%u 2^n", n);
        } else {
            uint64_t v = 1, ov = 9;
            CHECK(nuri_fea_encrypt_u64(&k, &ov, &v, 1, NULL, 0) == NURI_EINVAL && ov == 0, "u64 API with n=%u", n);
        }
        CHECK(nuri_fea_encrypt_u128(&k, os, xs, 2, two, 3) == NURI_EINVAL, "ntweaks 3 for 2 values");
        CHECK(nuri_fea_encrypt_u128(&k, os, xs, 2, NULL, 1) == NURI_EINVAL, "NULL tweaks with ntweaks 1");
        nuri_fea_key_wipe(&k);
    }
    /* FEA-2 accepts every 128-bit tweak */
    key_for(&k, key, 32, 2, 54, NULL);
    nuri_fea_u128 all = {~UINT64_C(0), ~UINT64_C(0)}, x = {0, 1}, o;
    CHECK(nuri_fea_tweak_bits(&k) == 128 && nuri_fea_encrypt_u128(&k, &o, &x, 1, &all, 1) == 0, "FEA-2 tweak 2^128-1");
    nuri_fea_key_wipe(&k);
}

/* ---- formatted data ---- */

/* cycle-walk by hand over the binary API */
static nuri_fea_u128 walk_ref(const nuri_fea_key *k, nuri_fea_u128 x, nuri_fea_u128 dom, const nuri_fea_u128 *tw,
                              int dec)
{
    do {
        int rc = dec ? nuri_fea_decrypt_u128(k, &x, &x, 1, tw, 1) : nuri_fea_encrypt_u128(k, &x, &x, 1, tw, 1);
        if (rc) break;
    } while (x.hi > dom.hi || (x.hi == dom.hi && x.lo >= dom.lo));
    return x;
}

static nuri_fea_u128 digits_value(const char *s, size_t L)
{
    nuri_fea_u128 v = {0, 0};
    for (size_t i = 0; i < L; i++) { /* v = v * 10 + d via shifts: 10v = 8v + 2v */
        nuri_fea_u128 a = {(v.hi << 3) | (v.lo >> 61), v.lo << 3}, b = {(v.hi << 1) | (v.lo >> 63), v.lo << 1};
        uint64_t lo = a.lo + b.lo;
        v.hi = a.hi + b.hi + (lo < a.lo);
        v.lo = lo + (uint64_t)(s[i] - '0');
        if (v.lo < lo) v.hi++;
    }
    return v;
}

static void test_digits(void)
{
    enum { CNT = 300 };
    static char in[CNT * 38], out[CNT * 38], back[CNT * 38];
    static nuri_fea_u128 tws[CNT];
    int bad = 0, runs = 0;
    for (size_t ii = 0; ii < n_impls; ii++) {
        for (unsigned L = 3; L <= 38; L++) {
            uint8_t key[32];
            tu_randbytes(key, sizeof key);
            unsigned variant = 1 + (L & 1);
            size_t kl = 16 + 8 * (L % 3);
            nuri_fea_fmt f;
            int rc = nuri_fea_fmt_init(&f, key, kl, variant, 10, L, NURI_FEA_ALLOW_SMALL_DOMAIN, impl_names[ii]);
            CHECK(rc == 0, "fmt_init L=%u", L);
            if (rc) continue;
            size_t cnt = ii == 0 ? CNT : 40;
            unsigned tb = nuri_fea_tweak_bits(&f.key);
            for (size_t i = 0; i < cnt * L; i++) in[i] = (char)('0' + tu_rand64() % 10);
            if (cnt > 1) memset(in, '0', L); /* leading zeros are digits */
            for (size_t i = 0; i < cnt; i++) tws[i] = rand_bits(tb);
            bad += nuri_fea_fmt_encrypt_digits(&f, out, in, cnt, tws, cnt) != 0;
            bad += nuri_fea_fmt_decrypt_digits(&f, back, out, cnt, tws, cnt) != 0;
            bad += memcmp(back, in, cnt * L) != 0;
            for (size_t i = 0; i < cnt * L; i++) bad += out[i] < '0' || out[i] > '9';
            /* each output equals the hand-made cycle-walk over the binary API */
            nuri_fea_u128 dom = f.domain;
            for (size_t i = 0; i < cnt; i += 7) {
                nuri_fea_u128 x = digits_value(in + i * L, L), y = walk_ref(&f.key, x, dom, &tws[i], 0);
                bad += !eq128(y, digits_value(out + i * L, L));
                bad += !eq128(walk_ref(&f.key, y, dom, &tws[i], 1), x);
            }
            /* one tweak for all equals per-value equal tweaks */
            char o1[3 * 38], o2[3 * 38];
            nuri_fea_u128 t3[3] = {tws[0], tws[0], tws[0]};
            bad += nuri_fea_fmt_encrypt_digits(&f, o1, in, 3, &tws[0], 1) != 0;
            bad += nuri_fea_fmt_encrypt_digits(&f, o2, in, 3, t3, 3) != 0;
            bad += memcmp(o1, o2, 3 * L) != 0;
            nuri_fea_fmt_wipe(&f);
            runs++;
        }
    }
    CHECK(bad == 0, "digits: %d failures", bad);
    printf("digits: L = 3..38 x %zu implementations (%d runs)\n", n_impls, runs);
}

/* nuri_fea_digits_to_u64 / nuri_fea_u64_to_digits against digits_value, on exact-size heap
 * buffers (ASan builds catch a read past the value), every non-digit byte at every position. */
static void test_digit_words(void)
{
    int bad = 0;
    for (unsigned L = 1; L <= 19; L++) {
        char *s = malloc(L), t[19];
        if (!s) exit(2);
        for (int run = 0; run < 600; run++) {
            for (unsigned i = 0; i < L; i++) s[i] = (char)('0' + tu_rand64() % 10);
            if (run == 0) memset(s, '0', L);
            if (run == 1) memset(s, '9', L);
            if (run == 2) s[0] = '0'; /* leading zero */
            uint64_t x = 7;
            bad += nuri_fea_digits_to_u64(s, L, &x) != 0;
            nuri_fea_u128 ref = digits_value(s, L);
            bad += ref.hi != 0 || x != ref.lo;
            bad += nuri_fea_u64_to_digits(x, t, L) != 0 || memcmp(t, s, L) != 0;
        }
        for (unsigned pos = 0; pos < L; pos++)
            for (int c = 0; c < 256; c++) {
                if (c >= '0' && c <= '9') continue;
                for (unsigned i = 0; i < L; i++) s[i] = (char)('0' + tu_rand64() % 10);
                s[pos] = (char)c;
                uint64_t x = 7;
                bad += nuri_fea_digits_to_u64(s, L, &x) != NURI_EDOMAIN || x != 0;
            }
        free(s);
    }
    uint64_t x = 7;
    char t[20];
    bad += nuri_fea_digits_to_u64("123", 0, &x) != NURI_EINVAL || x != 0;
    bad += nuri_fea_digits_to_u64("12345678901234567890", 20, &x) != NURI_EINVAL || x != 0;
    bad += nuri_fea_u64_to_digits(1, t, 0) != NURI_EINVAL || nuri_fea_u64_to_digits(1, t, 20) != NURI_EINVAL;
    bad += nuri_fea_u64_to_digits(UINT64_MAX, t, 19) != 0 || memcmp(t, "8446744073709551615", 19) != 0; /* mod 10^19 */
    bad += nuri_fea_u64_to_digits(1234567, t, 3) != 0 || memcmp(t, "567", 3) != 0;
    CHECK(bad == 0, "digit words: %d failures", bad);
    printf("digit words: L = 1..19, every non-digit byte at every position\n");
}

/* The u64 integer form against the u128 one and the digits form: L = 3..19, values from 0 to
 * 10^L - 1, no / one / per-value tweaks, in place and not, batches across blocks, every
 * implementation; domain and width errors. */
static void test_fmt_u64(void)
{
    enum { CNT = 300 };
    static uint64_t in[CNT], o64[CNT], back[CNT];
    static nuri_fea_u128 w[CNT], o128[CNT], tws[CNT];
    static char din[CNT * 19], dout[CNT * 19];
    int bad = 0, runs = 0;
    for (size_t ii = 0; ii < n_impls; ii++)
        for (unsigned L = 3; L <= 19; L++) {
            uint8_t key[32];
            tu_randbytes(key, sizeof key);
            unsigned variant = 1 + (L & 1);
            size_t kl = 16 + 8 * (L % 3), cnt = ii == 0 ? CNT : 37;
            nuri_fea_fmt f;
            if (nuri_fea_fmt_init(&f, key, kl, variant, 10, L, NURI_FEA_ALLOW_SMALL_DOMAIN, impl_names[ii]) != 0) {
                bad++;
                continue;
            }
            uint64_t dom = f.domain.lo;
            for (size_t i = 0; i < cnt; i++) {
                in[i] = i == 0 ? 0 : i == 1 ? dom - 1 : tu_rand64() % dom;
                w[i] = (nuri_fea_u128){0, in[i]};
                tws[i] = rand_bits(nuri_fea_tweak_bits(&f.key));
                bad += nuri_fea_u64_to_digits(in[i], din + i * L, L) != 0;
            }
            for (int mode = 0; mode < 3; mode++) { /* no tweak, one, one per value */
                const nuri_fea_u128 *tw = mode ? tws : NULL;
                size_t ntw = mode == 0 ? 0 : mode == 1 ? 1 : cnt;
                bad += nuri_fea_fmt_encrypt_u64(&f, o64, in, cnt, tw, ntw) != 0;
                bad += nuri_fea_fmt_encrypt_u128(&f, o128, w, cnt, tw, ntw) != 0;
                bad += nuri_fea_fmt_encrypt_digits(&f, dout, din, cnt, tw, ntw) != 0;
                for (size_t i = 0; i < cnt; i++) {
                    uint64_t d = 0;
                    bad += o128[i].hi != 0 || o64[i] != o128[i].lo || o64[i] >= dom;
                    bad += nuri_fea_digits_to_u64(dout + i * L, L, &d) != 0 || d != o64[i];
                }
                memcpy(back, o64, cnt * sizeof back[0]); /* in place */
                bad += nuri_fea_fmt_decrypt_u64(&f, back, back, cnt, tw, ntw) != 0;
                bad += memcmp(back, in, cnt * sizeof in[0]) != 0;
            }
            uint64_t big = dom, z = 5;
            bad += nuri_fea_fmt_encrypt_u64(&f, &z, &big, 1, NULL, 0) != NURI_EDOMAIN || z != 0;
            nuri_fea_fmt_wipe(&f);
            runs++;
        }
    { /* more values than the digit form parses at a time (4 blocks), tweaks per value: the walk
       * carries values across passes, and both forms must agree however they chunk */
        enum { BIG = 2500 };
        static uint64_t bu[BIG], bo[BIG];
        static char bd[BIG * 16], bdo[BIG * 16];
        static nuri_fea_u128 btw[BIG];
        uint8_t k16[16];
        tu_randbytes(k16, sizeof k16);
        nuri_fea_fmt f;
        bad += nuri_fea_fmt_init(&f, k16, 16, 1, 10, 16, 0, NULL) != 0;
        for (size_t i = 0; i < BIG; i++) {
            bu[i] = tu_rand64() % f.domain.lo;
            btw[i] = rand_bits(nuri_fea_tweak_bits(&f.key));
            bad += nuri_fea_u64_to_digits(bu[i], bd + i * 16, 16) != 0;
        }
        bad += nuri_fea_fmt_encrypt_u64(&f, bo, bu, BIG, btw, BIG) != 0;
        bad += nuri_fea_fmt_encrypt_digits(&f, bdo, bd, BIG, btw, BIG) != 0;
        for (size_t i = 0; i < BIG; i += 1) {
            uint64_t d = 0;
            bad += nuri_fea_digits_to_u64(bdo + i * 16, 16, &d) != 0 || d != bo[i];
        }
        for (size_t i = 0; i < BIG; i += 97) /* against the walk by hand */
            bad += !eq128(walk_ref(&f.key, (nuri_fea_u128){0, bu[i]}, f.domain, &btw[i], 0), (nuri_fea_u128){0, bo[i]});
        bad += nuri_fea_fmt_decrypt_digits(&f, bdo, bdo, BIG, btw, BIG) != 0 || memcmp(bdo, bd, sizeof bd) != 0;
        nuri_fea_fmt_wipe(&f);
    }
    uint8_t key[16] = {1};
    nuri_fea_fmt f;
    uint64_t v = 1, o = 5;
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 10, 20, 0, NULL) == 0 && f.key.n == 67, "20 digits: n = 67");
    bad += nuri_fea_fmt_encrypt_u64(&f, &o, &v, 1, NULL, 0) != NURI_EINVAL || o != 0; /* n > 64 */
    nuri_fea_fmt_wipe(&f);
    CHECK(bad == 0, "fmt u64: %d failures", bad);
    printf("fmt u64: L = 3..19 x %zu implementations (%d runs) equal to the u128 and digits forms\n", n_impls, runs);
}

static void test_radix(void)
{
    static const struct {
        unsigned radix, len;
    } cases[] = {{2, 8},  {2, 127},  {10, 16},   {10, 30},   {16, 16},   {36, 10}, {62, 8},
                 {26, 5}, {256, 15}, {11172, 4}, {65535, 3}, {65536, 7}, {3, 80}};
    int bad = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned r = cases[c].radix, L = cases[c].len;
        uint8_t key[16];
        tu_randbytes(key, sizeof key);
        nuri_fea_fmt f;
        if (nuri_fea_fmt_init(&f, key, 16, 1, r, L, NURI_FEA_ALLOW_SMALL_DOMAIN, NULL) != 0) {
            CHECK(0, "radix %u len %u init", r, L);
            continue;
        }
        enum { CNT = 64 };
        uint16_t in[CNT * 128], out[CNT * 128], back[CNT * 128];
        for (size_t i = 0; i < CNT * L; i++) in[i] = (uint16_t)(tu_rand64() % r);
        nuri_fea_u128 tw = rand_bits(nuri_fea_tweak_bits(&f.key));
        bad += nuri_fea_fmt_encrypt(&f, out, in, CNT, &tw, 1) != 0;
        for (size_t i = 0; i < CNT * L; i++) bad += out[i] >= r;
        bad += nuri_fea_fmt_decrypt(&f, back, out, CNT, &tw, 1) != 0;
        bad += memcmp(back, in, CNT * L * sizeof in[0]) != 0;
        for (size_t i = 0; i < CNT; i++) { /* against the walk on integers */
            nuri_fea_u128 x = {0, 0}, y = {0, 0};
            for (size_t j = 0; j < L; j++) {
                /* x = x*r + d with r <= 65536: 32-bit limbs */
                uint64_t l0 = (x.lo & 0xFFFFFFFFu) * r + in[i * L + j], l1 = (x.lo >> 32) * r + (l0 >> 32);
                uint64_t h0 = (x.hi & 0xFFFFFFFFu) * r + (l1 >> 32), h1 = (x.hi >> 32) * r + (h0 >> 32);
                x.lo = (l0 & 0xFFFFFFFFu) | (l1 << 32);
                x.hi = (h0 & 0xFFFFFFFFu) | (h1 << 32);
                l0 = (y.lo & 0xFFFFFFFFu) * r + out[i * L + j];
                l1 = (y.lo >> 32) * r + (l0 >> 32);
                h0 = (y.hi & 0xFFFFFFFFu) * r + (l1 >> 32);
                h1 = (y.hi >> 32) * r + (h0 >> 32);
                y.lo = (l0 & 0xFFFFFFFFu) | (l1 << 32);
                y.hi = (h0 & 0xFFFFFFFFu) | (h1 << 32);
            }
            bad += !eq128(walk_ref(&f.key, x, f.domain, &tw, 0), y);
        }
        uint16_t bad_in[128] = {0};
        bad_in[L - 1] = (uint16_t)(r == 65536 ? 0 : r); /* symbol == radix */
        if (r < 65536) bad += nuri_fea_fmt_encrypt(&f, out, bad_in, 1, NULL, 0) != NURI_EDOMAIN;
        nuri_fea_fmt_wipe(&f);
    }
    CHECK(bad == 0, "radix: %d failures", bad);
}

static void test_format_errors(void)
{
    uint8_t key[16] = {0};
    nuri_fea_fmt f;
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 10, 2, NURI_FEA_ALLOW_SMALL_DOMAIN, NULL) == NURI_EDOMAIN, "100 < 2^8");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 2, 7, NURI_FEA_ALLOW_SMALL_DOMAIN, NULL) == NURI_EDOMAIN, "2^7 < 2^8");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 2, 8, NURI_FEA_ALLOW_SMALL_DOMAIN, NULL) == 0 && f.key.n == 9,
          "2^8: n = 9");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 10, 5, 0, NULL) == NURI_EDOMAIN, "10^5 without opt-in");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 10, 5, NURI_FEA_ALLOW_SMALL_DOMAIN, NULL) == 0, "10^5 with opt-in");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 10, 6, 0, NULL) == 0 && f.key.n == 20, "10^6: n = 20");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 10, 16, 0, NULL) == 0 && f.key.n == 54, "16 digits: n = 54");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 10, 38, 0, NULL) == 0 && f.key.n == 127, "38 digits: n = 127");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 10, 39, 0, NULL) == NURI_EDOMAIN, "39 digits too long");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 1, 300, 0, NULL) == NURI_EDOMAIN, "radix 1");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 65537, 3, 0, NULL) == NURI_EDOMAIN, "radix 65537");
    CHECK(nuri_fea_fmt_nbits(10, 16) == 54 && nuri_fea_fmt_nbits(10, 39) == 0 && nuri_fea_fmt_nbits(2, 127) == 128 &&
              nuri_fea_fmt_nbits(256, 16) == 0,
          "fmt_nbits");
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 10, 16, 0, NULL) == 0, "init");
    char out[32] = "xxxxxxxxxxxxxxxx";
    CHECK(nuri_fea_fmt_encrypt_digits(&f, out, "12345678901234a6", 1, NULL, 0) == NURI_EDOMAIN && out[0] == 0,
          "non-digit refused, output zeroed");
    nuri_fea_u128 tw = {0, 0};
    tw.hi = UINT64_C(1) << (128 - 54 - 64); /* 2^74: FEA-1 with n = 54 allows 74 bits */
    CHECK(nuri_fea_fmt_encrypt_digits(&f, out, "1234567890123456", 1, &tw, 1) == NURI_EINVAL, "digits tweak range");
    tw.hi--;
    tw.lo = ~UINT64_C(0);
    CHECK(nuri_fea_fmt_encrypt_digits(&f, out, "1234567890123456", 1, &tw, 1) == 0, "digits max tweak");
    nuri_fea_u128 big = f.domain, o;
    CHECK(nuri_fea_fmt_encrypt_u128(&f, &o, &big, 1, NULL, 0) == NURI_EDOMAIN, "value 10^16 refused");
    nuri_fea_fmt_wipe(&f);
    CHECK(nuri_fea_fmt_init(&f, key, 16, 1, 16, 16, 0, NULL) == 0, "hex init");
    CHECK(nuri_fea_fmt_encrypt_digits(&f, out, "1234567890123456", 1, NULL, 0) == NURI_EINVAL, "digits need radix 10");
    nuri_fea_fmt_wipe(&f);
}

/* In place: out == in is allowed (a whole batch, several chunks long); out overlapping in
 * otherwise (shifted by 1..70 values either way) is refused with NURI_EINVAL and nothing written:
 * the batch is read and written a chunk at a time, so a forward shift overwrote values not yet read. */
static void test_overlap(void)
{
    static uint64_t buf[1200], save[1200], ref[1000];
    static nuri_fea_u128 wbuf[1200], wsave[1200];
    uint8_t key[16] = {1, 2, 3};
    nuri_fea_key k;
    key_for(&k, key, 16, 1, 48, NULL);
    for (size_t i = 0; i < 1200; i++) {
        save[i] = tu_rand64() >> 16;
        wsave[i] = (nuri_fea_u128){0, save[i]};
    }
    CHECK(nuri_fea_encrypt_u64(&k, ref, save + 100, 1000, NULL, 0) == 0, "reference");
    memcpy(buf, save, sizeof buf);
    CHECK(nuri_fea_encrypt_u64(&k, buf + 100, buf + 100, 1000, NULL, 0) == 0 && memcmp(buf + 100, ref, sizeof ref) == 0,
          "in place (out == in) encrypts");
    CHECK(nuri_fea_decrypt_u64(&k, buf + 100, buf + 100, 1000, NULL, 0) == 0 &&
              memcmp(buf + 100, save + 100, sizeof ref) == 0,
          "in place (out == in) decrypts");
    int refused = 1;
    for (int d = -70; d <= 70; d++) {
        if (d == 0) continue;
        memcpy(buf, save, sizeof buf);
        memcpy(wbuf, wsave, sizeof wbuf);
        refused &= nuri_fea_encrypt_u64(&k, buf + 100 + d, buf + 100, 1000, NULL, 0) == NURI_EINVAL;
        refused &= nuri_fea_decrypt_u64(&k, buf + 100 + d, buf + 100, 1000, NULL, 0) == NURI_EINVAL;
        refused &= nuri_fea_encrypt_u128(&k, wbuf + 100 + d, wbuf + 100, 1000, NULL, 0) == NURI_EINVAL;
        refused &= nuri_fea_decrypt_u128(&k, wbuf + 100 + d, wbuf + 100, 1000, NULL, 0) == NURI_EINVAL;
        refused &= memcmp(buf, save, sizeof buf) == 0 && memcmp(wbuf, wsave, sizeof wbuf) == 0;
    }
    CHECK(refused, "partial overlap refused, nothing written");
    nuri_fea_key_wipe(&k);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_fea <tests/vectors/fea>\n");
        return 2;
    }
    printf("seed %llu\n", (unsigned long long)tu_seed_from_env());
    load_impls();
    test_embedded_vectors();
    test_vector_files(argv[1]);
    test_differential();
    test_errors();
    test_overlap();
    test_digits();
    test_digit_words();
    test_fmt_u64();
    printf("decimal known answers from the vectors: %d\n", decimal_kats);
    CHECK(decimal_kats > 0, "some vectors are decimal known answers");
    test_radix();
    test_format_errors();
    return tu_finish("test_fea");
}
