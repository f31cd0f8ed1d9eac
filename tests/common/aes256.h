/* Small AES-256 block encryption (FIPS 197) for tests: the CTR-DRBG of the NIST-style KATs where
 * libcrypto is not available (the emulated targets). Not constant time; test code only. */
#ifndef NURI_TEST_AES256_H
#define NURI_TEST_AES256_H

#include <stdint.h>

void tu_aes256_encrypt(const uint8_t key[32], const uint8_t in[16], uint8_t out[16]);

#endif
