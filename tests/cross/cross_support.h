/* Small runtime layer for the target test and bench programs (tests/cross, bench/cross):
 * console, exit code and counters on rv32 (QEMU, picolibc semihosting), Cortex-M (QEMU,
 * newlib rdimon), AVR (simavr through simavr_run) and AArch64 Linux (qemu-aarch64).
 * A program defines cross_main(); main() here sets up the platform and passes its result on. */
#ifndef NURI_CROSS_SUPPORT_H
#define NURI_CROSS_SUPPORT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __AVR__
#include <avr/pgmspace.h>
#define CROSS_READ(dst, src, n) memcpy_P((dst), (src), (n))
#define CROSS_STR(s)            PSTR(s)
#define cross_printf(fmt, ...)  printf_P(PSTR(fmt), ##__VA_ARGS__)
#else
#define CROSS_READ(dst, src, n) memcpy((dst), (src), (n))
#define cross_printf(fmt, ...)  printf(fmt, ##__VA_ARGS__)
#endif

int cross_main(void);

/* Checks that count and report (same output shape as the host tests). */
extern unsigned long cross_passed, cross_failed;
#define XCHECK(cond, fmt, ...)                                                \
    do {                                                                      \
        if (cond) {                                                           \
            cross_passed++;                                                   \
        } else {                                                              \
            cross_failed++;                                                   \
            cross_printf("FAIL line %d: " fmt "\n", __LINE__, ##__VA_ARGS__); \
        }                                                                     \
    } while (0)
/* Prints "<name>: N passed, M failed" and returns the exit status. */
int cross_finish(const char *name);

/* Deterministic PRNG (xorshift32) for differential inputs. */
uint32_t cross_rand(void);
void cross_randbytes(uint8_t *p, size_t n);

/* Counters. The unit is target-specific (cross_count_unit()): "instructions" on rv32 under
 * QEMU -icount shift=0 (minstret), "cycles" on simavr (exact, GPIOR0 marks read back through
 * the harness), and "none" where the program cannot count itself (Cortex-M, AArch64: counts
 * come from a QEMU plugin outside). cross_count_end returns the count since cross_count_begin,
 * minus the measured overhead of an empty begin/end pair. */
void cross_count_begin(void);
uint32_t cross_count_end(void);
const char *cross_count_unit(void);

#endif
