"""PIPO brute-force key search: key templates, the C engines, and one batch of candidates.

A template is a PIPO key in the byte order of the vectors (``nuri.pipo``) with ``?`` for an
unknown nibble, optionally with a mask (1 = unknown bit). Candidate ``i`` puts bits 0, 1, 2, ...
of ``i`` into the unknown bits taken from the last hex digit's least significant bit towards the
first digit's most significant bit. The engines filter on the first pair; :meth:`Problem.verify`
re-checks a key on every pair with the reference cipher.

>>> from nuri import keysearch
>>> prob = keysearch.Problem("pipo-64/128", "9722152EAD201D7ED2289477DD16C4??",
...                          [("2600271EF6528509", "27035DAD81296B6B")])
>>> prob.bits, prob.keyspace
(8, 256)
>>> hits, done = prob.search(0, 256)
>>> [prob.key_hex(i) for i in hits]
['9722152EAD201D7ED2289477DD16C46D']

The engine is chosen by keyword: ``impl=`` one of ``implementations()`` (None or "auto" =
dispatch, honouring ``NURI_IMPL=keysearch:<name>``).

>>> prob.search(0, 256, impl="ref")[0] == hits
True
"""

import math

from .._native import ffi, lib
from .._util import c_name, check, impl_arg, impl_names

CIPHERS = {"pipo-64/128": 16, "pipo-64/256": 32}
FULL_ROUNDS = {16: 13, 32: 17}
_HEX = set("0123456789abcdefABCDEF")

__all__ = [
    "Problem",
    "CIPHERS",
    "engines",
    "implementations",
    "default_implementation",
    "selftest",
    "parse_template",
    "parse_pair",
    "expected_false_keys",
]


def engines():
    """Every registered engine: dicts with name, supported (this CPU), lanes, description."""
    out = []
    for i in range(lib.nuri_keysearch_impl_count()):
        info = lib.nuri_keysearch_impl_info(i)
        out.append(
            {
                "name": ffi.string(info.name).decode(),
                "supported": bool(lib.nuri_keysearch_impl_supported(i)),
                "lanes": int(lib.nuri_keysearch_impl_lanes(i)),
                "description": ffi.string(info.description).decode(),
            }
        )
    return out


def implementations():
    """Names of the engines usable on this CPU, fastest first."""
    return impl_names(lib.nuri_keysearch_impl_count, lib.nuri_keysearch_impl_info, lib.nuri_keysearch_impl_supported)


def default_implementation():
    """The engine dispatch picks (honours NURI_IMPL=keysearch:<name>)."""
    return c_name(lib.nuri_keysearch_default_impl())


def selftest(*, impl=None):
    """Runs the known-answer self-test of the engine named impl (None = the one dispatch picks);
    True if it passed. UnsupportedImplementation for an unknown engine or one this CPU cannot run."""
    rc = lib.nuri_keysearch_selftest(impl_arg(impl))
    if rc in (lib.NURI_EUNSUPPORTED, lib.NURI_ENOTFOUND):
        check(rc, f"engine {impl}")
    return rc == 0


def parse_template(cipher, template, mask=None):
    """(key bytes with unknown bits cleared, mask bytes) from a template with '?' nibbles and an
    optional hex mask of the same length (1 = unknown bit). ValueError with a one-line reason."""
    if cipher not in CIPHERS:
        raise ValueError(f"unknown cipher {cipher!r} (expected pipo-64/128 or pipo-64/256)")
    n = 2 * CIPHERS[cipher]
    if len(template) != n:
        raise ValueError(
            f"key template must be {n} hex digits for {cipher} ('?' = unknown nibble), got {len(template)}"
        )
    bad = [c for c in template if c not in _HEX and c != "?"]
    if bad:
        raise ValueError(f"key template: {bad[0]!r} is not a hex digit or '?'")
    key = bytes.fromhex(template.replace("?", "0"))
    m = bytes.fromhex("".join("F" if c == "?" else "0" for c in template))
    if mask is not None:
        if len(mask) != n or any(c not in _HEX for c in mask):
            raise ValueError(f"--mask must be {n} hex digits for {cipher} (1 = unknown bit), got {mask!r}")
        m = bytes(a | b for a, b in zip(m, bytes.fromhex(mask)))
    key = bytes(a & ~b & 0xFF for a, b in zip(key, m))
    k = sum(bin(b).count("1") for b in m)
    if k == 0:
        raise ValueError("the key template has no unknown bits (mark them with '?' or --mask)")
    if k > 64:
        raise ValueError(f"{k} unknown bits: more than 2^64 candidates")
    return key, m


def parse_pair(text):
    """'PT:CT' (16 hex digits each) -> (pt bytes, ct bytes)."""
    parts = text.split(":")
    if len(parts) != 2 or any(len(p) != 16 or any(c not in _HEX for c in p) for p in parts):
        raise ValueError(f"--pair must be PT:CT with 16 hex digits each, got {text!r}")
    return bytes.fromhex(parts[0]), bytes.fromhex(parts[1])


def expected_false_keys(bits, npairs):
    """(2^k - 1) * 2^(-64 n): keys that match n random 64-bit pairs by chance."""
    return math.ldexp(2.0**bits - 1, -64 * npairs)


class Problem:
    """A search: cipher, template (+ mask), pairs (the first is the engines' filter), rounds."""

    def __init__(self, cipher, template, pairs=(), mask=None, rounds=None):
        key, m = parse_template(cipher, template, mask)
        self.cipher, self.template, self.mask_hex = cipher, template, mask
        self.key_len = len(key)
        full = FULL_ROUNDS[self.key_len]
        if rounds is not None and not 1 <= rounds <= full:
            raise ValueError(f"--rounds must be 1..{full} for {cipher}, got {rounds}")
        self.rounds = rounds or full
        self.pairs = [
            parse_pair(p)
            if isinstance(p, str)
            else (bytes.fromhex(p[0]), bytes.fromhex(p[1]))
            if isinstance(p[0], str)
            else (bytes(p[0]), bytes(p[1]))
            for p in pairs
        ]
        for pt, ct in self.pairs:
            if len(pt) != 8 or len(ct) != 8:
                raise ValueError("plaintext and ciphertext must be 8 bytes")
        self.key, self.mask = key, m
        self._p = ffi.new("nuri_keysearch_params *")
        self._p.key[0 : self.key_len] = key
        self._p.mask[0 : self.key_len] = m
        self._p.key_len = self.key_len
        self._p.rounds = self.rounds
        if self.pairs:
            self._p.pt[0:8], self._p.ct[0:8] = self.pairs[0]
        bits = ffi.new("unsigned *")
        check(lib.nuri_keysearch_bits(self._p, bits), "key template")
        self.bits = bits[0]
        self.keyspace = 1 << self.bits
        self._pts = b"".join(p for p, _ in self.pairs)
        self._cts = b"".join(c for _, c in self.pairs)

    def key_bytes(self, index):
        out = ffi.new("uint8_t[32]")
        check(lib.nuri_keysearch_key(self._p, index, out, 32), "candidate index")
        return bytes(out[0 : self.key_len])

    def index_of(self, key):
        """The candidate index of a key that fits the template (its unknown bits, in candidate order)."""
        k, m = int.from_bytes(key, "big"), int.from_bytes(self.mask, "big")
        idx, b = 0, 0
        for pos in range(8 * self.key_len):
            if m >> pos & 1:
                idx |= (k >> pos & 1) << b
                b += 1
        return idx

    def key_hex(self, index):
        return self.key_bytes(index).hex().upper()

    def verify(self, key):
        """True if key maps every pair (reference cipher, all pairs)."""
        rc = lib.nuri_keysearch_verify(key, len(key), self.rounds, self._pts, self._cts, len(self.pairs))
        if rc < 0:
            check(rc, "verify")
        return rc == 1

    def false_keys(self):
        return expected_false_keys(self.bits, len(self.pairs))

    def search(self, start, count, *, impl=None, max_hits=64):
        """One engine call over [start, start + count): (hit indices on pair 1, candidates searched).
        impl: the engine (one of implementations(); None or "auto" = dispatch). The GIL is released
        during the call, so threads can search in parallel."""
        if not self.pairs:
            raise ValueError("at least one --pair PT:CT is needed")
        ctx = ffi.new("nuri_keysearch_ctx *")
        check(lib.nuri_keysearch_init(ctx, self._p, impl_arg(impl)), f"search with engine {impl or 'auto'}")
        hits = ffi.new("uint64_t[]", max_hits)
        n = ffi.new("size_t *")
        done = ffi.new("uint64_t *")
        check(
            lib.nuri_keysearch_run(ctx, start, count, hits, max_hits, n, done),
            f"search with engine {impl or 'auto'}",
        )
        return [int(hits[i]) for i in range(n[0])], int(done[0])

    def describe(self):
        """The search's defining fields (restore files, cluster tasks)."""
        return {
            "cipher": self.cipher,
            "template": self.template,
            "mask": self.mask_hex,
            "rounds": self.rounds,
            "pairs": [f"{p.hex().upper()}:{c.hex().upper()}" for p, c in self.pairs],
        }

    @classmethod
    def from_description(cls, d):
        return cls(d["cipher"], d["template"], d["pairs"], d.get("mask"), d.get("rounds"))


def encrypt(key, pt, rounds=None):
    """Reduced-round PIPO with the reference cipher (rounds None = full): plants keys in tests."""
    out = ffi.new("uint8_t[8]")
    check(lib.nuri_keysearch_encrypt(key, len(key), rounds or 0, pt, out), "encrypt")
    return bytes(out)
