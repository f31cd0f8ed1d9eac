/* QEMU TCG plugin: counts executed guest instructions, all of them ("insns: N" at exit, with
 * -d plugin) or those whose address is in [lo, hi) ("insns in [lo,hi): N").
 * Arguments: lo=0x..., hi=0x... (hex or decimal), out=<path> (also write N there).
 * Built by scripts/build-qemu-plugin.sh into build/qemu-plugins/ (libinsn.so, libinsnrange.so). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t range_lo, range_hi = UINT64_MAX, count;
static int whole_program = 1;
static char out_path[512];

static void on_tb_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    (void)id;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        if (pc >= range_lo && pc < range_hi)
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &count, 1);
    }
}

static void at_exit_cb(qemu_plugin_id_t id, void *p)
{
    char buf[128];
    (void)id;
    (void)p;
    if (whole_program) snprintf(buf, sizeof buf, "insns: %" PRIu64 "\n", count);
    else snprintf(buf, sizeof buf, "insns in [0x%" PRIx64 ",0x%" PRIx64 "): %" PRIu64 "\n", range_lo, range_hi, count);
    qemu_plugin_outs(buf);
    if (out_path[0]) {
        FILE *f = fopen(out_path, "w");
        if (f) {
            fprintf(f, "%" PRIu64 "\n", count);
            fclose(f);
        }
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "lo=", 3) == 0) range_lo = strtoull(argv[i] + 3, NULL, 0), whole_program = 0;
        else if (strncmp(argv[i], "hi=", 3) == 0) range_hi = strtoull(argv[i] + 3, NULL, 0), whole_program = 0;
        else if (strcmp(argv[i], "inline=on") == 0)
            continue; /* accepted for compatibility with QEMU's own insn plugin; counting is always inline */
        else if (strncmp(argv[i], "out=", 4) == 0) snprintf(out_path, sizeof out_path, "%s", argv[i] + 4);
        else {
            fprintf(stderr, "insnrange: unknown argument %s\n", argv[i]);
            return -1;
        }
    }
    if (range_hi <= range_lo) {
        fprintf(stderr, "insnrange: need lo=<addr> hi=<addr> with lo < hi\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_translate);
    qemu_plugin_register_atexit_cb(id, at_exit_cb, NULL);
    return 0;
}
