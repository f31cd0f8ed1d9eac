/* nuri_fea: FEA format-preserving encryption as a loadable DuckDB extension (docs/fea-databases.md).
 *
 * Written against DuckDB's stable C extension API (duckdb_extension.h, C_STRUCT ABI, API v1.5.6);
 * the headers come from the DuckDB release that scripts/deps/db.pip pins, at build time
 * (db/duckdb/get_headers.sh), and are never committed. The functions and their semantics are the
 * PostgreSQL extension's (db/postgres/nuri_fea.c):
 *   fea_encrypt_digits(value VARCHAR, key_name VARCHAR[, tweak BLOB])       and fea_decrypt_digits
 *   fea_encrypt_template(value, pattern VARCHAR, key_name[, tweak])         and fea_decrypt_template
 *   fea_encrypt_int(value BIGINT | INTEGER, key_name[, tweak])              and fea_decrypt_int
 * Keys are named, never in SQL: 'cards' is the nuri key file <nuri_key_dir>/cards.key. Settings:
 *   nuri_key_dir             the key directory (read when a query is bound)
 *   nuri_on_error            'stop' (default): a value that does not fit fails the statement,
 *                            naming the value (nothing is written); 'keep': it stays unchanged and
 *                            the first 20 are reported on stderr (the CLI's --on-error)
 *   nuri_fea_variant         1 (FEA-1, default) or 2 (FEA-2)
 *   nuri_allow_small_domain  false (default): domains below 10^6 are refused, as everywhere in nuri
 * The key name and the pattern must be constants (they are resolved once, when the query is bound);
 * the tweak may differ per row. NULL in, NULL out.
 *
 * Speed: DuckDB hands each thread vectors of up to 2048 rows; every vector is split by nuri's one
 * pattern code (src/fea/pattern.c), grouped by symbol count, and each group goes to nuri's batch
 * API in one call. Values that are plain digit strings under the digits pattern (the common card
 * number column) skip the split, which gives the same result: up to 19 digits they are parsed
 * from DuckDB's string straight into 64-bit words (nuri_fea_digits_to_u64: constant time, it
 * validates as it parses), encrypted in one nuri_fea_fmt_encrypt_u64 call per length and written
 * back as digits into the output vector; 20..38 digits go through nuri_fea_fmt_encrypt_digits.
 * Expanded keys live in per-thread state and are wiped when the query ends. */
#define _POSIX_C_SOURCE       200809L
#define DUCKDB_EXTENSION_NAME nuri_fea
#include "duckdb_extension.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nuri/fea.h"
#include "../common/nuri_db_key.h"

DUCKDB_EXTENSION_EXTERN

#define MSG          256
#define MAX_REPORTED 20
#define FMT_CACHE    8
#define MAX_SYMS     NURI_FEA_PATTERN_MAX_SYMBOLS

enum { K_DIGITS, K_TEMPLATE, K_INT };
enum { SPLIT, PLAIN_WIDE, PLAIN_U64 }; /* how a row of fea_text is taken */
#define U64_DIGITS 19                  /* the most digits below 2^64 */

/* What one SQL function is (the extra info of its registration). */
typedef struct fn_kind {
    const char *name;
    int kind, dec, has_tweak;
    unsigned width; /* K_INT: 18 (BIGINT) or 9 (INTEGER) */
} fn_kind;

/* Resolved when a query is bound: shared (read-only) by every thread, reference counted because
 * DuckDB copies bound expressions. */
typedef struct bound {
    atomic_int refs;
    const fn_kind *fk;
    int null_result; /* the key name or the pattern is NULL: every row is NULL */
    int keep;
    unsigned variant, flags;
    uint8_t key[32];
    size_t key_len;
    char *spec; /* owned pattern text ("digits", "template:..."); p points into it */
    size_t spec_len;
    nuri_fea_pattern p;
} bound;

typedef struct fmt_slot {
    unsigned radix, len, used;
    nuri_fea_fmt fmt;
} fmt_slot;

/* Per thread (DuckDB's function local state): expanded keys and the scratch of one vector. */
typedef struct local {
    fmt_slot fmts[FMT_CACHE];
    unsigned next_fmt;
    size_t cap;            /* rows the buffers hold */
    uint16_t *syms;        /* cap * MAX_SYMS: the symbols of each row (split rows) */
    char *digits;          /* cap * NURI_FEA_MAX_DIGITS: plain digit rows of 20..38 digits */
    uint64_t *u;           /* cap: plain digit rows of up to 19 digits, as integers */
    uint64_t *g;           /* cap: one group of them, packed */
    uint16_t *gsyms;       /* cap * MAX_SYMS: one group, packed */
    char *gdigits;         /* cap * NURI_FEA_MAX_DIGITS */
    nuri_fea_u128 *tweaks; /* cap: one group's tweaks */
    nuri_fea_u128 *rowtw;  /* cap: each row's tweak */
    uint64_t *ints;        /* cap */
    uint32_t *idx;         /* cap: rows of one group */
    uint8_t *nsyms;        /* cap: symbols per row; 0 = no work (NULL, or a problem kept) */
    uint8_t *plain;        /* cap: PLAIN_WIDE / PLAIN_U64 = a plain digits row */
    char *out;             /* one joined value */
    size_t out_cap;
} local;

static atomic_int reported;

/* ----------------------------------------------------------------------------------------- bind */

static void bound_release(void *data)
{
    bound *b = data;
    if (!b || atomic_fetch_sub(&b->refs, 1) != 1) return;
    if (b->spec) {
        nuri_wipe(b->spec, b->spec_len);
        free(b->spec);
    }
    nuri_wipe(b, sizeof *b);
    free(b);
}

static void *bound_copy(void *data)
{
    bound *b = data;
    atomic_fetch_add(&b->refs, 1);
    return b;
}

/* The setting's value as text (caller frees with duckdb_free), or NULL if unset. */
static char *setting(duckdb_client_context ctx, const char *name)
{
    duckdb_config_option_scope scope;
    duckdb_value v = duckdb_client_context_get_config_option(ctx, name, &scope);
    if (!v) return NULL;
    char *s = duckdb_is_null_value(v) ? NULL : duckdb_get_varchar(v);
    duckdb_destroy_value(&v);
    return s;
}

/* A constant argument as text: 1 = got it (*out, duckdb_free it), 0 = NULL, -1 = not a constant. */
static int constant_text(duckdb_bind_info info, duckdb_client_context ctx, idx_t i, char **out)
{
    duckdb_expression e = duckdb_scalar_function_bind_get_argument(info, i);
    if (!e) return -1;
    int rc = -1;
    if (duckdb_expression_is_foldable(e)) {
        duckdb_value v = NULL;
        duckdb_error_data err = duckdb_expression_fold(ctx, e, &v);
        if (err) {
            if (!duckdb_error_data_has_error(err)) rc = 0;
            duckdb_destroy_error_data(&err);
        } else {
            rc = 0;
        }
        if (rc == 0 && v) {
            if (duckdb_is_null_value(v)) {
                rc = 0;
            } else {
                *out = duckdb_get_varchar(v);
                rc = 1;
            }
        }
        if (v) duckdb_destroy_value(&v);
    }
    duckdb_destroy_expression(&e);
    return rc;
}

static int load_key(bound *b, const char *dir, const char *name, char *err, size_t cap)
{
    if (!nuri_db_key_name_ok(name)) {
        snprintf(err, cap, "key name \"%.80s\" is not valid (1..64 of A-Z a-z 0-9 _ . -, not starting with '.')", name);
        return -1;
    }
    if (!dir || !dir[0]) {
        snprintf(err, cap, "nuri_key_dir is not set (SET nuri_key_dir = '/path/to/keys')");
        return -1;
    }
    char path[4096], buf[4097];
    snprintf(path, sizeof path, "%s/%s.key", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, cap, "cannot read key \"%s\" (%.3000s): %s", name, path, strerror(errno));
        return -1;
    }
    ssize_t n = read(fd, buf, sizeof buf);
    int saved = errno;
    close(fd);
    if (n < 0 || n >= (ssize_t)sizeof buf) {
        nuri_wipe(buf, sizeof buf);
        snprintf(err, cap, "key \"%s\": %s", name, n < 0 ? strerror(saved) : "too large for a key file");
        return -1;
    }
    const char *why = nuri_db_parse_key(buf, (size_t)n, b->key, &b->key_len);
    nuri_wipe(buf, sizeof buf);
    if (why) {
        nuri_wipe(b->key, sizeof b->key);
        snprintf(err, cap, "key file %.3000s: %s", path, why);
        return -1;
    }
    return 0;
}

/* digits | template:PATTERN | alphabet:SYMBOLS; anything else is a bare template (as in PostgreSQL). */
static int set_pattern(bound *b, const char *spec, char *err, size_t cap)
{
    size_t len = strlen(spec);
    int bare = !(len == 6 && memcmp(spec, "digits", 6) == 0) && !(len >= 9 && memcmp(spec, "template:", 9) == 0) &&
               !(len >= 9 && memcmp(spec, "alphabet:", 9) == 0);
    b->spec_len = len + (bare ? 9 : 0);
    b->spec = malloc(b->spec_len + 1);
    if (!b->spec) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    memcpy(b->spec, "template:", bare ? 9 : 0);
    memcpy(b->spec + (bare ? 9 : 0), spec, len + 1);
    char msg[MSG];
    if (nuri_fea_pattern_init(&b->p, b->spec, b->spec_len, NULL, 0, msg, sizeof msg) != 0) {
        snprintf(err, cap, "pattern \"%.100s\": %s", spec, msg);
        return -1;
    }
    return 0;
}

static void fea_bind(duckdb_bind_info info)
{
    const fn_kind *fk = duckdb_scalar_function_bind_get_extra_info(info);
    duckdb_client_context ctx = NULL;
    duckdb_scalar_function_get_client_context(info, &ctx);
    bound *b = calloc(1, sizeof *b);
    char err[MSG + 3100] = "", *dir = NULL, *onerr = NULL, *variant = NULL, *small = NULL, *name = NULL, *pat = NULL;
    if (!b || !ctx) {
        snprintf(err, sizeof err, "out of memory");
        goto fail;
    }
    atomic_init(&b->refs, 1);
    b->fk = fk;
    dir = setting(ctx, "nuri_key_dir");
    onerr = setting(ctx, "nuri_on_error");
    variant = setting(ctx, "nuri_fea_variant");
    small = setting(ctx, "nuri_allow_small_domain");
    if (onerr && strcmp(onerr, "stop") != 0 && strcmp(onerr, "keep") != 0) {
        snprintf(err, sizeof err, "nuri_on_error must be 'stop' or 'keep', not '%.40s'", onerr);
        goto fail;
    }
    b->keep = onerr && strcmp(onerr, "keep") == 0;
    b->variant = variant && strcmp(variant, "2") == 0 ? 2 : 1;
    if (variant && strcmp(variant, "1") != 0 && strcmp(variant, "2") != 0) {
        snprintf(err, sizeof err, "nuri_fea_variant must be 1 or 2, not %.40s", variant);
        goto fail;
    }
    b->flags = small && strcmp(small, "true") == 0 ? NURI_FEA_ALLOW_SMALL_DOMAIN : 0;
    idx_t key_arg = fk->kind == K_TEMPLATE ? 2 : 1;
    int got = fk->kind == K_TEMPLATE ? constant_text(info, ctx, 1, &pat) : 1;
    if (got < 0) {
        snprintf(err, sizeof err, "the pattern must be a constant");
        goto fail;
    }
    int got_key = constant_text(info, ctx, key_arg, &name);
    if (got_key < 0) {
        snprintf(err, sizeof err, "the key name must be a constant (keys are named in nuri_key_dir, not computed)");
        goto fail;
    }
    if (got == 0 || got_key == 0) {
        b->null_result = 1; /* NULL pattern or key name: NULL, as a STRICT function */
    } else {
        if (set_pattern(b, fk->kind == K_TEMPLATE ? pat : "digits", err, sizeof err) != 0) goto fail;
        if (load_key(b, dir, name, err, sizeof err) != 0) goto fail;
    }
    duckdb_scalar_function_set_bind_data(info, b, bound_release);
    duckdb_scalar_function_set_bind_data_copy(info, bound_copy);
    b = NULL;
fail:
    if (err[0]) {
        char full[sizeof err + 64];
        snprintf(full, sizeof full, "%s: %s", fk->name, err);
        duckdb_scalar_function_bind_set_error(info, full);
    }
    if (b) bound_release(b);
    if (dir) duckdb_free(dir);
    if (onerr) duckdb_free(onerr);
    if (variant) duckdb_free(variant);
    if (small) duckdb_free(small);
    if (name) duckdb_free(name);
    if (pat) duckdb_free(pat);
    if (ctx) duckdb_destroy_client_context(&ctx);
}

/* ---------------------------------------------------------------------------- per-thread state */

static void local_free(void *data)
{
    local *l = data;
    if (!l) return;
    if (l->syms) nuri_wipe(l->syms, l->cap * MAX_SYMS * sizeof *l->syms);
    if (l->digits) nuri_wipe(l->digits, l->cap * NURI_FEA_MAX_DIGITS);
    if (l->gsyms) nuri_wipe(l->gsyms, l->cap * MAX_SYMS * sizeof *l->gsyms);
    if (l->gdigits) nuri_wipe(l->gdigits, l->cap * NURI_FEA_MAX_DIGITS);
    if (l->ints) nuri_wipe(l->ints, l->cap * sizeof *l->ints);
    if (l->u) nuri_wipe(l->u, l->cap * sizeof *l->u);
    if (l->g) nuri_wipe(l->g, l->cap * sizeof *l->g);
    if (l->out) nuri_wipe(l->out, l->out_cap);
    free(l->syms);
    free(l->digits);
    free(l->gsyms);
    free(l->gdigits);
    free(l->tweaks);
    free(l->rowtw);
    free(l->ints);
    free(l->u);
    free(l->g);
    free(l->idx);
    free(l->nsyms);
    free(l->plain);
    free(l->out);
    nuri_wipe(l, sizeof *l); /* the expanded keys */
    free(l);
}

static void fea_init(duckdb_init_info info)
{
    local *l = calloc(1, sizeof *l);
    if (!l) {
        duckdb_scalar_function_init_set_error(info, "nuri_fea: out of memory");
        return;
    }
    duckdb_scalar_function_init_set_state(info, l, local_free);
}

static int reserve(local *l, size_t rows)
{
    if (rows <= l->cap) return 0;
    local fresh = {0};
    memcpy(fresh.fmts, l->fmts, sizeof l->fmts);
    fresh.next_fmt = l->next_fmt;
    local *old = malloc(sizeof *old);
    if (!old) return -1;
    *old = *l;
    memset(old->fmts, 0, sizeof old->fmts);
    *l = fresh;
    nuri_wipe(fresh.fmts, sizeof fresh.fmts);
    local_free(old);
    l->syms = malloc(rows * MAX_SYMS * sizeof *l->syms);
    l->gsyms = malloc(rows * MAX_SYMS * sizeof *l->gsyms);
    l->digits = malloc(rows * NURI_FEA_MAX_DIGITS);
    l->gdigits = malloc(rows * NURI_FEA_MAX_DIGITS);
    l->tweaks = malloc(rows * sizeof *l->tweaks);
    l->rowtw = malloc(rows * sizeof *l->rowtw);
    l->ints = malloc(rows * sizeof *l->ints);
    l->u = malloc(rows * sizeof *l->u);
    l->g = malloc(rows * sizeof *l->g);
    l->idx = malloc(rows * sizeof *l->idx);
    l->nsyms = malloc(rows);
    l->plain = malloc(rows);
    if (!l->syms || !l->gsyms || !l->digits || !l->gdigits || !l->tweaks || !l->rowtw || !l->ints || !l->u || !l->g ||
        !l->idx || !l->nsyms || !l->plain)
        return -1;
    l->cap = rows;
    return 0;
}

static const nuri_fea_fmt *get_fmt(local *l, const bound *b, unsigned radix, unsigned len)
{
    for (int i = 0; i < FMT_CACHE; i++)
        if (l->fmts[i].used && l->fmts[i].radix == radix && l->fmts[i].len == len) return &l->fmts[i].fmt;
    fmt_slot *s = &l->fmts[l->next_fmt++ % FMT_CACHE];
    nuri_wipe(s, sizeof *s);
    if (nuri_fea_fmt_init(&s->fmt, b->key, b->key_len, b->variant, radix, len, b->flags, NULL) != 0) return NULL;
    s->radix = radix;
    s->len = len;
    s->used = 1;
    return &s->fmt;
}

/* ------------------------------------------------------------------------------------- execute */

static inline const char *str_data(duckdb_string_t *s, uint32_t *len)
{
    *len = s->value.inlined.length;
    return *len <= 12 ? s->value.inlined.inlined : s->value.pointer.ptr;
}

static inline int row_valid(const uint64_t *validity, idx_t row)
{
    return !validity || (validity[row / 64] >> (row % 64)) & 1;
}

/* A BLOB tweak is a big-endian integer (b'\x07' = 7), at most 16 significant bytes. */
static int parse_tweak(const char *p, uint32_t n, nuri_fea_u128 *t)
{
    uint32_t i = 0;
    t->hi = t->lo = 0;
    while (i < n && p[i] == 0) i++;
    if (n - i > 16) return -1;
    for (; i < n; i++) {
        t->hi = (t->hi << 8) | (t->lo >> 56);
        t->lo = (t->lo << 8) | (uint8_t)p[i];
    }
    return 0;
}

static int tweak_fits(const nuri_fea_fmt *f, const nuri_fea_u128 *t)
{
    unsigned bits = nuri_fea_tweak_bits(&f->key);
    if (bits >= 128) return 1;
    if (bits >= 64) return (t->hi >> (bits - 64)) == 0;
    return t->hi == 0 && (t->lo >> bits) == 0;
}

/* A value that does not fit: stop = the statement fails naming it; keep = it stays (returns 0). */
static int problem(duckdb_function_info info, const bound *b, const char *v, size_t vlen, const char *why)
{
    char msg[MSG + 200];
    int shown = (int)(vlen > 80 ? 80 : vlen);
    if (!b->keep) {
        snprintf(msg, sizeof msg,
                 "%s: value '%.*s'%s %s (nothing written; SET nuri_on_error = 'keep' leaves such values unchanged)",
                 b->fk->name, shown, v, vlen > 80 ? "..." : "", why);
        duckdb_scalar_function_set_error(info, msg);
        return -1;
    }
    if (atomic_fetch_add(&reported, 1) < MAX_REPORTED)
        fprintf(stderr, "nuri %s: value '%.*s'%s %s; left unchanged\n", b->fk->name, shown, v, vlen > 80 ? "..." : "",
                why);
    return 0;
}

/* Each row's tweak (tw_vec may be NULL: tweak 0); *uniform = every valid row has the same one. */
static void read_tweaks(local *l, duckdb_vector tw_vec, idx_t n, int *any, int *uniform)
{
    *any = 0;
    *uniform = 1;
    if (!tw_vec) return;
    duckdb_string_t *tw = duckdb_vector_get_data(tw_vec);
    uint64_t *valid = duckdb_vector_get_validity(tw_vec);
    for (idx_t r = 0; r < n; r++) {
        l->rowtw[r].hi = l->rowtw[r].lo = 0;
        if (!row_valid(valid, r)) continue;
        uint32_t len;
        const char *p = str_data(&tw[r], &len);
        if (parse_tweak(p, len, &l->rowtw[r]) != 0) l->rowtw[r].hi = l->rowtw[r].lo = ~(uint64_t)0; /* too big */
        if (l->rowtw[r].hi || l->rowtw[r].lo) *any = 1;
        if (r && (l->rowtw[r].hi != l->rowtw[0].hi || l->rowtw[r].lo != l->rowtw[0].lo)) *uniform = 0;
    }
}

static void set_null(duckdb_vector out, idx_t row)
{
    duckdb_vector_ensure_validity_writable(out);
    duckdb_validity_set_row_invalid(duckdb_vector_get_validity(out), row);
}

/* Runs one group (rows idx[0..m) of nsyms symbols each) through the batch API; PLAIN_U64 rows
 * are written to the output here, the others by the join of fea_text. */
static int run_group(duckdb_function_info info, local *l, const bound *b, const nuri_fea_fmt *f, size_t m, int plain,
                     int has_tweak, int uniform, duckdb_vector out)
{
    const nuri_fea_u128 *tw = NULL;
    size_t ntw = 0;
    if (has_tweak) {
        for (size_t k = 0; k < m; k++) l->tweaks[k] = l->rowtw[l->idx[k]];
        tw = l->tweaks;
        ntw = uniform ? 1 : m;
    }
    unsigned len = f->len;
    int rc;
    if (plain == PLAIN_U64) {
        for (size_t k = 0; k < m; k++) l->g[k] = l->u[l->idx[k]];
        rc = b->fk->dec ? nuri_fea_fmt_decrypt_u64(f, l->g, l->g, m, tw, ntw)
                        : nuri_fea_fmt_encrypt_u64(f, l->g, l->g, m, tw, ntw);
        char d[U64_DIGITS];
        for (size_t k = 0; k < m && rc == 0; k++) {
            rc = nuri_fea_u64_to_digits(l->g[k], d, len); /* len <= 19: cannot fail */
            if (rc == 0) duckdb_unsafe_vector_assign_string_element_len(out, l->idx[k], d, len);
        }
        nuri_wipe(d, sizeof d);
        nuri_wipe(l->g, m * sizeof *l->g);
    } else if (plain) {
        for (size_t k = 0; k < m; k++)
            memcpy(l->gdigits + k * len, l->digits + (size_t)l->idx[k] * NURI_FEA_MAX_DIGITS, len);
        rc = b->fk->dec ? nuri_fea_fmt_decrypt_digits(f, l->gdigits, l->gdigits, m, tw, ntw)
                        : nuri_fea_fmt_encrypt_digits(f, l->gdigits, l->gdigits, m, tw, ntw);
        for (size_t k = 0; k < m; k++)
            memcpy(l->digits + (size_t)l->idx[k] * NURI_FEA_MAX_DIGITS, l->gdigits + k * len, len);
        nuri_wipe(l->gdigits, m * len);
    } else {
        for (size_t k = 0; k < m; k++)
            memcpy(l->gsyms + k * len, l->syms + (size_t)l->idx[k] * MAX_SYMS, len * sizeof *l->gsyms);
        rc = b->fk->dec ? nuri_fea_fmt_decrypt(f, l->gsyms, l->gsyms, m, tw, ntw)
                        : nuri_fea_fmt_encrypt(f, l->gsyms, l->gsyms, m, tw, ntw);
        for (size_t k = 0; k < m; k++)
            memcpy(l->syms + (size_t)l->idx[k] * MAX_SYMS, l->gsyms + k * len, len * sizeof *l->gsyms);
        nuri_wipe(l->gsyms, m * len * sizeof *l->gsyms);
    }
    if (rc != 0) {
        char msg[MSG];
        snprintf(msg, sizeof msg, "%s: FEA failed (%s)", b->fk->name, nuri_strerror(rc));
        duckdb_scalar_function_set_error(info, msg);
        return -1;
    }
    return 0;
}

/* What every call starts with. */
typedef struct call {
    const bound *b;
    local *l;
    idx_t n;
    duckdb_vector in_vec, tw_vec;
    uint64_t *vin, *vtw; /* validity of the value and the tweak (NULL = all valid) */
    int any_tw, uniform;
} call;

/* 0 = rows to process; else the output is done (all NULL) or an error is set. */
static int begin_call(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out, call *c)
{
    c->b = duckdb_scalar_function_get_bind_data(info);
    c->l = duckdb_scalar_function_get_state(info);
    c->n = duckdb_data_chunk_get_size(input);
    c->in_vec = duckdb_data_chunk_get_vector(input, 0);
    c->tw_vec =
        c->b->fk->has_tweak ? duckdb_data_chunk_get_vector(input, duckdb_data_chunk_get_column_count(input) - 1) : NULL;
    c->vin = duckdb_vector_get_validity(c->in_vec);
    c->vtw = c->tw_vec ? duckdb_vector_get_validity(c->tw_vec) : NULL;
    if (c->b->null_result) {
        for (idx_t r = 0; r < c->n; r++) set_null(out, r);
        return 1;
    }
    if (reserve(c->l, c->n) != 0) {
        duckdb_scalar_function_set_error(info, "nuri_fea: out of memory");
        return -1;
    }
    read_tweaks(c->l, c->tw_vec, c->n, &c->any_tw, &c->uniform);
    return 0;
}

static void fea_text(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    call c;
    if (begin_call(info, input, out, &c) != 0) return;
    const bound *b = c.b;
    local *l = c.l;
    const idx_t n = c.n;
    const uint64_t *vin = c.vin, *vtw = c.vtw;
    const int any_tw = c.any_tw, uniform = c.uniform;
    duckdb_string_t *in = duckdb_vector_get_data(c.in_vec);
    char msg[MSG];
    const int digits = b->p.kind == NURI_FEA_PATTERN_DIGITS;
    /* 1. split: plain digit strings are taken as they are, anything else by the pattern code */
    uint64_t lens_seen[3][3] = {{0}}; /* bit L of [SPLIT, PLAIN_WIDE, PLAIN_U64] = some row has L symbols */
    int any_split = 0, any_wide = 0, any_u64 = 0, any_kept = 0;
    for (idx_t r = 0; r < n; r++) {
        l->nsyms[r] = 0;
        if (!row_valid(vin, r) || !row_valid(vtw, r)) {
            set_null(out, r);
            continue;
        }
        uint32_t len;
        const char *v = str_data(&in[r], &len);
        size_t ns = 0;
        int plain = SPLIT;
        /* >= 6: 10^6, the smallest safe domain; whether a value is all digits is its format (public) */
        if (digits && len >= 6 && len <= U64_DIGITS) {
            if (nuri_fea_digits_to_u64(v, len, &l->u[r]) == 0) {
                ns = len;
                plain = PLAIN_U64;
            }
        } else if (digits && len > U64_DIGITS && len <= NURI_FEA_MAX_DIGITS) {
            unsigned bad = 0;
            for (uint32_t i = 0; i < len; i++) bad |= (unsigned)((uint8_t)(v[i] - '0') > 9);
            if (!bad) {
                memcpy(l->digits + (size_t)r * NURI_FEA_MAX_DIGITS, v, len);
                ns = len;
                plain = PLAIN_WIDE;
            }
        }
        any_split |= plain == SPLIT;
        any_wide |= plain == PLAIN_WIDE;
        any_u64 |= plain == PLAIN_U64;
        if (!plain && nuri_fea_pattern_split(&b->p, v, len, l->syms + (size_t)r * MAX_SYMS, &ns, b->flags, msg,
                                             sizeof msg) != 0) {
            if (problem(info, b, v, len, msg) != 0) return;
            any_kept = 1;
            continue; /* kept: the output is set below */
        }
        l->nsyms[r] = (uint8_t)ns;
        l->plain[r] = (uint8_t)plain;
        lens_seen[plain][ns / 64] |= (uint64_t)1 << (ns % 64);
    }
    /* 2. one batch call per (plain or split, symbol count) */
    for (int plain = SPLIT; plain <= PLAIN_U64; plain++)
        for (unsigned ns = 1; ns <= MAX_SYMS; ns++) {
            if (!((lens_seen[plain][ns / 64] >> (ns % 64)) & 1)) continue;
            const nuri_fea_fmt *f = get_fmt(l, b, plain ? 10 : b->p.radix, ns);
            if (!f) {
                duckdb_scalar_function_set_error(info, "nuri_fea: FEA key setup failed");
                return;
            }
            size_t m = 0;
            for (idx_t r = 0; r < n; r++) {
                if (l->nsyms[r] != ns || l->plain[r] != plain) continue;
                if (any_tw && !tweak_fits(f, &l->rowtw[r])) {
                    uint32_t len;
                    const char *v = str_data(&in[r], &len);
                    snprintf(msg, sizeof msg,
                             "cannot take this tweak (FEA-%u with n = %u bits takes tweaks below 2^%u)", b->variant,
                             f->key.n, nuri_fea_tweak_bits(&f->key));
                    if (problem(info, b, v, len, msg) != 0) return;
                    l->nsyms[r] = 0;
                    any_kept = 1;
                    continue;
                }
                l->idx[m++] = (uint32_t)r;
            }
            if (m && run_group(info, l, b, f, m, plain, any_tw, uniform, out) != 0) return;
        }
    /* 3. join (a vector of plain digit strings of up to 19 digits is written already) */
    for (idx_t r = 0; r < n && (any_split || any_wide || any_kept); r++) {
        if (!row_valid(vin, r) || !row_valid(vtw, r)) continue;
        uint32_t len;
        const char *v = str_data(&in[r], &len);
        if (!l->nsyms[r]) { /* a problem kept: unchanged */
            duckdb_unsafe_vector_assign_string_element_len(out, r, v, len);
            continue;
        }
        if (l->plain[r] == PLAIN_U64) continue; /* written by run_group */
        if (l->plain[r] == PLAIN_WIDE) {
            duckdb_unsafe_vector_assign_string_element_len(out, r, l->digits + (size_t)r * NURI_FEA_MAX_DIGITS, len);
            continue;
        }
        size_t cap = nuri_fea_pattern_max_out(&b->p, len), olen = 0;
        if (cap > l->out_cap) {
            if (l->out) nuri_wipe(l->out, l->out_cap);
            free(l->out);
            l->out_cap = 0;
            l->out = malloc(cap);
            if (!l->out) {
                duckdb_scalar_function_set_error(info, "nuri_fea: out of memory");
                return;
            }
            l->out_cap = cap;
        }
        if (nuri_fea_pattern_join(&b->p, v, len, l->syms + (size_t)r * MAX_SYMS, l->nsyms[r], l->out, l->out_cap,
                                  &olen) != 0) {
            duckdb_scalar_function_set_error(info, "nuri_fea: join failed");
            return;
        }
        duckdb_unsafe_vector_assign_string_element_len(out, r, l->out, olen);
    }
    if (any_split) nuri_wipe(l->syms, n * MAX_SYMS * sizeof *l->syms);
    if (any_wide) nuri_wipe(l->digits, n * NURI_FEA_MAX_DIGITS);
    if (any_u64) nuri_wipe(l->u, n * sizeof *l->u);
}

/* Integers keep their type: 0 <= x < 10^W as W decimal digits (W = 18 for BIGINT, 9 for INTEGER). */
static void fea_int(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    call c;
    if (begin_call(info, input, out, &c) != 0) return;
    const bound *b = c.b;
    local *l = c.l;
    const idx_t n = c.n;
    const uint64_t *vin = c.vin, *vtw = c.vtw;
    const int any_tw = c.any_tw, uniform = c.uniform;
    const int wide = b->fk->width == 18;
    const int64_t *in64 = duckdb_vector_get_data(c.in_vec);
    const int32_t *in32 = duckdb_vector_get_data(c.in_vec);
    int64_t *o64 = duckdb_vector_get_data(out);
    int32_t *o32 = duckdb_vector_get_data(out);
    const nuri_fea_fmt *f = get_fmt(l, b, 10, b->fk->width);
    if (!f) {
        duckdb_scalar_function_set_error(info, "nuri_fea: FEA key setup failed");
        return;
    }
    int64_t lim = wide ? 1000000000000000000LL : 1000000000LL;
    char vbuf[24], msg[MSG];
    size_t m = 0;
    for (idx_t r = 0; r < n; r++) {
        if (!row_valid(vin, r) || !row_valid(vtw, r)) {
            set_null(out, r);
            continue;
        }
        int64_t x = wide ? in64[r] : in32[r];
        if (wide) o64[r] = x;
        else o32[r] = (int32_t)x; /* kept problems stay as they are */
        const char *why = NULL;
        if (x < 0 || x >= lim) {
            snprintf(msg, sizeof msg, "is outside 0..10^%u-1", b->fk->width);
            why = msg;
        } else if (any_tw && !tweak_fits(f, &l->rowtw[r])) {
            snprintf(msg, sizeof msg, "cannot take this tweak (FEA-%u with n = %u bits takes tweaks below 2^%u)",
                     b->variant, f->key.n, nuri_fea_tweak_bits(&f->key));
            why = msg;
        }
        if (why) {
            int vl = snprintf(vbuf, sizeof vbuf, "%lld", (long long)x);
            if (problem(info, b, vbuf, (size_t)vl, why) != 0) return;
            continue;
        }
        l->ints[m] = (uint64_t)x;
        l->idx[m++] = (uint32_t)r;
    }
    if (!m) return;
    const nuri_fea_u128 *tw = NULL;
    size_t ntw = 0;
    if (any_tw) {
        for (size_t k = 0; k < m; k++) l->tweaks[k] = l->rowtw[l->idx[k]];
        tw = l->tweaks;
        ntw = uniform ? 1 : m;
    }
    int rc = b->fk->dec ? nuri_fea_fmt_decrypt_u64(f, l->ints, l->ints, m, tw, ntw)
                        : nuri_fea_fmt_encrypt_u64(f, l->ints, l->ints, m, tw, ntw);
    if (rc != 0) {
        snprintf(msg, sizeof msg, "%s: FEA failed (%s)", b->fk->name, nuri_strerror(rc));
        duckdb_scalar_function_set_error(info, msg);
        return;
    }
    for (size_t k = 0; k < m; k++) {
        if (wide) o64[l->idx[k]] = (int64_t)l->ints[k];
        else o32[l->idx[k]] = (int32_t)l->ints[k];
    }
    nuri_wipe(l->ints, m * sizeof *l->ints);
}

/* -------------------------------------------------------------------------------- registration */

static const fn_kind KINDS[] = {
    {"fea_encrypt_digits", K_DIGITS, 0, 0, 0},     {"fea_encrypt_digits", K_DIGITS, 0, 1, 0},
    {"fea_decrypt_digits", K_DIGITS, 1, 0, 0},     {"fea_decrypt_digits", K_DIGITS, 1, 1, 0},
    {"fea_encrypt_template", K_TEMPLATE, 0, 0, 0}, {"fea_encrypt_template", K_TEMPLATE, 0, 1, 0},
    {"fea_decrypt_template", K_TEMPLATE, 1, 0, 0}, {"fea_decrypt_template", K_TEMPLATE, 1, 1, 0},
    {"fea_encrypt_int", K_INT, 0, 0, 18},          {"fea_encrypt_int", K_INT, 0, 1, 18},
    {"fea_encrypt_int", K_INT, 0, 0, 9},           {"fea_encrypt_int", K_INT, 0, 1, 9},
    {"fea_decrypt_int", K_INT, 1, 0, 18},          {"fea_decrypt_int", K_INT, 1, 1, 18},
    {"fea_decrypt_int", K_INT, 1, 0, 9},           {"fea_decrypt_int", K_INT, 1, 1, 9},
};
#define NKINDS (sizeof KINDS / sizeof KINDS[0])

static duckdb_scalar_function make_fn(const fn_kind *fk)
{
    duckdb_scalar_function f = duckdb_create_scalar_function();
    duckdb_scalar_function_set_name(f, fk->name);
    duckdb_type vt =
        fk->kind == K_INT ? (fk->width == 18 ? DUCKDB_TYPE_BIGINT : DUCKDB_TYPE_INTEGER) : DUCKDB_TYPE_VARCHAR;
    duckdb_logical_type value_t = duckdb_create_logical_type(vt);
    duckdb_logical_type text_t = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_logical_type blob_t = duckdb_create_logical_type(DUCKDB_TYPE_BLOB);
    duckdb_scalar_function_add_parameter(f, value_t);
    if (fk->kind == K_TEMPLATE) duckdb_scalar_function_add_parameter(f, text_t); /* pattern */
    duckdb_scalar_function_add_parameter(f, text_t);                             /* key name */
    if (fk->has_tweak) duckdb_scalar_function_add_parameter(f, blob_t);
    duckdb_scalar_function_set_return_type(f, value_t);
    duckdb_destroy_logical_type(&value_t);
    duckdb_destroy_logical_type(&text_t);
    duckdb_destroy_logical_type(&blob_t);
    duckdb_scalar_function_set_extra_info(f, (void *)fk, NULL);
    duckdb_scalar_function_set_bind(f, fea_bind);
    duckdb_scalar_function_set_init(f, fea_init);
    duckdb_scalar_function_set_function(f, fk->kind == K_INT ? fea_int : fea_text);
    return f;
}

static int add_option(duckdb_connection con, const char *name, duckdb_type type, const char *def, const char *what)
{
    duckdb_config_option o = duckdb_create_config_option();
    duckdb_logical_type t = duckdb_create_logical_type(type);
    duckdb_value d = duckdb_create_varchar(def);
    duckdb_config_option_set_name(o, name);
    duckdb_config_option_set_type(o, t);
    duckdb_config_option_set_default_value(o, d);
    duckdb_config_option_set_default_scope(o, DUCKDB_CONFIG_OPTION_SCOPE_SESSION);
    duckdb_config_option_set_description(o, what);
    duckdb_state st = duckdb_register_config_option(con, o);
    duckdb_destroy_value(&d);
    duckdb_destroy_logical_type(&t);
    duckdb_destroy_config_option(&o);
    return st == DuckDBSuccess ? 0 : -1;
}

DUCKDB_EXTENSION_ENTRYPOINT(duckdb_connection connection, duckdb_extension_info info,
                            struct duckdb_extension_access *access)
{
    if (add_option(connection, "nuri_key_dir", DUCKDB_TYPE_VARCHAR, "",
                   "Directory of the nuri key files (<name>.key) that the fea_ functions read") != 0 ||
        add_option(connection, "nuri_on_error", DUCKDB_TYPE_VARCHAR, "stop",
                   "A value that does not fit its pattern: stop (the statement fails) or keep (left unchanged)") != 0 ||
        add_option(connection, "nuri_fea_variant", DUCKDB_TYPE_VARCHAR, "1", "FEA-1 (1, default) or FEA-2 (2)") != 0 ||
        add_option(connection, "nuri_allow_small_domain", DUCKDB_TYPE_BOOLEAN, "false",
                   "Allow patterns with fewer than 10^6 possible values (weak: published attacks)") != 0) {
        access->set_error(info, "nuri_fea: cannot register the settings");
        return false;
    }
    /* the overloads of one name form one function set */
    for (size_t i = 0; i < NKINDS;) {
        duckdb_scalar_function_set set = duckdb_create_scalar_function_set(KINDS[i].name);
        size_t j = i;
        for (; j < NKINDS && strcmp(KINDS[j].name, KINDS[i].name) == 0; j++) {
            duckdb_scalar_function f = make_fn(&KINDS[j]);
            duckdb_add_scalar_function_to_set(set, f);
            duckdb_destroy_scalar_function(&f);
        }
        duckdb_state st = duckdb_register_scalar_function_set(connection, set);
        duckdb_destroy_scalar_function_set(&set);
        if (st != DuckDBSuccess) {
            access->set_error(info, "nuri_fea: cannot register the functions");
            return false;
        }
        i = j;
    }
    return true;
}
