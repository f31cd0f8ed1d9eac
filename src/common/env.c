/* getenv for the variables read on every dispatch (NURI_IMPL, NURI_CPU_MASK), without a scan
 * of the environment per call. getenv compares every variable (~90 cycles with 35 of them, 7% of a
 * 64-byte Schwaemm encryption, twice per dispatch), so each thread keeps the last answer with a
 * fingerprint of where it came from, checked in O(1): the environ array, its length (the
 * terminator's position and the entry before it: setenv appends, unsetenv shifts) and the
 * variable's own entry pointer (setenv/putenv replace it). Any change re-reads the variable, so a
 * variable set or changed at run time is honoured at the next call, as with getenv. (Editing the
 * characters of a putenv()ed buffer in place is not seen: set the variable again instead.) */
#include <stdlib.h>

#include "nuri_internal.h"

#ifndef NURI_NO_GETENV
static const char *const names[NURI_ENV_COUNT] = {"NURI_IMPL", "NURI_CPU_MASK"};

#if defined(__linux__)
extern char **environ;

typedef struct {
    char **arr, *last, **slot, *slot_ptr;
    size_t n;
    const char *value;
    int valid;
} env_cache;
static _Thread_local env_cache caches[NURI_ENV_COUNT];

const char *nuri_getenv_cached(int which)
{
    env_cache *c = &caches[which];
    char **e = environ;
    if (c->valid && e == c->arr && e && !e[c->n] && (c->n == 0 || e[c->n - 1] == c->last) &&
        (!c->slot || *c->slot == c->slot_ptr))
        return c->value;
    c->valid = 0;
    const char *v = getenv(names[which]);
    if (!e) return v;
    size_t n = 0, nlen = strlen(names[which]) + 1; /* "NAME=" */
    char **slot = NULL;
    for (; e[n]; n++)
        if (v && e[n] + nlen == v) slot = &e[n]; /* the entry getenv found */
    if (v && !slot) return v;                    /* not from this array: do not cache */
    c->arr = e;
    c->n = n;
    c->last = n ? e[n - 1] : NULL;
    c->slot = slot;
    c->slot_ptr = slot ? *slot : NULL;
    c->value = v;
    c->valid = 1;
    return v;
}
#else
const char *nuri_getenv_cached(int which) { return getenv(names[which]); }
#endif
#endif
