/* Runtime dispatch over a family's registry (docs/ARCHITECTURE.md, principle 3). */
#include <stdlib.h>
#include <string.h>

#include "nuri_internal.h"

/* Finds "<family>:<name>" in a comma-separated NURI_IMPL value; copies name into out. */
static int forced_from_env(const char *family, char *out, size_t outlen)
{
#ifdef NURI_NO_GETENV
    (void)family;
    (void)out;
    (void)outlen;
    return 0;
#else
    const char *env = nuri_getenv_cached(NURI_ENV_IMPL);
    size_t flen = strlen(family);
    if (!env) return 0;
    for (const char *p = env; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > flen + 1 && strncmp(p, family, flen) == 0 && p[flen] == ':') {
            size_t nlen = len - flen - 1;
            if (nlen >= outlen) nlen = outlen - 1;
            memcpy(out, p + flen + 1, nlen);
            out[nlen] = 0;
            return 1;
        }
        p += len;
        if (*p == ',') p++;
    }
    return 0;
#endif
}

/* Former implementation names (docs/ARCHITECTURE.md, naming rule): NURI_IMPL and impl= keep
 * accepting them; the registries list the current names only. */
static const struct {
    const char *family, *former, *current;
} renamed[] = {
    {"fea", "gfni", "avx512-gfni"},
    {"fea", "vaes", "avx2-vaes"},
    {"pipo", "avx512", "avx512-gfni"},
};

static const char *current_name(const char *family, const char *name)
{
    for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
        if (strcmp(renamed[i].family, family) == 0 && strcmp(renamed[i].former, name) == 0) return renamed[i].current;
    return name;
}

int nuri_dispatch(const char *family, const nuri_impl_info *const *infos, size_t n, const char *forced)
{
    char name[64];
    if (!forced && forced_from_env(family, name, sizeof name)) forced = name;
    if (forced) {
        forced = current_name(family, forced);
        for (size_t i = 0; i < n; i++) {
            if (strcmp(infos[i]->name, forced) == 0)
                return nuri_cpu_has(infos[i]->cpu_features) ? (int)i : NURI_EUNSUPPORTED;
        }
        return NURI_ENOTFOUND;
    }
    for (size_t i = 0; i < n; i++) {
        if (infos[i]->constant_time && nuri_cpu_has(infos[i]->cpu_features)) return (int)i;
    }
    return NURI_EUNSUPPORTED;
}
