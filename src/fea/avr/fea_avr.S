/* FEA round function for the 8-bit AVR (ATmega328P), tables in flash.
 *
 * SD(x): output byte i = XOR_j c[(i+j) mod 8] * S(x_j) (spec byte 0 = most significant), read as
 * XOR_j T_{(i+j) mod 8}[x_j] from eight 256-byte flash tables T_k = c_k * S (fea_avr_tables.inc,
 * 2 KiB, 256-byte aligned so that Z = (hi8(T_k), x_j) needs one MOV and one LDI). One lookup is
 * MOV + LPM + EOR = 5 cycles; SD is 64 lookups + 8 LDI = 328 cycles, F = SD(SD(x ^ rk0) ^ rk1).
 *
 * Timing: no branches, and LPM takes 3 cycles at every address (the AVR has no cache), so the
 * cycle count does not depend on the data on this MCU. The loads are still indexed by secret
 * bytes, so by the project's rule this kernel is registered with constant_time = 0.
 *
 * Registers (avr-gcc ABI): the 64-bit word lives little-endian in r18..r25 (r25 = spec byte 0);
 * the second buffer is r10..r17 (r17 = spec byte 0, call-saved: pushed); r0 and Z are scratch.
 *
 *   void nuri_fea_avr_f1(const uint64_t rk[2], uint64_t *x);   x = F(x) in place
 *   uint64_t nuri_fea_avr_sd(uint64_t x);                       one S-layer + M (key schedule)
 */
#include <avr/io.h>


/* one table pass: dst byte (k - j) mod 8 ^= T_k[src byte j] for j = 0..7 (k = 0 assigns) */
.macro SDPASS src, dst, k
    ldi r31, hi8(fea_avr_T\k)
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    mov r30, \src + 7 - \j
    .if \k == 0
    lpm \dst + 7 - ((\k - \j + 8) % 8), Z
    .else
    lpm r0, Z
    eor \dst + 7 - ((\k - \j + 8) % 8), r0
    .endif
    .endr
.endm

.macro SD src, dst
    .irp k, 0, 1, 2, 3, 4, 5, 6, 7
    SDPASS \src, \dst, \k
    .endr
.endm

.macro PUSHY
    push r10
    push r11
    push r12
    push r13
    push r14
    push r15
    push r16
    push r17
.endm
.macro POPY
    pop r17
    pop r16
    pop r15
    pop r14
    pop r13
    pop r12
    pop r11
    pop r10
.endm

    .section .text.nuri_fea_avr_f1, "ax", @progbits
    .global nuri_fea_avr_f1
    .type nuri_fea_avr_f1, @function
nuri_fea_avr_f1:
    PUSHY
    push r28
    push r29
    movw r28, r24          /* Y = rk */
    movw r26, r22          /* X = x */
    .irp r, 18, 19, 20, 21, 22, 23, 24, 25
    ld \r, X+
    ld r0, Y+
    eor \r, r0
    .endr
    SD 18, 10
    .irp r, 10, 11, 12, 13, 14, 15, 16, 17
    ld r0, Y+
    eor \r, r0
    .endr
    SD 10, 18
    sbiw r26, 8
    .irp r, 18, 19, 20, 21, 22, 23, 24, 25
    st X+, \r
    .endr
    pop r29
    pop r28
    POPY
    clr r1
    ret
    .size nuri_fea_avr_f1, . - nuri_fea_avr_f1

    .section .text.nuri_fea_avr_sd, "ax", @progbits
    .global nuri_fea_avr_sd
    .type nuri_fea_avr_sd, @function
nuri_fea_avr_sd:
    PUSHY
    SD 18, 10
    movw r18, r10
    movw r20, r12
    movw r22, r14
    movw r24, r16
    POPY
    clr r1
    ret
    .size nuri_fea_avr_sd, . - nuri_fea_avr_sd

    .section .progmem.data.fea_avr_tables, "a", @progbits
    .p2align 8
#include "fea_avr_tables.inc"
