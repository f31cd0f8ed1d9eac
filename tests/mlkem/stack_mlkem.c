/* Stack use of ML-KEM keygen, encaps and decaps (derandomized forms), per implementation and
 * level, measured by painting: each operation runs on a thread whose stack is a painted buffer,
 * and the deepest overwritten byte gives the bytes used (minus the cost of an empty thread).
 * Prints one line per measurement and fails if any exceeds the budget. Figures from a build
 * without sanitizers are the meaningful ones (ASan adds red zones). */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nuri/mlkem.h"
#include "test_util.h"

#define STACK_BYTES (512 * 1024)
#define BUDGET      (160 * 1024)

typedef struct {
    int op; /* 0 nothing, 1 keygen, 2 encaps, 3 decaps */
    unsigned level;
    const char *impl;
    uint8_t seed[64], m[32], ss[32];
    uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], ct[NURI_MLKEM_MAX_CT_BYTES];
    int rc;
} job;

static void *run(void *arg)
{
    job *j = arg;
    size_t ekl = nuri_mlkem_ek_bytes(j->level), dkl = nuri_mlkem_dk_bytes(j->level),
           ctl = nuri_mlkem_ct_bytes(j->level);
    nuri_mlkem_ctx kem;
    j->rc = j->op ? nuri_mlkem_init(&kem, (nuri_mlkem_level)j->level, j->impl) : 0;
    if (j->rc) return NULL;
    switch (j->op) {
    case 1:
        j->rc = nuri_mlkem_keygen(&kem, j->ek, ekl, j->dk, dkl, j->seed, 64);
        break;
    case 2:
        j->rc = nuri_mlkem_encaps(&kem, j->ct, ctl, j->ss, 32, j->ek, ekl, j->m, 32);
        break;
    case 3:
        j->rc = nuri_mlkem_decaps(&kem, j->ss, 32, j->ct, ctl, j->dk, dkl);
        break;
    default:
        j->rc = 0;
        break;
    }
    return NULL;
}

static long measure(job *j)
{
    static uint8_t *stack;
    if (!stack && !(stack = aligned_alloc(4096, STACK_BYTES))) return -1;
    memset(stack, 0xA5, STACK_BYTES);
    pthread_attr_t at;
    pthread_t th;
    pthread_attr_init(&at);
    pthread_attr_setstack(&at, stack, STACK_BYTES);
    if (pthread_create(&th, &at, run, j) != 0) return -1;
    pthread_join(th, NULL);
    pthread_attr_destroy(&at);
    size_t i = 0;
    while (i < STACK_BYTES && stack[i] == 0xA5) i++; /* the stack grows down from stack + STACK_BYTES */
    return (long)(STACK_BYTES - i);
}

int main(void)
{
    static const unsigned levels[3] = {512, 768, 1024};
    static const char *ops[4] = {"", "keygen", "encaps", "decaps"};
    job *j = calloc(1, sizeof *j);
    if (!j) return 2;
    for (int i = 0; i < 64; i++) j->seed[i] = (uint8_t)i;
    long base = measure(j);
    CHECK(base >= 0, "empty thread measured");
    printf("empty-thread baseline: %ld bytes (subtracted below)\n", base);
    for (size_t ii = 0; ii < nuri_mlkem_impl_count(); ii++) {
        if (!nuri_mlkem_impl_supported(ii)) continue;
        j->impl = nuri_mlkem_impl_info(ii)->name;
        for (int li = 0; li < 3; li++) {
            j->level = levels[li];
            for (int op = 1; op <= 3; op++) {
                j->op = op;
                long used = measure(j) - base;
                CHECK(j->rc == 0, "%s ML-KEM-%u %s succeeded", j->impl, j->level, ops[op]);
                CHECK(used > 0 && used < BUDGET, "%s ML-KEM-%u %s stack %ld within %d", j->impl, j->level, ops[op],
                      used, BUDGET);
                printf("stack %s ML-KEM-%u %s: %ld bytes\n", j->impl, j->level, ops[op], used);
            }
        }
    }
    free(j);
    return tu_finish("stack_mlkem");
}
