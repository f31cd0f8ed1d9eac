/* Runs one ML-KEM operation of one implementation N times, for instruction counting under
 * qemu-aarch64 (bench/arm/count_mlkem.sh runs it with N = 1 and N = 1 + R under the whole-program
 * counting plugin; the difference over R is the exact count of one operation through the
 * length-checked API on a context made once, as a caller sees it).
 * Usage: count_mlkem <impl> <512|768|1024> <keygen|encaps|decaps> <N>
 * Deterministic inputs (keygen from a fixed seed, encapsulation from a fixed m); prints a
 * checksum of ek, ct and the shared secret so that the implementations and the peers
 * (bench/arm/peers) can be cross-checked. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nuri/mlkem.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s <impl> <512|768|1024> <keygen|encaps|decaps> <N>\n", argv[0]);
        return 2;
    }
    const char *impl = argv[1], *op = argv[3];
    unsigned level = (unsigned)strtoul(argv[2], NULL, 10);
    unsigned long n = strtoul(argv[4], NULL, 10);
    static uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], ct[NURI_MLKEM_MAX_CT_BYTES];
    uint8_t seed[64], m[32], ss[32], ss2[32];
    const nuri_mlkem_level lv = (nuri_mlkem_level)level;
    size_t ekl = nuri_mlkem_ek_bytes(lv), dkl = nuri_mlkem_dk_bytes(lv), ctl = nuri_mlkem_ct_bytes(lv);
    if (!ekl || (strcmp(op, "keygen") && strcmp(op, "encaps") && strcmp(op, "decaps"))) {
        fprintf(stderr, "unknown level or operation\n");
        return 2;
    }
    for (unsigned i = 0; i < 64; i++) seed[i] = (uint8_t)(7 * i + 1);
    for (unsigned i = 0; i < 32; i++) m[i] = (uint8_t)(5 * i + 3);
    /* the setup always runs once (with the implementation measured), the measured call n times */
    nuri_mlkem_ctx kem;
    int rc = nuri_mlkem_init(&kem, lv, impl);
    if (rc != 0) {
        fprintf(stderr, "%s: no such implementation here (%d)\n", impl, rc);
        return 2;
    }
    rc |= nuri_mlkem_keygen(&kem, ek, ekl, dk, dkl, seed, 64);
    rc |= nuri_mlkem_encaps(&kem, ct, ctl, ss, 32, ek, ekl, m, 32);
    rc |= nuri_mlkem_decaps(&kem, ss2, 32, ct, ctl, dk, dkl);
    if (rc != 0 || memcmp(ss, ss2, 32) != 0) {
        fprintf(stderr, "%s: ML-KEM-%u round trip failed (%d)\n", impl, level, rc);
        return 1;
    }
    for (unsigned long i = 0; i < n; i++) {
        if (op[0] == 'k') rc |= nuri_mlkem_keygen(&kem, ek, ekl, dk, dkl, seed, 64);
        else if (op[0] == 'e') rc |= nuri_mlkem_encaps(&kem, ct, ctl, ss, 32, ek, ekl, m, 32);
        else rc |= nuri_mlkem_decaps(&kem, ss2, 32, ct, ctl, dk, dkl);
    }
    uint32_t h = 2166136261u;
    const uint8_t *parts[3] = {ek, ct, ss2}; /* the peers' counting program hashes the same */
    const size_t lens[3] = {ekl, ctl, 32};
    for (int p = 0; p < 3; p++)
        for (size_t i = 0; i < lens[p]; i++) h = (h ^ parts[p][i]) * 16777619u;
    printf("%s ML-KEM-%u %s checksum=%08x\n", impl, level, op, (unsigned)h);
    return rc != 0;
}
