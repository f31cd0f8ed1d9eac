/* Schwaemm (all four variants), properties:
 *  - every implementation gives ref's ciphertext || tag, and decrypts it back (decrypt(encrypt(x)) = x);
 *  - streaming encryption with the fuzzer's chunking = one-shot;
 *  - the fuzzer's bytes taken as a ciphertext: one-shot and two-pass streaming decryption agree on
 *    accept/reject for every implementation, and on rejection nothing is released (out zeroed);
 *  - a one-bit change of a genuine ciphertext is rejected with nothing released. */
#include <nuri/sparkle.h>

#include "fuzz_util.h"

#define MAXMSG 600

static size_t chunk_len(fz_in *in, size_t left)
{
    if (!in->n) return left;   /* input used up: the rest in one call */
    size_t c = fz_u8(in) % 70; /* 0..69: crosses the 16..32-byte rates both ways */
    return c < left ? c : left;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    nuri_schwaemm_variant v = (nuri_schwaemm_variant)(fz_u8(&in) & 3);
    size_t kb = nuri_schwaemm_key_bytes(v), nb = nuri_schwaemm_nonce_bytes(v), tb = nuri_schwaemm_tag_bytes(v);
    uint8_t key[32], nonce[32];
    fz_fill(&in, key, kb);
    fz_fill(&in, nonce, nb);
    size_t adl, ml;
    const uint8_t *ad = fz_bytes(&in, fz_u8(&in), &adl);
    const uint8_t *msg = fz_bytes(&in, fz_u16(&in) % MAXMSG, &ml);
    const char *impl[16];
    size_t ni;
    FZ_IMPLS(sparkle, impl, ni);

    static uint8_t ref_ct[MAXMSG + 32], ct[MAXMSG + 32], pt[MAXMSG + 32], st[MAXMSG + 64];
    size_t ref_len, len;
    nuri_schwaemm_key kref, kdef, ks[16];
    PROPERTY(nuri_schwaemm_key_init(&kref, v, key, kb, "ref") == 0 &&
                 nuri_schwaemm_key_init(&kdef, v, key, kb, NULL) == 0,
             "keys");
    for (size_t i = 0; i < ni; i++)
        PROPERTY(nuri_schwaemm_key_init(&ks[i], v, key, kb, impl[i]) == 0, "%s key", impl[i]);
    PROPERTY(nuri_schwaemm_encrypt(&kref, ref_ct, sizeof ref_ct, &ref_len, nonce, nb, ad, adl, msg, ml) == 0,
             "ref encrypt");
    PROPERTY(ref_len == ml + tb, "length %zu", ref_len);
    for (size_t i = 0; i < ni; i++) {
        PROPERTY(nuri_schwaemm_encrypt(&ks[i], ct, sizeof ct, &len, nonce, nb, ad, adl, msg, ml) == 0, "%s encrypt",
                 impl[i]);
        PROPERTY(len == ref_len && !memcmp(ct, ref_ct, len), "%s differs from ref (variant %d, %zu bytes)", impl[i],
                 (int)v, ml);
        PROPERTY(nuri_schwaemm_decrypt(&ks[i], pt, sizeof pt, &len, nonce, nb, ad, adl, ct, ref_len) == 0,
                 "%s rejects its own ciphertext", impl[i]);
        PROPERTY(len == ml && !memcmp(pt, msg, ml), "%s decrypt(encrypt(x)) != x", impl[i]);
    }

    /* streaming encryption, chunked by the rest of the input */
    fz_in ch = in;
    nuri_schwaemm_ctx c;
    PROPERTY(nuri_schwaemm_init(&c, &kdef, NURI_SCHWAEMM_ENCRYPT, nonce, nb) == 0, "init");
    for (size_t off = 0; off < adl;) {
        size_t k = chunk_len(&ch, adl - off);
        PROPERTY(nuri_schwaemm_update_ad(&c, ad + off, k) == 0, "update_ad");
        off += k;
    }
    size_t w = 0;
    for (size_t off = 0; off < ml;) {
        size_t k = chunk_len(&ch, ml - off);
        PROPERTY(nuri_schwaemm_encrypt_update(&c, st + w, sizeof st - w, &len, msg + off, k) == 0, "encrypt_update");
        w += len;
        off += k;
    }
    uint8_t tag[32];
    PROPERTY(nuri_schwaemm_encrypt_final(&c, st + w, sizeof st - w, &len, tag, tb) == 0, "encrypt_final");
    w += len;
    PROPERTY(w == ml && !memcmp(st, ref_ct, ml) && !memcmp(tag, ref_ct + ml, tb), "streaming != one-shot");

    /* a flipped bit anywhere: rejected, nothing released */
    if (ref_len) {
        size_t pos = (fz_u16(&in)) % ref_len;
        ref_ct[pos] ^= (uint8_t)(1u << (fz_u8(&in) & 7));
        memset(pt, 0xA5, sizeof pt);
        int rc = nuri_schwaemm_decrypt(&kdef, pt, sizeof pt, &len, nonce, nb, ad, adl, ref_ct, ref_len);
        PROPERTY(rc == NURI_EAUTH && fz_all_zero(pt, sizeof pt), "tampered ciphertext: rc %d", rc);
    }

    /* the rest of the input as a ciphertext: one-shot and two-pass streaming agree, failure releases nothing */
    size_t fl;
    const uint8_t *fct = fz_bytes(&in, MAXMSG, &fl);
    for (size_t i = 0; i < ni; i++) {
        memset(pt, 0xA5, sizeof pt);
        int rc = nuri_schwaemm_decrypt(&ks[i], pt, sizeof pt, &len, nonce, nb, ad, adl, fct, fl);
        if (rc != 0) PROPERTY(fz_nothing_released(pt, sizeof pt), "%s released data on failure", impl[i]);
        if (fl < tb) {
            PROPERTY(rc != 0, "short input accepted");
            continue;
        }
        PROPERTY(nuri_schwaemm_init(&c, &ks[i], NURI_SCHWAEMM_DECRYPT, nonce, nb) == 0, "init");
        PROPERTY(nuri_schwaemm_update_ad(&c, ad, adl) == 0, "ad");
        PROPERTY(nuri_schwaemm_verify_update(&c, fct, fl - tb) == 0, "verify_update");
        int vrc = nuri_schwaemm_verify_final(&c, fct + fl - tb, tb);
        PROPERTY((vrc == 0) == (rc == 0), "%s: streaming verify %d, one-shot %d", impl[i], vrc, rc);
        if (vrc == 0) {
            PROPERTY(nuri_schwaemm_decrypt_update(&c, st, sizeof st, &len, fct, fl - tb) == 0, "decrypt_update");
            size_t l2;
            PROPERTY(nuri_schwaemm_decrypt_final(&c, st + len, sizeof st - len, &l2, fct + fl - tb, tb) == 0, "final");
            PROPERTY(len + l2 == fl - tb && !memcmp(st, pt, fl - tb), "streaming plaintext differs");
        }
        nuri_schwaemm_ctx_wipe(&c);
    }
    return 0;
}
