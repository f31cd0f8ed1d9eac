/* FEA on the 32-bit targets (rv32 virt, Cortex-M3/M4): every registered implementation runs all
 * embedded known-answer vectors of tests/fea/fea_vectors.h (FEA-1 and FEA-2, 128/192/256-bit keys,
 * n = 8..128), encrypting and decrypting, one value and a batch of 5 with per-value tweaks. */
#include "cross_support.h"
#include "fea_vectors.h"
#include "nuri/fea.h"

static int hexdig(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
static nuri_fea_u128 hex128(const char *s)
{
    nuri_fea_u128 v = {0, 0};
    for (; *s && hexdig(*s) >= 0; s++) {
        v.hi = (v.hi << 4) | (v.lo >> 60);
        v.lo = (v.lo << 4) | (uint64_t)hexdig(*s);
    }
    return v;
}
static size_t unhex(uint8_t *out, const char *s)
{
    size_t n = 0;
    for (; s[0] && s[1]; s += 2) out[n++] = (uint8_t)(hexdig(s[0]) << 4 | hexdig(s[1]));
    return n;
}
static int eq(nuri_fea_u128 a, nuri_fea_u128 b) { return a.hi == b.hi && a.lo == b.lo; }

int cross_main(void)
{
    size_t nv = sizeof fea_vectors / sizeof fea_vectors[0];
    cross_printf("implementations:");
    for (size_t i = 0; i < nuri_fea_impl_count(); i++)
        if (nuri_fea_impl_supported(i)) printf(" %s", nuri_fea_impl_info(i)->name);
    cross_printf("\n");
    for (size_t i = 0; i < nuri_fea_impl_count(); i++) {
        if (!nuri_fea_impl_supported(i)) continue;
        const char *impl = nuri_fea_impl_info(i)->name;
        int ok = 1;
        for (size_t v = 0; v < nv; v++) {
            const fea_vector *t = &fea_vectors[v];
            uint8_t key[32];
            size_t kl = unhex(key, t->key);
            nuri_fea_key k;
            int rc = nuri_fea_key_init(&k, key, kl, (unsigned)t->variant, (unsigned)t->n, impl);
            if (rc != 0) { ok = 0; XCHECK(0, "%s: key_init vector %u rc %d", impl, (unsigned)v, rc); continue; }
            nuri_fea_u128 tw[5], pt[5], ct[5], got[5];
            for (int j = 0; j < 5; j++) { tw[j] = hex128(t->tweak); pt[j] = hex128(t->pt); }
            nuri_fea_u128 want = hex128(t->ct);
            rc = nuri_fea_encrypt_u128(&k, ct, pt, 5, tw, 5);
            int good = rc == 0;
            for (int j = 0; j < 5; j++) good &= eq(ct[j], want);
            rc = nuri_fea_decrypt_u128(&k, got, ct, 5, tw, 5);
            good &= rc == 0;
            for (int j = 0; j < 5; j++) good &= eq(got[j], pt[0]);
            XCHECK(good, "%s: FEA-%d-%d n=%d vector %u", impl, t->variant, t->key_bits, t->n, (unsigned)v);
            ok &= good;
            nuri_fea_key_wipe(&k);
        }
        cross_printf("%s: %u vectors %s\n", impl, (unsigned)nv, ok ? "ok" : "FAILED");
    }
    return cross_finish("test_fea_kat");
}
