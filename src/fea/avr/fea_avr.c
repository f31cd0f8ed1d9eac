/* FEA kernel for the 8-bit AVR: the round function in assembly (fea_avr.S, flash tables read
 * with LPM), one value at a time. Registered for NURI_TARGET=avr with constant_time = 0: the
 * flash loads are indexed by secret bytes (see fea_avr.S on why the timing is nonetheless
 * data-independent on this MCU). */
#include <avr/pgmspace.h>

#include "../fea_impl.h"

void nuri_fea_avr_f1(const uint64_t rk[2], uint64_t *x);

void nuri_fea_avr_f(const uint64_t rk[2], uint64_t *x, size_t count)
{
    for (size_t i = 0; i < count; i++) nuri_fea_avr_f1(rk, x + i);
}

/* Round constant s of the key schedule (fea_rc[variant-1][ks][s] of fea_tables.h), read from
 * the flash copy in fea_avr_tables.inc: the 576-byte table would otherwise take RAM. */
extern const uint8_t nuri_fea_avr_rc_table[] PROGMEM;
uint64_t nuri_fea_avr_rc(unsigned variant, unsigned ks, unsigned s)
{
    uint64_t v;
    memcpy_P(&v, nuri_fea_avr_rc_table + 8 * (12 * (3 * (variant - 1) + ks) + s), 8);
    return v;
}

const nuri_fea_impl nuri_fea_backend_avr = {
    .info = {"avr", 0, 0, "AVR assembly, flash tables c_k*S read with LPM; secret-indexed: NOT constant time"},
    .f = nuri_fea_avr_f,
    .sd = nuri_fea_avr_sd,
};
