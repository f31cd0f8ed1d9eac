/* Esch256/Esch384 and SHAKE128/256, properties:
 *  - every implementation gives ref's digest; streaming with the fuzzer's chunking = one-shot;
 *  - esch_many over messages of different lengths = one call per message;
 *  - SHAKE (one-shot in the public API): a shorter output is a prefix of a longer one. */
#include <nuri/sha3.h>
#include <nuri/sparkle.h>

#include "fuzz_util.h"

#define MAXMSG 700

/* One message through a context of the named implementation. */
static int oneshot(nuri_esch_variant v, uint8_t *out, const uint8_t *msg, size_t n, const char *impl)
{
    nuri_esch_ctx c;
    size_t len;
    int rc = nuri_esch_init(&c, v, impl);
    if (rc == 0) rc = nuri_esch_update(&c, msg, n);
    if (rc == 0) rc = nuri_esch_final(&c, out, NURI_ESCH_MAX_DIGEST_BYTES, &len);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    size_t db = (fz_u8(&in) & 1) ? 48 : 32;
    fz_in chunks = in;
    size_t n;
    const uint8_t *msg = fz_bytes(&in, fz_u16(&in) % MAXMSG, &n);
    const char *impl[16];
    size_t ni;
    FZ_IMPLS(sparkle, impl, ni);

    nuri_esch_variant ev = db == 48 ? NURI_ESCH384 : NURI_ESCH256;
    uint8_t ref[48], d[48];
    PROPERTY(oneshot(ev, ref, msg, n, "ref") == 0, "ref");
    PROPERTY((db == 48 ? nuri_esch384(d, msg, n) : nuri_esch256(d, msg, n)) == 0 && !memcmp(d, ref, db),
             "dispatch one-shot != ref");
    for (size_t i = 0; i < ni; i++) {
        PROPERTY(oneshot(ev, d, msg, n, impl[i]) == 0 && !memcmp(d, ref, db), "%s one-shot != ref", impl[i]);
        nuri_esch_ctx c;
        PROPERTY(nuri_esch_init(&c, ev, impl[i]) == 0, "init");
        fz_in ch = chunks;
        for (size_t off = 0; off < n;) {
            size_t k = ch.n ? fz_u8(&ch) % 40 : n - off;
            if (k > n - off) k = n - off;
            PROPERTY(nuri_esch_update(&c, msg + off, k) == 0, "update");
            off += k;
        }
        size_t dn = 0;
        PROPERTY(nuri_esch_final(&c, d, sizeof d, &dn) == 0 && dn == db && !memcmp(d, ref, db),
                 "%s streaming != one-shot (%zu bytes)", impl[i], n);
    }

    /* many: the message and its prefixes */
    const uint8_t *msgs[8];
    size_t lens[8];
    uint8_t many[8 * 48], one[48];
    for (int j = 0; j < 8; j++) {
        msgs[j] = msg;
        lens[j] = n ? (n * (size_t)(j + 1)) / 8 : 0;
    }
    for (size_t i = 0; i < ni; i++) {
        nuri_esch_ctx c;
        PROPERTY(nuri_esch_init(&c, ev, impl[i]) == 0 && nuri_esch_many(&c, many, sizeof many, msgs, lens, 8) == 0,
                 "%s many", impl[i]);
        for (int j = 0; j < 8; j++) {
            PROPERTY(oneshot(ev, one, msgs[j], lens[j], "ref") == 0, "ref");
            PROPERTY(!memcmp(many + j * db, one, db), "%s many[%d] != one-shot", impl[i], j);
        }
    }

    /* SHAKE prefix property */
    uint8_t s1[300], s2[300];
    size_t l1 = fz_u8(&in) + 1, l2 = l1 + fz_u8(&in) % 40;
    nuri_shake128(s1, l1, msg, n);
    nuri_shake128(s2, l2, msg, n);
    PROPERTY(!memcmp(s1, s2, l1), "SHAKE128 prefix");
    nuri_shake256(s1, l1, msg, n);
    nuri_shake256(s2, l2, msg, n);
    PROPERTY(!memcmp(s1, s2, l1), "SHAKE256 prefix");
    return 0;
}
