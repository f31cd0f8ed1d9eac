/* Cortex-M vector table for the QEMU MPS2 boards: reset goes to newlib/rdimon's _start, which
 * zeroes .bss, sets up semihosting stdio, calls main and exits with its return value. */
extern unsigned __stack_top;
extern void _start(void);
void nuri_cm_default_handler(void);
void nuri_cm_default_handler(void)
{
    for (;;) {}
}
#define H ((const void *)nuri_cm_default_handler)
__attribute__((section(".vectors"), used))
const void *const nuri_cm_vectors[16] = {&__stack_top, (const void *)_start, H, H, H, H, H, 0, 0, 0, 0, H, H, 0, H, H};
