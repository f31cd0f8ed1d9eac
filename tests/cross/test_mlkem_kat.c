/* ML-KEM (FIPS 203) on the 32-bit targets with enough RAM (rv32 virt, Cortex-M3/M4: ~28 KB of stack)
 * and AArch64: every registered implementation runs every embedded NIST ACVP vector of
 * tests/mlkem/mlkem_vectors.h (keyGen from d||z, encapsulation from m, decapsulation including
 * the implicit-rejection cases, encapsulation/decapsulation key checks) for ML-KEM-512/768/1024,
 * plus a keygen/encaps/decaps round trip per level. No OpenSSL, no OS randomness needed.
 * ML-KEM does not fit the ATmega328P (2 KiB RAM: a single ML-KEM-512 decapsulation key is 1632
 * bytes, the polynomial matrix alone 2 KiB). */
#include "cross_support.h"
#include "mlkem_vectors.h"
#include "nuri/mlkem.h"

static uint8_t ek[1568], dk[3168], ct[1568], ss[32], ek2[1568], dk2[3168], ct2[1568], ss2[32], seed[64], m[32],
    key[4096];

static int hexdig(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
static size_t unhex(uint8_t *out, size_t cap, const char *s)
{
    size_t n = 0;
    for (; s[0] && s[1] && n < cap; s += 2) out[n++] = (uint8_t)(hexdig(s[0]) << 4 | hexdig(s[1]));
    return n;
}
#define N(a) (sizeof a / sizeof a[0])

/* The length-checked calls with a context of level L and implementation impl, set up per call. */
static int kg(unsigned L, uint8_t *ek_, size_t ek_cap, uint8_t *dk_, size_t dk_cap, const uint8_t *seed_,
              const char *impl)
{
    nuri_mlkem_ctx kem;
    int rc = nuri_mlkem_init(&kem, (nuri_mlkem_level)L, impl);
    return rc ? rc : nuri_mlkem_keygen(&kem, ek_, ek_cap, dk_, dk_cap, seed_, 64);
}

static int enc(unsigned L, uint8_t *ct_, size_t ct_cap, uint8_t *ss_, const uint8_t *ek_, size_t ek_len,
               const uint8_t *m_, const char *impl)
{
    nuri_mlkem_ctx kem;
    int rc = nuri_mlkem_init(&kem, (nuri_mlkem_level)L, impl);
    return rc ? rc : nuri_mlkem_encaps(&kem, ct_, ct_cap, ss_, 32, ek_, ek_len, m_, 32);
}

static int dec(unsigned L, uint8_t *ss_, const uint8_t *ct_, size_t ct_len, const uint8_t *dk_, size_t dk_len,
               const char *impl)
{
    nuri_mlkem_ctx kem;
    int rc = nuri_mlkem_init(&kem, (nuri_mlkem_level)L, impl);
    return rc ? rc : nuri_mlkem_decaps(&kem, ss_, 32, ct_, ct_len, dk_, dk_len);
}

static void run(const char *impl)
{
    for (size_t i = 0; i < N(mlkem_acvp_keygen); i++) {
        const mlkem_keygen_vec *v = &mlkem_acvp_keygen[i];
        unsigned L = v->level;
        size_t ekl = nuri_mlkem_ek_bytes(L), dkl = nuri_mlkem_dk_bytes(L);
        unhex(seed, 32, v->d);
        unhex(seed + 32, 32, v->z);
        size_t a = unhex(ek2, sizeof ek2, v->ek), b = unhex(dk2, sizeof dk2, v->dk);
        int rc = kg(L, ek, ekl, dk, dkl, seed, impl);
        XCHECK(rc == 0 && a == ekl && b == dkl && memcmp(ek, ek2, ekl) == 0 && memcmp(dk, dk2, dkl) == 0,
               "%s: keyGen ML-KEM-%u tcId %u", impl, L, v->tcid);
    }
    for (size_t i = 0; i < N(mlkem_acvp_encaps); i++) {
        const mlkem_encaps_vec *v = &mlkem_acvp_encaps[i];
        unsigned L = v->level;
        size_t ekl = unhex(ek, sizeof ek, v->ek), ctl = unhex(ct2, sizeof ct2, v->c);
        unhex(m, 32, v->m);
        unhex(ss2, 32, v->k);
        int rc = enc(L, ct, nuri_mlkem_ct_bytes(L), ss, ek, ekl, m, impl);
        XCHECK(rc == 0 && ctl == nuri_mlkem_ct_bytes(L) && memcmp(ct, ct2, ctl) == 0 && memcmp(ss, ss2, 32) == 0,
               "%s: encapsulation ML-KEM-%u tcId %u", impl, L, v->tcid);
    }
    unsigned rej = 0;
    for (size_t i = 0; i < N(mlkem_acvp_decaps); i++) {
        const mlkem_decaps_vec *v = &mlkem_acvp_decaps[i];
        unsigned L = v->level;
        size_t dkl = unhex(dk, sizeof dk, v->dk), ctl = unhex(ct, sizeof ct, v->c);
        unhex(ss2, 32, v->k);
        int rc = dec(L, ss, ct, ctl, dk, dkl, impl);
        XCHECK(rc == 0 && memcmp(ss, ss2, 32) == 0, "%s: decapsulation ML-KEM-%u tcId %u (implicit rejection %d)", impl,
               L, v->tcid, v->implicit_rejection);
        rej += v->implicit_rejection != 0;
    }
    XCHECK(rej > 0, "%s: no implicit-rejection vector ran", impl);
    for (size_t i = 0; i < N(mlkem_acvp_ekcheck); i++) {
        const mlkem_keycheck_vec *v = &mlkem_acvp_ekcheck[i];
        size_t n = unhex(key, sizeof key, v->key); /* some are of a wrong length (longer) */
        int rc = n == strlen(v->key) / 2 ? nuri_mlkem_check_ek(v->level, key, n) : -100;
        XCHECK((rc == 0) == (v->passed != 0), "%s: ek check ML-KEM-%u tcId %u rc %d", impl, v->level, v->tcid, rc);
    }
    for (size_t i = 0; i < N(mlkem_acvp_dkcheck); i++) {
        const mlkem_keycheck_vec *v = &mlkem_acvp_dkcheck[i];
        size_t n = unhex(key, sizeof key, v->key);
        int rc = n == strlen(v->key) / 2 ? nuri_mlkem_check_dk(v->level, key, n) : -100;
        XCHECK((rc == 0) == (v->passed != 0), "%s: dk check ML-KEM-%u tcId %u rc %d", impl, v->level, v->tcid, rc);
    }
    /* round trip per level from a deterministic seed; a flipped ciphertext bit gives another key */
    for (unsigned L = 512; L <= 1024; L += 256) {
        size_t ekl = nuri_mlkem_ek_bytes(L), dkl = nuri_mlkem_dk_bytes(L), ctl = nuri_mlkem_ct_bytes(L);
        cross_randbytes(seed, 64);
        cross_randbytes(m, 32);
        int rc = kg(L, ek, ekl, dk, dkl, seed, impl);
        rc |= enc(L, ct, ctl, ss, ek, ekl, m, impl);
        rc |= dec(L, ss2, ct, ctl, dk, dkl, impl);
        XCHECK(rc == 0 && memcmp(ss, ss2, 32) == 0, "%s: ML-KEM-%u round trip", impl, L);
        ct[5] ^= 1;
        rc = dec(L, ss2, ct, ctl, dk, dkl, impl);
        XCHECK(rc == 0 && memcmp(ss, ss2, 32) != 0, "%s: ML-KEM-%u modified ciphertext", impl, L);
    }
}

int cross_main(void)
{
    cross_printf("implementations:");
    for (size_t i = 0; i < nuri_mlkem_impl_count(); i++)
        if (nuri_mlkem_impl_supported(i)) printf(" %s", nuri_mlkem_impl_info(i)->name);
    cross_printf("\n");
    for (size_t i = 0; i < nuri_mlkem_impl_count(); i++) {
        if (!nuri_mlkem_impl_supported(i)) continue;
        const char *impl = nuri_mlkem_impl_info(i)->name;
        unsigned long f0 = cross_failed, p0 = cross_passed;
        run(impl);
        cross_printf("%s: %lu checks %s\n", impl, cross_passed + cross_failed - p0 - f0,
                     cross_failed == f0 ? "ok" : "FAILED");
    }
    return cross_finish("test_mlkem_kat");
}
