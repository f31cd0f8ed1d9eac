/* Formatted data over the FEA batch API (written once for every kernel): L symbols of radix r
 * <-> the integer x < r^L, FEA on n = bitlen(r^L) bits, cycle-walking (re-encrypt while the
 * result is >= r^L), as the KISA library does for decimal (radix 10) and radix modes.
 * Batches walk together: the values still outside the domain are gathered and re-encrypted as a
 * smaller batch. The number of walks is a function of the ciphertext (public), as in any
 * cycle-walking FPE; everything else is branch-free on the values. */
#include "fea_impl.h"

#define BLK NURI_FEA_CHUNK

size_t nuri_fea_fmt_struct_bytes(void) { return sizeof(nuri_fea_fmt); }

/* x = x * r + d (r <= 65536, d < r); returns the carry out of bit 127 (0 when no overflow). */
static inline uint64_t muladd(nuri_fea_u128 *x, uint64_t r, uint64_t d)
{
    uint64_t l0 = (x->lo & 0xFFFFFFFFu) * r + d;
    uint64_t l1 = (x->lo >> 32) * r + (l0 >> 32);
    uint64_t h0 = (x->hi & 0xFFFFFFFFu) * r + (l1 >> 32);
    uint64_t h1 = (x->hi >> 32) * r + (h0 >> 32);
    x->lo = (l0 & 0xFFFFFFFFu) | (l1 << 32);
    x->hi = (h0 & 0xFFFFFFFFu) | (h1 << 32);
    return h1 >> 32;
}

/* Divides x by r (2 <= r <= 65536) and returns the remainder. Constant time: 16-bit limbs,
 * quotient digits by multiplication with floor(2^32 / r) and one masked correction. */
static inline unsigned divmod(nuri_fea_u128 *x, uint64_t r, uint64_t recip)
{
    uint64_t rem = 0, limbs[2] = {x->hi, x->lo}, q[2] = {0, 0};
    for (int w = 0; w < 2; w++) {
        for (int s = 48; s >= 0; s -= 16) {
            uint64_t cur = (rem << 16) | ((limbs[w] >> s) & 0xFFFF); /* < r * 2^16 <= 2^32 */
            uint64_t qe = (cur * recip) >> 32;                       /* q or q - 1 */
            uint64_t rr = cur - qe * r;
            uint64_t ge = 0 - (uint64_t)(((rr - r) >> 63) ^ 1); /* all-ones if rr >= r */
            qe += ge & 1;
            rr -= ge & r;
            q[w] |= qe << s;
            rem = rr;
        }
    }
    x->hi = q[0];
    x->lo = q[1];
    return (unsigned)rem;
}

static unsigned bitlen(nuri_fea_u128 v)
{
    unsigned n = 0;
    uint64_t w = v.hi ? v.hi : v.lo;
    while (w) {
        n++;
        w >>= 1;
    }
    return v.hi ? n + 64 : n;
}

static int domain_of(unsigned radix, unsigned len, nuri_fea_u128 *d)
{
    d->hi = 0;
    d->lo = 1;
    if (radix < 2 || radix > NURI_FEA_MAX_RADIX || len < 1 || len > 128) return -1;
    for (unsigned i = 0; i < len; i++)
        if (muladd(d, radix, 0) != 0) return -1;
    return 0;
}

unsigned nuri_fea_fmt_nbits(unsigned radix, unsigned nsymbols)
{
    nuri_fea_u128 d;
    if (domain_of(radix, nsymbols, &d) != 0) return 0;
    return bitlen(d);
}

int nuri_fea_fmt_init(nuri_fea_fmt *f, const uint8_t *key, size_t key_len, nuri_fea_variant variant, unsigned radix,
                      unsigned nsymbols, unsigned flags, const char *impl)
{
    memset(f, 0, sizeof *f);
    nuri_fea_u128 d;
    if (domain_of(radix, nsymbols, &d) != 0) return NURI_EDOMAIN; /* r^L >= 2^128 */
    if (d.hi == 0 && d.lo < 256) return NURI_EDOMAIN;             /* too few values */
    if (d.hi == 0 && d.lo < NURI_FEA_MIN_SAFE_DOMAIN && !(flags & NURI_FEA_ALLOW_SMALL_DOMAIN))
        return NURI_EDOMAIN; /* needs the opt-in */
    int rc = nuri_fea_key_init(&f->key, key, key_len, variant, bitlen(d), impl);
    if (rc != NURI_OK) {
        memset(f, 0, sizeof *f);
        return rc;
    }
    f->domain = d;
    f->radix = radix;
    f->len = nsymbols;
    return NURI_OK;
}

void nuri_fea_fmt_wipe(nuri_fea_fmt *f) { nuri_wipe(f, sizeof *f); }

/* 1 if a >= b, branch-free (borrow of a - b). */
static inline unsigned ge_ct(nuri_fea_u128 a, nuri_fea_u128 b)
{
    uint64_t bl = ((~a.lo & b.lo) | (~(a.lo ^ b.lo) & (a.lo - b.lo))) >> 63;
    uint64_t d = a.hi - b.hi - bl;
    uint64_t bh = ((~a.hi & b.hi) | (~(a.hi ^ b.hi) & d)) >> 63;
    return (unsigned)(bh ^ 1);
}

/* The comparison of an input with the domain, for validation (whether an input is valid is public). */
static unsigned ge(nuri_fea_u128 a, nuri_fea_u128 b)
{
    unsigned r = ge_ct(a, b);
    NURI_CT_PUBLIC(&r, sizeof r);
    return r;
}

/* A block of values of either width (wide: nuri_fea_u128, else uint64_t when n <= 64): one pass
 * of the walk (BLK), and the records parsed at a time by the symbol and digit forms (SBLK: the
 * walk carries values that are still outside the domain across its passes, so the more records
 * it walks together, the fewer of its passes are short). */
#define SBLK (4 * BLK)
typedef union {
    nuri_fea_u128 w[BLK];
    uint64_t n[BLK];
} value_block;
typedef union {
    nuri_fea_u128 w[SBLK];
    uint64_t n[SBLK];
} super_block;

/* One FEA pass over m <= BLK values (already validated by the caller: the status is always OK). */
static void pass(const nuri_fea_key *k, int dec, void *v, size_t m, const nuri_fea_u128 *tw, size_t ntw, int wide)
{
    int rc;
    if (wide) rc = dec ? nuri_fea_decrypt_u128(k, v, v, m, tw, ntw) : nuri_fea_encrypt_u128(k, v, v, m, tw, ntw);
    else rc = dec ? nuri_fea_decrypt_u64(k, v, v, m, tw, ntw) : nuri_fea_encrypt_u64(k, v, v, m, tw, ntw);
    (void)rc;
}

/* 1 if value j of v is >= the domain (a function of the ciphertext during the walk: public). */
static inline unsigned outside(const nuri_fea_fmt *f, const void *v, size_t j, int wide)
{
    unsigned r = wide ? ge_ct(((const nuri_fea_u128 *)v)[j], f->domain) : ((const uint64_t *)v)[j] >= f->domain.lo;
    NURI_CT_PUBLIC(&r, sizeof r);
    return r;
}

/* Cycle-walks count values of v in place (tweaks: NULL, one, or one per value of v). Each pass
 * encrypts up to BLK values: first those still outside the domain from the previous pass, then
 * fresh ones, so every pass but the last few is full, however the ciphertexts fall (walking each
 * block of BLK to its end instead costs about seven ever smaller passes per block, each paying the
 * rounds' fixed costs). Gathered into tmp and scattered back by index. */
static inline void walk(const nuri_fea_fmt *f, int dec, void *v, size_t count, const nuri_fea_u128 *tw, size_t ntw,
                        int per_value, int wide)
{
    value_block tmp;
    nuri_fea_u128 ttmp[BLK];
    size_t idx[BLK];
    size_t np = 0, next = 0, used = 0;
    while (np || next < count) {
        size_t m = np;
        while (m < BLK && next < count) idx[m++] = next++;
        for (size_t j = 0; j < m; j++) {
            nuri_fea_put_value(&tmp, j, nuri_fea_get_value(v, idx[j], wide), wide);
            if (per_value) ttmp[j] = tw[idx[j]];
        }
        pass(&f->key, dec, &tmp, m, per_value ? ttmp : tw, per_value ? m : ntw, wide);
        size_t keep = 0;
        for (size_t j = 0; j < m; j++) {
            nuri_fea_put_value(v, idx[j], nuri_fea_get_value(&tmp, j, wide), wide);
            idx[keep] = idx[j];
            keep += outside(f, &tmp, j, wide);
        }
        np = keep;
        used = m > used ? m : used;
    }
    nuri_wipe(&tmp, used * (wide ? sizeof tmp.w[0] : sizeof tmp.n[0]));
}

static int check_common(const nuri_fea_fmt *f, size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    if (!f->key.impl || f->radix < 2) return NURI_EINVAL;
    return nuri_fea_check_tweaks(&f->key, count, tweaks, ntweaks);
}

/* The integer forms: values 0 <= x < r^L as 128-bit (wide) or 64-bit words (n <= 64 only). */
static int fmt_crypt_int(const nuri_fea_fmt *f, int dec, void *out, const void *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks, int wide)
{
    const size_t size = wide ? sizeof(nuri_fea_u128) : sizeof(uint64_t);
    int rc = check_common(f, count, tweaks, ntweaks);
    if (rc == NURI_OK && !wide && f->key.n > 64) rc = NURI_EINVAL;
    if (rc == NURI_OK)
        for (size_t i = 0; i < count; i++)
            if (ge(nuri_fea_get_value(in, i, wide), f->domain)) rc = NURI_EDOMAIN;
    if (rc != NURI_OK) {
        if (count) memset(out, 0, count * size);
        return rc;
    }
    const int per_value = tweaks && ntweaks == count && count > 1;
    if (out != in && count) memmove(out, in, count * size);
    if (wide) walk(f, dec, out, count, tweaks, ntweaks, per_value, 1);
    else walk(f, dec, out, count, tweaks, ntweaks, per_value, 0);
    return NURI_OK;
}

int nuri_fea_fmt_encrypt_u128(const nuri_fea_fmt *f, nuri_fea_u128 *out, const nuri_fea_u128 *in, size_t count,
                              const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return fmt_crypt_int(f, 0, out, in, count, tweaks, ntweaks, 1);
}

int nuri_fea_fmt_decrypt_u128(const nuri_fea_fmt *f, nuri_fea_u128 *out, const nuri_fea_u128 *in, size_t count,
                              const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return fmt_crypt_int(f, 1, out, in, count, tweaks, ntweaks, 1);
}

int nuri_fea_fmt_encrypt_u64(const nuri_fea_fmt *f, uint64_t *out, const uint64_t *in, size_t count,
                             const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return fmt_crypt_int(f, 0, out, in, count, tweaks, ntweaks, 0);
}

int nuri_fea_fmt_decrypt_u64(const nuri_fea_fmt *f, uint64_t *out, const uint64_t *in, size_t count,
                             const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return fmt_crypt_int(f, 1, out, in, count, tweaks, ntweaks, 0);
}

/* Decimal <-> 64-bit words (L <= 19 digits), SWAR on little-endian hosts: 8 digits per step with
 * multiplications, shifts and masks only (constant time: no branch or table index on a digit). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FEA_SWAR 1
#define ASCII0   0x3030303030303030ULL
/* 8 digit bytes x[k] = s[k] ^ '0' (s[0] most significant) -> their value; any x[k] > 9 makes
 * (x | x + 6) carry into a high nibble (a byte > 0xF9 has one already, so no carry leaks out of
 * a byte that was not flagged): *bad accumulates, nothing branches. */
static inline uint64_t not_digits8(uint64_t x) { return (x | (x + 0x0606060606060606ULL)) & 0xF0F0F0F0F0F0F0F0ULL; }
static inline uint64_t digits8(uint64_t x, uint64_t *bad)
{
    *bad |= not_digits8(x);
    x = x * 10 + (x >> 8); /* byte 2k: 10 d[2k] + d[2k+1] */
    return ((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32)) +
            ((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32))) >>
           32;
}
static inline uint64_t load8(const char *s)
{
    uint64_t v;
    memcpy(&v, s, 8);
    return v;
}
static void fmt8(char *s, uint64_t v) /* v < 10^8 as 8 ASCII digits */
{
    uint64_t a = (v / 10000) | ((v % 10000) << 32);           /* two 4-digit lanes */
    uint64_t q = ((a * 10486) >> 20) & 0x0000007F0000007FULL; /* lane / 100 */
    uint64_t b = q | ((a - q * 100) << 16);                   /* four 2-digit lanes */
    uint64_t t = ((b * 103) >> 10) & 0x000F000F000F000FULL;   /* lane / 10 */
    uint64_t c = (t | ((b - t * 10) << 8)) | ASCII0;
    memcpy(s, &c, 8);
}
#endif

/* L <= 19 ASCII digits at s (reads s[0..L) only) -> the integer; *bad != 0 if one is not a digit. */
static inline uint64_t parse_dec(const char *s, size_t L, uint64_t *bad)
{
    uint64_t w = 0;
#ifdef FEA_SWAR
    size_t r = L % 8, i = r;
    if (r && L >= 8) {
        /* the first r digits, read with the next ones and shifted out; '0's in front */
        w = digits8(((load8(s) << (64 - 8 * r)) | (ASCII0 >> (8 * r))) ^ ASCII0, bad);
    } else if (r) {
        uint64_t v = ASCII0;
        memcpy((char *)&v + 8 - r, s, r);
        w = digits8(v ^ ASCII0, bad);
    }
    for (; i < L; i += 8) w = w * 100000000u + digits8(load8(s + i) ^ ASCII0, bad);
#else
    for (size_t i = 0; i < L; i++) {
        uint64_t d = (uint64_t)(unsigned char)s[i] - '0';
        *bad |= (d + 6) >> 4 | (d >> 4); /* d > 9 (d wraps to a huge value below '0') */
        w = w * 10 + d;
    }
#endif
    return w;
}

/* w mod 10^L as L ASCII digits (L <= 19), leading zeros included. */
static inline void fmt_dec(char *s, uint64_t w, size_t L)
{
    size_t i = L;
#ifdef FEA_SWAR
    for (; i >= 8; i -= 8) {
        fmt8(s + i - 8, w % 100000000u);
        w /= 100000000u;
    }
    if (i) { /* the first i < 8 digits: the low i of an 8-digit group */
        char t[8];
        fmt8(t, w % 100000000u);
        memcpy(s, t + 8 - i, i);
        nuri_wipe(t, sizeof t);
    }
#else
    while (i-- > 0) {
        s[i] = (char)('0' + w % 10);
        w /= 10;
    }
#endif
}

int nuri_fea_digits_to_u64(const char *digits, size_t digits_len, uint64_t *x)
{
    *x = 0;
    if (digits_len < 1 || digits_len > 19) return NURI_EINVAL;
    uint64_t bad = 0, v = parse_dec(digits, digits_len, &bad);
    unsigned ok = bad == 0;
    NURI_CT_PUBLIC(&ok, sizeof ok); /* whether a value is a digit string is its format: public */
    if (!ok) {
        nuri_wipe(&v, sizeof v);
        return NURI_EDOMAIN;
    }
    *x = v;
    return NURI_OK;
}

int nuri_fea_u64_to_digits(uint64_t x, char *out, size_t out_cap)
{
    if (out_cap < 1 || out_cap > 19) return NURI_EINVAL;
    fmt_dec(out, x, out_cap);
    return NURI_OK;
}

/* Record i of the input as an integer: L symbols of radix r, or L ASCII digits. */
static inline nuri_fea_u128 parse_record(const nuri_fea_fmt *f, const void *inp, size_t i, int ascii, int wide)
{
    const size_t L = f->len;
    nuri_fea_u128 x = {0, 0};
    if (ascii) {
        const char *s = (const char *)inp + i * L;
        if (!wide) {
            uint64_t bad = 0; /* validated before (fmt_crypt_sym) */
            x.lo = parse_dec(s, L, &bad);
            return x;
        }
        for (size_t d = 0; d < L; d++) (void)muladd(&x, 10, (uint64_t)(s[d] - '0'));
    } else {
        const uint16_t *s = (const uint16_t *)inp + i * L;
        for (size_t d = 0; d < L; d++) (void)muladd(&x, f->radix, s[d]);
    }
    return x;
}

/* The integer x as record i of the output (recip = floor(2^32 / radix), for divmod). */
static inline void format_record(const nuri_fea_fmt *f, void *outp, size_t i, nuri_fea_u128 x, int ascii, int wide,
                                 uint64_t recip)
{
    const size_t L = f->len;
    if (ascii) {
        char *s = (char *)outp + i * L;
        if (!wide) {
            fmt_dec(s, x.lo, L);
            return;
        }
        for (size_t d = L; d-- > 0;) s[d] = (char)('0' + divmod(&x, 10, recip));
    } else {
        uint16_t *s = (uint16_t *)outp + i * L;
        for (size_t d = L; d-- > 0;) s[d] = (uint16_t)divmod(&x, f->radix, recip);
    }
}

/* Records off..off+m-1 (m <= SBLK): parse into integers, walk, format back. */
static inline void crypt_block(const nuri_fea_fmt *f, int dec, void *outp, const void *inp, size_t off, size_t m,
                               const nuri_fea_u128 *tw, size_t ntw, int per_value, int ascii, super_block *v, int wide)
{
    const uint64_t recip = (UINT64_C(1) << 32) / f->radix;
    for (size_t j = 0; j < m; j++) nuri_fea_put_value(v, j, parse_record(f, inp, off + j, ascii, wide), wide);
    walk(f, dec, v, m, tw, ntw, per_value, wide);
    for (size_t j = 0; j < m; j++) format_record(f, outp, off + j, nuri_fea_get_value(v, j, wide), ascii, wide, recip);
}

/* Symbols and digits: parse a block into integers, walk, format back. */
static int fmt_crypt_sym(const nuri_fea_fmt *f, int dec, void *outp, const void *inp, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks, int ascii)
{
    const size_t L = f->len;
    int rc = check_common(f, count, tweaks, ntweaks);
    if (rc == NURI_OK && ascii && f->radix != 10) rc = NURI_EINVAL;
    if (rc == NURI_OK) { /* validate every symbol before writing anything */
        unsigned bad = 0;
        if (ascii) {
            uint64_t b = 0;
            size_t i = 0;
#ifdef FEA_SWAR
            for (; i + 8 <= count * L; i += 8) b |= not_digits8(load8((const char *)inp + i) ^ ASCII0);
#endif
            for (; i < count * L; i++) b |= (unsigned)(((const unsigned char *)inp)[i] - '0') > 9u;
            bad = b != 0;
        } else {
            const uint16_t *s = inp;
            for (size_t i = 0; i < count * L; i++) bad |= s[i] >= f->radix;
        }
        NURI_CT_PUBLIC(&bad, sizeof bad);
        if (bad) rc = NURI_EDOMAIN;
    }
    if (rc != NURI_OK) {
        if (count) memset(outp, 0, count * L * (ascii ? 1 : sizeof(uint16_t)));
        return rc;
    }
    const int per_value = tweaks && ntweaks == count && count > 1;
    const int wide = f->key.n > 64; /* n <= 64 (every decimal string up to 19 digits): 64-bit words */
    super_block v;
    for (size_t off = 0; off < count; off += SBLK) {
        size_t m = count - off < SBLK ? count - off : SBLK;
        const nuri_fea_u128 *tw = per_value ? tweaks + off : tweaks;
        if (wide) crypt_block(f, dec, outp, inp, off, m, tw, ntweaks, per_value, ascii, &v, 1);
        else crypt_block(f, dec, outp, inp, off, m, tw, ntweaks, per_value, ascii, &v, 0);
    }
    nuri_wipe(&v, (count < SBLK ? count : SBLK) * (wide ? sizeof v.w[0] : sizeof v.n[0])); /* only what was used */
    return NURI_OK;
}

int nuri_fea_fmt_encrypt(const nuri_fea_fmt *f, uint16_t *out, const uint16_t *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return fmt_crypt_sym(f, 0, out, in, count, tweaks, ntweaks, 0);
}

int nuri_fea_fmt_decrypt(const nuri_fea_fmt *f, uint16_t *out, const uint16_t *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return fmt_crypt_sym(f, 1, out, in, count, tweaks, ntweaks, 0);
}

int nuri_fea_fmt_encrypt_digits(const nuri_fea_fmt *f, char *out, const char *in, size_t count,
                                const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return fmt_crypt_sym(f, 0, out, in, count, tweaks, ntweaks, 1);
}

int nuri_fea_fmt_decrypt_digits(const nuri_fea_fmt *f, char *out, const char *in, size_t count,
                                const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return fmt_crypt_sym(f, 1, out, in, count, tweaks, ntweaks, 1);
}
