/* Minimal C test helpers shared by every family's tests: checks that count and report,
 * hex helpers, a seeded PRNG, and a parser for "NAME = VALUE" vector files (NIST KAT style). */
#ifndef NURI_TEST_UTIL_H
#define NURI_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned long tu_passed, tu_failed;

#define CHECK(cond, ...)                                         \
    do {                                                         \
        if (cond) {                                              \
            tu_passed++;                                         \
        } else {                                                 \
            tu_failed++;                                         \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                        \
            fputc('\n', stderr);                                 \
        }                                                        \
    } while (0)

#define CHECK_MEM(a, b, n, ...) CHECK(memcmp((a), (b), (n)) == 0, __VA_ARGS__)

/* Prints the plain summary line and returns the exit status. */
int tu_finish(const char *name);

/* One vector set (a file of tests/vectors, or a table generated from one): call tu_set_begin before
 * checking it and tu_set_end after, with the number of vectors it held. tu_set_end prints
 * "<test>: <set>: <count> vectors passed" (or how many checks failed) and fails the run when the
 * count is not the expected one (expected = 0: any count above zero). */
void tu_set_begin(void);
void tu_set_end(const char *test, const char *set, unsigned long count, unsigned long expected);

/* Decodes hex (any case, no separators) into out; returns byte count or -1. */
long tu_unhex(uint8_t *out, size_t cap, const char *hex);
void tu_hex(char *out, const uint8_t *in, size_t n); /* out needs 2n+1 bytes, upper case */

/* Deterministic PRNG (splitmix64); seed printed by tu_seed_from_env so failures reproduce. */
uint64_t tu_rand64(void);
void tu_randbytes(uint8_t *out, size_t n);
uint64_t tu_seed_from_env(void); /* NURI_TEST_SEED or a fixed default */

/* Vector files: records of "NAME = VALUE" lines separated by blank lines; '#' starts a comment.
 * tu_kv_next fills a record; returns 1 on a record, 0 at EOF. Values are kept as strings. */
#define TU_KV_MAX 32
typedef struct {
    FILE *f;
    int nfields;
    char name[TU_KV_MAX][64];
    char *value[TU_KV_MAX];
    char *line;
    size_t linecap;
} tu_kv;
int tu_kv_open(tu_kv *kv, const char *path);
int tu_kv_next(tu_kv *kv);
const char *tu_kv_get(const tu_kv *kv, const char *name); /* NULL if absent */
void tu_kv_close(tu_kv *kv);

#endif
