/* Block assembly for nuri_keccak_job lists (keccakx4_avx2.c, keccak1_bmi2.c): block `off` of a
 * job's message pre || in, with the padding if it is the last block. */
#ifndef NURI_KECCAK_JOB_H
#define NURI_KECCAK_JOB_H

#include <string.h>

#include "fips202.h"

/* Block `off` of job j's message pre || in, padded if it is the last one (branches on lengths only). */
static inline void nuri_keccak_job_block(uint8_t *blk, const nuri_keccak_job *j, size_t off, unsigned rate)
{
    const size_t total = j->prelen + j->len, end = off + rate < total ? off + rate : total;
    memset(blk, 0, rate);
    if (off < j->prelen) memcpy(blk, j->pre + off, (end < j->prelen ? end : j->prelen) - off);
    const size_t from = off > j->prelen ? off : j->prelen;
    if (end > from) memcpy(blk + (from - off), j->in + (from - j->prelen), end - from);
    if (total - off < rate) { /* the last block: off <= total always holds here */
        blk[total - off] ^= j->ds;
        blk[rate - 1] ^= 0x80;
    }
}

#endif
