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

/* Blocks of job j's padded message, and block b of it: a pointer into j->in when the block lies
 * whole inside it and is not the last, else assembled (with the padding) in blk. */
static inline size_t nuri_keccak_job_blocks(const nuri_keccak_job *j, unsigned rate)
{
    return (j->prelen + j->len) / rate + 1;
}
static inline const uint8_t *nuri_keccak_job_block_at(uint8_t *blk, const nuri_keccak_job *j, size_t b, unsigned rate)
{
    const size_t off = b * rate;
    if (off >= j->prelen && off + rate <= j->prelen + j->len) return j->in + (off - j->prelen);
    nuri_keccak_job_block(blk, j, off, rate);
    return blk;
}

#endif
