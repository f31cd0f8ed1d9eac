/* nuri-bench: the benchmark harness as a program. `nuri bench` (nuri.tools.bench) runs this
 * program, installed inside the Python package, so the Python extension links libnuri alone
 * (not the harness, nor OpenSSL for the peer records). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
    const char *family = "all", *filter = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--families") == 0) { /* for nuri.tools.bench */
            printf("%s\n", nuri_bench_families());
            return 0;
        }
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--breakdown") == 0) setenv("NURI_BENCH_BREAKDOWN", "1", 1); /* bench_mlkem.c */
        else if (strcmp(argv[i], "--impl") == 0 && i + 1 < argc) filter = argv[++i];
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: nuri-bench [family|all] [--quick] [--impl NAME] [--breakdown] | --families\nfamilies: %s\n",
                   nuri_bench_families());
            return 0;
        } else family = argv[i];
    }
    if (nuri_bench_run(family, 1, quick, filter) != 0) {
        fprintf(stderr, "nuri-bench: unknown family '%s' (have: %s)\n", family, nuri_bench_families());
        return 2;
    }
    return 0;
}
