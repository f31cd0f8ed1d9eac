/* See cross_support.h. */
#include "cross_support.h"

#ifdef __AVR__
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

static int uart_putchar(char c, FILE *f)
{
    (void)f;
    if (c == '\n') uart_putchar('\r', f);
    loop_until_bit_is_set(UCSR0A, UDRE0);
    UDR0 = (uint8_t)c;
    return 0;
}
static FILE uart_out = FDEV_SETUP_STREAM(uart_putchar, NULL, _FDEV_SETUP_WRITE);
/* Stack paint: the RAM between the end of .bss and the stack pointer is filled with a pattern at
 * start; cross_finish reports how much of it was never touched, and fails on none (a stack that
 * ran into .data/.bss corrupts them silently on the ATmega328P's 2 KiB). */
extern uint8_t __heap_start;
#define PAINT 0xA5
static void paint_stack(void)
{
    uint8_t here;
    for (uint8_t *p = &__heap_start; p < &here - 32; p++) *p = PAINT;
}
static unsigned stack_unused(void)
{
    const uint8_t *p = &__heap_start;
    while (*p == PAINT) p++;
    return (unsigned)(p - &__heap_start);
}
static void platform_init(void)
{
    UCSR0B = (uint8_t)(1 << TXEN0);
    stdout = &uart_out;
    paint_stack();
}
/* simavr_run reads the exit code from GPIOR1 and stops on a sleep with interrupts off. */
static int platform_exit(int rc)
{
    GPIOR1 = (uint8_t)rc;
    cli();
    sleep_mode();
    for (;;) {}
    return rc;
}
#else
static void platform_init(void) { setvbuf(stdout, NULL, _IONBF, 0); }
static int platform_exit(int rc)
{
    fflush(stdout);
    return rc;
}
#endif

unsigned long cross_passed, cross_failed;

int cross_finish(const char *name)
{
#ifdef __AVR__
    unsigned unused = stack_unused();
    printf("stack: %u bytes of RAM never reached\n", unused);
    if (unused == 0) {
        printf("stack overflow into .data/.bss\n");
        cross_failed++;
    }
#endif
    printf("%s: %lu passed, %lu failed\n", name, cross_passed, cross_failed);
    return cross_failed ? 1 : (cross_passed ? 0 : 1);
}

static uint32_t rng_state = 0x2545F491u;
uint32_t cross_rand(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}
void cross_randbytes(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(cross_rand() >> 24);
}

#if defined(__riscv)
static uint32_t count_start, count_overhead;
static inline uint32_t rd_instret(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, minstret" : "=r"(v));
    return v;
}
void cross_count_begin(void) { count_start = rd_instret(); }
uint32_t cross_count_end(void)
{
    uint32_t v = rd_instret();
    return v - count_start - count_overhead;
}
const char *cross_count_unit(void) { return "instructions"; }
static void calibrate(void)
{
    cross_count_begin();
    count_overhead = 0;
    count_overhead = cross_count_end();
}
#elif defined(__AVR__)
static uint32_t count_overhead;
void cross_count_begin(void) { GPIOR0 = 1; }
uint32_t cross_count_end(void)
{
    GPIOR0 = 2;
    uint32_t v = 0;
    /* the harness answers four reads of GPIOR2 with the cycles between the marks, LSB first */
    for (uint8_t i = 0; i < 4; i++) v |= (uint32_t)GPIOR2 << (8 * i);
    return v - count_overhead;
}
const char *cross_count_unit(void) { return "cycles"; }
static void calibrate(void)
{
    cross_count_begin();
    count_overhead = 0;
    count_overhead = cross_count_end();
}
#else
void cross_count_begin(void) {}
uint32_t cross_count_end(void) { return 0; }
const char *cross_count_unit(void) { return "none"; }
static void calibrate(void) {}
#endif

int main(void)
{
    platform_init();
    calibrate();
    return platform_exit(cross_main());
}
