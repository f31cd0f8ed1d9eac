/* Named keys for the database extensions (PostgreSQL db/postgres, DuckDB db/duckdb): one rule
 * for key names and one parser of the nuri key-file format (python/nuri/keyfile.py), included by
 * both so that a key directory means the same thing to every engine. Header-only: each extension
 * is one translation unit. */
#ifndef NURI_DB_KEY_H
#define NURI_DB_KEY_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NURI_DB_KEY_NAME_MAX 64

/* 1..64 of A-Z a-z 0-9 _ . -, not starting with '.' (so a name never leaves the key directory). */
static inline int nuri_db_key_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > NURI_DB_KEY_NAME_MAX || name[0] == '.') return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '-'))
            return 0;
    }
    return 1;
}

static inline int nuri_db_hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* "nuri-key-v1 <bits> <hex>" or one line of hex; the key into key[32], its length into *len.
 * Returns NULL, or what is wrong with the file (never its content). */
static inline const char *nuri_db_parse_key(const char *text, size_t n, uint8_t key[32], size_t *len)
{
    const char *s = text, *e = text + n;
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r')) e--;
    if (memchr(s, '\n', (size_t)(e - s))) return "expected one line";
    long bits = -1;
    if (e - s > 9 && memcmp(s, "nuri-key-", 9) == 0) {
        if (e - s < 12 || memcmp(s, "nuri-key-v1 ", 12) != 0)
            return "unsupported version (this nuri reads nuri-key-v1)";
        s += 12;
        bits = 0;
        const char *b = s;
        while (s < e && *s >= '0' && *s <= '9' && s - b < 4) bits = bits * 10 + (*s++ - '0');
        if (s == b || s >= e || *s != ' ' || (bits != 128 && bits != 192 && bits != 256))
            return "expected 'nuri-key-v1 <bits> <hex>' with bits 128, 192 or 256";
        s++;
    }
    size_t h = (size_t)(e - s);
    if (h != 32 && h != 48 && h != 64) return "the key must be 32, 48 or 64 hex digits";
    for (size_t i = 0; i < h / 2; i++) {
        int a = nuri_db_hexval(s[2 * i]), b = nuri_db_hexval(s[2 * i + 1]);
        if (a < 0 || b < 0) return "the key is not hex digits";
        key[i] = (uint8_t)(a << 4 | b);
    }
    if (bits > 0 && (size_t)bits != h * 4) return "the bit count does not match the key";
    *len = h / 2;
    return NULL;
}

#endif
