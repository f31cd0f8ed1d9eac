"""nuri.sparkle: the permutation vectors for every implementation, argument checks."""

import pytest

from nuri import sparkle

# (state bytes, steps, input, output) from shared/vectors/sparkle/sparkle_permutation_vectors.txt
VECTORS = [
    (32, 7, "00" * 32, "5E32CE55527699B650F0533A366F54497B2DC386DBB844EE45B3A55D1FAF7257"),
    (32, 10, bytes(range(32)).hex(), "4A1C59A296FEAEF7529F19EC1E66341B4CA20EC870EE034331EF695776721E34"),
    (
        48,
        11,
        "00" * 48,
        "25BFC2F355DD53FC0654D6CA17F9AF9E8C64A53F48F2A2E1EEFC41583C7E933A442CF761DA73662BA5198416226B9EFF",
    ),
    (
        48,
        7,
        bytes(range(48)).hex(),
        "BBBE68FD4498E7F1CE2D595246B392123CD7FB4F296BE4153A73FE69C6537F2603095A32ED635C2D58BDA4F6A1238204",
    ),
    (
        64,
        12,
        bytes(range(64)).hex(),
        "97A3EBA469BC018F68E5C04B3A55E03A8F23FB390FDB1150B395D795FA8CEA17"
        "8D12C722911814BEF78DE3F0CC65EDD454AD58F0A8738F0046F1CCBDFB8D09F1",
    ),
    (
        64,
        8,
        "00" * 64,
        "47079EE474E39E9542EEDD6033FD351B97A62956420BA6D66492B6D2AD3D9FE8"
        "EA9C6A5F91EB1529255850FF01C4A5ED82798D09A0B02BC6EBD3A15A01C08500",
    ),
]


@pytest.mark.parametrize("impl", sparkle.implementations())
@pytest.mark.parametrize("size,steps,inp,out", VECTORS)
def test_vectors(impl, size, steps, inp, out):
    assert sparkle.permute(bytes.fromhex(inp), steps, impl=impl) == bytes.fromhex(out)


def test_default_and_steps():
    assert sparkle.default_implementation() in sparkle.implementations()
    s = bytes(range(48))
    # steps compose: 3 then 4 steps is not 7 (the step counter restarts), but 0 is the identity
    assert sparkle.permute(s, 0) == s
    assert sparkle.permute(s, 1) != s
    for impl in sparkle.implementations():
        for steps in (1, 2, 5, 13, 20):
            assert sparkle.permute(s, steps, impl=impl) == sparkle.permute(s, steps, impl="ref")


@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(40), bytes(65)])
def test_bad_state_length(bad):
    with pytest.raises(ValueError, match="32, 48 or 64"):
        sparkle.permute(bad, 7)


def test_bad_steps_and_types():
    with pytest.raises(ValueError):
        sparkle.permute(bytes(32), -1)
    with pytest.raises(TypeError):
        sparkle.permute("00" * 32, 7)
    with pytest.raises(ValueError):
        sparkle.permute(bytes(32), 7, impl="nope")
