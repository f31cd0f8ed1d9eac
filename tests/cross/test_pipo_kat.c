/* PIPO on the small targets (rv32, Cortex-M, AVR): every registered implementation runs the
 * known-answer vectors (ECB, both key sizes, encrypt and decrypt), the per-round traces, the
 * S-box table, batches of every length up to NB blocks against ref, and ECB/CBC/CTR through the
 * mode layer against a model composed from single-block ref calls. Vectors come from
 * tests/pipo/pipo_vectors.h (binary form, in flash on AVR). RAM stays well under 2 KiB. */
#include "cross_support.h"
#include "nuri/pipo.h"
#include "pipo_kat_bin.h"

#ifdef __AVR__
#define NB     9  /* blocks in the batch tests */
#define MAXMSG 40 /* bytes in the mode tests */
#else
#define NB     72
#define MAXMSG 600
#endif

static uint8_t a[NB * 8], b[NB * 8], c[NB * 8];
static uint8_t msg[MAXMSG], out1[MAXMSG + 8], out2[MAXMSG + 8];

static int key_for(nuri_pipo_key *k, const uint8_t *key, size_t len, const char *impl)
{
    int rc = nuri_pipo_key_init(k, key, len, impl);
    XCHECK(rc == NURI_OK, "key_init %s rc %d", impl, rc);
    return rc;
}

static void test_kat(const char *impl)
{
    uint8_t v[48];
    for (int kb = 0; kb < 2; kb++) {
        size_t kl = kb ? 32 : 16, nv = kb ? sizeof kat_64_256_ecb / sizeof kat_64_256_ecb[0]
                                          : sizeof kat_64_128_ecb / sizeof kat_64_128_ecb[0];
        for (size_t i = 0; i < nv; i++) {
            if (kb) CROSS_READ(v, kat_64_256_ecb[i], 48);
            else CROSS_READ(v, kat_64_128_ecb[i], 32);
            const uint8_t *pt = v + kl, *ct = v + kl + 8;
            nuri_pipo_key k;
            if (key_for(&k, v, kl, impl)) return;
            nuri_pipo_encrypt_blocks(&k, a, pt, 1);
            XCHECK(memcmp(a, ct, 8) == 0, "%s: KAT %u/%u encrypt", impl, (unsigned)kl * 8, (unsigned)i);
            nuri_pipo_decrypt_blocks(&k, a, ct, 1);
            XCHECK(memcmp(a, pt, 8) == 0, "%s: KAT %u/%u decrypt", impl, (unsigned)kl * 8, (unsigned)i);
            /* the vector at every position of an NB-block batch, in place */
            for (int j = 0; j < NB; j++) memcpy(b + 8 * j, pt, 8);
            nuri_pipo_encrypt_blocks(&k, b, b, NB);
            int ok = 1;
            for (int j = 0; j < NB; j++) ok &= memcmp(b + 8 * j, ct, 8) == 0;
            XCHECK(ok, "%s: KAT %u/%u in a batch of %d", impl, (unsigned)kl * 8, (unsigned)i, NB);
            nuri_pipo_decrypt_blocks(&k, b, b, NB);
            ok = 1;
            for (int j = 0; j < NB; j++) ok &= memcmp(b + 8 * j, pt, 8) == 0;
            XCHECK(ok, "%s: KAT %u/%u batch decrypt", impl, (unsigned)kl * 8, (unsigned)i);
            nuri_pipo_key_wipe(&k);
        }
    }
}

/* Round-reduced keys give the state after each round's key addition. */
static void test_traces(const char *impl)
{
    uint8_t key[32], pt[8], want[8], got[8];
    CROSS_READ(pt, kat_64_128_ecb[0] + 16, 8);
    for (int kb = 0; kb < 2; kb++) {
        unsigned rounds = kb ? 17 : 13;
        size_t kl = kb ? 32 : 16;
        if (kb) CROSS_READ(key, kat_trace256_key, 32);
        else CROSS_READ(key, kat_trace128_key, 16);
        nuri_pipo_key k;
        if (key_for(&k, key, kl, impl)) return;
        for (unsigned r = 0; r <= rounds; r++) {
            nuri_pipo_key kr = k;
            kr.rounds = r;
            if (kb) CROSS_READ(want, kat_trace256[r], 8);
            else CROSS_READ(want, kat_trace128[r], 8);
            nuri_pipo_encrypt_blocks(&kr, got, pt, 1);
            XCHECK(memcmp(got, want, 8) == 0, "%s: trace %u round %u", impl, (unsigned)kl * 8, r);
            nuri_pipo_decrypt_blocks(&kr, got, want, 1);
            XCHECK(memcmp(got, pt, 8) == 0, "%s: trace %u round %u inverse", impl, (unsigned)kl * 8, r);
        }
        nuri_pipo_key_wipe(&k);
    }
}

/* One round with zero round keys = R(S(x)): all 256 column values, 8 per block. */
static void test_sbox(const char *impl)
{
    static const uint8_t rot[8] = {0, 7, 4, 3, 6, 5, 1, 2};
    uint8_t zero[16] = {0};
    nuri_pipo_key k;
    if (key_for(&k, zero, 16, impl)) return;
    k.rk[0] = k.rk[1] = 0;
    k.rounds = 1;
    int ok = 1, okinv = 1;
    for (int base = 0; base < 256; base += 8 * NB) {
        int nblk = (256 - base) / 8 < NB ? (256 - base) / 8 : NB;
        memset(a, 0, sizeof a);
        for (int v = base; v < base + 8 * nblk; v++) {
            int blk = (v - base) / 8, col = v % 8;
            for (int j = 0; j < 8; j++) a[8 * blk + j] |= (uint8_t)(((v >> j) & 1) << col);
        }
        for (int blk = 0; blk < nblk; blk++) {
            uint8_t s[8] = {0};
            for (int col = 0; col < 8; col++) {
                uint8_t y;
                CROSS_READ(&y, &kat_sbox[base + 8 * blk + col], 1);
                for (int j = 0; j < 8; j++) s[j] |= (uint8_t)(((y >> j) & 1) << col);
            }
            for (int j = 0; j < 8; j++) c[8 * blk + j] = (uint8_t)((s[j] << rot[j]) | (s[j] >> ((8 - rot[j]) & 7)));
        }
        nuri_pipo_encrypt_blocks(&k, b, a, (size_t)nblk);
        ok &= memcmp(b, c, 8 * (size_t)nblk) == 0;
        nuri_pipo_decrypt_blocks(&k, b, c, (size_t)nblk);
        okinv &= memcmp(b, a, 8 * (size_t)nblk) == 0;
    }
    XCHECK(ok, "%s: S-layer + R-layer match the S-box table", impl);
    XCHECK(okinv, "%s: inverse S-layer matches the table", impl);
}

/* Batches of every length 1..NB on random data agree with ref. */
static void test_batches(const char *impl)
{
    uint8_t key[32];
    for (int kb = 0; kb < 2; kb++) {
        cross_randbytes(key, 32);
        nuri_pipo_key k, kref;
        if (key_for(&k, key, kb ? 32 : 16, impl) || key_for(&kref, key, kb ? 32 : 16, "ref")) return;
        int ok = 1;
        for (int n = 1; n <= NB; n++) {
            cross_randbytes(a, 8 * (size_t)n);
            nuri_pipo_encrypt_blocks(&kref, b, a, (size_t)n);
            nuri_pipo_encrypt_blocks(&k, c, a, (size_t)n);
            ok &= memcmp(b, c, 8 * (size_t)n) == 0;
            nuri_pipo_decrypt_blocks(&k, c, b, (size_t)n);
            ok &= memcmp(a, c, 8 * (size_t)n) == 0;
        }
        XCHECK(ok, "%s: batches 1..%d agree with ref (%d-bit key)", impl, NB, kb ? 256 : 128);
    }
}

/* Modes through the shared mode layer, against a model built from single-block ref calls. */
static void test_modes(const char *impl)
{
    static const uint16_t lens[] = {0, 1, 7, 8, 9, 16, 24, 39, 40, 64, 65, 255, 256, 257, 512, 600};
    uint8_t key[16], iv[8];
    cross_randbytes(key, 16);
    cross_randbytes(iv, 8);
    nuri_pipo_key k, kref;
    if (key_for(&k, key, 16, impl) || key_for(&kref, key, 16, "ref")) return;
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li];
        if (len > MAXMSG) continue;
        cross_randbytes(msg, len);
        for (int mode = 0; mode < 3; mode++) {
            if (mode != NURI_PIPO_CTR && len % 8) continue;
            /* model */
            uint8_t chain[8], blk[8];
            memcpy(chain, iv, 8);
            for (size_t i = 0; i < len; i += 8) {
                size_t m = len - i < 8 ? len - i : 8;
                if (mode == NURI_PIPO_ECB) {
                    nuri_pipo_encrypt_blocks(&kref, out1 + i, msg + i, 1);
                } else if (mode == NURI_PIPO_CBC) {
                    for (int j = 0; j < 8; j++) chain[j] ^= msg[i + j];
                    nuri_pipo_encrypt_blocks(&kref, chain, chain, 1);
                    memcpy(out1 + i, chain, 8);
                } else {
                    nuri_pipo_encrypt_blocks(&kref, blk, chain, 1);
                    for (size_t j = 0; j < m; j++) out1[i + j] = msg[i + j] ^ blk[j];
                    for (int j = 7; j >= 0; j--)
                        if (++chain[j]) break;
                }
            }
            const uint8_t *ivp = mode == NURI_PIPO_ECB ? NULL : iv;
            size_t ivl = mode == NURI_PIPO_ECB ? 0 : 8, ol = 0, bl = 0;
            int rc = nuri_pipo_encrypt(&k, (nuri_pipo_mode)mode, ivp, ivl, NURI_PAD_NONE, out2, len + 8, &ol, msg, len);
            XCHECK(rc == 0 && ol == len && memcmp(out1, out2, len) == 0, "%s: mode %d len %u matches the model", impl,
                   mode, (unsigned)len);
            rc = nuri_pipo_decrypt(&k, (nuri_pipo_mode)mode, ivp, ivl, NURI_PAD_NONE, out1, len + 8, &bl, out2, len);
            XCHECK(rc == 0 && bl == len && memcmp(out1, msg, len) == 0, "%s: mode %d len %u round trip", impl, mode,
                   (unsigned)len);
        }
    }
    /* PKCS#7 round trip */
    size_t ol = 0, bl = 0, len = MAXMSG - 3;
    int rc = nuri_pipo_encrypt(&k, NURI_PIPO_CBC, iv, 8, NURI_PAD_PKCS7, out2, sizeof out2, &ol, msg, len);
    XCHECK(rc == 0 && ol == (len / 8 + 1) * 8, "%s: CBC PKCS#7 encrypt", impl);
    rc = nuri_pipo_decrypt(&k, NURI_PIPO_CBC, iv, 8, NURI_PAD_PKCS7, out1, sizeof out1, &bl, out2, ol);
    XCHECK(rc == 0 && bl == len && memcmp(out1, msg, len) == 0, "%s: CBC PKCS#7 round trip", impl);
}

/* CTR with counters across byte carries and the 2^64 wrap (kernels with their own counter
 * logic, e.g. rv32-bs32's bitsliced counters), against the model from single-block ref calls. */
static void test_ctr_carries(const char *impl)
{
    static const uint8_t ivs[][8] = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0},
                                     {0, 0, 0, 0, 0, 0, 0, 0xf8},
                                     {0, 0, 0, 0, 0, 0xff, 0xff, 0xe5},
                                     {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
                                     {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xe1},
                                     {0, 0, 0, 0, 0, 0, 0x01, 0xe0}};
    uint8_t key[16];
    cross_randbytes(key, 16);
    nuri_pipo_key k, kref;
    if (key_for(&k, key, 16, impl) || key_for(&kref, key, 16, "ref")) return;
    size_t len = MAXMSG - MAXMSG % 8 - 8;
    cross_randbytes(msg, len);
    for (size_t v = 0; v < sizeof ivs / sizeof ivs[0]; v++) {
        uint8_t chain[8], blk[8];
        memcpy(chain, ivs[v], 8);
        for (size_t i = 0; i < len; i += 8) {
            nuri_pipo_encrypt_blocks(&kref, blk, chain, 1);
            for (int j = 0; j < 8; j++) out1[i + j] = msg[i + j] ^ blk[j];
            for (int j = 7; j >= 0; j--)
                if (++chain[j]) break;
        }
        size_t ol = 0;
        int rc = nuri_pipo_encrypt(&k, NURI_PIPO_CTR, ivs[v], 8, NURI_PAD_NONE, out2, len + 8, &ol, msg, len);
        XCHECK(rc == 0 && ol == len && memcmp(out1, out2, len) == 0, "%s: CTR across carries, iv %u", impl,
               (unsigned)v);
    }
}

int cross_main(void)
{
    cross_printf("implementations:");
    for (size_t i = 0; i < nuri_pipo_impl_count(); i++)
        if (nuri_pipo_impl_supported(i)) printf(" %s", nuri_pipo_impl_info(i)->name);
    cross_printf("\n");
    for (size_t i = 0; i < nuri_pipo_impl_count(); i++) {
        if (!nuri_pipo_impl_supported(i)) continue;
        const char *impl = nuri_pipo_impl_info(i)->name;
        test_kat(impl);
        test_traces(impl);
        test_sbox(impl);
        test_batches(impl);
        test_modes(impl);
        test_ctr_carries(impl);
    }
    const char *def = nuri_pipo_default_impl();
    XCHECK(def != NULL && strcmp(def, nuri_pipo_impl_info(0)->name) == 0, "dispatch picks the first entry");
    return cross_finish("test_pipo_kat");
}
