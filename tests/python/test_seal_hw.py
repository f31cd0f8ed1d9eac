"""Files and video sealed with keys the hardware core encapsulated: --kem-impl hw on nuri seal/open,
nuri kem and nuri video, crossed with the software path both ways (same bytes on the wire, so each
side opens the other's files).

The commands run in this process (nuri.cli.main) on the fake PYNQ board (hwfake.py) and, with
NURI_HW_SIM=1 (make check-hw), on the Verilator model; every test also counts the commands the
device ran, so a path that quietly stayed in software fails. The 10 s 1080p H.264 clip runs the
installed nuri command on the Verilator model with NURI_HW_VIDEO=1 (make check-hw-video).
"""

import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("numpy")
pytest.importorskip("nuri.aead", reason="nuri.aead (Schwaemm) is not in this build")
pytest.importorskip("cryptography.hazmat.primitives.hpke", reason="pyca/cryptography >= 50 is not installed")

from hwfake import fake_device  # noqa: E402

from nuri import hw  # noqa: E402
from nuri.cli.main import main  # noqa: E402

DEVICES = ["fake"] + (["verilator"] if os.environ.get("NURI_HW_SIM") else [])
NURI = os.path.join(os.path.dirname(sys.executable), "nuri")


@pytest.fixture(params=DEVICES)
def runs(request, monkeypatch):
    """The number of commands the core has run so far (a callable); the fake board is the default
    device of every level for the fake case."""
    monkeypatch.delenv(hw.DEVICE_ENV, raising=False)
    levels = []
    if request.param == "fake":
        for level in (512, 768, 1024):
            hw.set_default_device(fake_device(level))
            levels.append(level)
    count = [0]
    real = hw.Device.run

    def counted(self, op, data, out_len):
        count[0] += 1
        return real(self, op, data, out_len)

    monkeypatch.setattr(hw.Device, "run", counted)
    yield lambda: count[0]
    for level in levels:
        hw.clear_default_device(level)


def nuri(*argv):
    rc = main([str(a) for a in argv])
    assert rc == 0, argv
    return rc


def _keys(d, hw_keygen=True):
    """An ML-KEM-768 pair (seed form) and an ML-KEM-768+X25519 pair, made on the core or not."""
    impl = ["--kem-impl", "hw"] if hw_keygen else []
    nuri("kem", "keygen", "--seed", "--public", d / "m.pk", "--secret", d / "m.sk", *impl)
    nuri("kem", "keygen", "--kem", "mlkem768-x25519", "--public", d / "x.pk", "--secret", d / "x.sk", *impl)
    return d / "m.pk", d / "m.sk", d / "x.pk", d / "x.sk"


def test_files_cross_between_hw_and_software(runs, tmp_path):
    mpk, msk, xpk, xsk = _keys(tmp_path)
    assert runs() == 2  # both key pairs came from the core (X-Wing: its ML-KEM half)
    src = tmp_path / "in.bin"
    src.write_bytes(os.urandom(200_000))
    hw_flag = ["--kem-impl", "hw"]
    # hw seals to both recipients; software and hw open with each identity
    nuri("seal", "-q", "-r", mpk, "-r", xpk, "-i", src, "-o", tmp_path / "hw.sealed", *hw_flag)
    assert runs() == 4
    for n, (sk, flag) in enumerate([(msk, []), (xsk, []), (msk, hw_flag), (xsk, hw_flag)]):
        out = tmp_path / f"hw.{n}"
        before = runs()
        nuri("open", "-q", "--identity", sk, "-i", tmp_path / "hw.sealed", "-o", out, *flag)
        assert out.read_bytes() == src.read_bytes()
        # hw opening: the seed's keygen and the decaps on the core
        assert runs() - before == (2 if flag else 0), (sk, flag)
    # software seals, hw opens
    before = runs()
    nuri("seal", "-q", "-r", mpk, "-r", xpk, "-i", src, "-o", tmp_path / "sw.sealed")
    assert runs() == before
    for sk in (msk, xsk):
        nuri("open", "-q", "--identity", sk, "-i", tmp_path / "sw.sealed", "-o", tmp_path / "sw.out", *hw_flag)
        assert (tmp_path / "sw.out").read_bytes() == src.read_bytes()
        os.unlink(tmp_path / "sw.out")
    assert runs() == before + 4
    # age files: the mlkem768x25519 stanza's ML-KEM half on the core, both ways
    nuri("seal", "-q", "--format", "age", "-r", xpk, "-i", src, "-o", tmp_path / "hw.age", *hw_flag)
    nuri("open", "-q", "--identity", xsk, "-i", tmp_path / "hw.age", "-o", tmp_path / "hw.age.out")
    nuri("seal", "-q", "--format", "age", "-r", xpk, "-i", src, "-o", tmp_path / "sw.age")
    nuri("open", "-q", "--identity", xsk, "-i", tmp_path / "sw.age", "-o", tmp_path / "sw.age.out", *hw_flag)
    assert (tmp_path / "hw.age.out").read_bytes() == src.read_bytes() == (tmp_path / "sw.age.out").read_bytes()
    assert runs() == before + 4 + 1 + 2


def test_wrong_identity_on_hw(runs, tmp_path, capsys):
    mpk, msk, xpk, xsk = _keys(tmp_path, hw_keygen=False)
    other = tmp_path / "other"
    other.mkdir()
    _, osk, _, oxsk = _keys(other, hw_keygen=False)
    src = tmp_path / "in.bin"
    src.write_bytes(b"x" * 1000)
    nuri("seal", "-q", "-r", mpk, "-r", xpk, "-i", src, "-o", tmp_path / "f.sealed", "--kem-impl", "hw")
    for sk in (osk, oxsk):  # implicit rejection on the core: no stanza opens, exit 1, no output
        out = tmp_path / "never"
        assert main(["open", "-q", "--identity", str(sk), "-i", str(tmp_path / "f.sealed"), "-o", str(out)]) == 1
        assert (
            main(
                ["open", "-q", "--identity", str(sk), "-i", str(tmp_path / "f.sealed"), "-o", str(out)]
                + ["--kem-impl", "hw"]
            )
            == 1
        )
        assert not out.exists()
    err = capsys.readouterr().err
    assert err.count("not sealed to") == 4, err


def test_kem_command_crosses_at_every_level(runs, tmp_path):
    d = tmp_path
    for kem in ("mlkem512", "mlkem768", "mlkem1024", "mlkem768-x25519"):
        pk, sk = d / f"{kem}.pk", d / f"{kem}.sk"
        nuri("kem", "keygen", "--kem", kem, "--public", pk, "--secret", sk, "--kem-impl", "hw")
        for enc_flag, dec_flag in (("hw", "auto"), ("auto", "hw"), ("ref", "hw")):
            ct, ss, ss2 = d / f"{kem}.{enc_flag}.ct", d / f"{kem}.{enc_flag}.ss", d / f"{kem}.{enc_flag}.ss2"
            nuri("kem", "encaps", "--public", pk, "--ciphertext", ct, "--shared", ss, "--kem-impl", enc_flag)
            nuri("kem", "decaps", "--secret", sk, "--ciphertext", ct, "--shared", ss2, "--kem-impl", dec_flag)
            assert ss.read_bytes() == ss2.read_bytes() and len(ss.read_bytes()) == 32
    # keygen + 3 x (encaps and decaps; one of them on the core; X-Wing's decaps expands its seed too)
    assert runs() == 4 * (1 + 3) + 2


def test_kem_impl_usage_errors(runs, tmp_path, capsys):
    mpk, msk, xpk, xsk = _keys(tmp_path, hw_keygen=False)
    src = tmp_path / "in.bin"
    src.write_bytes(b"abc")
    key = tmp_path / "k.key"
    assert main(["keygen", "-o", str(key)]) == 0
    cases = [
        (["kem", "encaps", "--public", mpk, "--ciphertext", tmp_path / "c", "--shared", tmp_path / "s",
          "--kem-impl", "nope"], "--kem-impl nope: not an ML-KEM implementation usable here (usable: auto, "),
        (["seal", "-k", key, "-i", src, "-o", tmp_path / "o", "--kem-impl", "hw"], "--kem-impl applies to public-key"),
    ]  # fmt: skip
    for argv, msg in cases:
        assert main([str(a) for a in argv]) == 2
        err = capsys.readouterr().err
        assert msg in err and err.count("\n") == 1, err
    assert main(["seal", "-q", "-k", str(key), "-i", str(src), "-o", str(tmp_path / "v1")]) == 0
    argv = [
        "open",
        "-q",
        "-k",
        str(key),
        "-i",
        str(tmp_path / "v1"),
        "-o",
        str(tmp_path / "v1.out"),
        "--kem-impl",
        "hw",
    ]
    assert main(argv) == 2
    assert "--kem-impl applies to files sealed to public-key recipients" in capsys.readouterr().err
    assert not (tmp_path / "c").exists() and not (tmp_path / "o").exists() and not (tmp_path / "v1.out").exists()


needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed")


@needs_ffmpeg
def test_video_cross_between_hw_and_software(runs, tmp_path):
    from nuri_dev.hwdemo import make_clip

    clip = make_clip(str(tmp_path), "160x120", 2, 15)
    mpk, msk, xpk, xsk = _keys(tmp_path, hw_keygen=False)
    hw_flag = ["--kem-impl", "hw"]
    nuri("video", "seal", "-r", mpk, "-r", xpk, "-i", clip, "-o", tmp_path / "hw.d", "--segment-time", "1", *hw_flag)
    assert runs() == 2
    nuri("video", "seal", "-r", mpk, "-r", xpk, "-i", clip, "-o", tmp_path / "sw.d", "--segment-time", "1")
    assert runs() == 2
    outs = []
    for d in ("hw.d", "sw.d"):
        for sk in (msk, xsk):
            for flag in ([], hw_flag):
                out = tmp_path / f"{d}.{sk.name}.{len(flag)}.ts"
                nuri("video", "open", "--identity", sk, "-i", tmp_path / d, "-o", out, *flag)
                outs.append(out.read_bytes())
    assert len(outs[0]) > 10_000 and all(o == outs[0] for o in outs)  # ffmpeg's MPEG-TS of the clip, each time
    # hw opens: the header's stanza once to pick the identity, once to open (each: a seed's keygen + decaps)
    assert runs() == 2 + 2 * 2 * 4


@pytest.mark.skipif(
    not os.environ.get("NURI_HW_VIDEO"), reason="the 10 s 1080p clip on the Verilator model: make check-hw-video"
)
def test_1080p_clip_sealed_by_the_core_opens_everywhere(tmp_path):
    """The published system end to end: a 10 s 1080p H.264 clip sealed with `nuri video seal --kem-impl
    hw` (Verilator) opens with the software path and with --kem-impl hw, and the reverse; the installed
    nuri command, in processes of its own."""
    from nuri_dev.hwdemo import make_clip

    clip = make_clip(os.environ.get("NURI_HW_VIDEO_DIR") or str(tmp_path))  # 10 s, 1920x1080, 30 fps

    def cli(*argv):
        r = subprocess.run([NURI, *map(str, argv)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return r.stderr

    d = tmp_path
    cli("kem", "keygen", "--kem", "mlkem768-x25519", "--public", d / "x.pk", "--secret", d / "x.sk", "--kem-impl", "hw")
    cli("video", "seal", "-r", d / "x.pk", "-i", clip, "-o", d / "hw.d", "--kem-impl", "hw")
    cli("video", "seal", "-r", d / "x.pk", "-i", clip, "-o", d / "sw.d")
    outs = {}
    for src in ("hw.d", "sw.d"):
        for flag in ("auto", "hw"):
            out = d / f"{src}.{flag}.ts"
            cli("video", "open", "--identity", d / "x.sk", "-i", d / src, "-o", out, "--kem-impl", flag)
            outs[src, flag] = out.read_bytes()
    first = outs["hw.d", "auto"]
    assert len(first) > 1_000_000 and all(v == first for v in outs.values())
