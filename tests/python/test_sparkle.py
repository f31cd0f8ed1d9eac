"""nuri.sparkle: the permutation vectors for every implementation, argument checks."""

import pytest

from nuri import sparkle

from vectors import VECTORS, passed, records

PERM = list(records(VECTORS / "sparkle" / "sparkle_permutation_vectors.txt"))


@pytest.mark.parametrize("impl", sparkle.implementations())
def test_vectors(impl):
    """The 12 permutation vectors: SPARKLE256/384/512, slim and big step counts, two inputs each."""
    for r in PERM:
        steps = int(r["Steps"].split()[0])
        assert len(bytes.fromhex(r["InBytes"])) == 8 * int(r["Branches"])
        got = sparkle.permute(bytes.fromhex(r["InBytes"]), steps, impl=impl)
        assert got == bytes.fromhex(r["OutBytes"]), (r["Count"], impl)
    assert len(PERM) == 12
    passed(__name__, "sparkle_permutation_vectors.txt", len(PERM))


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
