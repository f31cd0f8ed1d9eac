/* PIPO-64/128 and /256 in ECB, CBC, CTR, with and without PKCS#7, properties:
 *  - every implementation gives ref's output, one-shot and streamed with the fuzzer's chunking;
 *  - decrypt(encrypt(x)) = x;
 *  - the fuzzer's bytes as a ciphertext: every implementation and the streaming API agree on
 *    accept/reject (bad padding, partial block) and on the plaintext; on failure the one-shot output
 *    is zeroed. */
#include <nuri/pipo.h>

#include "fuzz_util.h"

#define MAXLEN 520

static size_t chunk_len(fz_in *in, size_t left)
{
    if (!in->n) return left;
    size_t c = fz_u8(in) % 27;
    return c < left ? c : left;
}

/* streams in through a context with the chunking of ch; returns the status, output in out */
static int stream(const nuri_pipo_key *k, int mode, int enc, const uint8_t *iv, int pad, const uint8_t *in, size_t n,
                  fz_in ch, uint8_t *out, size_t *out_len)
{
    nuri_pipo_ctx c;
    size_t w = 0, len;
    int rc = nuri_pipo_init(&c, k, (nuri_pipo_mode)mode, enc, mode ? iv : NULL, mode ? 8 : 0, (nuri_padding)pad);
    if (rc) return rc;
    for (size_t off = 0; off < n;) {
        size_t l = chunk_len(&ch, n - off);
        rc = nuri_pipo_update(&c, out + w, MAXLEN + 16 - w, &len, in + off, l);
        if (rc) {
            nuri_pipo_ctx_wipe(&c);
            return rc;
        }
        w += len;
        off += l;
    }
    rc = nuri_pipo_final(&c, out + w, MAXLEN + 16 - w, &len);
    nuri_pipo_ctx_wipe(&c);
    *out_len = w + (rc ? 0 : len);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    uint8_t sel = fz_u8(&in);
    int mode = sel % 3, pad = mode != NURI_PIPO_CTR && (sel & 4);
    size_t kl = (sel & 8) ? 32 : 16;
    uint8_t key[32], iv[8];
    fz_fill(&in, key, kl);
    fz_fill(&in, iv, 8);
    fz_in chunks = in; /* the chunking reads from here on (the same bytes double as data: fine for fuzzing) */
    size_t n;
    const uint8_t *msg = fz_bytes(&in, fz_u16(&in) % MAXLEN, &n);
    if (!pad && mode != NURI_PIPO_CTR) n -= n % 8;
    const char *impl[16];
    size_t ni;
    FZ_IMPLS(pipo, impl, ni);

    static uint8_t ref[MAXLEN + 16], out[MAXLEN + 16], back[MAXLEN + 16], st[MAXLEN + 16];
    size_t rl, ol, bl, sl;
    nuri_pipo_key k;
    PROPERTY(nuri_pipo_key_init(&k, key, kl, "ref") == 0, "ref key");
    PROPERTY(nuri_pipo_encrypt(&k, mode, mode ? iv : NULL, mode ? 8 : 0, pad, ref, sizeof ref, &rl, msg, n) == 0,
             "ref");
    nuri_pipo_key_wipe(&k);
    for (size_t i = 0; i < ni; i++) {
        PROPERTY(nuri_pipo_key_init(&k, key, kl, impl[i]) == 0, "%s key", impl[i]);
        PROPERTY(nuri_pipo_encrypt(&k, mode, mode ? iv : NULL, mode ? 8 : 0, pad, out, sizeof out, &ol, msg, n) == 0,
                 "%s encrypt", impl[i]);
        PROPERTY(ol == rl && !memcmp(out, ref, rl), "%s != ref (mode %d pad %d len %zu)", impl[i], mode, pad, n);
        PROPERTY(stream(&k, mode, 1, iv, pad, msg, n, chunks, st, &sl) == 0 && sl == rl && !memcmp(st, ref, rl),
                 "%s streaming encryption != one-shot", impl[i]);
        PROPERTY(nuri_pipo_decrypt(&k, mode, mode ? iv : NULL, mode ? 8 : 0, pad, back, sizeof back, &bl, out, ol) == 0,
                 "%s decrypt", impl[i]);
        PROPERTY(bl == n && !memcmp(back, msg, n), "%s decrypt(encrypt(x)) != x", impl[i]);
        nuri_pipo_key_wipe(&k);
    }

    /* the rest of the input as a ciphertext */
    size_t fl;
    const uint8_t *fct = fz_bytes(&in, MAXLEN, &fl);
    int ref_rc = 0;
    PROPERTY(nuri_pipo_key_init(&k, key, kl, "ref") == 0, "ref key");
    memset(ref, 0xA5, sizeof ref);
    ref_rc = nuri_pipo_decrypt(&k, mode, mode ? iv : NULL, mode ? 8 : 0, pad, ref, sizeof ref, &rl, fct, fl);
    if (ref_rc) PROPERTY(fz_nothing_released(ref, sizeof ref), "ref released output on failure %d", ref_rc);
    nuri_pipo_key_wipe(&k);
    for (size_t i = 0; i < ni; i++) {
        PROPERTY(nuri_pipo_key_init(&k, key, kl, impl[i]) == 0, "%s key", impl[i]);
        memset(out, 0xA5, sizeof out);
        int rc = nuri_pipo_decrypt(&k, mode, mode ? iv : NULL, mode ? 8 : 0, pad, out, sizeof out, &ol, fct, fl);
        PROPERTY(rc == ref_rc, "%s: rc %d, ref %d", impl[i], rc, ref_rc);
        if (rc) PROPERTY(fz_nothing_released(out, sizeof out), "%s released output on failure", impl[i]);
        else PROPERTY(ol == rl && !memcmp(out, ref, rl), "%s plaintext != ref", impl[i]);
        int src = stream(&k, mode, 0, iv, pad, fct, fl, chunks, st, &sl);
        PROPERTY((src == 0) == (rc == 0), "%s: streaming rc %d, one-shot %d", impl[i], src, rc);
        if (!src) PROPERTY(sl == rl && !memcmp(st, ref, rl), "%s streaming plaintext != one-shot", impl[i]);
        nuri_pipo_key_wipe(&k);
    }
    return 0;
}
