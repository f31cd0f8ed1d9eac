"""nuri.mlkem's impl="hw": ML-KEM on the hardware core through nuri.hw, the same bytes as the C library.

Every test runs on the fake PYNQ board (hwfake.py: the core's micro-program interpreter behind the
DMA), and, with NURI_HW_SIM=1 (make check-hw), on the Verilator model of the RTL too. Known answers
first: the SHA-256 of the outputs for fixed seeds at 512/768/1024 (computed by the C library's ref
implementation), then hw against every C implementation on those and on random inputs, the key
checks (the degenerate-ek check is software's and runs before anything reaches the core), and that
hw is never chosen unless asked for.
"""

import hashlib
import os
import subprocess
import sys

import pytest

pytest.importorskip("numpy")

from hwfake import fake_device  # noqa: E402

from nuri import UnsupportedImplementation, hw, mlkem  # noqa: E402
from nuri.tools import NeedsCheckout  # noqa: E402

LEVELS = (512, 768, 1024)
SEED, M = bytes(range(64)), bytes(range(64, 96))
# SHA-256(ek || dk || K || c || K-bar) for d || z = 00 01 .. 3f, m = 40 41 .. 5f, K-bar the key that
# decapsulation gives for c with its last bit flipped (implicit rejection)
PINNED = {
    512: "30b02b0ebb15534f83d57c1257a7de95f24d350bbd920d7872a7c0beef8b9e06",
    768: "70475f99e9cd10a77393093084c475a0af130e189986d15b922c7a037ae371f5",
    1024: "8ad53dde1b1d92d641210d4d42d29314146cf72254ee1392df910f1f619d1cdd",
}
DEVICES = ["fake"] + (["verilator"] if os.environ.get("NURI_HW_SIM") else [])


@pytest.fixture(params=DEVICES)
def device(request, monkeypatch):
    """The kind of device impl="hw" runs on here; the fake board is made the default of every level."""
    monkeypatch.delenv(hw.DEVICE_ENV, raising=False)
    devs = {}
    if request.param == "fake":
        for level in LEVELS:
            devs[level] = fake_device(level)
            hw.set_default_device(devs[level])
    yield devs
    for level in devs:
        hw.clear_default_device(level)


def _outputs(level, impl):
    ek, dk = mlkem.keygen(level, SEED, impl=impl)
    ss, ct = mlkem.encaps(level, ek, M, impl=impl)
    bad = ct[:-1] + bytes([ct[-1] ^ 1])
    return ek, dk, ss, ct, mlkem.decaps(level, dk, ct, impl=impl), mlkem.decaps(level, dk, bad, impl=impl)


@pytest.mark.parametrize("level", LEVELS)
def test_fixed_seeds_give_the_c_librarys_bytes(device, level):
    ek, dk, ss, ct, ss2, rej = _outputs(level, "hw")
    assert ss2 == ss and rej != ss
    assert hashlib.sha256(ek + dk + ss + ct + rej).hexdigest() == PINNED[level]
    for impl in mlkem.implementations():
        assert _outputs(level, impl) == (ek, dk, ss, ct, ss2, rej), impl


@pytest.mark.parametrize("level", LEVELS)
def test_random_inputs_cross_between_hw_and_c(device, level):
    for _ in range(3):
        seed, m = os.urandom(64), os.urandom(32)
        ek, dk = mlkem.keygen(level, seed, impl="hw")
        assert (ek, dk) == mlkem.keygen(level, seed)
        ss, ct = mlkem.encaps(level, ek, m, impl="hw")
        assert (ss, ct) == mlkem.encaps(level, ek, m)
        # randomness drawn on each side, opened on the other
        ss_h, ct_h = mlkem.encaps(level, ek, impl="hw")
        assert mlkem.decaps(level, dk, ct_h) == ss_h
        ss_c, ct_c = mlkem.encaps(level, ek)
        assert mlkem.decaps(level, dk, ct_c, impl="hw") == ss_c
        bad = bytearray(ct_c)
        bad[os.urandom(1)[0] % len(bad)] ^= 1 << (os.urandom(1)[0] % 8)
        assert mlkem.decaps(level, dk, bytes(bad), impl="hw") == mlkem.decaps(level, dk, bytes(bad)) != ss_c


@pytest.mark.parametrize("level", LEVELS)
def test_key_objects_and_batches_on_hw(device, level):
    priv = getattr(mlkem, f"MLKEM{level}PrivateKey")
    pub = getattr(mlkem, f"MLKEM{level}PublicKey")
    key = priv.from_seed_bytes(SEED, impl="hw")
    assert key.implementation == "hw" and key.public_key().implementation == "hw"
    c_key = priv.from_seed_bytes(SEED)
    assert key.decapsulation_key_bytes() == c_key.decapsulation_key_bytes()
    ss, ct = key.public_key().encapsulate()
    assert c_key.decapsulate(ct) == ss == key.decapsulate(ct)
    ss, ct = c_key.public_key().encapsulate()
    assert key.decapsulate(ct) == ss
    ek = key.public_key().public_bytes_raw()
    assert pub.from_public_bytes(ek, impl="hw").implementation == "hw"
    loaded = priv.from_decapsulation_key_bytes(c_key.decapsulation_key_bytes(), impl="hw")
    assert loaded.implementation == "hw" and loaded.decapsulate(ct) == ss
    assert priv.generate(impl="hw").implementation == "hw"
    ms = [os.urandom(32) for _ in range(3)]
    eks = [ek, mlkem.keygen(level)[0], ek]
    got = mlkem.encaps_many(level, eks, ms, impl="hw")
    assert got == [mlkem.encaps(level, e, m) for e, m in zip(eks, ms)]
    dk = key.decapsulation_key_bytes()
    cts = [c for _, c in got[::2]] + [bytes(len(ct))]
    assert mlkem.decaps_many(level, dk, cts, impl="hw") == mlkem.decaps_many(level, dk, cts)
    assert mlkem.encaps_many(level, [], impl="hw") == [] and mlkem.decaps_many(level, dk, [], impl="hw") == []


def test_key_checks_on_hw(device):
    level = 768
    if device:
        core = device[level]._ip
        sent = core.commands
    ek, dk = mlkem.keygen(level, SEED)
    # degenerate (t-hat all zero): software refuses it; it never reaches the core, whose check is
    # FIPS 203's modulus check only
    weak = bytes(384 * 3) + ek[384 * 3 :]
    with pytest.raises(ValueError, match="degenerate ML-KEM-768 encapsulation key"):
        mlkem.encaps(level, weak, M, impl="hw")
    with pytest.raises(ValueError, match=r"degenerate ML-KEM-768 encapsulation key eks\[1\]"):
        mlkem.encaps_many(level, [ek, weak], impl="hw")
    with pytest.raises(ValueError, match="degenerate"):
        mlkem.MLKEM768PublicKey.from_public_bytes(weak, impl="hw")
    bad = bytearray(ek)
    bad[0], bad[1] = 0xFF, 0x0F  # a coefficient 4095 >= q
    with pytest.raises(ValueError, match="modulus check"):
        mlkem.encaps(level, bytes(bad), M, impl="hw")
    if device:
        assert core.commands == sent  # none of them reached the core
    bad_dk = bytearray(dk)
    bad_dk[768 * 3 + 40] ^= 1  # inside the stored H(ek): the core's hash check
    with pytest.raises(ValueError, match="hash check"):
        mlkem.decaps(level, bytes(bad_dk), bytes(1088), impl="hw")
    with pytest.raises(ValueError, match="must be 1088 bytes"):
        mlkem.decaps(level, dk, bytes(1087), impl="hw")
    with pytest.raises(ValueError, match="must be 64 bytes"):
        mlkem.keygen(level, bytes(63), impl="hw")


def test_hw_is_never_chosen_unless_asked(device):
    c_impls = mlkem.implementations()
    assert "hw" not in c_impls and mlkem.default_implementation() != "hw"
    assert mlkem.implementations(devices=True) == c_impls + ["hw"]
    assert mlkem.MLKEM768PrivateKey.generate().implementation != "hw"
    assert mlkem.implementation_name(768, impl="hw") == "hw"
    assert mlkem.implementation_name(768) == mlkem.default_implementation()
    # NURI_IMPL is the C library's: it cannot name the core
    env = dict(os.environ, NURI_IMPL="mlkem:hw")
    code = (
        "from nuri import mlkem, UnsupportedImplementation\n"
        "try:\n    mlkem.keygen(768)\nexcept UnsupportedImplementation:\n    print('refused')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "refused", out.stderr
    with pytest.raises(UnsupportedImplementation):
        mlkem.keygen(768, impl="hwx")


@pytest.fixture
def no_device(monkeypatch):
    """An installed wheel without the Verilator model, on no board."""
    monkeypatch.delenv(hw.DEVICE_ENV, raising=False)
    monkeypatch.setattr(hw, "backends", lambda: {})
    monkeypatch.setattr(hw, "_shared", {})
    monkeypatch.setattr(hw, "_chosen", {})


def test_without_a_device_one_clear_error(no_device, tmp_path, capsys):
    from nuri.cli.main import main

    assert not hw.available() and mlkem.implementations(devices=True) == mlkem.implementations()
    for call in (
        lambda: mlkem.keygen(768, impl="hw"),
        lambda: mlkem.MLKEM512PrivateKey.generate(impl="hw"),
        lambda: mlkem.MLKEM768PublicKey.from_public_bytes(mlkem.keygen(768)[0], impl="hw"),
    ):
        with pytest.raises(NeedsCheckout, match="no device for the ML-KEM hardware core") as e:
            call()
        assert "\n" not in str(e.value)
    pk, sk = tmp_path / "k.pk", tmp_path / "k.sk"
    assert main(["kem", "keygen", "--public", str(pk), "--secret", str(sk), "--kem-impl", "hw"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nuri kem: nuri.hw: no device") and err.count("\n") == 1, err
    assert not pk.exists() and not sk.exists()


def test_the_board_named_by_the_environment(monkeypatch):
    """NURI_HW_DEVICE=pynq:<bitfile>: the overlay of the level ({level} in the path), one per level,
    refused when it holds another level's core (pynq itself is faked)."""
    import types

    from hwfake import FakeOverlay, K, fake_allocate

    opened = []

    def overlay(path):
        opened.append(path)
        return FakeOverlay(K[int(path.split("mlkem")[1].split(".")[0])])

    monkeypatch.setitem(sys.modules, "pynq", types.SimpleNamespace(Overlay=overlay, allocate=fake_allocate))
    monkeypatch.setattr(hw, "_shared", {})
    monkeypatch.setattr(hw, "_chosen", {})
    monkeypatch.setenv(hw.DEVICE_ENV, "pynq:/boot/mlkem{level}.bit")
    assert hw.available()
    for level in LEVELS:
        assert mlkem.keygen(level, SEED, impl="hw") == mlkem.keygen(level, SEED)
        assert mlkem.keygen(level, SEED, impl="hw") == mlkem.keygen(level, SEED)
    assert opened == [f"/boot/mlkem{level}.bit" for level in LEVELS]
    monkeypatch.setattr(hw, "_shared", {})
    monkeypatch.setenv(hw.DEVICE_ENV, "pynq:/boot/mlkem512.bit")
    with pytest.raises(ValueError, match="holds an ML-KEM-512 core, not 768"):
        mlkem.keygen(768, impl="hw")
    monkeypatch.setenv(hw.DEVICE_ENV, "pynq")
    with pytest.raises(ValueError, match="needs the overlay"):
        mlkem.keygen(768, impl="hw")
