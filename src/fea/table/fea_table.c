/* FEA T-table kernel: SD(x) = XOR_j T_j[byte j of x], 8 tables of 256 x u64 combining the S-box
 * and M's column j. Fastest scalar path; the loads are indexed by secret bytes, so NOT constant
 * time (cache-timing); never chosen by dispatch. */
#include "../fea_impl.h"
#include "fea_ttables.h"

static inline uint64_t sd(uint64_t x)
{
    return fea_T[0][x >> 56] ^ fea_T[1][(x >> 48) & 0xFF] ^ fea_T[2][(x >> 40) & 0xFF] ^ fea_T[3][(x >> 32) & 0xFF] ^
           fea_T[4][(x >> 24) & 0xFF] ^ fea_T[5][(x >> 16) & 0xFF] ^ fea_T[6][(x >> 8) & 0xFF] ^ fea_T[7][x & 0xFF];
}

uint64_t nuri_fea_table_sd(uint64_t x) { return sd(x); }

void nuri_fea_table_f(const uint64_t rk[2], uint64_t *x, size_t count)
{
    const uint64_t ka = rk[0], kb = rk[1];
    size_t i = 0;
    /* two independent values per iteration for instruction-level parallelism */
    for (; i + 2 <= count; i += 2) {
        uint64_t u = sd(x[i] ^ ka), v = sd(x[i + 1] ^ ka);
        x[i] = sd(u ^ kb);
        x[i + 1] = sd(v ^ kb);
    }
    for (; i < count; i++) x[i] = sd(sd(x[i] ^ ka) ^ kb);
}

const nuri_fea_impl nuri_fea_backend_table = {
    .info = {"table", 0, 0,
             "8 T-tables of 256 x u64 (S-layer and M combined); secret-indexed loads: NOT constant time"},
    .f = nuri_fea_table_f,
    .sd = nuri_fea_table_sd,
};
