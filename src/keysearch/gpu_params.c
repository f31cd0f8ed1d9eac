/* The CUDA kernels' parameters (bp_params, ks_bitplane.h) from a search plan: the generic kernel
 * reads them from its __constant__ c_params, and the Python launcher (nuri.keysearch.gpu) also
 * emits the kernel specialised for a search from them (nuri.keysearch.ptx). */
#include "ks_impl.h"

#include "ks_bitplane.h"

_Static_assert(sizeof(bp_params) == NURI_KEYSEARCH_GPU_PARAMS_BYTES, "bp_params layout");

int nuri_keysearch_gpu_params(const nuri_keysearch_params *prm, uint8_t *out, size_t out_cap, int *all_equivalent)
{
    *all_equivalent = 0;
    if (out && out_cap) memset(out, 0, out_cap); /* outputs zeroed, also for a short out_cap */
    if (out_cap < NURI_KEYSEARCH_GPU_PARAMS_BYTES) return NURI_EBUFFER;
    ks_plan p;
    int rc = nuri_ks_plan_make(&p, prm);
    if (rc == NURI_OK && p.no_round_varies) *all_equivalent = 1;
    if (rc == NURI_OK && !p.no_round_varies) {
        bp_params bp;
        /* the kernel runs from round 0 (FIRST0: no shared first round, init = plaintext); shared
         * last rounds are used (target = the ciphertext decrypted through them) */
        bp_prepare(&bp, p.nwords, 0, p.last, p.pt, p.target, p.base, p.pos, p.k);
        memcpy(out, &bp, sizeof bp);
        nuri_wipe(&bp, sizeof bp);
    }
    nuri_wipe(&p, sizeof p);
    return rc;
}
