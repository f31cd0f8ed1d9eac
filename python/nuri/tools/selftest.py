"""Known-answer self-test of every primitive family, on every implementation usable here.

The tables are facts from the designers' and standards' vectors (tests/vectors); they live here,
beside the code that runs them, so the primitive modules hold only the algorithms. The CLI
(`nuri selftest`) and the report run them through :func:`run`.

>>> from nuri.tools import selftest
>>> all(ok for _, _, _, ok in selftest.run("pipo"))
True
"""

import hashlib

from .. import FAMILIES
from .. import aead as _aead
from .. import fea as _fea
from .. import hash as _esch
from .. import keysearch as _keysearch
from .. import mlkem as _mlkem
from .. import pipo as _pipo
from .. import sparkle as _sparkle

__all__ = ["run", "FAMILY_TESTS"]

# Official vectors (designers' README) and one random vector per key size from tests/vectors/pipo.
_PIPO_KAT = [
    ("9722152EAD201D7ED2289477DD16C46D", "2600271EF6528509", "27035DAD81296B6B"),
    ("F90B32B86068127D9DE82A13C98F9199", "E62907D6F7859F98", "17F5FE1A2A295B98"),
    ("9722152EAD201D7ED2289477DD16C46D3356D1260612A754B56DA976A43A9A00", "2600271EF6528509", "893852B66FAE6D81"),
    ("2CD98FC101BA3C17B416FCF22BB2977F41B3F57C177DCCBFBB24724FEC07AE56", "61287313967E4716", "7ADD5EC174B23549"),
]


def pipo():
    """Runs the known-answer vectors on every implementation usable here.
    Returns [(implementation, test name, passed)]."""
    results = []
    for impl in _pipo.implementations():
        for khex, phex, chex in _PIPO_KAT:
            key, pt, ct = bytes.fromhex(khex), bytes.fromhex(phex), bytes.fromhex(chex)
            blocks = pt * 67  # a batch (ECB): full passes and a tail for every kernel width
            ok = _pipo.encrypt_block(key, pt, impl=impl) == ct
            ok = ok and _pipo.encrypt(key, blocks, "ecb", impl=impl) == ct * 67
            ok = ok and _pipo.decrypt(key, ct * 67, "ecb", impl=impl) == blocks
            results.append((impl, f"PIPO-64/{len(key) * 8} KAT {chex[:8]}", ok))
    return results


# Known answers for the self-test: one vector per (variant, key size, n in {9, 64, 100}) from
# tests/vectors/fea (derived from the KISA reference code; see that README).
# (variant, key hex, n, tweak, plaintext, ciphertext)
_FEA_KAT = [
    (1, "541d1c0b64b7dd488d3edbd5bbc0e462", 9, 0x390175B4EC43AEE7CF4AE1CCC855EE, 0x0BD, 0x02A),
    (1, "16bc78d9a4107dc7688004387876a509", 64, 0x05A935D2AADF0082, 0xB6665FDC11E53CCE, 0x30642249AFA38791),
    (1, "abb140e46fb670ab3a762fe79589f6b3", 100, 0x73F8DD5, 0x87C9A2C25DA2750FC42C884F1, 0xE12DA48291DFD555C0563249F),
    (1, "08ba542ca797b897348e300f47a52fa6a821f897989a4201", 9, 0x357CA058C5952FF771D63DF8387873, 0x1F8, 0x09B),
    (
        1,
        "889e51000b397823397ad957daa40cf74cc2f41fcabce293",
        64,
        0xFC358A8FDB22F1F0,
        0xC6C348D275CA339D,
        0xB20476ED341E47B4,
    ),
    (
        1,
        "6c02374056cb6e5b06031882b6c706db21618a6450232e680d0df52ef61591ad",
        9,
        0x0DB6ABEF46D4238F2DEA54DE22E6A6,
        0x121,
        0x007,
    ),
    (
        1,
        "8d04a45757b20d6e14d4422217788e8e24305b446c4ea953fc5ac3eb8bbcc26d",
        64,
        0x294A95A80AE23886,
        0xBCC52C9CDE64DA4C,
        0xE83776CB733BBF91,
    ),
    (
        2,
        "83ee6b6a08bdbea7ffa93bbc7ad9acd2",
        64,
        0x696562BA5844572E4FC4B5901864EA99,
        0x3754A069F768A596,
        0x5960154F8C4770A1,
    ),
    (
        2,
        "86e183f9f4ea1c17e46c36874f2a92b4",
        100,
        0x89A6EEC3D3408D2B453A4B2F874A4F11,
        0xAC37CC8E0954A76B2DFD5FBE0,
        0x7BE6B04436A6DC4DD60A14BB2,
    ),
    (
        2,
        "b18d35f3402735ecadd35b2ea35937de5471f25b7085f295",
        64,
        0xFD7092E24EBC6F5A68C205080C4245EE,
        0x533F2E3B5EC5BF5D,
        0x85095ECF2D608B62,
    ),
    (
        2,
        "a7fa9e0deddcf1274f303582bafeb1a0f77c7066299877ee",
        100,
        0x426D6E97AC9CFA75FF6AA99052B0AF1F,
        0x4A2EC897A660CC99353B12D81,
        0x1063935AC37AADD31B33AF128,
    ),
    (
        2,
        "6482d299cbfe1087acdcba99bbade5accfdd803e01d7237b45cd61849fa6bc81",
        64,
        0xE5DA5D7DF7D144968EBD5ACDF442E2A7,
        0xEC675F706075F76B,
        0xF8D0A44AA9AE97E6,
    ),
]


def fea():
    """Runs known answers (FEA-1/FEA-2, all key sizes, odd and even n, n > 64) on every
    implementation usable here. Returns [(implementation, test name, passed)]."""
    results = []
    for impl in _fea.implementations():
        for variant, khex, n, tweak, pt, ct in _FEA_KAT:
            key = bytes.fromhex(khex)
            ok = _fea.encrypt(key, pt, n, tweak, variant, impl=impl) == ct
            ok = ok and _fea.decrypt(key, ct, n, tweak, variant, impl=impl) == pt
            results.append((impl, f"FEA-{variant}/{len(key) * 8} n={n}", ok))
    return results


# Self-test data (facts from tests/vectors/sparkle: the designers' v1.2.1 code, equal to the NIST
# LWC KAT files). Permutations of the input 00 01 02 ... with slim and big step counts:
_PERM_KAT = [
    (32, 7, "A2DD2DB3C9FC34C20AFE0A77FCD42C0BF1F447AAAF45B174A4966F5FCACF1E8E"),
    (32, 10, "4A1C59A296FEAEF7529F19EC1E66341B4CA20EC870EE034331EF695776721E34"),
    (48, 7, "BBBE68FD4498E7F1CE2D595246B392123CD7FB4F296BE4153A73FE69C6537F2603095A32ED635C2D58BDA4F6A1238204"),
    (48, 11, "C3B356D638376821DBC1036782EA95A3F0FDD10D084FA093A97DC5D94E97A6E7F34DB2249F962859D242EB0751C0D2BD"),
    (
        64,
        8,
        "B557276B6607C859F268551FB154FD9C080D717217DA83690D82E58FAD1CC022"
        "C82A857C3B184FD1EC38E30B6DB17B4F04E7B2AB37129B27A285B969BD80E91E",
    ),
    (
        64,
        12,
        "97A3EBA469BC018F68E5C04B3A55E03A8F23FB390FDB1150B395D795FA8CEA17"
        "8D12C722911814BEF78DE3F0CC65EDD454AD58F0A8738F0046F1CCBDFB8D09F1",
    ),
]
# NIST LWC KAT records: Count 1089 (32-byte message and AD) of each Schwaemm file, and Esch of a
# 64-byte message (Count 65).
_AEAD_KAT = [
    (
        "Schwaemm128_128",
        16,
        16,
        "9C8A78029D70397B63A4CA18C8248B7A5D5DC1DE714CB01AA58EF58DB020C7F6033BF5CB08FA0F06F8F990D07723823F",
    ),
    (
        "Schwaemm256_128",
        16,
        32,
        "8494EB28D98E391B6914564625B243F63DA336497427884D4275A6AA088B8BEEF1CFB0892801FDD208A134182E5D50CE",
    ),
    (
        "Schwaemm192_192",
        24,
        24,
        "73607099477B4F55A907A30675B67C6F62AC293F66638464B3699970FE3D230B68BF4F61CA3312BEE526DF61C3FB78357F089C3BD9BC1470",
    ),
    (
        "Schwaemm256_256",
        32,
        32,
        "78CE8B6F9375D22F9CB1B86F2D6420EB1E29B6FF72C255BF2C488F7CE5D787A0"
        "E61BB809F333ADC75505C5F799A7D50C8C470CB5CEB82864839233AAEE9BC96C",
    ),
]
_HASH_KAT = [
    ("Esch256", "1D4F05FAA5CE063B48FAA6C723C270B6D9ED9DAE0542D3013A7CB33CA604EF7D"),
    ("Esch384", "580D48B4DCEAD117350855547063A629FD200CD623681EEB4C3C16FA2222614A94CE8A8BB69343A621227DEBD018F0AD"),
]


def sparkle():
    """Known answers for the permutations, the four Schwaemm instances and both Esch sizes on
    every implementation usable here. Returns [(implementation, test name, passed)]."""
    results = []
    for impl in _sparkle.implementations():
        for size, steps, out in _PERM_KAT:
            ok = _sparkle.permute(bytes(range(size)), steps, impl=impl) == bytes.fromhex(out)
            results.append((impl, f"SPARKLE{size * 8} {steps} steps", ok))
        for cls, klen, nlen, ct in _AEAD_KAT:
            c = getattr(_aead, cls)(bytes(range(klen)), impl=impl)
            sealed = c.encrypt(bytes(range(nlen)), bytes(range(32)), bytes(range(32)))
            ok = sealed == bytes.fromhex(ct) and c.decrypt(bytes(range(nlen)), sealed, bytes(range(32))) == bytes(
                range(32)
            )
            results.append((impl, f"{cls} KAT", ok))
        for cls, md in _HASH_KAT:
            ok = getattr(_esch, cls)(bytes(range(64)), impl=impl).digest() == bytes.fromhex(md)
            results.append((impl, f"{cls} KAT", ok))
    return results


# Self-test data: ACVP keyGen (tcId 1, 26, 51: d||z -> SHA-256(ek || dk)) from tests/vectors/mlkem.
_KEYGEN_KAT = [
    (
        512,
        "BBA3C0F5DF044CDF4D9CAA53CA15FDE26F34EB3541555CFC54CA9C31B964D0C80A64FDD51A8D91B3166C4958A94EFC3166A4F5DF680980B878DB8371B7624C96",
        "1c2119f3b26a3738e699857bf4f9d89711266410cb5a4c89728fb9c41c38e377",
    ),
    (
        768,
        "A2B4BCA315A6EA4600B4A316E09A2578AA1E8BCE919C8DF3A96C71C843F5B38BD6BF055CB7B375E3271ED131F1BA31F83FEF533A239878A71074578B891265D1",
        "1be936a1a16581dae59d6fc5a43a2d75fb56a07fb1a47ead34551340b6e5e905",
    ),
    (
        1024,
        "2B5330C4F23BFDFD5C31F050BA3B38235324BF032372FC12D04DD08920F0BD590A064D6C06CEAB73E59CFCA9FF6402255A326AEF1E9CB678BF36929DAFE29A58",
        "fbdefd413665f2bfcae13f26167a08bc434888f0c66b470e8f347b3c579f7368",
    ),
]


def mlkem():
    """ACVP keyGen known answers, then encaps/decaps agreement and implicit rejection
    (decaps of an altered ciphertext = SHAKE256(z || c', 32)), for every implementation usable
    here. Returns [(implementation, test name, passed)]."""
    results = []
    for impl in _mlkem.implementations():
        for level, seed_hex, digest in _KEYGEN_KAT:
            ek, dk = _mlkem.keygen(level, bytes.fromhex(seed_hex), impl=impl)
            results.append((impl, f"ML-KEM-{level} ACVP keyGen", hashlib.sha256(ek + dk).hexdigest() == digest))
            ss, ct = _mlkem.encaps(level, ek, bytes(range(32)), impl=impl)
            ok = _mlkem.decaps(level, dk, ct, impl=impl) == ss
            bad = ct[:-1] + bytes([ct[-1] ^ 1])
            rej = hashlib.shake_256(dk[-32:] + bad).digest(32)
            ok = ok and _mlkem.decaps(level, dk, bad, impl=impl) == rej
            results.append((impl, f"ML-KEM-{level} encaps/decaps, implicit rejection", ok))
    return results


def keysearch():
    """The engines' own known-answer self-test (in C: the official PIPO vectors searched with
    unknown bits in every shape the search plan distinguishes) on every engine usable here, and
    the key of a search with 8 unknown bits. Returns [(implementation, test name, passed)]."""
    results = []
    prob = _keysearch.Problem(
        "pipo-64/128", "9722152EAD201D7ED2289477DD16C4??", [("2600271EF6528509", "27035DAD81296B6B")]
    )
    for impl in _keysearch.implementations():
        results.append((impl, "engine self-test (PIPO vectors, every search shape)", _keysearch.selftest(impl=impl)))
        hits, _ = prob.search(0, prob.keyspace, impl=impl)
        results.append((impl, "PIPO-64/128 8 unknown bits", [prob.key_hex(i) for i in hits] == [_PIPO_KAT[0][0]]))
    return results


# family -> its self-test; every family of nuri.FAMILIES has one (checked in tests/python/test_selftest.py)
FAMILY_TESTS = {"pipo": pipo, "fea": fea, "sparkle": sparkle, "mlkem": mlkem, "keysearch": keysearch}


def run(family="all"):
    """Runs the self-tests of one family (or all of nuri.FAMILIES).
    Returns [(family, implementation, test name, passed)]."""
    rows = []
    for fam in FAMILIES:
        if family in ("all", fam):
            rows += [(fam, impl, name, bool(ok)) for impl, name, ok in FAMILY_TESTS[fam]()]
    return rows
