/* Small SHA-256 (FIPS 180-4) for tests: digests of generated vector files and the like. */
#ifndef NURI_TEST_SHA256_H
#define NURI_TEST_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t len;
    uint8_t buf[64];
    size_t n;
} tu_sha256_ctx;

void tu_sha256_init(tu_sha256_ctx *s);
void tu_sha256_update(tu_sha256_ctx *s, const void *data, size_t len);
void tu_sha256_final(tu_sha256_ctx *s, uint8_t out[32]);
void tu_sha256(uint8_t out[32], const void *data, size_t len);

#endif
