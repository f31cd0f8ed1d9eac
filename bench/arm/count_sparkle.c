/* Runs one SPARKLE permutation implementation N times on one state, for instruction counting
 * under qemu-aarch64 (bench/arm/count.sh counts the instructions executed inside the
 * implementation's own object file with the insnrange TCG plugin and divides by N).
 * Usage: count_sparkle <ref|opt|a64|neon> <nb: 4|6|8> <steps> <N>
 * Prints a checksum of the final state so every implementation can be cross-checked. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sparkle_impl.h"

typedef void (*perm_fn)(uint32_t *state, unsigned nb, unsigned steps);

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        perm_fn fn;
    } impls[] = {
        {"ref", nuri_sparkle_ref_permute},
        {"opt", nuri_sparkle_opt_permute},
#if defined(NURI_HAVE_SPARKLE_A64)
        {"a64", nuri_sparkle_a64_permute},
#endif
#if defined(NURI_HAVE_SPARKLE_NEON)
        {"neon", nuri_sparkle_neon_permute},
#endif
    };
    if (argc != 5) {
        fprintf(stderr, "usage: %s <ref|opt|a64|neon> <nb> <steps> <N>\n", argv[0]);
        return 2;
    }
    perm_fn fn = NULL;
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++)
        if (strcmp(argv[1], impls[i].name) == 0) fn = impls[i].fn;
    unsigned nb = (unsigned)strtoul(argv[2], NULL, 10);
    unsigned steps = (unsigned)strtoul(argv[3], NULL, 10);
    unsigned long n = strtoul(argv[4], NULL, 10);
    if (!fn || (nb != 4 && nb != 6 && nb != 8)) {
        fprintf(stderr, "unknown implementation or branch count\n");
        return 2;
    }
    uint32_t st[16];
    for (unsigned i = 0; i < 16; i++) st[i] = 0x01010101u * i;
    /* The call goes through a volatile pointer so the compiler cannot inline or hoist it. */
    perm_fn volatile call = fn;
    for (unsigned long i = 0; i < n; i++) call(st, nb, steps);
    uint32_t h = 2166136261u;
    for (unsigned i = 0; i < 2 * nb; i++) h = (h ^ st[i]) * 16777619u;
    printf("%s nb=%u steps=%u n=%lu checksum=%08x\n", argv[1], nb, steps, n, (unsigned)h);
    return 0;
}
