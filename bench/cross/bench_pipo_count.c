/* bench_pipo_count <impl> <op> <bytes> <iterations>: runs one PIPO-64/128 operation `iterations`
 * times, for targets whose instructions are counted from outside (QEMU plugin, whole program):
 * scripts/bench-cross.sh runs it with 1 and 1+N iterations and divides the difference by N.
 * op: blocks-encrypt | ecb-encrypt | cbc-decrypt | ctr-encrypt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nuri/pipo.h"

static uint8_t in[65536], out[65536 + 8];

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s impl op bytes iterations\n", argv[0]);
        return 2;
    }
    const char *impl = argv[1], *op = argv[2];
    size_t len = (size_t)strtoul(argv[3], NULL, 10), iters = (size_t)strtoul(argv[4], NULL, 10);
    if (len > sizeof in || len % 8) return 2;
    uint8_t key[16], iv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int i = 0; i < 16; i++) key[i] = (uint8_t)(0x11 * i + 3);
    for (size_t i = 0; i < len; i++) in[i] = (uint8_t)(i * 7 + 1);
    nuri_pipo_key k;
    if (nuri_pipo_key_init(&k, key, 16, impl) != 0) return 3;
    size_t ol;
    int rc = 0;
    for (size_t it = 0; it < iters && rc == 0; it++) {
        if (!strcmp(op, "blocks-encrypt")) nuri_pipo_encrypt_blocks(&k, out, in, len / 8);
        else if (!strcmp(op, "ecb-encrypt"))
            rc = nuri_pipo_encrypt(&k, NURI_PIPO_ECB, NULL, 0, NURI_PAD_NONE, out, sizeof out, &ol, in, len);
        else if (!strcmp(op, "cbc-decrypt"))
            rc = nuri_pipo_decrypt(&k, NURI_PIPO_CBC, iv, 8, NURI_PAD_NONE, out, sizeof out, &ol, in, len);
        else if (!strcmp(op, "ctr-encrypt"))
            rc = nuri_pipo_encrypt(&k, NURI_PIPO_CTR, iv, 8, NURI_PAD_NONE, out, sizeof out, &ol, in, len);
        else return 2;
    }
    nuri_pipo_key_wipe(&k);
    return rc ? 4 : 0;
}
