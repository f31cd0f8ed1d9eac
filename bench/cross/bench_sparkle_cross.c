/* SPARKLE permutation counts on the self-counting targets: rv32 (QEMU -icount shift=0: executed
 * INSTRUCTIONS from minstret) and AVR (simavr: exact CYCLES). SPARKLE256/384/512 with the slim and
 * big step counts (Schwaemm/Esch), every registered implementation, called through the backend
 * (no name lookup in the measured interval). Three runs each (the counts are deterministic). */
#include "cross_support.h"
#include "sparkle_impl.h"

#ifndef NURI_PLATFORM
#define NURI_PLATFORM "unknown"
#endif

int cross_main(void)
{
    static const unsigned cfg[6][2] = {{4, 7}, {4, 10}, {6, 7}, {6, 11}, {8, 8}, {8, 12}};
    for (size_t i = 0; i < nuri_sparkle_impl_count(); i++) {
        if (!nuri_sparkle_impl_supported(i)) continue;
        const nuri_sparkle_impl *impl;
        if (nuri_sparkle_select(nuri_sparkle_impl_info(i)->name, &impl) != 0) return 1;
        for (int c = 0; c < 6; c++) {
            unsigned nb = cfg[c][0], steps = cfg[c][1];
            uint32_t st[16], v[3];
            for (unsigned w = 0; w < 2 * nb; w++) st[w] = cross_rand();
            for (int r = 0; r < 3; r++) {
                cross_count_begin();
                impl->permute(st, nb, steps);
                v[r] = cross_count_end();
            }
            uint32_t lo = v[0] < v[1] ? v[0] : v[1], hi = v[0] < v[1] ? v[1] : v[0], med;
            if (v[2] < lo) med = lo, lo = v[2];
            else if (v[2] > hi) med = hi, hi = v[2];
            else med = v[2];
            printf("{\"family\": \"sparkle\", \"impl\": \"%s\", \"op\": \"permute\", \"param\": \"SPARKLE%u-%u\", "
                   "\"size\": %u, \"platform\": \"%s\", \"metric\": \"%s\", \"median\": %lu, \"min\": %lu, "
                   "\"max\": %lu, \"runs\": 3}\n",
                   impl->info.name, 64 * nb, steps, 8 * nb, NURI_PLATFORM, cross_count_unit(), (unsigned long)med,
                   (unsigned long)lo, (unsigned long)hi);
        }
    }
    return 0;
}
