"""The SPARKLE permutations (SPARKLE256/384/512) behind Schwaemm and Esch.

A state is 32, 48 or 64 bytes: the words x0,y0,x1,y1,... each little-endian.

>>> from nuri import sparkle
>>> sparkle.permute(bytes(48), 11).hex().upper()[:32]
'25BFC2F355DD53FC0654D6CA17F9AF9E'
>>> sparkle.permute(bytes(32), 0) == bytes(32)
True
"""
from ._native import ffi, lib
from ._util import as_bytes, as_int, check, impl_arg, impl_names

__all__ = ["permute", "implementations", "default_implementation", "SLIM_STEPS", "BIG_STEPS"]

#: steps used by Schwaemm/Esch, by state size in bytes
SLIM_STEPS = {32: 7, 48: 7, 64: 8}
BIG_STEPS = {32: 10, 48: 11, 64: 12}


def implementations():
    """Names of the registered SPARKLE implementations usable on this CPU, fastest first."""
    return impl_names(lib.nuri_sparkle_impl_count, lib.nuri_sparkle_impl_info, lib.nuri_sparkle_impl_supported)


def default_implementation():
    """The implementation dispatch picks now (honours NURI_IMPL=sparkle:<name>)."""
    name = lib.nuri_sparkle_default_impl()
    return ffi.string(name).decode() if name != ffi.NULL else None


def permute(state: bytes, steps: int, impl: str = None) -> bytes:
    """SPARKLE256/384/512 (by the length of state: 32, 48 or 64 bytes) with `steps` steps."""
    state = as_bytes(state, "state")
    if len(state) not in (32, 48, 64):
        raise ValueError(f"state must be 32, 48 or 64 bytes long (SPARKLE256/384/512), got {len(state)}")
    steps = as_int(steps, "steps")
    if steps < 0 or steps > 0xFFFFFFFF:
        raise ValueError(f"steps must be an integer in 0..2**32-1, got {steps!r}")
    buf = ffi.new("uint8_t[]", state)
    check(lib.nuri_sparkle_permute_bytes(buf, len(state), steps, impl_arg(impl)),
          "SPARKLE permutation")
    return ffi.buffer(buf, len(state))[:]


# Self-test data (facts from shared/vectors/sparkle: the designers' v1.2.1 code, equal to the NIST
# LWC KAT files). Permutations of the input 00 01 02 ... with slim and big step counts:
_PERM_KAT = [
    (32, 7, "A2DD2DB3C9FC34C20AFE0A77FCD42C0BF1F447AAAF45B174A4966F5FCACF1E8E"),
    (32, 10, "4A1C59A296FEAEF7529F19EC1E66341B4CA20EC870EE034331EF695776721E34"),
    (48, 7, "BBBE68FD4498E7F1CE2D595246B392123CD7FB4F296BE4153A73FE69C6537F2603095A32ED635C2D58BDA4F6A1238204"),
    (48, 11, "C3B356D638376821DBC1036782EA95A3F0FDD10D084FA093A97DC5D94E97A6E7F34DB2249F962859D242EB0751C0D2BD"),
    (64, 8, "B557276B6607C859F268551FB154FD9C080D717217DA83690D82E58FAD1CC022"
            "C82A857C3B184FD1EC38E30B6DB17B4F04E7B2AB37129B27A285B969BD80E91E"),
    (64, 12, "97A3EBA469BC018F68E5C04B3A55E03A8F23FB390FDB1150B395D795FA8CEA17"
             "8D12C722911814BEF78DE3F0CC65EDD454AD58F0A8738F0046F1CCBDFB8D09F1"),
]
# NIST LWC KAT records: Count 1089 (32-byte message and AD) of each Schwaemm file, and Esch of a
# 64-byte message (Count 65).
_AEAD_KAT = [
    ("Schwaemm128_128", 16, 16, "9C8A78029D70397B63A4CA18C8248B7A5D5DC1DE714CB01AA58EF58DB020C7F6033BF5CB08FA0F06F8F990D07723823F"),
    ("Schwaemm256_128", 16, 32, "8494EB28D98E391B6914564625B243F63DA336497427884D4275A6AA088B8BEEF1CFB0892801FDD208A134182E5D50CE"),
    ("Schwaemm192_192", 24, 24, "73607099477B4F55A907A30675B67C6F62AC293F66638464B3699970FE3D230B68BF4F61CA3312BEE526DF61C3FB78357F089C3BD9BC1470"),
    ("Schwaemm256_256", 32, 32, "78CE8B6F9375D22F9CB1B86F2D6420EB1E29B6FF72C255BF2C488F7CE5D787A0"
                                "E61BB809F333ADC75505C5F799A7D50C8C470CB5CEB82864839233AAEE9BC96C"),
]
_HASH_KAT = [
    ("Esch256", "1D4F05FAA5CE063B48FAA6C723C270B6D9ED9DAE0542D3013A7CB33CA604EF7D"),
    ("Esch384", "580D48B4DCEAD117350855547063A629FD200CD623681EEB4C3C16FA2222614A94CE8A8BB69343A621227DEBD018F0AD"),
]


def selftest():
    """Known answers for the permutations, the four Schwaemm instances and both Esch sizes on
    every implementation usable here. Returns [(implementation, test name, passed)]."""
    from . import aead, hash as esch

    results = []
    for impl in implementations():
        for size, steps, out in _PERM_KAT:
            ok = permute(bytes(range(size)), steps, impl=impl) == bytes.fromhex(out)
            results.append((impl, f"SPARKLE{size * 8} {steps} steps", ok))
        for cls, klen, nlen, ct in _AEAD_KAT:
            c = getattr(aead, cls)(bytes(range(klen)), impl=impl)
            sealed = c.encrypt(bytes(range(nlen)), bytes(range(32)), bytes(range(32)))
            ok = sealed == bytes.fromhex(ct) and c.decrypt(bytes(range(nlen)), sealed, bytes(range(32))) == bytes(range(32))
            results.append((impl, f"{cls} KAT", ok))
        for cls, md in _HASH_KAT:
            ok = getattr(esch, cls)(bytes(range(64)), impl=impl).digest() == bytes.fromhex(md)
            results.append((impl, f"{cls} KAT", ok))
    return results
