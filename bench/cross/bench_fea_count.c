/* FEA-1-128 encryption of one 64-bit value (n = 64) under each registered FEA implementation.
 * On rv32 (-icount shift=0) it prints JSON records with the executed-instruction count from
 * minstret. On targets that cannot count themselves (Cortex-M under QEMU) it takes the command
 * line "impl iterations" (semihosting arguments) and just runs, so that scripts/bench-cross.sh
 * counts the whole run with QEMU's insn plugin at 1 and 1+N iterations. */
#include <stdlib.h>

#include "cross_support.h"
#include "nuri/fea.h"

#ifndef NURI_PLATFORM
#define NURI_PLATFORM "unknown"
#endif

static int run(const char *impl, unsigned iters, uint32_t *count)
{
    uint8_t key[16];
    for (int i = 0; i < 16; i++) key[i] = (uint8_t)(0x35 * i + 7);
    nuri_fea_key k;
    if (nuri_fea_key_init(&k, key, 16, 1, 64, impl) != 0) return -1;
    uint64_t x = 0x0123456789abcdefull, y;
    nuri_fea_u128 tw = {0, 0x1234567890abcdefull}; /* FEA-1, n = 64: 64 tweak bits */
    int rc = 0;
    cross_count_begin();
    for (unsigned i = 0; i < iters; i++) rc |= nuri_fea_encrypt_u64(&k, &y, &x, 1, &tw, 1);
    *count = cross_count_end();
    nuri_fea_key_wipe(&k);
    return rc;
}

#ifdef NURI_FEA_COUNT_ARGS
/* counted from outside: no counters here, and no cross_support.c */
void cross_count_begin(void) {}
uint32_t cross_count_end(void) { return 0; }
int main(int argc, char **argv)
{
    uint32_t c;
    if (argc != 3) return 2;
    return run(argv[1], (unsigned)strtoul(argv[2], NULL, 10), &c) ? 3 : 0;
}
#else
int cross_main(void)
{
    for (size_t i = 0; i < nuri_fea_impl_count(); i++) {
        if (!nuri_fea_impl_supported(i)) continue;
        const char *impl = nuri_fea_impl_info(i)->name;
        uint32_t v[3];
        for (int r = 0; r < 3; r++)
            if (run(impl, 1, &v[r]) != 0) return 1;
        printf("{\"family\": \"fea\", \"impl\": \"%s\", \"op\": \"encrypt-u64\", \"param\": \"FEA-1-128 n=64\", "
               "\"size\": 1, \"platform\": \"%s\", \"metric\": \"%s\", \"median\": %lu, \"min\": %lu, \"max\": %lu, "
               "\"runs\": 3}\n",
               impl, NURI_PLATFORM, cross_count_unit(), (unsigned long)v[1], (unsigned long)v[0], (unsigned long)v[2]);
    }
    return 0;
}
#endif
