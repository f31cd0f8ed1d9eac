/* The one pattern syntax of nuri's format-preserving encryption (CLI, Python, PostgreSQL, DuckDB,
 * Spark all call this code): a pattern says which characters of a value are encrypted, in which
 * radix, and which stay in place.
 *
 *   digits             every ASCII decimal digit of the value is encrypted, as one decimal number;
 *                      every other character stays where it is ("4111-1111-1111-1111" keeps its dashes)
 *   template:PATTERN   '#' = an encrypted symbol, '*' = a symbol kept in clear, '\x' = the character x
 *                      literally, any other character must appear as is
 *   alphabet:SYMBOLS   every character must be one of SYMBOLS (UTF-8, 2..65536 distinct characters);
 *                      the whole value is encrypted in radix len(SYMBOLS)
 *
 * Templates take their symbols from an optional alphabet (default the ten digits).
 * Splitting a value is branch-free on its symbols (digits by arithmetic, alphabet symbols by a
 * masked scan of the whole alphabet); where the separators and kept parts are is the public format.
 * Only the characters' UTF-8 lengths decide the byte layout, as they decide the output length.
 * Every such public fact is declassified where it is decided (NURI_CT_PUBLIC), and tests/ct/ct_fea.c
 * runs split and join with the value marked secret under valgrind. */
#include <stdarg.h>
#include <stdio.h>

#include "fea_impl.h"

static void say(char *msg, size_t cap, const char *fmt, ...)
{
    if (!msg || !cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
}

/* Decodes one UTF-8 character at s[*i] (< n) into *cp and advances *i; returns 0, or -1 for a
 * malformed sequence (overlong forms, surrogates and values > 0x10FFFF included).
 * Constant time in the character: only its byte length and whether it is well formed (the
 * value's public shape) decide branches; they are declassified for valgrind (tests/ct/ct_fea.c). */
static int utf8_read(const char *s, size_t n, size_t *i, unsigned long *cp)
{
    static const unsigned long min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    const unsigned char *u = (const unsigned char *)s + *i;
    unsigned b0 = u[0];
    unsigned len = 1u + (b0 >= 0xC0) + (b0 >= 0xE0) + (b0 >= 0xF0);
    unsigned bad = ((b0 >= 0x80) & (b0 < 0xC0)) | (b0 >= 0xF8);
    NURI_CT_PUBLIC(&len, sizeof len);
    NURI_CT_PUBLIC(&bad, sizeof bad);
    *cp = 0;
    if (bad || n - *i < len) return -1;
    unsigned long c = b0 & (len == 1 ? 0x7Fu : 0xFFu >> (len + 1));
    for (size_t k = 1; k < len; k++) {
        bad |= (u[k] & 0xC0u) != 0x80u;
        c = (c << 6) | (u[k] & 0x3Fu);
    }
    bad |= (unsigned)(c < min_cp[len]) | (unsigned)(c > 0x10FFFF) | (unsigned)(c - 0xD800 < 0x800);
    NURI_CT_PUBLIC(&bad, sizeof bad);
    if (bad) return -1;
    *i += len;
    *cp = c;
    return 0;
}

/* The same for public text (templates, alphabets): the code point, or -1. */
static long utf8_next(const char *s, size_t n, size_t *i)
{
    unsigned long cp;
    return utf8_read(s, n, i, &cp) == 0 ? (long)cp : -1;
}

/* Encodes cp; its byte length is public (it is the output's length), its bits are not. */
static size_t utf8_put(char *out, unsigned long cp)
{
    unsigned len = 1u + (cp >= 0x80) + (cp >= 0x800) + (cp >= 0x10000);
    NURI_CT_PUBLIC(&len, sizeof len);
    if (len == 1) {
        out[0] = (char)cp;
        return 1;
    }
    if (len == 2) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (len == 3) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Shows a character in a message: printable ASCII as 'c', anything else as U+XXXX. */
static const char *show(long cp, char buf[24])
{
    if (cp >= 0x20 && cp < 0x7F && cp != '\'') snprintf(buf, 24, "'%c'", (int)cp);
    else snprintf(buf, 24, "U+%04lX", (unsigned long)cp & 0x1FFFFF);
    return buf;
}

static int is_decimal(const nuri_fea_pattern *p) { return p->symbols == NULL; }

/* Index of cp in the alphabet into *idx: a scan of every symbol, selected by mask (no early
 * exit), so the time does not depend on which symbol it is. Returns whether cp is a symbol (a
 * fact about the value's validity: declassified). */
static int symbol_index(const nuri_fea_pattern *p, unsigned long cp, unsigned long *idx)
{
    unsigned long found, k_idx = 0;
    if (is_decimal(p)) {
        k_idx = cp - '0';
        found = k_idx <= 9;
    } else {
        size_t i = 0;
        found = 0;
        for (unsigned long k = 0; i < p->symbols_len; k++) {
            unsigned long s = (unsigned long)utf8_next(p->symbols, p->symbols_len, &i); /* validated at init */
            unsigned long x = s ^ cp;
            unsigned long eq = ((x | (0 - x)) >> (sizeof x * 8 - 1)) ^ 1; /* 1 iff x == 0 */
            k_idx |= (0 - eq) & k;
            found |= eq;
        }
    }
    NURI_CT_PUBLIC(&found, sizeof found);
    *idx = found ? k_idx : 0;
    return (int)found;
}

/* The code point of symbol number idx, by a masked scan of the whole alphabet. */
static unsigned long symbol_at(const nuri_fea_pattern *p, unsigned idx)
{
    if (is_decimal(p)) return '0' + idx;
    size_t i = 0;
    unsigned long cp = 0;
    for (unsigned long k = 0; i < p->symbols_len; k++) {
        unsigned long s = (unsigned long)utf8_next(p->symbols, p->symbols_len, &i);
        unsigned long x = k ^ idx;
        unsigned long eq = ((x | (0 - x)) >> (sizeof x * 8 - 1)) ^ 1;
        cp |= (0 - eq) & s;
    }
    return cp;
}

static int parse_symbols(nuri_fea_pattern *p, const char *sym, size_t len, char *msg, size_t cap)
{
    size_t i = 0, n = 0;
    long prev = -1;
    int sorted = 1;
    while (i < len) {
        long cp = utf8_next(sym, len, &i);
        if (cp < 0) {
            say(msg, cap, "the alphabet is not valid UTF-8");
            return NURI_EINVAL;
        }
        if (cp <= prev) sorted = 0;
        prev = cp;
        if (++n > NURI_FEA_MAX_RADIX) break;
    }
    if (n < 2 || n > NURI_FEA_MAX_RADIX) {
        say(msg, cap, "an alphabet needs 2..65536 distinct symbols, got %s%zu",
            n > NURI_FEA_MAX_RADIX ? "more than " : "", n > NURI_FEA_MAX_RADIX ? (size_t)NURI_FEA_MAX_RADIX : n);
        return NURI_EINVAL;
    }
    if (!sorted) { /* increasing code points are distinct; otherwise compare every pair */
        if (n > 4096) {
            say(msg, cap, "an alphabet of more than 4096 symbols must list them in increasing code point order");
            return NURI_EINVAL;
        }
        size_t a = 0;
        for (size_t ka = 0; ka < n; ka++) {
            long ca = utf8_next(sym, len, &a);
            size_t b = a;
            while (b < len) {
                if (utf8_next(sym, len, &b) == ca) {
                    char buf[24];
                    say(msg, cap, "the alphabet repeats the symbol %s", show(ca, buf));
                    return NURI_EINVAL;
                }
            }
        }
    }
    p->symbols = sym;
    p->symbols_len = len;
    p->radix = (unsigned)n;
    return NURI_OK;
}

static int starts(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    return n >= k && memcmp(s, prefix, k) == 0;
}

int nuri_fea_pattern_init(nuri_fea_pattern *p, const char *spec, size_t spec_len, const char *symbols,
                          size_t symbols_len, char *msg, size_t msg_cap)
{
    memset(p, 0, sizeof *p);
    p->radix = 10;
    say(msg, msg_cap, "%s", "");
    int rc;
    if (spec_len == 6 && memcmp(spec, "digits", 6) == 0) {
        p->kind = NURI_FEA_PATTERN_DIGITS;
        if (symbols) {
            say(msg, msg_cap, "the digits format takes no alphabet");
            rc = NURI_EINVAL;
            goto fail;
        }
        return NURI_OK;
    }
    if (starts(spec, spec_len, "alphabet:")) {
        p->kind = NURI_FEA_PATTERN_ALPHABET;
        if (symbols) {
            say(msg, msg_cap, "alphabet:SYMBOLS takes its symbols from the pattern");
            rc = NURI_EINVAL;
            goto fail;
        }
        rc = parse_symbols(p, spec + 9, spec_len - 9, msg, msg_cap);
        if (rc != NURI_OK) goto fail;
        return NURI_OK;
    }
    if (starts(spec, spec_len, "template:")) {
        p->kind = NURI_FEA_PATTERN_TEMPLATE;
        p->tmpl = spec + 9;
        p->tmpl_len = spec_len - 9;
        if (symbols) {
            rc = parse_symbols(p, symbols, symbols_len, msg, msg_cap);
            if (rc != NURI_OK) goto fail;
        }
        size_t i = 0;
        while (i < p->tmpl_len) {
            long cp = utf8_next(p->tmpl, p->tmpl_len, &i);
            if (cp < 0) {
                say(msg, msg_cap, "the template is not valid UTF-8");
                rc = NURI_EINVAL;
                goto fail;
            }
            if (cp == '\\') {
                if (i >= p->tmpl_len || utf8_next(p->tmpl, p->tmpl_len, &i) < 0) {
                    say(msg, msg_cap, "the template ends with a lone '\\' (write '\\\\' for a backslash)");
                    rc = NURI_EINVAL;
                    goto fail;
                }
            } else if (cp == '#') {
                p->nenc++;
            }
            p->nchars++;
        }
        if (p->nenc == 0) {
            say(msg, msg_cap, "the template has no '#' (encrypted symbol) position");
            rc = NURI_EINVAL;
            goto fail;
        }
        if (p->nenc > NURI_FEA_PATTERN_MAX_SYMBOLS) {
            say(msg, msg_cap, "the template has %u '#' positions (at most %d)", p->nenc, NURI_FEA_PATTERN_MAX_SYMBOLS);
            rc = NURI_EINVAL;
            goto fail;
        }
        return NURI_OK;
    }
    say(msg, msg_cap, "unknown format (expected digits, template:PATTERN or alphabet:SYMBOLS)");
    rc = NURI_EINVAL;
fail:
    memset(p, 0, sizeof *p);
    return rc;
}

int nuri_fea_pattern_check_domain(unsigned radix, size_t nsymbols, unsigned flags, char *msg, size_t msg_cap)
{
    unsigned nbits = nsymbols <= 128 ? nuri_fea_fmt_nbits(radix, (unsigned)nsymbols) : 0;
    if (nbits == 0) {
        say(msg, msg_cap, "has %zu symbols of radix %u: too long (FEA takes at most 128 bits)", nsymbols, radix);
        return NURI_EDOMAIN;
    }
    nuri_fea_u128 d = {1, 0}; /* radix^nsymbols; only its size below 2^64 matters here */
    if (nbits <= 64) {
        d.hi = 0;
        d.lo = 1;
        for (size_t i = 0; i < nsymbols; i++) d.lo *= radix;
    }
    if (d.hi == 0 && d.lo < 256) {
        say(msg, msg_cap, "has a domain of %llu values (< 2^8): too small to encrypt", (unsigned long long)d.lo);
        return NURI_EDOMAIN;
    }
    if (d.hi == 0 && d.lo < NURI_FEA_MIN_SAFE_DOMAIN && !(flags & NURI_FEA_ALLOW_SMALL_DOMAIN)) {
        say(msg, msg_cap,
            "has a domain of %llu values (< 10^6 = 10**6): small FEA domains are attackable "
            "(ePrint 2021/815, 2020/1311) and are refused unless allowed explicitly",
            (unsigned long long)d.lo);
        return NURI_EDOMAIN;
    }
    return NURI_OK;
}

int nuri_fea_pattern_split(const nuri_fea_pattern *p, const char *value, size_t value_len,
                           uint16_t syms[NURI_FEA_PATTERN_MAX_SYMBOLS], size_t *syms_len, unsigned flags, char *msg,
                           size_t msg_cap)
{
    size_t n = 0, i = 0, pos = 0;
    char b1[24], b2[24];
    int rc = NURI_EDOMAIN;
    *syms_len = 0;
    say(msg, msg_cap, "%s", "");
    if (p->kind == NURI_FEA_PATTERN_TEMPLATE) {
        size_t t = 0;
        while (t < p->tmpl_len) {
            long tc = utf8_next(p->tmpl, p->tmpl_len, &t), lit = 0;
            if (tc == '\\') {
                lit = 1;
                tc = utf8_next(p->tmpl, p->tmpl_len, &t);
            }
            pos++;
            if (i >= value_len) {
                say(msg, msg_cap, "does not match template '%.*s' (length %zu, expected %zu)", (int)p->tmpl_len,
                    p->tmpl, pos - 1, p->nchars);
                goto fail;
            }
            unsigned long c, s;
            if (utf8_read(value, value_len, &i, &c) != 0) {
                say(msg, msg_cap, "is not valid UTF-8");
                goto fail;
            }
            if (!lit && (tc == '#' || tc == '*')) {
                if (!symbol_index(p, c, &s)) {
                    NURI_CT_PUBLIC(&c, sizeof c); /* reported */
                    say(msg, msg_cap, "does not match template '%.*s' (position %zu: %s is %s)", (int)p->tmpl_len,
                        p->tmpl, pos, show((long)c, b1), is_decimal(p) ? "not a digit" : "outside the alphabet");
                    goto fail;
                }
                if (tc == '#') syms[n++] = (uint16_t)s;
            } else {
                unsigned differs = c != (unsigned long)tc; /* a literal of the format: public */
                NURI_CT_PUBLIC(&differs, sizeof differs);
                if (differs) {
                    NURI_CT_PUBLIC(&c, sizeof c); /* reported */
                    say(msg, msg_cap, "does not match template '%.*s' (position %zu: %s, expected %s)",
                        (int)p->tmpl_len, p->tmpl, pos, show((long)c, b1), show(tc, b2));
                    goto fail;
                }
            }
        }
        if (i < value_len) {
            size_t extra = 0;
            while (i < value_len && utf8_next(value, value_len, &i) >= 0) extra++;
            say(msg, msg_cap, "does not match template '%.*s' (length %zu, expected %zu)", (int)p->tmpl_len, p->tmpl,
                p->nchars + extra, p->nchars);
            goto fail;
        }
    } else if (p->kind == NURI_FEA_PATTERN_DIGITS) {
        for (i = 0; i < value_len; i++) {
            unsigned d = (unsigned)((unsigned char)value[i] - '0');
            unsigned is_digit = d <= 9; /* where the digits are is the format: public */
            NURI_CT_PUBLIC(&is_digit, sizeof is_digit);
            if (is_digit) {
                if (n >= NURI_FEA_PATTERN_MAX_SYMBOLS) {
                    say(msg, msg_cap, "has more than %d digits", NURI_FEA_PATTERN_MAX_SYMBOLS);
                    goto fail;
                }
                syms[n++] = (uint16_t)d;
            }
        }
        if (n == 0) {
            say(msg, msg_cap, "has no digits");
            goto fail;
        }
    } else if (p->kind == NURI_FEA_PATTERN_ALPHABET) {
        while (i < value_len) {
            unsigned long c, s;
            pos++;
            if (utf8_read(value, value_len, &i, &c) != 0) {
                say(msg, msg_cap, "is not valid UTF-8");
                goto fail;
            }
            if (!symbol_index(p, c, &s)) {
                NURI_CT_PUBLIC(&c, sizeof c); /* reported */
                say(msg, msg_cap, "has %s at position %zu, outside the alphabet", show((long)c, b1), pos);
                goto fail;
            }
            if (n >= NURI_FEA_PATTERN_MAX_SYMBOLS) {
                say(msg, msg_cap, "has more than %d symbols", NURI_FEA_PATTERN_MAX_SYMBOLS);
                goto fail;
            }
            syms[n++] = (uint16_t)s;
        }
        if (n == 0) {
            say(msg, msg_cap, "is empty");
            goto fail;
        }
    } else {
        say(msg, msg_cap, "pattern not initialised");
        rc = NURI_EINVAL;
        goto fail;
    }
    rc = nuri_fea_pattern_check_domain(p->radix, n, flags, msg, msg_cap);
    if (rc != NURI_OK) goto fail;
    *syms_len = n;
    return NURI_OK;
fail:
    nuri_wipe(syms, n * sizeof *syms);
    return rc;
}

size_t nuri_fea_pattern_max_out(const nuri_fea_pattern *p, size_t value_len)
{
    /* digits and templates over the decimal alphabet replace ASCII by ASCII; an alphabet symbol
     * takes at most 4 bytes and every input character at least 1 */
    return is_decimal(p) ? value_len : 4 * value_len;
}

static int join(const nuri_fea_pattern *p, const char *value, size_t len, const uint16_t *syms, size_t nsyms, char *out,
                size_t out_cap, size_t *out_len)
{
    size_t i = 0, o = 0, k = 0;
    unsigned long cp;
    if (out_cap < nuri_fea_pattern_max_out(p, len)) return NURI_EBUFFER;
    unsigned out_of_range = 0;
    for (size_t j = 0; j < nsyms; j++) out_of_range |= syms[j] >= p->radix;
    NURI_CT_PUBLIC(&out_of_range, sizeof out_of_range);
    if (out_of_range) return NURI_EINVAL;
    if (p->kind == NURI_FEA_PATTERN_DIGITS) {
        for (; i < len; i++) {
            unsigned d = (unsigned)((unsigned char)value[i] - '0');
            unsigned is_digit = d <= 9;
            NURI_CT_PUBLIC(&is_digit, sizeof is_digit);
            if (is_digit) {
                if (k >= nsyms) goto bad;
                out[o++] = (char)('0' + syms[k++]);
            } else {
                out[o++] = value[i];
            }
        }
    } else if (p->kind == NURI_FEA_PATTERN_ALPHABET) {
        while (i < len) {
            if (utf8_read(value, len, &i, &cp) != 0 || k >= nsyms) goto bad;
            o += utf8_put(out + o, symbol_at(p, syms[k++]));
        }
    } else if (p->kind == NURI_FEA_PATTERN_TEMPLATE) {
        size_t t = 0;
        while (t < p->tmpl_len && i < len) {
            long tc = utf8_next(p->tmpl, p->tmpl_len, &t);
            int lit = tc == '\\';
            if (lit) tc = utf8_next(p->tmpl, p->tmpl_len, &t);
            size_t start = i;
            if (utf8_read(value, len, &i, &cp) != 0) goto bad;
            if (!lit && tc == '#') {
                if (k >= nsyms) goto bad;
                o += utf8_put(out + o, symbol_at(p, syms[k++]));
            } else {
                memcpy(out + o, value + start, i - start);
                o += i - start;
            }
        }
        if (t < p->tmpl_len || i < len) goto bad;
    } else {
        return NURI_EINVAL;
    }
    if (k != nsyms) goto bad;
    *out_len = o;
    return NURI_OK;
bad: /* the value is not the one split (or not of this pattern) */
    return NURI_EINVAL;
}

int nuri_fea_pattern_join(const nuri_fea_pattern *p, const char *value, size_t value_len, const uint16_t *syms,
                          size_t syms_len, char *out, size_t out_cap, size_t *out_len)
{
    *out_len = 0;
    int rc = join(p, value, value_len, syms, syms_len, out, out_cap, out_len);
    if (rc != NURI_OK) { /* outputs zeroed on error: every byte join may write, within out_cap */
        size_t most = nuri_fea_pattern_max_out(p, value_len), n = out_cap < most ? out_cap : most;
        if (out && n) nuri_wipe(out, n);
    }
    return rc;
}
