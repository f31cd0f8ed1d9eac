/* Two-way Keccak-f[1600] on the ARMv8.2 SHA-3 extension: keccakx2_round.h's round with EOR3,
 * RAX1, XAR and BCAX as the single instructions they are (66 vector instructions a round for
 * both states). Compiled with -march=armv8.2-a+sha3 alone (family.cmake); reached only through
 * nuri_keccakx2_best() on CPUs whose HWCAP has SHA3. No data-dependent branches or indices. */
#if defined(NURI_NEON_EMULATED)
#include "neon_emul.h" /* test builds: the same code through portable intrinsics */
#else
#include <arm_neon.h>
#endif

#include "fips202.h"

#define EOR3(a, b, c) veor3q_u64((a), (b), (c))
#define RAX1(a, b)    vrax1q_u64((a), (b))
#define XAR(a, b, n)  vxarq_u64((a), (b), 64 - (n)) /* XAR rotates right */
#define BCAX(a, b, c) vbcaxq_u64((a), (b), (c))
#include "keccakx2_round.h"

void nuri_keccakf1600_x2_sha3(uint64_t s[50]) { KX2_PERMUTE_BODY(s, KX2_ROUND); }
