/* A fake CUDA driver for the tests of the key-search launcher (python/nuri/keysearch/gpu.py): the
 * cu* entry points the launcher uses, with "device memory" in host memory. cuModuleLoadData takes
 * what a real driver takes from nuri, a fatbin (ks_kernel.fatbin: its PTX entry is used, and the
 * SASS entries decide whether the device "has a binary") or PTX text (the kernel specialised for a
 * search), and cuLaunchKernel runs the module's PTX on the host (ptx_run.h), thread by thread: the
 * tests execute the very kernels a GPU would be given. Test-only: built by the Python tests as a
 * shared library and named by NURI_CUDA_DRIVER.
 *
 * Environment (read by cuInit): FAKE_CUDA_DEVICES (default 1), FAKE_CUDA_DRIVER_VERSION (default
 * 12000, i.e. CUDA 12.0), FAKE_CUDA_PTX_MAX (the newest PTX ISA the driver JIT-compiles, default
 * 80 = 8.0, as a CUDA 12.0 driver), FAKE_CUDA_CC (compute capability, default 90), FAKE_CUDA_SMS
 * (default 2), FAKE_CUDA_FAIL_LAUNCH=n (the n-th launch, counting from 1, fails with
 * CUDA_ERROR_LAUNCH_FAILED), FAKE_CUDA_DROP_HITS=1 (search kernels report no hit: a broken
 * device), FAKE_CUDA_LOG=path (one line per launch: kernel first_batch nbatches grid block
 * max_hits for search kernels, kernel grid block for others). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_run.h"

typedef int CUresult;
enum {
    OK = 0,
    ERR_INVALID_VALUE = 1,
    ERR_OUT_OF_MEMORY = 2,
    ERR_NOT_INITIALIZED = 3,
    ERR_NO_DEVICE = 100,
    ERR_INVALID_DEVICE = 101,
    ERR_INVALID_IMAGE = 200,
    ERR_NO_BINARY_FOR_GPU = 209,
    ERR_INVALID_PTX = 218,
    ERR_UNSUPPORTED_PTX_VERSION = 222,
    ERR_NOT_FOUND = 500,
    ERR_LAUNCH_FAILED = 719
};

#define API __attribute__((visibility("default")))

static int initialized, devices = 1, fail_launch, drop_hits, launches, ptx_max = 80, cc = 90, sms = 2;
static const char *log_path;
static int ctx_dummy;

static int env_int(const char *name, int def)
{
    const char *e = getenv(name);
    return e ? atoi(e) : def;
}

API CUresult cuInit(unsigned flags)
{
    if (flags) return ERR_INVALID_VALUE;
    devices = env_int("FAKE_CUDA_DEVICES", 1);
    fail_launch = env_int("FAKE_CUDA_FAIL_LAUNCH", 0);
    drop_hits = getenv("FAKE_CUDA_DROP_HITS") != NULL;
    log_path = getenv("FAKE_CUDA_LOG");
    ptx_max = env_int("FAKE_CUDA_PTX_MAX", 80);
    cc = env_int("FAKE_CUDA_CC", 90);
    sms = env_int("FAKE_CUDA_SMS", 2);
    initialized = 1;
    return devices ? OK : ERR_NO_DEVICE; /* the real driver says NO_DEVICE here when there is none */
}

API CUresult cuDriverGetVersion(int *v)
{
    if (!v) return ERR_INVALID_VALUE;
    *v = env_int("FAKE_CUDA_DRIVER_VERSION", 12000); /* callable before cuInit, as the real one */
    return OK;
}

static const struct {
    int rc;
    const char *name;
} names[] = {{OK, "CUDA_SUCCESS"},
             {ERR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},
             {ERR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
             {ERR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED"},
             {ERR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE"},
             {ERR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE"},
             {ERR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE"},
             {ERR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
             {ERR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX"},
             {ERR_UNSUPPORTED_PTX_VERSION, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
             {ERR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND"},
             {ERR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"}};

API CUresult cuGetErrorName(CUresult rc, const char **name)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].rc == rc) {
            *name = names[i].name;
            return OK;
        }
    *name = NULL;
    return ERR_INVALID_VALUE;
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
    snprintf(name, (size_t)len, "fake CUDA device %d (PTX on the host)", dev);
    return OK;
}

API CUresult cuDeviceGetAttribute(int *v, int attr, int dev)
{
    if (dev < 0 || dev >= devices) return ERR_INVALID_DEVICE;
    switch (attr) {
    case 16:
        *v = sms;
        return OK; /* MULTIPROCESSOR_COUNT */
    case 13:
        *v = 1500000;
        return OK; /* CLOCK_RATE, kHz */
    case 75:
        *v = cc / 10;
        return OK; /* COMPUTE_CAPABILITY_MAJOR */
    case 76:
        *v = cc % 10;
        return OK; /* COMPUTE_CAPABILITY_MINOR */
    case 39:
        *v = 2048;
        return OK; /* MAX_THREADS_PER_MULTIPROCESSOR */
    case 82:
        *v = 65536;
        return OK; /* MAX_REGISTERS_PER_MULTIPROCESSOR */
    default:
        return ERR_INVALID_VALUE;
    }
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

/* The PTX entry of a fatbin (uncompressed), NULL if none; *sass is set when it holds an ELF for
 * this device's architecture. Container: a 16-byte header (magic 0xBA55ED50, version, header
 * size, size of what follows), then entries {u16 kind (1 PTX, 2 ELF), u16, u32 header size,
 * u64 payload size, u32 compressed size, u32, u16 minor, u16 major, u32 arch, ...}. */
static const char *fatbin_ptx(const uint8_t *img, int *sass, int *bad)
{
    uint32_t magic;
    uint16_t hs;
    uint64_t size;
    memcpy(&magic, img, 4);
    memcpy(&hs, img + 6, 2);
    memcpy(&size, img + 8, 8);
    const char *ptx = NULL;
    *sass = 0;
    *bad = 0;
    for (uint64_t off = hs; off < hs + size;) {
        uint16_t kind;
        uint32_t ehs, csize, arch;
        uint64_t psize;
        memcpy(&kind, img + off, 2);
        memcpy(&ehs, img + off + 4, 4);
        memcpy(&psize, img + off + 8, 8);
        memcpy(&csize, img + off + 16, 4);
        memcpy(&arch, img + off + 28, 4);
        if (csize) *bad = 1; /* compressed: the fake cannot read it */
        if (kind == 2 && (int)arch == cc) *sass = 1;
        if (kind == 1 && !csize) ptx = (const char *)img + off + ehs;
        off += ehs + psize;
    }
    return ptx;
}

#define MAX_MODULES 16
static px_module *modules[MAX_MODULES];

API CUresult cuModuleLoadData(void **mod, const void *image)
{
    const uint8_t *img = image;
    uint32_t magic;
    memcpy(&magic, img, 4);
    const char *ptx = (const char *)image;
    int sass = 0;
    if (magic == 0xBA55ED50u) {
        int bad;
        ptx = fatbin_ptx(img, &sass, &bad);
        if (!ptx) return bad ? ERR_INVALID_IMAGE : ERR_NO_BINARY_FOR_GPU;
    }
    px_module *m = calloc(1, sizeof *m);
    if (!m) return ERR_OUT_OF_MEMORY;
    if (px_load(m, ptx)) {
        fprintf(stderr, "fake_cuda: %s\n", px_error);
        px_unload(m);
        free(m);
        return ERR_INVALID_PTX;
    }
    /* without SASS for this GPU the driver JIT-compiles the PTX, up to its ISA version */
    if (!sass && (int)(m->version_major * 10 + m->version_minor) > ptx_max) {
        px_unload(m);
        free(m);
        return ERR_UNSUPPORTED_PTX_VERSION;
    }
    for (int i = 0; i < MAX_MODULES; i++)
        if (!modules[i]) {
            modules[i] = m;
            *mod = m;
            return OK;
        }
    px_unload(m);
    free(m);
    return ERR_OUT_OF_MEMORY;
}

static int known(void *mod)
{
    for (int i = 0; i < MAX_MODULES; i++)
        if (modules[i] && modules[i] == mod) return i;
    return -1;
}

API CUresult cuModuleUnload(void *mod)
{
    int i = known(mod);
    if (i < 0) return ERR_INVALID_VALUE;
    px_unload(modules[i]);
    free(modules[i]);
    modules[i] = NULL;
    return OK;
}

API CUresult cuModuleGetFunction(void **fn, void *mod, const char *name)
{
    if (known(mod) < 0) return ERR_INVALID_VALUE;
    px_module *m = mod;
    for (unsigned i = 0; i < m->nentries; i++)
        if (strcmp(name, m->entries[i].name) == 0) {
            *fn = &m->entries[i];
            return OK;
        }
    return ERR_NOT_FOUND;
}

API CUresult cuModuleGetGlobal_v2(uint64_t *dptr, size_t *bytes, void *mod, const char *name)
{
    if (known(mod) < 0) return ERR_INVALID_VALUE;
    px_module *m = mod;
    px_sym *s = px_find_sym(m, name, strlen(name));
    if (!s || !s->mem) return ERR_NOT_FOUND;
    *dptr = (uint64_t)(uintptr_t)s->mem;
    if (bytes) *bytes = s->size;
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

static int find_entry(void *fn)
{
    for (int i = 0; i < MAX_MODULES; i++)
        if (modules[i])
            for (unsigned j = 0; j < modules[i]->nentries; j++)
                if (fn == &modules[i]->entries[j]) return 1;
    return 0;
}

API CUresult cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                            unsigned shared_bytes, void *stream, void **params, void **extra)
{
    if (!find_entry(fn) || gy != 1 || gz != 1 || by != 1 || bz != 1 || shared_bytes || stream || extra || !params ||
        !gx || !bx)
        return ERR_INVALID_VALUE;
    const px_entry *e = fn;
    if (bx > e->maxntid) return ERR_INVALID_VALUE; /* the kernel's .maxntid */
    launches++;
    int search = strncmp(e->name, "nuri_ks_search_", 15) == 0 && e->nparams == 5;
    if (log_path) {
        FILE *f = fopen(log_path, "a");
        if (f) {
            if (search)
                fprintf(f, "%s %llu %llu %u %u %u\n", e->name, (unsigned long long)*(uint64_t *)params[0],
                        (unsigned long long)*(uint64_t *)params[1], gx, bx, *(unsigned *)params[4]);
            else fprintf(f, "%s %u %u\n", e->name, gx, bx);
            fclose(f);
        }
    }
    if (launches == fail_launch) return ERR_LAUNCH_FAILED;
    unsigned *nhits = search ? (unsigned *)(uintptr_t) * (uint64_t *)params[3] : NULL;
    unsigned before = nhits ? *nhits : 0;
    int rc = px_launch(e, gx, bx, params);
    if (rc) {
        fprintf(stderr, "fake_cuda: %s stopped (%d)\n", e->name, rc);
        return ERR_LAUNCH_FAILED;
    }
    if (drop_hits && nhits) *nhits = before;
    return OK;
}
