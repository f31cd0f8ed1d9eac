/* FEA kernel on the ARMv8 Cryptography Extension: 2 values per 128-bit register (compiled with
 * +crypto for this file only; chosen by dispatch when the CPU reports AES). The body is
 * ../fea_aes_body.h, as for x86: AESE(s, 0) = SubBytes(ShiftRows(s)) places the same bytes as
 * AESENCLAST(s, 0) = ShiftRows(SubBytes(s)) (SubBytes is bytewise), so the x86 shuffle tables
 * serve unchanged, and tbl is pshufb for the indices used here (always 0..15). */
#include <arm_neon.h>

typedef uint8x16_t V;
#define LANES             2
#define V_BCAST16(p)      vld1q_u8((const uint8_t *)(p))
#define V_SET1_8(b)       vdupq_n_u8((uint8_t)(b))
#define V_SET1_64(w)      vreinterpretq_u8_u64(vdupq_n_u64((uint64_t)(w)))
#define V_XOR             veorq_u8
#define V_AND             vandq_u8
#define V_SHUF            vqtbl1q_u8
#define V_SRL16(x, n)     vreinterpretq_u8_u16(vshrq_n_u16(vreinterpretq_u16_u8(x), (n)))
#define V_AESLAST0(x)     vaeseq_u8((x), vdupq_n_u8(0))
#define V_LOADU(p)        vld1q_u8((const uint8_t *)(p))
#define V_STOREU(p, v)    vst1q_u8((uint8_t *)(p), (v))
#define V_LOADN(p, m)     vreinterpretq_u8_u64(vld1q_dup_u64((const uint64_t *)(p))) /* m = 1 */
#define V_STOREN(p, v, m) vst1_u8((uint8_t *)(p), vget_low_u8(v))
#define FN_F              nuri_fea_neon_aes_f
#define FN_SD             nuri_fea_neon_aes_sd

#include "../fea_aes_body.h"

const nuri_fea_impl nuri_fea_backend_neon_aes = {
    .info = {"neon-aes", NURI_CPU_NEON | NURI_CPU_ARM_AES, 1,
             "AArch64 NEON + AES instructions: the aesni kernel on 128-bit registers (AESE with a zero key, tbl "
             "lookups)"},
    .f = nuri_fea_neon_aes_f,
    .sd = nuri_fea_neon_aes_sd,
};
