/* count_fea <impl> <values> <iterations>: FEA-1/128 encryption (n = 64, one tweak for the batch)
 * of <values> 64-bit values, repeated <iterations> times, for counting executed instructions
 * from outside under qemu-aarch64 (scripts/bench-fea-neon.sh runs it at 1 and 1+N iterations:
 * the difference over N is the exact count of one call, Feistel layer and kernel included).
 * Prints a checksum of the ciphertexts so the script can check that all implementations agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nuri/fea.h"

#define MAXV 4096
static uint64_t in[MAXV], out[MAXV];

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s impl values iterations\n", argv[0]);
        return 2;
    }
    const char *impl = argv[1];
    size_t count = (size_t)strtoul(argv[2], NULL, 10), iters = (size_t)strtoul(argv[3], NULL, 10);
    if (count == 0 || count > MAXV) return 2;
    uint8_t key[16];
    for (int i = 0; i < 16; i++) key[i] = (uint8_t)(0x35 * i + 7);
    for (size_t i = 0; i < count; i++) in[i] = 0x9e3779b97f4a7c15ull * (i + 1);
    nuri_fea_key k;
    if (nuri_fea_key_init(&k, key, 16, 1, 64, impl) != 0) return 3;
    const nuri_fea_u128 tw = {0, 0x1234567890abcdefull}; /* FEA-1, n = 64: 64 tweak bits */
    int rc = 0;
    for (size_t it = 0; it < iters && rc == 0; it++) rc = nuri_fea_encrypt_u64(&k, out, in, count, &tw, 1);
    nuri_fea_key_wipe(&k);
    uint64_t h = 0;
    for (size_t i = 0; i < count; i++) h = (h ^ out[i]) * 0x100000001b3ull;
    printf("checksum=%016llx\n", (unsigned long long)h);
    return rc ? 4 : 0;
}
