/* ML-KEM operations on hex lines, for interoperability tests of code that only runs emulated
 * (tests/python/test_mlkem_pyca_aarch64.py runs this AArch64 program under qemu-aarch64 against
 * pyca/cryptography on the host). One request per line on stdin, one answer line on stdout:
 *   keygen <impl> <level> <seed: 64 bytes>         -> <ek> <dk>
 *   encaps <impl> <level> <ek> <m: 32 bytes>       -> <ct> <ss>
 *   decaps <impl> <level> <dk> <ct>                -> <ss>
 * (hex, lower case); "error <status>" when the library refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nuri/mlkem.h"

static size_t unhex(uint8_t *out, size_t cap, const char *s)
{
    size_t n = 0;
    for (; s[0] && s[1] && n < cap; s += 2) {
        unsigned v;
        if (sscanf(s, "%2x", &v) != 1) break;
        out[n++] = (uint8_t)v;
    }
    return n;
}

static void hex(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

int main(void)
{
    static char line[16384], op[16], impl[32], a[8192], b[8192];
    static uint8_t x[4096], y[4096], o1[4096], o2[64];
    unsigned level;
    while (fgets(line, sizeof line, stdin)) {
        b[0] = 0;
        if (sscanf(line, "%15s %31s %u %8191s %8191s", op, impl, &level, a, b) < 4) {
            puts("error parse");
            continue;
        }
        const nuri_mlkem_level lv = (nuri_mlkem_level)level;
        const size_t ekl = nuri_mlkem_ek_bytes(lv), dkl = nuri_mlkem_dk_bytes(lv), ctl = nuri_mlkem_ct_bytes(lv);
        const size_t na = unhex(x, sizeof x, a), nb = unhex(y, sizeof y, b);
        nuri_mlkem_ctx kem;
        int rc = nuri_mlkem_init(&kem, lv, impl);
        if (rc == 0 && strcmp(op, "keygen") == 0) {
            rc = nuri_mlkem_keygen(&kem, o1, ekl, o1 + ekl, dkl, x, na);
            if (rc == 0) hex(o1, ekl), putchar(' '), hex(o1 + ekl, dkl);
        } else if (rc == 0 && strcmp(op, "encaps") == 0) {
            rc = nuri_mlkem_encaps(&kem, o1, ctl, o2, 32, x, na, y, nb);
            if (rc == 0) hex(o1, ctl), putchar(' '), hex(o2, 32);
        } else if (rc == 0 && strcmp(op, "decaps") == 0) {
            rc = nuri_mlkem_decaps(&kem, o2, 32, y, nb, x, na);
            if (rc == 0) hex(o2, 32);
        } else if (rc == 0) {
            rc = -100;
        }
        if (rc != 0) printf("error %d", rc);
        putchar('\n');
        fflush(stdout);
    }
    return 0;
}
