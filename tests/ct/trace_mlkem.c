/* Secret-variant runs of ML-KEM for the trace check of emulated code (tests/ct/trace_check.sh):
 *   trace_mlkem <impl> <512|768|1024> <op> <variant: one digit>
 * runs one operation whose public inputs are the same for every variant and whose secret inputs
 * depend on the variant, with no branch or memory index on the variant in this program, and
 * prints nothing that depends on it. So every run of one (impl, level, op) must execute the same
 * instructions and touch the same addresses:
 *   encaps   ek fixed, the randomness m from the variant;
 *   decaps   ek, its H(ek) and the ciphertext fixed; dk_PKE and z from the variant (variant 1: the
 *            key's own, so the ciphertext is accepted; others: other secrets under the same ek, so
 *            the hash check passes and the re-encryption comparison fails: implicit rejection);
 *   decaps-many  the same over three ciphertexts (one altered);
 *   leak-branch, leak-index  control cases that the check must catch: a branch on a secret byte,
 *            and a table read at a secret index.
 * Key generation is not traced: its rho, which selects the matrix sampling's work, is derived from
 * the secret seed but public, so two seeds legitimately run differently; its secret-dependent
 * kernels (noise sampling, NTT, base multiplication, packing) are those encapsulation and
 * decapsulation run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nuri/mlkem.h"

#define Q 3329

static volatile uint8_t sink;

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s <impl> <512|768|1024> <op> <variant digit>\n", argv[0]);
        return 2;
    }
    const char *impl = argv[1], *op = argv[3];
    const unsigned level = (unsigned)strtoul(argv[2], NULL, 10), k = level / 256;
    const unsigned v = (unsigned)(uint8_t)(argv[4][0] - '0'); /* arithmetic only from here on */
    const nuri_mlkem_level lv = (nuri_mlkem_level)level;
    const size_t ekl = nuri_mlkem_ek_bytes(lv), dkl = nuri_mlkem_dk_bytes(lv), ctl = nuri_mlkem_ct_bytes(lv);
    static uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], dk2[NURI_MLKEM_MAX_DK_BYTES],
        ct[3 * NURI_MLKEM_MAX_CT_BYTES], ss[3 * 32];
    uint8_t seed[64], m[32];
    if (!ekl) return 2;
    for (unsigned i = 0; i < 64; i++) seed[i] = (uint8_t)(3 * i + 1);
    for (unsigned i = 0; i < 32; i++) m[i] = (uint8_t)(5 * i + 7);
    nuri_mlkem_ctx kem;
    if (nuri_mlkem_init(&kem, lv, impl) != 0) return 2;
    int rc = nuri_mlkem_keygen(&kem, ek, ekl, dk, dkl, seed, 64);
    rc |= nuri_mlkem_encaps(&kem, ct, ctl, ss, 32, ek, ekl, m, 32);
    memcpy(ct + ctl, ct, ctl);
    memcpy(ct + 2 * ctl, ct, ctl);
    ct[2 * ctl + 17] ^= 4;

    /* the secrets of this variant */
    for (unsigned i = 0; i < 32; i++) m[i] = (uint8_t)(v * 151 + 13 * i);
    /* dk: variant 1 keeps dk_PKE and z; the others take s' (coefficients (v * 977 + 131 i) mod q)
     * and another z, selected with a mask */
    memcpy(dk2, dk, dkl);
    for (unsigned i = 0; i < 128 * k; i++) {
        const unsigned a = (v * 977 + 262 * i) % Q, b = (v * 977 + 262 * i + 131) % Q;
        dk2[3 * i] = (uint8_t)a;
        dk2[3 * i + 1] = (uint8_t)((a >> 8) | (b << 4));
        dk2[3 * i + 2] = (uint8_t)(b >> 4);
    }
    for (unsigned i = 0; i < 32; i++) dk2[dkl - 32 + i] = (uint8_t)(v * 29 + i);
    const uint8_t other = (uint8_t)(0u - (((v ^ 1u) + 0xFFu) >> 8)); /* 0xFF unless v == 1 */
    for (size_t i = 0; i < dkl; i++) dk[i] = (uint8_t)((dk[i] & ~other) | (dk2[i] & other));

    if (strcmp(op, "encaps") == 0) {
        rc |= nuri_mlkem_encaps(&kem, ct, ctl, ss, 32, ek, ekl, m, 32);
    } else if (strcmp(op, "decaps") == 0) {
        rc |= nuri_mlkem_decaps(&kem, ss, 32, ct, ctl, dk, dkl);
    } else if (strcmp(op, "decaps-many") == 0) {
        rc |= nuri_mlkem_decaps_many(&kem, ss, 3 * 32, ct, 3 * ctl, dk, dkl, 3);
    } else if (strcmp(op, "leak-branch") == 0) {
        if (m[0] & 16) sink = 1;
    } else if (strcmp(op, "leak-index") == 0) {
        static const uint8_t table[256] = {1};
        sink = table[m[0]];
    } else {
        fprintf(stderr, "unknown operation %s\n", op);
        return 2;
    }
    puts(rc == 0 ? "ok" : "error");
    return rc != 0;
}
