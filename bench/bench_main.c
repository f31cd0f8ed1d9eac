/* nuri-bench: runs the benchmark harness from C (make bench uses the Python CLI, which calls
 * the same nuri_bench_run; this binary is for builds without Python). */
#include <stdio.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
    const char *family = "all", *filter = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--impl") == 0 && i + 1 < argc) filter = argv[++i];
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: nuri-bench [family|all] [--quick] [--impl NAME]\nfamilies: %s\n", nuri_bench_families());
            return 0;
        } else family = argv[i];
    }
    if (nuri_bench_run(family, 1, quick, filter) != 0) {
        fprintf(stderr, "nuri-bench: unknown family '%s' (have: %s)\n", family, nuri_bench_families());
        return 2;
    }
    return 0;
}
