// PIPO key search on NVIDIA GPUs: one thread searches one batch of 32 candidates with the
// bit-plane functions of ks_bitplane.cuh (the same code the host twin runs in make check).
// The search parameters (template planes, shared-round states) sit in __constant__ memory;
// hits are appended to a device buffer as candidate indices. Launch: one thread per batch,
// batches first_batch .. first_batch + nbatches - 1.
#include <stdint.h>

#include "ks_bitplane.cuh"

__constant__ bp_params c_params;

template <unsigned NW, unsigned RMAX, unsigned BLOCK>
__device__ __forceinline__ void search(uint64_t first_batch, uint64_t nbatches, unsigned long long *hits,
                                       unsigned *nhits, unsigned max_hits)
{
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t batch = first_batch + t;
    // the thread's key planes in its column of shared memory; the barrier keeps the compiler from
    // forwarding them into registers (those hold the 64 state planes)
    __shared__ bp_w s_kp[64 * NW * BLOCK];
    bp_w *kp = s_kp + threadIdx.x;
    bp_key_planes(&c_params, batch, kp, NW, BLOCK);
    __syncthreads();
    if (t >= nbatches) return;
    bp_w m = bp_search_batch(&c_params, kp, NW, RMAX, BLOCK, 1); // host prepares first = 0
    while (m) {
        unsigned l = __ffs(m) - 1;
        m &= m - 1;
        unsigned slot = atomicAdd(nhits, 1u);
        if (slot < max_hits) hits[slot] = (batch << BP_LB) + l;
    }
}

// PIPO-64/128 (13 rounds at most)
extern "C" __global__ void __launch_bounds__(64) nuri_ks_kernel_128(uint64_t first_batch, uint64_t nbatches,
                                                                     unsigned long long *hits, unsigned *nhits,
                                                                     unsigned max_hits)
{
    search<2, 13, 64>(first_batch, nbatches, hits, nhits, max_hits);
}

// PIPO-64/256 (17 rounds at most)
extern "C" __global__ void __launch_bounds__(32) nuri_ks_kernel_256(uint64_t first_batch, uint64_t nbatches,
                                                                     unsigned long long *hits, unsigned *nhits,
                                                                     unsigned max_hits)
{
    search<4, 17, 32>(first_batch, nbatches, hits, nhits, max_hits);
}

#ifndef NURI_KS_SEARCH_ONLY // the PTX shipped with the package (make gpu) holds the search kernels only
// PIPO-CTR with the same bit-plane rounds: thread t encrypts blocks 32 t .. 32 t + 31 of `in`
// (counter blocks ctr0 + 32 t + lane, 64-bit big-endian) under the round-key planes in c_rkp
// (bp_round_key_planes on the host).
__constant__ bp_w c_rkp[64 * 18];

template <unsigned RMAX>
__device__ __forceinline__ void ctr(uint64_t ctr0, unsigned rounds, uint64_t nbatches, const uint8_t *in, uint8_t *out)
{
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nbatches) return;
    bp_ctr_keystream(c_rkp, rounds, ctr0 + (t << BP_LB), in + 256 * t, out + 256 * t, RMAX);
}

extern "C" __global__ void __launch_bounds__(128) nuri_ks_ctr_128(uint64_t ctr0, unsigned rounds, uint64_t nbatches,
                                                                  const uint8_t *in, uint8_t *out)
{
    ctr<13>(ctr0, rounds, nbatches, in, out);
}

extern "C" __global__ void __launch_bounds__(128) nuri_ks_ctr_256(uint64_t ctr0, unsigned rounds, uint64_t nbatches,
                                                                  const uint8_t *in, uint8_t *out)
{
    ctr<17>(ctr0, rounds, nbatches, in, out);
}
#endif
