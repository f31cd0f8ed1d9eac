/* AArch64 SPARKLE kernels (src/sparkle/a64, src/sparkle/neon) against the portable reference:
 *  - the 12 permutation vectors of tests/vectors/sparkle/sparkle_permutation_vectors.txt
 *    (embedded below) for ref, a64 and neon;
 *  - differential: nb = 4/6/8, every step count 0..33 (0 must leave the state alone; 1..13
 *    covers all slim/big counts and every unrolled loop position; up to 33 crosses the
 *    24-step unroll of a64 SPARKLE384), random states, with guard words before and after the
 *    state so out-of-bounds loads/stores show up;
 *  - AAPCS64: x19-x28, d8-d15 and sp are preserved across the assembly calls.
 * Built only for AArch64 targets (tests/sparkle/arm.cmake); runs under qemu-aarch64. */
#include <stdint.h>
#include <string.h>

#include "sparkle_impl.h"
#include "test_util.h"

typedef void (*perm_fn)(uint32_t *state, unsigned nb, unsigned steps);

static const struct {
    const char *name;
    perm_fn fn;
} kernels[] = {
    {"ref", nuri_sparkle_ref_permute},
    {"a64", nuri_sparkle_a64_permute},
    {"neon", nuri_sparkle_neon_permute},
};
#define NKERNELS (sizeof kernels / sizeof kernels[0])

/* From tests/vectors/sparkle/sparkle_permutation_vectors.txt (bytes, words little-endian). */
static const struct {
    unsigned nb, steps;
    const char *in, *out;
} perm_vectors[] = {
    {4, 7, "0000000000000000000000000000000000000000000000000000000000000000",
     "5E32CE55527699B650F0533A366F54497B2DC386DBB844EE45B3A55D1FAF7257"},
    {4, 7, "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
     "A2DD2DB3C9FC34C20AFE0A77FCD42C0BF1F447AAAF45B174A4966F5FCACF1E8E"},
    {4, 10, "0000000000000000000000000000000000000000000000000000000000000000",
     "7ED456C031AF461CBE53B3BF8A114CEB569BAB606A87FC0F81861D8CB2D026D6"},
    {4, 10, "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
     "4A1C59A296FEAEF7529F19EC1E66341B4CA20EC870EE034331EF695776721E34"},
    {6, 7, "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
     "7968F94D332C7C8C4A6B2382D74D4F90E830A0D6AA093BF034BBC3C4F9DF63F0FFCEF961FA1FC28E0F37DF93E2F1AC83"},
    {6, 7, "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F",
     "BBBE68FD4498E7F1CE2D595246B392123CD7FB4F296BE4153A73FE69C6537F2603095A32ED635C2D58BDA4F6A1238204"},
    {6, 11, "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
     "25BFC2F355DD53FC0654D6CA17F9AF9E8C64A53F48F2A2E1EEFC41583C7E933A442CF761DA73662BA5198416226B9EFF"},
    {6, 11, "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F",
     "C3B356D638376821DBC1036782EA95A3F0FDD10D084FA093A97DC5D94E97A6E7F34DB2249F962859D242EB0751C0D2BD"},
    {8, 8,
     "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000",
     "47079EE474E39E9542EEDD6033FD351B97A62956420BA6D66492B6D2AD3D9FE8EA9C6A5F91EB1529255850FF01C4A5ED82798D09A0B02BC6E"
     "BD3A15A01C08500"},
    {8, 8,
     "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F30313233343536373"
     "8393A3B3C3D3E3F",
     "B557276B6607C859F268551FB154FD9C080D717217DA83690D82E58FAD1CC022C82A857C3B184FD1EC38E30B6DB17B4F04E7B2AB37129B27A"
     "285B969BD80E91E"},
    {8, 12,
     "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000",
     "4005224EA9A4C139EC0751B8DE6955D91E71087EB1991924D676F53C7B5906DC68742EFB4D38F1B7F6BB41A8D0169379F019A57FE7C86A0BE"
     "5DEC146C8FA2EB6"},
    {8, 12,
     "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F30313233343536373"
     "8393A3B3C3D3E3F",
     "97A3EBA469BC018F68E5C04B3A55E03A8F23FB390FDB1150B395D795FA8CEA178D12C722911814BEF78DE3F0CC65EDD454AD58F0A8738F004"
     "6F1CCBDFB8D09F1"},
};

static void load_le(uint32_t *w, const uint8_t *b, size_t nwords)
{
    for (size_t i = 0; i < nwords; i++)
        w[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
               (uint32_t)b[4 * i + 3] << 24;
}

static void test_vectors(void)
{
    for (size_t k = 0; k < NKERNELS; k++) {
        for (size_t v = 0; v < sizeof perm_vectors / sizeof perm_vectors[0]; v++) {
            uint8_t in[64], out[64];
            uint32_t st[16], exp[16];
            long n = tu_unhex(in, sizeof in, perm_vectors[v].in);
            long m = tu_unhex(out, sizeof out, perm_vectors[v].out);
            CHECK(n == (long)(8 * perm_vectors[v].nb) && m == n, "vector %zu length", v);
            if (n != m || n != (long)(8 * perm_vectors[v].nb)) continue;
            load_le(st, in, (size_t)n / 4);
            load_le(exp, out, (size_t)n / 4);
            kernels[k].fn(st, perm_vectors[v].nb, perm_vectors[v].steps);
            CHECK_MEM(st, exp, (size_t)n, "%s: SPARKLE%ld-%u vector %zu", kernels[k].name, n * 8, perm_vectors[v].steps,
                      v);
        }
    }
}

#define GUARD 8
static void test_differential(void)
{
    static const unsigned nbs[3] = {4, 6, 8};
    for (size_t k = 1; k < NKERNELS; k++) {
        for (int b = 0; b < 3; b++) {
            unsigned nb = nbs[b];
            for (unsigned steps = 0; steps <= 33; steps++) {
                int ok = 1;
                for (int rep = 0; rep < 8; rep++) {
                    uint32_t want[GUARD + 16 + GUARD], got[GUARD + 16 + GUARD];
                    tu_randbytes((uint8_t *)want, sizeof want);
                    memcpy(got, want, sizeof want);
                    nuri_sparkle_ref_permute(want + GUARD, nb, steps);
                    kernels[k].fn(got + GUARD, nb, steps);
                    if (memcmp(want, got, sizeof want) != 0) ok = 0;
                }
                CHECK(ok, "%s: SPARKLE%u with %u steps differs from ref (or wrote outside the state)", kernels[k].name,
                      64 * nb, steps);
            }
        }
    }
    /* in-place chaining: many calls in a row on one state (as the modes use it) */
    for (size_t k = 1; k < NKERNELS; k++) {
        for (int b = 0; b < 3; b++) {
            uint32_t a[16], c[16];
            tu_randbytes((uint8_t *)a, sizeof a);
            memcpy(c, a, sizeof a);
            for (unsigned i = 0; i < 200; i++) {
                unsigned steps = 1 + (unsigned)(tu_rand64() % 14);
                nuri_sparkle_ref_permute(a, nbs[b], steps);
                kernels[k].fn(c, nbs[b], steps);
            }
            CHECK_MEM(a, c, 8 * nbs[b], "%s: SPARKLE%u chained calls", kernels[k].name, 64 * nbs[b]);
        }
    }
}

#if defined(__aarch64__)
/* Calls fn with magic values in every callee-saved register and returns a nonzero mask when any
 * of x19-x28, d8-d15 or sp differs afterwards. Every caller-saved register is declared clobbered,
 * so the compiler keeps the operands in callee-saved registers, which the asm saves itself. */
static uint64_t abi_call(perm_fn fn, uint32_t *st, unsigned nb, unsigned steps)
{
    uint64_t bad;
    __asm__ volatile("mov x0, %1\n\t"
                     "mov w1, %w2\n\t"
                     "mov w2, %w3\n\t"
                     "mov x16, %4\n\t"
                     "stp x19, x20, [sp, #-96]!\n\t"
                     "stp x21, x22, [sp, #16]\n\t"
                     "stp x23, x24, [sp, #32]\n\t"
                     "stp x25, x26, [sp, #48]\n\t"
                     "stp x27, x28, [sp, #64]\n\t"
                     "mov x17, sp\n\t"
                     "str x17, [sp, #80]\n\t"
                     "movz x19, #0x1919, lsl #16\n\t"
                     "add x20, x19, #1\n\t"
                     "add x21, x19, #2\n\t"
                     "add x22, x19, #3\n\t"
                     "add x23, x19, #4\n\t"
                     "add x24, x19, #5\n\t"
                     "add x25, x19, #6\n\t"
                     "add x26, x19, #7\n\t"
                     "add x27, x19, #8\n\t"
                     "add x28, x19, #9\n\t"
                     "add x9, x19, #10\n\t"
                     "fmov d8, x9\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov d9, x9\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov d10, x9\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov d11, x9\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov d12, x9\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov d13, x9\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov d14, x9\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov d15, x9\n\t"
                     "blr x16\n\t"
                     "mov x10, #0\n\t"
                     "movz x9, #0x1919, lsl #16\n\t"
                     "eor x11, x19, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "eor x11, x20, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "eor x11, x21, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "eor x11, x22, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "eor x11, x23, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "eor x11, x24, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "eor x11, x25, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "eor x11, x26, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "eor x11, x27, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "eor x11, x28, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov x11, d8\n\t"
                     "eor x11, x11, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov x11, d9\n\t"
                     "eor x11, x11, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov x11, d10\n\t"
                     "eor x11, x11, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov x11, d11\n\t"
                     "eor x11, x11, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov x11, d12\n\t"
                     "eor x11, x11, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov x11, d13\n\t"
                     "eor x11, x11, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov x11, d14\n\t"
                     "eor x11, x11, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "add x9, x9, #1\n\t"
                     "fmov x11, d15\n\t"
                     "eor x11, x11, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "mov x17, sp\n\t"
                     "ldr x9, [sp, #80]\n\t"
                     "eor x11, x17, x9\n\t"
                     "orr x10, x10, x11\n\t"
                     "ldp x21, x22, [sp, #16]\n\t"
                     "ldp x23, x24, [sp, #32]\n\t"
                     "ldp x25, x26, [sp, #48]\n\t"
                     "ldp x27, x28, [sp, #64]\n\t"
                     "ldp x19, x20, [sp], #96\n\t"
                     "mov %0, x10\n\t"
                     : "=r"(bad)
                     : "r"(st), "r"(nb), "r"(steps), "r"(fn)
                     : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
                       "x15", "x16", "x17", "x30", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10",
                       "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
                       "v25", "v26", "v27", "v28", "v29", "v30", "v31", "cc", "memory");
    return bad;
}

static void test_abi(void)
{
    static const unsigned nbs[3] = {4, 6, 8};
    for (size_t k = 1; k < NKERNELS; k++) {
        for (int b = 0; b < 3; b++) {
            for (unsigned steps = 0; steps <= 9; steps++) {
                uint32_t a[16], c[16];
                tu_randbytes((uint8_t *)a, sizeof a);
                memcpy(c, a, sizeof a);
                nuri_sparkle_ref_permute(a, nbs[b], steps);
                uint64_t bad = abi_call(kernels[k].fn, c, nbs[b], steps);
                CHECK(bad == 0, "%s: SPARKLE%u/%u steps clobbers a callee-saved register (mask %llx)", kernels[k].name,
                      64 * nbs[b], steps, (unsigned long long)bad);
                CHECK_MEM(a, c, 8 * nbs[b], "%s: SPARKLE%u/%u through abi_call", kernels[k].name, 64 * nbs[b], steps);
            }
        }
    }
}
#endif

int main(void)
{
    printf("seed %llu\n", (unsigned long long)tu_seed_from_env());
    test_vectors();
    test_differential();
#if defined(__aarch64__)
    test_abi();
#endif
    return tu_finish("test_sparkle_arm");
}
