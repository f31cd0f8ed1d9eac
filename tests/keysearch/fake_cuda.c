/* A fake CUDA driver for the tests of the key-search launcher (python/nuri/keysearch/gpu.py): the
 * few cu* entry points the launcher uses, with "device memory" in host memory and cuLaunchKernel
 * running the kernel's host twin (gpu/ks_bitplane.cuh, the functions the CUDA kernel calls) for
 * every thread of the grid, as gpu/ks_kernel.cu's search<>() does. Test-only: built by
 * tests/python/test_keysearch_gpu.py as a shared library and named by NURI_CUDA_DRIVER.
 *
 * Environment (read by cuInit): FAKE_CUDA_DEVICES (default 1), FAKE_CUDA_FAIL_LAUNCH=n (the n-th
 * launch, counting from 1, fails with CUDA_ERROR_LAUNCH_FAILED), FAKE_CUDA_DROP_HITS=1 (kernels
 * report no hit: a broken device), FAKE_CUDA_LOG=path (one line per launch: kernel first_batch
 * nbatches grid block max_hits). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_bitplane.cuh"

typedef int CUresult;
enum {
    OK = 0,
    ERR_INVALID_VALUE = 1,
    ERR_OUT_OF_MEMORY = 2,
    ERR_NOT_INITIALIZED = 3,
    ERR_NO_DEVICE = 100,
    ERR_INVALID_DEVICE = 101,
    ERR_INVALID_IMAGE = 200,
    ERR_NOT_FOUND = 500,
    ERR_LAUNCH_FAILED = 719
};

#define API __attribute__((visibility("default")))

static int initialized, devices = 1, fail_launch, drop_hits, launches;
static const char *log_path;
static bp_params c_params; /* the module's __constant__ c_params */
static int module_loaded, ctx_dummy;

API CUresult cuInit(unsigned flags)
{
    if (flags) return ERR_INVALID_VALUE;
    const char *e = getenv("FAKE_CUDA_DEVICES");
    devices = e ? atoi(e) : 1;
    fail_launch = getenv("FAKE_CUDA_FAIL_LAUNCH") ? atoi(getenv("FAKE_CUDA_FAIL_LAUNCH")) : 0;
    drop_hits = getenv("FAKE_CUDA_DROP_HITS") != NULL;
    log_path = getenv("FAKE_CUDA_LOG");
    initialized = 1;
    return devices ? OK : ERR_NO_DEVICE; /* the real driver says NO_DEVICE here when there is none */
}

API CUresult cuGetErrorName(CUresult rc, const char **name)
{
    switch (rc) {
    case OK:
        *name = "CUDA_SUCCESS";
        return OK;
    case ERR_INVALID_VALUE:
        *name = "CUDA_ERROR_INVALID_VALUE";
        return OK;
    case ERR_OUT_OF_MEMORY:
        *name = "CUDA_ERROR_OUT_OF_MEMORY";
        return OK;
    case ERR_NOT_INITIALIZED:
        *name = "CUDA_ERROR_NOT_INITIALIZED";
        return OK;
    case ERR_NO_DEVICE:
        *name = "CUDA_ERROR_NO_DEVICE";
        return OK;
    case ERR_INVALID_DEVICE:
        *name = "CUDA_ERROR_INVALID_DEVICE";
        return OK;
    case ERR_INVALID_IMAGE:
        *name = "CUDA_ERROR_INVALID_IMAGE";
        return OK;
    case ERR_NOT_FOUND:
        *name = "CUDA_ERROR_NOT_FOUND";
        return OK;
    case ERR_LAUNCH_FAILED:
        *name = "CUDA_ERROR_LAUNCH_FAILED";
        return OK;
    default:
        *name = NULL;
        return ERR_INVALID_VALUE;
    }
}

API CUresult cuDeviceGetCount(int *n)
{
    if (!initialized) return ERR_NOT_INITIALIZED;
    *n = devices;
    return OK;
}

API CUresult cuDeviceGet(int *dev, int ordinal)
{
    if (!initialized) return ERR_NOT_INITIALIZED;
    if (ordinal < 0 || ordinal >= devices) return ERR_INVALID_DEVICE;
    *dev = ordinal;
    return OK;
}

API CUresult cuDeviceGetName(char *name, int len, int dev)
{
    if (dev < 0 || dev >= devices || len < 1) return ERR_INVALID_VALUE;
    snprintf(name, (size_t)len, "fake CUDA device %d (host twin)", dev);
    return OK;
}

API CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
    if (dev < 0 || dev >= devices) return ERR_INVALID_DEVICE;
    *ctx = &ctx_dummy;
    return OK;
}

API CUresult cuDevicePrimaryCtxRelease_v2(int dev) { return dev >= 0 && dev < devices ? OK : ERR_INVALID_DEVICE; }

API CUresult cuCtxSetCurrent(void *ctx) { return ctx == &ctx_dummy ? OK : ERR_INVALID_VALUE; }

API CUresult cuCtxSynchronize(void) { return OK; }

/* accepts only our kernel's PTX (the launcher must load the shipped file) */
API CUresult cuModuleLoadData(void **mod, const void *image)
{
    const char *ptx = image;
    if (!strstr(ptx, ".visible .entry nuri_ks_kernel_128(") || !strstr(ptx, ".visible .entry nuri_ks_kernel_256(") ||
        !strstr(ptx, ".const .align 4 .b8 c_params[2824];"))
        return ERR_INVALID_IMAGE;
    module_loaded = 1;
    *mod = &module_loaded;
    return OK;
}

API CUresult cuModuleUnload(void *mod) { return mod == &module_loaded ? OK : ERR_INVALID_VALUE; }

static const char *const kernels[2] = {"nuri_ks_kernel_128", "nuri_ks_kernel_256"};

API CUresult cuModuleGetFunction(void **fn, void *mod, const char *name)
{
    if (mod != &module_loaded) return ERR_INVALID_VALUE;
    for (int i = 0; i < 2; i++)
        if (strcmp(name, kernels[i]) == 0) {
            *fn = (void *)&kernels[i];
            return OK;
        }
    return ERR_NOT_FOUND;
}

API CUresult cuModuleGetGlobal_v2(uint64_t *dptr, size_t *bytes, void *mod, const char *name)
{
    if (mod != &module_loaded) return ERR_INVALID_VALUE;
    if (strcmp(name, "c_params") != 0) return ERR_NOT_FOUND;
    *dptr = (uint64_t)(uintptr_t)&c_params;
    if (bytes) *bytes = sizeof c_params;
    return OK;
}

API CUresult cuMemAlloc_v2(uint64_t *dptr, size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) return ERR_OUT_OF_MEMORY;
    *dptr = (uint64_t)(uintptr_t)p;
    return OK;
}

API CUresult cuMemFree_v2(uint64_t dptr)
{
    free((void *)(uintptr_t)dptr);
    return OK;
}

API CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes)
{
    memcpy((void *)(uintptr_t)dst, src, bytes);
    return OK;
}

API CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t bytes)
{
    memcpy(dst, (const void *)(uintptr_t)src, bytes);
    return OK;
}

/* gpu/ks_kernel.cu's search<NW, RMAX, BLOCK>() for every thread of the grid (the per-thread key
 * planes have stride 1 here instead of the block size) */
static void run_grid(unsigned kernel, unsigned grid, unsigned block, uint64_t first_batch, uint64_t nbatches,
                     unsigned long long *hits, unsigned *nhits, unsigned max_hits)
{
    const unsigned NW = kernel == 0 ? 2 : 4, RMAX = kernel == 0 ? 13 : 17;
    for (uint64_t t = 0; t < (uint64_t)grid * block; t++) {
        uint64_t batch = first_batch + t;
        bp_w kp[256];
        bp_key_planes(&c_params, batch, kp, NW, 1);
        if (t >= nbatches) continue;
        bp_w m = bp_search_batch(&c_params, kp, NW, RMAX, 1, 1);
        if (drop_hits) m = 0;
        while (m) {
            unsigned l = (unsigned)__builtin_ctz(m);
            m &= m - 1;
            unsigned slot = (*nhits)++;
            if (slot < max_hits) hits[slot] = (batch << BP_LB) + l;
        }
    }
}

API CUresult cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                            unsigned shared_bytes, void *stream, void **params, void **extra)
{
    unsigned kernel = fn == (void *)&kernels[0] ? 0 : fn == (void *)&kernels[1] ? 1 : 2;
    if (kernel == 2 || gy != 1 || gz != 1 || by != 1 || bz != 1 || shared_bytes || stream || extra || !params)
        return ERR_INVALID_VALUE;
    if (bx != (kernel == 0 ? 64u : 32u)) return ERR_INVALID_VALUE; /* the kernels' __launch_bounds__ */
    launches++;
    uint64_t first_batch = *(uint64_t *)params[0], nbatches = *(uint64_t *)params[1];
    unsigned long long *hits = (unsigned long long *)(uintptr_t) * (uint64_t *)params[2];
    unsigned *nhits = (unsigned *)(uintptr_t) * (uint64_t *)params[3];
    unsigned max_hits = *(unsigned *)params[4];
    if (log_path) {
        FILE *f = fopen(log_path, "a");
        if (f) {
            fprintf(f, "%s %llu %llu %u %u %u\n", kernels[kernel], (unsigned long long)first_batch,
                    (unsigned long long)nbatches, gx, bx, max_hits);
            fclose(f);
        }
    }
    if (launches == fail_launch) return ERR_LAUNCH_FAILED;
    if ((uint64_t)gx * bx < nbatches) return ERR_INVALID_VALUE; /* the grid must cover every batch */
    run_grid(kernel, gx, bx, first_batch, nbatches, hits, nhits, max_hits);
    return OK;
}
