/* nuri_fea: FEA format-preserving encryption as PostgreSQL functions (docs/fea-databases.md).
 *
 * Keys never appear in SQL: a function names a key ('cards'), and the key is read from the nuri
 * key file <nuri.key_dir>/<name>.key (the format of python/nuri/keyfile.py). nuri.key_dir is a
 * superuser setting (postgresql.conf or ALTER SYSTEM). Which characters are encrypted follows nuri's
 * one pattern syntax (src/fea/pattern.c, shared with the CLI, Python, DuckDB and Spark).
 *
 * Per backend process, keys and expanded key schedules (one per key, radix and symbol count) are
 * cached in TopMemoryContext and wiped when the process exits or nuri.key_dir changes. A value
 * that does not fit its pattern is an SQL error naming the problem (not the whole value: server
 * logs would keep it). libnuri is linked in statically. */
#include "postgres.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmgr.h"
#include "storage/ipc.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "nuri/fea.h"
#include "../common/nuri_db_key.h"

PG_MODULE_MAGIC;

#define KEY_NAME_MAX NURI_DB_KEY_NAME_MAX
#define MAX_KEYS     16
#define MAX_FMTS     64
#define MSG          256

static char *key_dir = NULL;
static int fea_variant = 1;      /* nuri.fea_variant: 1 (FEA-1) or 2 (FEA-2) */
static bool allow_small = false; /* nuri.allow_small_domain */

typedef struct key_slot {
    char name[KEY_NAME_MAX + 1];
    uint8_t key[32];
    size_t len;
    bool used;
} key_slot;

typedef struct fmt_slot {
    int key; /* index into keys */
    unsigned radix, len, variant, flags;
    nuri_fea_fmt fmt;
    bool used;
} fmt_slot;

static key_slot *keys; /* MAX_KEYS, in TopMemoryContext */
static fmt_slot *fmts; /* MAX_FMTS */
static unsigned next_key, next_fmt;

static void wipe_caches(void)
{
    if (keys) nuri_wipe(keys, sizeof(key_slot) * MAX_KEYS);
    if (fmts) nuri_wipe(fmts, sizeof(fmt_slot) * MAX_FMTS);
    next_key = next_fmt = 0;
}

static void at_exit(int code, Datum arg)
{
    (void)code;
    (void)arg;
    wipe_caches();
}

static void key_dir_changed(const char *newval, void *extra)
{
    (void)newval;
    (void)extra;
    wipe_caches(); /* a key name may mean another key now */
}

void _PG_init(void);
void _PG_init(void)
{
    DefineCustomStringVariable("nuri.key_dir", "Directory of the nuri key files (<name>.key) that nuri_fea reads.",
                               "Only superusers can set it. Keys are cached per session.", &key_dir, NULL, PGC_SUSET, 0,
                               NULL, key_dir_changed, NULL);
    DefineCustomIntVariable("nuri.fea_variant", "FEA variant of the nuri_fea functions: 1 (FEA-1) or 2 (FEA-2).", NULL,
                            &fea_variant, 1, 1, 2, PGC_USERSET, 0, NULL, NULL, NULL);
    DefineCustomBoolVariable("nuri.allow_small_domain",
                             "Let the nuri_fea functions take values with fewer than 10^6 possibilities (weak: "
                             "published attacks on small FEA domains).",
                             NULL, &allow_small, false, PGC_USERSET, 0, NULL, NULL, NULL);
    MarkGUCPrefixReserved("nuri");
    keys = MemoryContextAllocZero(TopMemoryContext, sizeof(key_slot) * MAX_KEYS);
    fmts = MemoryContextAllocZero(TopMemoryContext, sizeof(fmt_slot) * MAX_FMTS);
    on_proc_exit(at_exit, (Datum)0);
}

/* ------------------------------------------------------------------------------------------ keys */

static int find_key(const char *name)
{
    for (int i = 0; i < MAX_KEYS; i++)
        if (keys[i].used && strcmp(keys[i].name, name) == 0) return i;
    if (!nuri_db_key_name_ok(name))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("nuri: key name \"%s\" is not valid (1..64 of A-Z a-z 0-9 _ . -, not starting with '.')",
                               name)));
    if (!key_dir || !key_dir[0])
        ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR),
                        errmsg("nuri: nuri.key_dir is not set (a superuser sets it: ALTER SYSTEM SET nuri.key_dir = "
                               "'/path'; SELECT pg_reload_conf())")));
    char path[MAXPGPATH], buf[4097];
    snprintf(path, sizeof path, "%s/%s.key", key_dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                        errmsg("nuri: cannot read key \"%s\" (%s/%s.key): %m", name, key_dir, name)));
    ssize_t n = read(fd, buf, sizeof buf);
    int saved = errno;
    close(fd);
    errno = saved;
    if (n < 0) ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("nuri: key \"%s\": %m", name)));
    if (n >= (ssize_t)sizeof buf)
        ereport(ERROR,
                (errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("nuri: key \"%s\": too large for a key file", name)));
    uint8_t key[32];
    size_t len = 0;
    const char *why = nuri_db_parse_key(buf, (size_t)n, key, &len);
    nuri_wipe(buf, sizeof buf);
    if (why) {
        nuri_wipe(key, sizeof key);
        ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("nuri: key file %s: %s", path, why)));
    }
    int slot = (int)(next_key++ % MAX_KEYS);
    for (int i = 0; i < MAX_FMTS; i++) /* schedules of the key this slot held */
        if (fmts[i].used && fmts[i].key == slot) nuri_wipe(&fmts[i], sizeof fmts[i]);
    nuri_wipe(&keys[slot], sizeof keys[slot]);
    memcpy(keys[slot].key, key, len);
    nuri_wipe(key, sizeof key);
    keys[slot].len = len;
    strlcpy(keys[slot].name, name, sizeof keys[slot].name);
    keys[slot].used = true;
    return slot;
}

static unsigned fea_flags(void) { return allow_small ? NURI_FEA_ALLOW_SMALL_DOMAIN : 0; }

static const nuri_fea_fmt *get_fmt(int key, unsigned radix, unsigned len)
{
    for (int i = 0; i < MAX_FMTS; i++)
        if (fmts[i].used && fmts[i].key == key && fmts[i].radix == radix && fmts[i].len == len &&
            fmts[i].variant == (unsigned)fea_variant && fmts[i].flags == fea_flags())
            return &fmts[i].fmt;
    int slot = (int)(next_fmt++ % MAX_FMTS);
    fmt_slot *f = &fmts[slot];
    nuri_wipe(f, sizeof *f);
    /* the domain was checked by the pattern layer (small domains only with nuri.allow_small_domain) */
    if (nuri_fea_fmt_init(&f->fmt, keys[key].key, keys[key].len, (unsigned)fea_variant, radix, len, fea_flags(),
                          NULL) != 0)
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("nuri: FEA key setup failed")));
    f->key = key;
    f->radix = radix;
    f->len = len;
    f->variant = (unsigned)fea_variant;
    f->flags = fea_flags();
    f->used = true;
    return &f->fmt;
}

/* A bytea tweak is a big-endian integer (b'\x07' = 7); it must fit the FEA-1 tweak of n bits. */
static int get_tweak(FunctionCallInfo fcinfo, int argno, const nuri_fea_fmt *f, nuri_fea_u128 *t)
{
    t->hi = t->lo = 0;
    if (PG_NARGS() <= argno) return 0;
    bytea *b = PG_GETARG_BYTEA_PP(argno);
    const uint8_t *p = (const uint8_t *)VARDATA_ANY(b);
    size_t n = VARSIZE_ANY_EXHDR(b), i = 0;
    while (i < n && p[i] == 0) i++; /* leading zero bytes do not count */
    if (n - i > 16) goto big;
    for (; i < n; i++) {
        t->hi = (t->hi << 8) | (t->lo >> 56);
        t->lo = (t->lo << 8) | p[i];
    }
    unsigned bits = nuri_fea_tweak_bits(&f->key);
    if (bits < 128 && ((bits >= 64 && (t->hi >> (bits - 64)) != 0) || (bits < 64 && (t->hi || (t->lo >> bits)))))
        goto big;
    return 1;
big:
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("nuri: the tweak must be below 2^%u for this value's length (FEA-%u with n = %u bits)",
                           nuri_fea_tweak_bits(&f->key), f->key.variant, f->key.n)));
    return 0;
}

/* ------------------------------------------------------------------------------------------ text */

/* digits | template:PATTERN | alphabet:SYMBOLS; anything else is a bare template PATTERN. */
static void init_pattern(nuri_fea_pattern *p, const char *spec, size_t len, char **owned)
{
    char msg[MSG];
    *owned = NULL;
    if (!(len == 6 && memcmp(spec, "digits", 6) == 0) && !(len >= 9 && memcmp(spec, "template:", 9) == 0) &&
        !(len >= 9 && memcmp(spec, "alphabet:", 9) == 0)) {
        *owned = palloc(len + 9);
        memcpy(*owned, "template:", 9);
        memcpy(*owned + 9, spec, len);
        spec = *owned;
        len += 9;
    }
    if (nuri_fea_pattern_init(p, spec, len, NULL, 0, msg, sizeof msg) != 0)
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("nuri: pattern \"%.*s\": %s", (int)len, spec, msg)));
}

static Datum crypt_text(FunctionCallInfo fcinfo, const char *fn, text *value, const char *spec, size_t spec_len,
                        text *key_name, int tweak_arg, int dec)
{
    nuri_fea_pattern p;
    char *owned, msg[MSG];
    init_pattern(&p, spec, spec_len, &owned);
    char *name = text_to_cstring(key_name);
    int key = find_key(name);
    const char *v = VARDATA_ANY(value);
    size_t vlen = VARSIZE_ANY_EXHDR(value), n, olen;
    uint16_t syms[NURI_FEA_PATTERN_MAX_SYMBOLS];
    if (nuri_fea_pattern_split(&p, v, vlen, syms, &n, fea_flags(), msg, sizeof msg) != 0)
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg("%s: the value (%zu bytes) %s", fn, vlen, msg)));
    const nuri_fea_fmt *f = get_fmt(key, p.radix, (unsigned)n);
    nuri_fea_u128 t;
    int nt = get_tweak(fcinfo, tweak_arg, f, &t);
    int rc = dec ? nuri_fea_fmt_decrypt(f, syms, syms, 1, nt ? &t : NULL, (size_t)nt)
                 : nuri_fea_fmt_encrypt(f, syms, syms, 1, nt ? &t : NULL, (size_t)nt);
    if (rc != 0) ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("%s: FEA failed (%d)", fn, rc)));
    size_t cap = nuri_fea_pattern_max_out(&p, vlen);
    text *out = (text *)palloc(VARHDRSZ + cap);
    rc = nuri_fea_pattern_join(&p, v, vlen, syms, n, VARDATA(out), cap, &olen);
    nuri_wipe(syms, sizeof syms);
    if (rc != 0) ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("%s: join failed (%d)", fn, rc)));
    SET_VARSIZE(out, VARHDRSZ + olen);
    if (owned) pfree(owned);
    pfree(name);
    PG_RETURN_TEXT_P(out);
}

#define DIGITS_FN(sqlname, dec)                                                                                   \
    PG_FUNCTION_INFO_V1(sqlname);                                                                                 \
    Datum sqlname(PG_FUNCTION_ARGS)                                                                               \
    {                                                                                                             \
        return crypt_text(fcinfo, &#sqlname[7], PG_GETARG_TEXT_PP(0), "digits", 6, PG_GETARG_TEXT_PP(1), 2, dec); \
    }
DIGITS_FN(pgnuri_fea_encrypt_digits, 0)
DIGITS_FN(pgnuri_fea_decrypt_digits, 1)

#define TEMPLATE_FN(sqlname, dec)                                                                               \
    PG_FUNCTION_INFO_V1(sqlname);                                                                               \
    Datum sqlname(PG_FUNCTION_ARGS)                                                                             \
    {                                                                                                           \
        text *pat = PG_GETARG_TEXT_PP(1);                                                                       \
        return crypt_text(fcinfo, &#sqlname[7], PG_GETARG_TEXT_PP(0), VARDATA_ANY(pat), VARSIZE_ANY_EXHDR(pat), \
                          PG_GETARG_TEXT_PP(2), 3, dec);                                                        \
    }
TEMPLATE_FN(pgnuri_fea_encrypt_template, 0)
TEMPLATE_FN(pgnuri_fea_decrypt_template, 1)

/* ------------------------------------------------------------------------------------------ integers */

/* Integer columns keep their type: 0 <= x < 10^W encrypted as W decimal digits (W = 18 for bigint,
 * 9 for integer), the CLI's digits:W. */
static int64 crypt_int(FunctionCallInfo fcinfo, const char *fn, int64 x, unsigned width, int dec)
{
    int64 lim = 1;
    for (unsigned i = 0; i < width; i++) lim *= 10;
    if (x < 0 || x >= lim)
        ereport(ERROR,
                (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                 errmsg("%s: the value is outside 0..10^%u-1 (%s)", fn, width, x < 0 ? "negative" : "too large")));
    char *name = text_to_cstring(PG_GETARG_TEXT_PP(1));
    int key = find_key(name);
    const nuri_fea_fmt *f = get_fmt(key, 10, width);
    nuri_fea_u128 t, v = {0, (uint64_t)x};
    int nt = get_tweak(fcinfo, 2, f, &t);
    int rc = dec ? nuri_fea_fmt_decrypt_u128(f, &v, &v, 1, nt ? &t : NULL, (size_t)nt)
                 : nuri_fea_fmt_encrypt_u128(f, &v, &v, 1, nt ? &t : NULL, (size_t)nt);
    if (rc != 0) ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("%s: FEA failed (%d)", fn, rc)));
    pfree(name);
    return (int64)v.lo;
}

PG_FUNCTION_INFO_V1(pgnuri_fea_encrypt_bigint);
Datum pgnuri_fea_encrypt_bigint(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(crypt_int(fcinfo, "fea_encrypt_int", PG_GETARG_INT64(0), 18, 0));
}
PG_FUNCTION_INFO_V1(pgnuri_fea_decrypt_bigint);
Datum pgnuri_fea_decrypt_bigint(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(crypt_int(fcinfo, "fea_decrypt_int", PG_GETARG_INT64(0), 18, 1));
}
PG_FUNCTION_INFO_V1(pgnuri_fea_encrypt_integer);
Datum pgnuri_fea_encrypt_integer(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)crypt_int(fcinfo, "fea_encrypt_int", PG_GETARG_INT32(0), 9, 0));
}
PG_FUNCTION_INFO_V1(pgnuri_fea_decrypt_integer);
Datum pgnuri_fea_decrypt_integer(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32((int32)crypt_int(fcinfo, "fea_decrypt_int", PG_GETARG_INT32(0), 9, 1));
}
