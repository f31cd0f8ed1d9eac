/* QEMU TCG plugin for constant-time checks of emulated code (tests/ct/trace_check.sh): a digest of
 * the address of every executed instruction and of every memory access (load or store, and its
 * address), in execution order. Two runs of a program whose only difference is secret data must
 * give the same digest: a branch on a secret changes the instruction sequence, a secret memory
 * index changes an access address. This is what valgrind checks on the host (tests/ct/ct_*.c),
 * applied to the AArch64 code the compiler emitted.
 * Arguments: lo=, hi= (hex or decimal; default: the whole program), out=<path> (also write
 * "<digest> <instructions> <accesses>" there). Built by scripts/build-qemu-plugin.sh. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t range_lo, range_hi = UINT64_MAX, digest = 0x6a09e667f3bcc908ull, n_insn, n_mem;
static char out_path[512];

static void mix(uint64_t x)
{
    digest ^= x;
    digest *= 0x9e3779b97f4a7c15ull; /* odd multiplier, then fold the high bits down */
    digest ^= digest >> 29;
}

static void on_insn(unsigned int vcpu, void *pc)
{
    (void)vcpu;
    mix((uint64_t)(uintptr_t)pc);
    n_insn++;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *unused)
{
    (void)vcpu;
    (void)unused;
    mix(vaddr ^ ((uint64_t)qemu_plugin_mem_is_store(info) << 63));
    n_mem++;
}

static void on_tb_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    for (size_t i = 0, n = qemu_plugin_tb_n_insns(tb); i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        if (pc < range_lo || pc >= range_hi) continue;
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)pc);
        qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
}

static void at_exit_cb(qemu_plugin_id_t id, void *p)
{
    char buf[128];
    (void)id;
    (void)p;
    snprintf(buf, sizeof buf, "ctrace: %016" PRIx64 " %" PRIu64 " %" PRIu64 "\n", digest, n_insn, n_mem);
    qemu_plugin_outs(buf);
    if (out_path[0]) {
        FILE *f = fopen(out_path, "w");
        if (f) {
            fputs(buf + 8, f);
            fclose(f);
        }
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "lo=", 3) == 0) range_lo = strtoull(argv[i] + 3, NULL, 0);
        else if (strncmp(argv[i], "hi=", 3) == 0) range_hi = strtoull(argv[i] + 3, NULL, 0);
        else if (strncmp(argv[i], "out=", 4) == 0) snprintf(out_path, sizeof out_path, "%s", argv[i] + 4);
        else {
            fprintf(stderr, "ctrace: unknown argument %s\n", argv[i]);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_translate);
    qemu_plugin_register_atexit_cb(id, at_exit_cb, NULL);
    return 0;
}
