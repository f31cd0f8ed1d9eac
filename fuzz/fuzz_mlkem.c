/* ML-KEM-512/768/1024, properties:
 *  - keys from a fuzzed seed: every implementation gives ref's ek/dk; encaps with a fuzzed m gives
 *    ref's ct/ss; decaps recovers ss (decaps(encaps(x)) = x);
 *  - a fuzzed ek (the genuine one with fuzzed bytes written in): check_ek's verdict = encaps's
 *    (rejected exactly when a coefficient is >= q), the same for every implementation, and a
 *    rejected encaps releases nothing (ct and ss zeroed);
 *  - a fuzzed dk: check_dk's verdict = decaps's; a fuzzed ciphertext: every implementation gives
 *    the same (implicit-rejection) key, never an error. */
#include <nuri/mlkem.h>

#include "fuzz_util.h"

#define EKMAX 1568
#define DKMAX 3168
#define CTMAX 1568

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    static const nuri_mlkem_level levels[3] = {NURI_MLKEM512, NURI_MLKEM768, NURI_MLKEM1024};
    nuri_mlkem_level lv = levels[fz_u8(&in) % 3];
    size_t ekl = nuri_mlkem_ek_bytes(lv), dkl = nuri_mlkem_dk_bytes(lv), ctl = nuri_mlkem_ct_bytes(lv);
    uint8_t seed[64], m[32];
    fz_fill(&in, seed, 64);
    fz_fill(&in, m, 32);
    const char *impl[16];
    size_t ni;
    FZ_IMPLS(mlkem, impl, ni);

    static uint8_t ek[EKMAX], dk[DKMAX], ct[CTMAX], ek2[EKMAX], dk2[DKMAX], ct2[CTMAX];
    uint8_t ss[32], ss2[32], ss3[32];
    nuri_mlkem_ctx ref, kem[16];
    PROPERTY(nuri_mlkem_init(&ref, lv, "ref") == 0, "ref context");
    for (size_t i = 0; i < ni; i++) PROPERTY(nuri_mlkem_init(&kem[i], lv, impl[i]) == 0, "%s context", impl[i]);
    PROPERTY(nuri_mlkem_keygen(&ref, ek, ekl, dk, dkl, seed, 64) == 0, "ref keygen");
    PROPERTY(nuri_mlkem_encaps(&ref, ct, ctl, ss, 32, ek, ekl, m, 32) == 0, "ref encaps");
    for (size_t i = 0; i < ni; i++) {
        PROPERTY(nuri_mlkem_keygen(&kem[i], ek2, ekl, dk2, dkl, seed, 64) == 0, "%s keygen", impl[i]);
        PROPERTY(!memcmp(ek, ek2, ekl) && !memcmp(dk, dk2, dkl), "%s keys != ref", impl[i]);
        PROPERTY(nuri_mlkem_encaps(&kem[i], ct2, ctl, ss2, 32, ek, ekl, m, 32) == 0, "%s encaps", impl[i]);
        PROPERTY(!memcmp(ct, ct2, ctl) && !memcmp(ss, ss2, 32), "%s encaps != ref", impl[i]);
        PROPERTY(nuri_mlkem_decaps(&kem[i], ss3, 32, ct, ctl, dk, dkl) == 0 && !memcmp(ss3, ss, 32),
                 "%s decaps(encaps) != ss", impl[i]);
    }

    /* fuzzed bytes written into ek, dk and ct at fuzzed offsets */
    memcpy(ek2, ek, ekl);
    memcpy(dk2, dk, dkl);
    memcpy(ct2, ct, ctl);
    size_t k;
    const uint8_t *b = fz_bytes(&in, 16, &k);
    memcpy(ek2 + fz_u16(&in) % (ekl - 16), b, k);
    b = fz_bytes(&in, 16, &k);
    memcpy(dk2 + fz_u16(&in) % (dkl - 16), b, k);
    b = fz_bytes(&in, 64, &k);
    memcpy(ct2 + fz_u16(&in) % (ctl - 64), b, k);

    int ek_ok = nuri_mlkem_check_ek(lv, ek2, ekl) == 0, dk_ok = nuri_mlkem_check_dk(lv, dk2, dkl) == 0;
    uint8_t ref_ss[32];
    int ref_rc = dk_ok ? nuri_mlkem_decaps(&ref, ref_ss, 32, ct2, ctl, dk2, dkl) : -1;
    for (size_t i = 0; i < ni; i++) {
        memset(ct, 0xA5, ctl);
        memset(ss, 0xA5, 32);
        int rc = nuri_mlkem_encaps(&kem[i], ct, ctl, ss, 32, ek2, ekl, m, 32);
        PROPERTY((rc == 0) == ek_ok, "%s: encaps %d but check_ek %d", impl[i], rc, ek_ok);
        if (rc)
            PROPERTY(fz_nothing_released(ct, ctl) && fz_nothing_released(ss, 32), "%s released output for a bad ek",
                     impl[i]);
        memset(ss, 0xA5, 32);
        rc = nuri_mlkem_decaps(&kem[i], ss, 32, ct2, ctl, dk2, dkl);
        PROPERTY((rc == 0) == dk_ok, "%s: decaps %d but check_dk %d", impl[i], rc, dk_ok);
        if (rc) PROPERTY(fz_nothing_released(ss, 32), "%s released a key for a bad dk", impl[i]);
        else PROPERTY(ref_rc == 0 && !memcmp(ss, ref_ss, 32), "%s implicit rejection != ref", impl[i]);
    }
    return 0;
}
