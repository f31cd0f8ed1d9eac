/* SPARKLE tests (permutation part). Usage: test_sparkle [shared/vectors/sparkle dir] */
#include <stdlib.h>

#include "nuri/sparkle.h"
#include "sparkle_impl.h"
#include "sparkle_vectors.h"
#include "test_util.h"

static size_t n_impls;
static const char *impl_names[16];

static void load_impls(void)
{
    for (size_t i = 0; i < nuri_sparkle_impl_count(); i++)
        if (nuri_sparkle_impl_supported(i)) impl_names[n_impls++] = nuri_sparkle_impl_info(i)->name;
    printf("implementations:");
    for (size_t i = 0; i < n_impls; i++) printf(" %s", impl_names[i]);
    printf(" (default %s)\n", nuri_sparkle_default_impl());
}

static void test_perm_vectors(void)
{
    for (size_t i = 0; i < n_impls; i++) {
        for (size_t v = 0; v < sizeof sparkle_perm_vectors / sizeof sparkle_perm_vectors[0]; v++) {
            const sparkle_perm_vector *pv = &sparkle_perm_vectors[v];
            uint8_t st[64], exp[64];
            long n = tu_unhex(st, sizeof st, pv->in);
            tu_unhex(exp, sizeof exp, pv->out);
            CHECK(nuri_sparkle_permute_bytes(st, (size_t)n, pv->steps, impl_names[i]) == 0, "permute rc");
            CHECK_MEM(st, exp, (size_t)n, "%s: SPARKLE%ld-%u vector %zu", impl_names[i], n * 8, pv->steps, v);
        }
    }
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    printf("seed %llu\n", (unsigned long long)tu_seed_from_env());
    load_impls();
    test_perm_vectors();
    return tu_finish("test_sparkle");
}
