/* simavr_run: runs an ATmega328P firmware under libsimavr, for ctest (the AVR emulator hook)
 * and the AVR benchmarks. Host program (gcc -I/usr/include/simavr simavr_run.c -lsimavr).
 *  - UART0 output goes to stdout, byte for byte;
 *  - the exit code is the value the firmware last wrote to GPIOR1 (tests/cross/cross_support.c);
 *  - GPIOR0 = 1 / GPIOR0 = 2 mark a measured interval: the exact simavr cycle count between the
 *    two writes is answered, LSB first, by the next four reads of GPIOR2;
 *  - the run ends when the firmware sleeps with interrupts off (cpu_Done), or fails on a crash or
 *    after a cycle budget (argv[2], default 4e9 cycles = 250 s of simulated time at 16 MHz). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_io.h"

#define IO_GPIOR0 0x3E
#define IO_GPIOR1 0x4A
#define IO_GPIOR2 0x4B

static avr_cycle_count_t mark_start, last_interval;
static unsigned read_index;
static int exit_code = 255, exit_set;

static void on_uart(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (value != '\r') putchar((int)(value & 0xff));
}

static void on_gpior0(struct avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)param;
    avr->data[addr] = v;
    if (v == 1) mark_start = avr->cycle;
    if (v == 2) {
        last_interval = avr->cycle - mark_start;
        read_index = 0;
    }
}

static uint8_t on_gpior2_read(struct avr_t *avr, avr_io_addr_t addr, void *param)
{
    (void)avr;
    (void)addr;
    (void)param;
    uint8_t b = (uint8_t)(last_interval >> (8 * (read_index & 3)));
    read_index++;
    return b;
}

static void on_gpior1(struct avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)param;
    avr->data[addr] = v;
    exit_code = v;
    exit_set = 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s firmware.elf [max_cycles]\n", argv[0]);
        return 2;
    }
    avr_cycle_count_t budget = argc > 2 ? strtoull(argv[2], NULL, 0) : 4000000000ull;
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw) != 0) {
        fprintf(stderr, "simavr_run: cannot read %s\n", argv[1]);
        return 2;
    }
    const char *mmcu = fw.mmcu[0] ? fw.mmcu : "atmega328p";
    avr_t *avr = avr_make_mcu_by_name(mmcu);
    if (!avr) {
        fprintf(stderr, "simavr_run: unknown mcu %s\n", mmcu);
        return 2;
    }
    avr_init(avr);
    avr->frequency = fw.frequency ? fw.frequency : 16000000;
    avr->log = 0;
    avr_load_firmware(avr, &fw);
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart, NULL);
    avr_register_io_write(avr, IO_GPIOR0, on_gpior0, NULL);
    avr_register_io_write(avr, IO_GPIOR1, on_gpior1, NULL);
    avr_register_io_read(avr, IO_GPIOR2, on_gpior2_read, NULL);
    int state = cpu_Running;
    while (state != cpu_Done && state != cpu_Crashed && avr->cycle < budget) state = avr_run(avr);
    fflush(stdout);
    if (state == cpu_Crashed) {
        fprintf(stderr, "simavr_run: firmware crashed at cycle %llu\n", (unsigned long long)avr->cycle);
        return 3;
    }
    if (state != cpu_Done) {
        fprintf(stderr, "simavr_run: no exit after %llu cycles\n", (unsigned long long)avr->cycle);
        return 4;
    }
    if (!exit_set) {
        fprintf(stderr, "simavr_run: firmware stopped without an exit code\n");
        return 5;
    }
    return exit_code;
}
