/* CPU feature detection. On x86-64, a feature counts only if the CPU has it (cpuid) AND the OS
 * saves the register state it needs (xgetbv / XCR0): AVX needs XMM|YMM, AVX-512 also needs
 * opmask|ZMM_Hi256|Hi16_ZMM. A hypervisor or valgrind may hide bits; we trust what we see. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nuri_internal.h"

#if defined(NURI_X86_64)
#include <cpuid.h>

static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static uint32_t detect(void)
{
    uint32_t a, b, c, d, f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (d & (1u << 26)) f |= NURI_CPU_SSE2;
    if (c & (1u << 9)) f |= NURI_CPU_SSSE3;
    if (c & (1u << 19)) f |= NURI_CPU_SSE41;
    if (c & (1u << 25)) f |= NURI_CPU_AESNI;
    if (c & (1u << 1)) f |= NURI_CPU_PCLMUL;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    uint64_t xcr0 = osxsave ? read_xcr0() : 0;
    int ymm_ok = (xcr0 & 0x6) == 0x6;             /* XMM and YMM state */
    int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    if (avx && ymm_ok) f |= NURI_CPU_AVX;
    uint32_t max_leaf = __get_cpuid_max(0, NULL);
    if (max_leaf >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if ((b & (1u << 5)) && ymm_ok) f |= NURI_CPU_AVX2;
        if (b & (1u << 8)) f |= NURI_CPU_BMI2;
        if (zmm_ok) {
            if (b & (1u << 16)) f |= NURI_CPU_AVX512F;
            if (b & (1u << 17)) f |= NURI_CPU_AVX512DQ;
            if (b & (1u << 30)) f |= NURI_CPU_AVX512BW;
            if (b & (1u << 31)) f |= NURI_CPU_AVX512VL;
            if (c & (1u << 1)) f |= NURI_CPU_AVX512VBMI;
        }
        /* GFNI's SSE form needs only SSE state; its VEX/EVEX forms are gated by AVX/AVX-512. */
        if (c & (1u << 8)) f |= NURI_CPU_GFNI;
        if ((c & (1u << 9)) && ymm_ok) f |= NURI_CPU_VAES; /* VEX.256 form needs YMM state */
    }
    return f;
}
#elif defined(NURI_AARCH64)
#if defined(__linux__)
#include <sys/auxv.h>
#endif
static uint32_t detect(void)
{
    uint32_t f = NURI_CPU_NEON; /* ASIMD is mandatory in ARMv8-A */
#if defined(__linux__)
    const unsigned long hw = getauxval(AT_HWCAP);
    if (hw & (1ul << 3)) f |= NURI_CPU_ARM_AES;   /* HWCAP_AES */
    if (hw & (1ul << 17)) f |= NURI_CPU_ARM_SHA3; /* HWCAP_SHA3 */
#endif
    return f;
}
#else
static uint32_t detect(void) { return 0; }
#endif

uint32_t nuri_cpu_features(void)
{
    static volatile uint32_t cached;
    static volatile int done;
    if (!done) {
        cached = detect();
        done = 1;
    }
    uint32_t f = cached;
#ifndef NURI_NO_GETENV
    const char *mask = nuri_getenv_cached(NURI_ENV_CPU_MASK);
    if (mask && *mask) f &= ~(uint32_t)strtoul(mask, NULL, 16);
#endif
    return f;
}

int nuri_cpu_has(uint32_t need) { return (nuri_cpu_features() & need) == need; }

const char *nuri_cpu_feature_names(uint32_t features, char *out, size_t out_cap)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {
        {NURI_CPU_SSE2, "sse2"},
        {NURI_CPU_SSSE3, "ssse3"},
        {NURI_CPU_SSE41, "sse4.1"},
        {NURI_CPU_AVX, "avx"},
        {NURI_CPU_AVX2, "avx2"},
        {NURI_CPU_BMI2, "bmi2"},
        {NURI_CPU_AVX512F, "avx512f"},
        {NURI_CPU_AVX512BW, "avx512bw"},
        {NURI_CPU_AVX512VL, "avx512vl"},
        {NURI_CPU_AVX512DQ, "avx512dq"},
        {NURI_CPU_AVX512VBMI, "avx512vbmi"},
        {NURI_CPU_GFNI, "gfni"},
        {NURI_CPU_VAES, "vaes"},
        {NURI_CPU_AESNI, "aes"},
        {NURI_CPU_PCLMUL, "pclmul"},
        {NURI_CPU_NEON, "neon"},
        {NURI_CPU_ARM_AES, "armv8-aes"},
        {NURI_CPU_ARM_SHA3, "armv8-sha3"},
    };
    size_t used = 0;
    if (out_cap == 0) return out;
    out[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(features & names[i].bit)) continue;
        int w = snprintf(out + used, out_cap - used, "%s%s", used ? " " : "", names[i].name);
        if (w < 0 || (size_t)w >= out_cap - used) break;
        used += (size_t)w;
    }
    return out;
}
